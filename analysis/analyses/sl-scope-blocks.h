/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-scope-blocks.h: per-name statistics per block of events in start
 * order, for the scope index (sl-scope-index.h). */
#pragma once

#include "sl-stats.h"

G_BEGIN_DECLS

typedef struct {
  guint32    key;
  SlStatsAcc acc;
} SlScopeKeyAcc;

/* The blocks of one track (a stream's kernels, a thread's API calls): block
 * b covers events [lo + b size, lo + (b + 1) size) of the track, its names
 * are entries[first[b], first[b + 1]). */
typedef struct {
  guint          lo;
  guint          size;
  guint          n_blocks;
  guint         *first;
  SlScopeKeyAcc *entries;
} SlScopeBlocks;

/* Blocks of spans[lo, hi), span i under key key_of[ids[i]] (see
 * sl_stats_table_visit_spans; the keys must all be assigned); @table is
 * an empty first-pass table of every key, left empty. */
void sl_scope_blocks_build (SlScopeBlocks *blocks, guint size, SlStatsTable *table, const SlSpans *spans,
                            guint lo, guint hi, const guint32 *ids, const guint32 *key_of,
                            guint n_ids);
void sl_scope_blocks_clear (SlScopeBlocks *blocks);
/* Adds spans[first, last) of the track (lo <= first <= last <= its end) to
 * @table (in its first pass): whole blocks from the index, the rest visited. */
void sl_scope_blocks_add   (const SlScopeBlocks *blocks, SlStatsTable *table, const SlSpans *spans,
                            guint first, guint last, const guint32 *ids, const guint32 *key_of,
                            guint n_ids);

/* @b into @a as if @b's values had been visited after @a's (first-pass
 * accumulators; the standard deviation comes out as one walk's). */
void sl_scope_acc_merge    (SlStatsAcc *a, const SlStatsAcc *b);

G_END_DECLS
