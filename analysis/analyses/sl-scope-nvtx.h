/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-scope-nvtx.h: the NVTX part of the scope index (sl-scope-index.h).
 *
 * The Summary's NVTX table (sl_nvtx_summary_compute_sums with grouped
 * names) is a sum over ranges that start inside the scope of per-name
 * statistics of their CPU durations and of their GPU projections.  A
 * range's projection (its kernels' first start to last end, see
 * sl-attribution.h) does not depend on the time window, only on a GPU
 * filter, so without one every part is a sum: kept per block of each
 * row (one depth of one thread's push/pop or start/end ranges, in start
 * order), a scope adds whole blocks and walks the ranges of its two edge
 * blocks of each row. */
#pragma once

#include "sl-filter.h"
#include "sl-nvtx-summary.h"
#include "sl-profile.h"

G_BEGIN_DECLS

typedef struct _SlScopeNvtx SlScopeNvtx;

/* Blocks of @size ranges; NULL when a row of ranges is not in start order
 * (the summary then takes the analysis). (transfer full) */
SlScopeNvtx   *sl_scope_nvtx_build   (const SlProfile *profile, guint size);
void           sl_scope_nvtx_free    (SlScopeNvtx *nvtx);
/* sl_nvtx_summary_compute_sums (@profile, @filter, @top, FALSE); NULL when
 * the blocks cannot answer: a GPU filter (it changes the projections) or
 * sums too spread for the exact standard deviation. */
SlNvtxSummary *sl_scope_nvtx_summary (const SlScopeNvtx *nvtx, const SlProfile *profile,
                                      const SlFilter *filter, guint top);

G_END_DECLS
