/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-profile-private.h: what the loader may touch of the model while it
 * builds a profile (creation, clearing arrays, string and span building).
 * Nothing outside analysis/loader/ and the model itself includes it. */
#pragma once

#include "sl-profile.h"
#include "sl-arena.h"
#include "sl-spans-private.h"
#include "sl-strings-private.h"

G_BEGIN_DECLS

SlProfile  *_sl_profile_new           (const char *path);
void        _sl_kernels_clear         (SlKernels *kernels);
void        _sl_copies_clear          (SlCopies *copies);
void        _sl_nvtx_ranges_clear     (SlNvtxRanges *ranges);
void        _sl_nvtx_marks_clear      (SlNvtxMarks *marks);
/* Turns the ranges' load_color/load_domain (freed) into styles
 * (sl-nvtx-styles.c); without them, the ranges have none. */
void        _sl_nvtx_ranges_build_styles (SlNvtxRanges *ranges);
/* Packs api->corr into corr_base/corr_delta/corr_far and frees it. */
void        _sl_api_corr_pack         (SlApiCalls *api);

/* The profile's own arena; arenas it shares with others are added with
 * _sl_profile_share_arena (a reference is taken). */
SlArena    *_sl_profile_arena         (SlProfile *profile);
void        _sl_profile_share_arena   (SlProfile *profile, SlArena *arena);
/* Hands the arrays of a heap-built profile to arenas: the streams' data as
 * read from the file (spans, functions, copies), the kernel functions and
 * the GPUs' names and stream lists to @arena; the rest (links to API
 * calls, the CPU side, the struct arrays) to the profile's own arena.
 * Call each once, when it is built. */
void        _sl_profile_adopt_gpu_data (SlProfile *profile, SlArena *arena);
void        _sl_profile_adopt_own      (SlProfile *profile);
/* The descriptor of the file the profile was read from, kept open by
 * @owner (released with @destroy along with the profile's own arena), for
 * details read later. */
void        _sl_profile_set_source     (SlProfile *profile, int fd, gpointer owner, GDestroyNotify destroy);
/* A subset's own GPU work and struct arrays. */
void        _sl_profile_adopt_subset   (SlProfile *subset);

/* A globalTid packs the pid in bits 24..47 and the tid in bits 0..23. */
static inline guint32
_sl_pid_of (guint64 global_id)
{
  return (guint32) ((global_id >> 24) & 0xFFFFFF);
}

static inline guint32
_sl_tid_of (guint64 global_tid)
{
  return (guint32) (global_tid & 0xFFFFFF);
}

G_END_DECLS
