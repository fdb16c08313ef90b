/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-profile-subset.c: a profile that shows only part of another's GPU work.
 *
 * Scopes that are not time windows (GPU work launched inside some NVTX
 * ranges, of some kernel categories, on some streams) cannot be answered by
 * a binary search on start times.  Instead of teaching every analysis a new
 * predicate, a scoped question runs on a subset: the same profile with only
 * the chosen kernels, copies and memsets, everything CPU-side shared with
 * the parent, which it keeps alive. */
#include "sl-profile-private.h"

#include <string.h>

typedef struct {
  const SlProfile *parent;
  guint32          stream;
  SlWorkKeepFunc   keep;
  gpointer         data;
} Chooser;

static gboolean
chosen (const Chooser *c, SlWorkKind kind, guint index)
{
  return c->keep (c->parent, c->stream, kind, index, c->data);
}

static guint
count_chosen (const Chooser *c, SlWorkKind kind, guint n)
{
  guint kept = 0;

  for (guint i = 0; i < n; i++)
    kept += chosen (c, kind, i) ? 1 : 0;
  return kept;
}

/* Room for @n spans; durations of 4.29 s and more go to the side table as
 * _sl_spans_append() puts them. */
static void
spans_reserve (SlSpans *spans, guint n)
{
  guint capacity = 0;

  _sl_spans_reserve (spans, &capacity, MAX (n, 1));
}

static void
add_unlinked (SlKernels *out, guint32 corr)
{
  out->unlinked_index = g_renew (guint32, out->unlinked_index, out->n_unlinked + 1);
  out->unlinked_corr = g_renew (guint32, out->unlinked_corr, out->n_unlinked + 1);
  out->unlinked_index[out->n_unlinked] = out->spans.n - 1;
  out->unlinked_corr[out->n_unlinked] = corr;
  out->n_unlinked++;
}

static void
copy_kernels (const Chooser *c, const SlKernels *in, SlKernels *out)
{
  guint n = count_chosen (c, SL_WORK_KERNEL, in->spans.n);

  spans_reserve (&out->spans, n);
  out->func = g_new (guint32, MAX (n, 1));
  out->api = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < in->spans.n; i++)
    {
      guint k = out->spans.n;

      if (!chosen (c, SL_WORK_KERNEL, i))
        continue;
      _sl_spans_append (&out->spans, in->spans.start[i], sl_spans_dur (&in->spans, i));
      out->func[k] = in->func[i];
      out->api[k] = in->api[i];
      if (in->api[i] == SL_NONE)
        add_unlinked (out, sl_kernels_corr (c->parent, in, i));
    }
}

static void
copy_copies (const Chooser *c, SlWorkKind kind, const SlCopies *in, SlCopies *out)
{
  guint n = count_chosen (c, kind, in->spans.n);

  spans_reserve (&out->spans, n);
  out->kind = g_new (guint8, MAX (n, 1));
  out->bytes = g_new (guint64, MAX (n, 1));
  out->corr = g_new (guint32, MAX (n, 1));
  out->api = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < in->spans.n; i++)
    {
      guint k = out->spans.n;

      if (!chosen (c, kind, i))
        continue;
      _sl_spans_append (&out->spans, in->spans.start[i], sl_spans_dur (&in->spans, i));
      out->kind[k] = in->kind[i];
      out->bytes[k] = in->bytes[i];
      out->corr[k] = in->corr[i];
      out->api[k] = in->api[i];
    }
}

static void
count_stream (SlProfile *subset, const SlStream *st)
{
  SlGpu *gpu = &subset->gpus[st->gpu];

  subset->counts.kernels += st->kernels.spans.n;
  subset->counts.memcpy += st->memcpy.spans.n;
  subset->counts.memset += st->memset.spans.n;
  for (guint i = 0; i < st->kernels.spans.n; i++)
    subset->counts.kernels_linked += st->kernels.api[i] != SL_NONE;
  gpu->n_kernels += st->kernels.spans.n;
  gpu->has_activity |= st->kernels.spans.n + st->memcpy.spans.n + st->memset.spans.n > 0;
}

/* The subset's own GPU side: streams with only the chosen work, GPUs (their
 * names and stream lists shared) with their counts recomputed. */
static void
choose_gpu_work (SlProfile *subset, const SlProfile *parent, SlWorkKeepFunc keep, gpointer data)
{
  subset->gpus = g_memdup2 (parent->gpus, sizeof (SlGpu) * MAX (parent->n_gpus, 1));
  for (guint g = 0; g < parent->n_gpus; g++)
    {
      subset->gpus[g].n_kernels = 0;
      subset->gpus[g].has_activity = FALSE;
    }
  subset->streams = g_new0 (SlStream, MAX (parent->n_streams, 1));
  for (guint s = 0; s < parent->n_streams; s++)
    {
      const SlStream *in = &parent->streams[s];
      SlStream *out = &subset->streams[s];
      Chooser c = { parent, s, keep, data };

      *out = (SlStream) { in->pid, in->device, in->context, in->stream, in->gpu };
      copy_kernels (&c, &in->kernels, &out->kernels);
      copy_copies (&c, SL_WORK_MEMCPY, &in->memcpy, &out->memcpy);
      copy_copies (&c, SL_WORK_MEMSET, &in->memset, &out->memset);
      count_stream (subset, out);
    }
}

SlProfile *
sl_profile_new_subset (SlProfile      *parent,
                       SlWorkKeepFunc  keep,
                       gpointer        data)
{
  SlProfile *subset;

  g_return_val_if_fail (parent != NULL, NULL);
  g_return_val_if_fail (keep != NULL, NULL);

  subset = g_new0 (SlProfile, 1);
  /* the CPU side, strings and lookups are the parent's, not copied */
  *subset = *parent;
  subset->ref_count = 1;
  subset->arenas = g_ptr_array_new_with_free_func ((GDestroyNotify) _sl_arena_unref);
  g_ptr_array_add (subset->arenas, _sl_arena_new ());
  subset->parent = sl_profile_ref (parent);
  subset->derived = NULL;
  subset->api_kept = subset->ranges_kept = NULL;
  subset->ranges_base = NULL;
  g_rec_mutex_init (&subset->derived_lock);
  subset->path = g_strdup (parent->path);
  subset->nsys_version = g_strdup (parent->nsys_version);
  subset->schema_version = g_strdup (parent->schema_version);
  subset->counts.kernels = subset->counts.memcpy = subset->counts.memset = 0;
  subset->counts.kernels_linked = 0;
  choose_gpu_work (subset, parent, keep, data);
  _sl_profile_adopt_subset (subset);
  return subset;
}

void
sl_profile_subset_set_cpu_scope (SlProfile *subset, guint8 *api_kept, guint8 *ranges_kept)
{
  g_return_if_fail (subset != NULL && subset->parent != NULL);

  g_free (subset->api_kept);
  g_free (subset->ranges_kept);
  g_clear_pointer (&subset->ranges_base, g_free);
  subset->api_kept = api_kept;
  subset->ranges_kept = ranges_kept;
  if (ranges_kept == NULL)
    return;
  subset->ranges_base = g_new (guint, subset->n_threads + 1);
  subset->ranges_base[0] = 0;
  for (guint t = 0; t < subset->n_threads; t++)
    subset->ranges_base[t + 1] = subset->ranges_base[t] + subset->threads[t].nvtx.spans.n;
}

gboolean
sl_profile_api_kept (const SlProfile *profile, guint index)
{
  return profile->api_kept == NULL || profile->api_kept[index];
}

gboolean
sl_profile_range_kept (const SlProfile *profile, guint thread, guint index)
{
  return profile->ranges_kept == NULL || profile->ranges_kept[profile->ranges_base[thread] + index];
}
