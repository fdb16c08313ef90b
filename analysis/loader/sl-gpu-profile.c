/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gpu-profile.c: the profile a staged load hands out as soon as the
 * GPU tables are in, so that the application draws the GPU rows while the
 * CPU side (API calls, NVTX) is still read.
 *
 * It shares the streams' data with the complete profile through the
 * loader's GPU arena (no copy); what differs is its own: struct arrays,
 * links to API calls (none yet: one shared array of SL_NONE), processes
 * without threads, and a copy of the names taken before NVTX added any. */
#include "sl-loader-private.h"

#include <string.h>

static guint
longest_stream (const SlProfile *profile)
{
  guint n = 1;

  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *st = &profile->streams[s];
      n = MAX (n, MAX (st->kernels.spans.n, MAX (st->memcpy.spans.n, st->memset.spans.n)));
    }
  return n;
}

/* The complete profile's streams, with no API call linked. */
static void
copy_streams (SlProfile *gpu, const SlProfile *full)
{
  guint n = longest_stream (full);
  guint32 *unlinked = _sl_arena_adopt (_sl_profile_arena (gpu), g_new (guint32, n));

  memset (unlinked, 0xff, (gsize) n * sizeof (guint32));
  gpu->n_streams = full->n_streams;
  gpu->streams = g_memdup2 (full->streams, MAX (full->n_streams, 1u) * sizeof (SlStream));
  for (guint s = 0; s < gpu->n_streams; s++)
    {
      SlStream *st = &gpu->streams[s];
      st->kernels.api = unlinked;
      st->kernels.n_unlinked = 0;
      st->kernels.unlinked_index = st->kernels.unlinked_corr = NULL;
      st->memcpy.api = unlinked;
      st->memset.api = unlinked;
      gpu->counts.kernels += st->kernels.spans.n;
      gpu->counts.memcpy += st->memcpy.spans.n;
      gpu->counts.memset += st->memset.spans.n;
    }
  _sl_arena_adopt (_sl_profile_arena (gpu), gpu->streams);
}

static void
copy_identity (SlProfile *gpu, const SlProfile *full)
{
  gpu->nsys_version = g_strdup (full->nsys_version);
  gpu->schema_version = g_strdup (full->schema_version);
  gpu->session_utc_ns = full->session_utc_ns;
  gpu->n_funcs = full->n_funcs;
  gpu->funcs = full->funcs;
  gpu->n_gpus = full->n_gpus;
  gpu->gpus = _sl_arena_adopt (_sl_profile_arena (gpu),
                               g_memdup2 (full->gpus, MAX (full->n_gpus, 1u) * sizeof (SlGpu)));
}

static void
adopt_processes (SlProfile *gpu)
{
  SlArena *arena = _sl_profile_arena (gpu);

  for (guint p = 0; p < gpu->n_processes; p++)
    _sl_arena_adopt (arena, gpu->processes[p].threads);
  _sl_arena_adopt (arena, gpu->processes);
}

void
_sl_loader_hand_out_gpu (SlLoader *loader)
{
  const SlProfile *full = loader->profile;
  SlProfile *gpu = _sl_profile_new (full->path);

  gpu->parts = loader->parts & SL_PARTS_GPU;
  _sl_strings_free (gpu->strings);
  gpu->strings = g_steal_pointer (&loader->gpu_strings);
  _sl_profile_share_arena (gpu, loader->gpu_arena);
  _sl_profile_set_source (gpu, _sl_source_fd (loader->source), _sl_source_ref (loader->source),
                          (GDestroyNotify) _sl_source_unref);
  copy_identity (gpu, full);
  copy_streams (gpu, full);
  _sl_assemble_processes (gpu, loader->process_names);
  adopt_processes (gpu);
  _sl_assemble_time_range (gpu);
  _sl_strings_seal (gpu->strings);
  loader->gpu_ready (gpu, loader->gpu_ready_data);
  sl_profile_unref (gpu);
}
