/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-attribution.h: which NVTX range each CUDA API call (and so each GPU
 * operation it launched) belongs to, and the GPU projection of every range.
 *
 * Derived from the immutable profile once, on first use, and cached for the
 * life of the profile; safe to call from several threads.
 *
 * Push/pop ranges get a "global range id": the ranges of thread t are
 * range_base[t] .. range_base[t + 1] - 1, in the order of
 * profile->threads[t].nvtx (by depth, then start).  Start/end ranges are
 * numbered the same way with se_base.
 *
 * GPU work means kernels, memcpy and memset.  A range's GPU projection is the
 * first start to the last end of the GPU work launched by API calls that start
 * inside it on its thread (nested ranges included). */
#pragma once

#include <glib.h>
#include "sl-profile.h"
#include "sl-filter.h"

G_BEGIN_DECLS

#define SL_NO_GPU_START G_MAXINT64
#define SL_NO_GPU_END   G_MININT64

typedef struct {
  guint    n_threads;
  guint    n_ranges;        /* push/pop ranges over all threads */
  guint   *range_base;      /* n_threads + 1 */
  guint32 *api_range;       /* per API call: innermost enclosing push/pop range (global id) or SL_NONE */
  gint64  *gpu_start;       /* per push/pop range, SL_NO_GPU_START when it launched nothing */
  gint64  *gpu_end;
  guint    n_se_ranges;     /* start/end ranges */
  guint   *se_base;         /* n_threads + 1 */
  gint64  *se_gpu_start;
  gint64  *se_gpu_end;
  gint64  *api_max_dur;     /* per thread: the longest API call, bounds overlap searches */
  guint   *kernel_base;     /* per stream: offset of its kernels in kernel_range (n_streams + 1) */
  guint32 *kernel_range;    /* per kernel: api_range of its launching call, or SL_NONE */
} SlAttribution;

/* (transfer none): computed once, kept with the profile (sl_profile_get_derived). */
const SlAttribution *sl_attribution_get           (const SlProfile *profile);

/* The thread of a global push/pop range id, and its index in that thread. */
guint32              sl_attribution_range_thread  (const SlAttribution *attr, guint32 range, guint *local);

/* GPU projections restricted to the GPUs of @filter (its other parts are
 * ignored).  When @filter chooses no GPU the cached arrays are returned and
 * *owned is FALSE; otherwise new arrays (free them with g_free). */
void                 sl_attribution_project       (const SlProfile *profile, const SlFilter *filter,
                                                   gint64 **gpu_start, gint64 **gpu_end,
                                                   gint64 **se_gpu_start, gint64 **se_gpu_end,
                                                   gboolean *owned);

/* The innermost push/pop range of @thread containing time @t (depth-first
 * descent by binary search), as a local index, or SL_NONE. */
guint32              sl_nvtx_innermost_at         (const SlNvtxRanges *ranges, gint64 t);

G_END_DECLS
