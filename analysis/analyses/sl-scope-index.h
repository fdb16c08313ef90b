/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-scope-index.h: what the Summary page of any scope is combined from,
 * built once per profile (issue 11, item 3).
 *
 * The kernels and CUDA API tables of a scope are sums of per-name
 * statistics: the index keeps them per block of SL_SCOPE_BLOCK events of
 * each stream (kernels, by short name) and each thread (API calls), so a
 * scope adds whole blocks and walks only the events of its two edge blocks,
 * taking exactly the events `--range` takes (start inside [a, b)).  The
 * categories are sums of the kernel keys, NVTX ranges have blocks of their
 * own (sl-scope-nvtx.h), and per GPU busy time, gaps and overlap come from
 * the whole profile's unions (sl-scope-busy.h).  Only the iterations are
 * not in the index (sl-scope-summary.c keeps the whole profile's).
 *
 * Built off the main thread by the app's loading worker, else by whoever
 * asks first; immutable once built, freed with the profile. */
#pragma once

#include "sl-api-summary.h"
#include "sl-category-summary.h"
#include "sl-gaps.h"
#include "sl-overlap.h"
#include "sl-nvtx-summary.h"
#include "sl-filter.h"
#include "sl-kernel-summary.h"
#include "sl-profile.h"

G_BEGIN_DECLS

#define SL_SCOPE_BLOCK 65536   /* events a block: 10 M kernels, ~150 blocks */

typedef struct _SlScopeIndex SlScopeIndex;

/* The index of @profile, built on first use and kept with it; blocks until
 * another thread's build is done.  (transfer none) */
SlScopeIndex      *sl_scope_index_get    (const SlProfile *profile);
/* From one sum of the kernel blocks: *@kernels, sl_kernel_summary_compute_sums
 * (@profile, @filter, SL_NAMES_SHORT, @top), NULL when the index cannot
 * answer exactly (durations spread over more than 2^62 ns: use the
 * analysis); and *@categories, sl_category_summary_compute (@profile,
 * @filter, NULL, SL_NAMES_SHORT, @top_names): a short name's category is
 * fixed, NULL when two functions of one short name fall in different ones. */
void               sl_scope_index_kernels (const SlScopeIndex *index, const SlProfile *profile,
                                           const SlFilter *filter, guint top, guint top_names,
                                           SlKernelSummary **kernels, SlCategorySummary **categories);
/* sl_nvtx_summary_compute_sums (@profile, @filter, @top, FALSE) from the
 * NVTX blocks (sl-scope-nvtx.h); NULL when they cannot answer. */
SlNvtxSummary     *sl_scope_index_nvtx    (const SlScopeIndex *index, const SlProfile *profile,
                                           const SlFilter *filter, guint top);
/* The Summary's part of sl_gaps_compute_with_overlap (@profile, @filter, 0,
 * @top, @overlap) from the per GPU unions (sl-scope-busy.h: which fields it
 * fills); NULL when they cannot answer (a process filter). */
SlGaps            *sl_scope_index_gaps    (const SlScopeIndex *index, const SlProfile *profile,
                                           const SlFilter *filter, guint top, SlOverlap **overlap);
/* sl_api_summary_compute_sums (@profile, @filter, @top), the same way. */
SlApiSummary      *sl_scope_index_api     (const SlScopeIndex *index, const SlProfile *profile,
                                           const SlFilter *filter, guint top);

/* Tests: blocks of @size events in indexes built from now on (0: the
 * default), so that small profiles have many blocks. */
void               _sl_scope_index_set_block_size (guint size);

G_END_DECLS
