/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-scope-blocks.c: per-name sums per block of events, added up per scope. */
#include "sl-scope-blocks.h"

#include <string.h>

/* The keys block [from, to) touched, their sums moved into @out, and the
 * table's slots emptied again for the next block. */
static void
take_block (SlStatsTable *table, GArray *out, const guint32 *ids, const guint32 *key_of,
            guint n_ids, guint from, guint to)
{
  for (guint i = from; i < to; i++)
    {
      guint32 id = MIN (ids[i], n_ids - 1);
      SlStatsAcc *a = &table->acc[key_of[id]];

      if (a->count == 0)
        continue;
      SlScopeKeyAcc e = { key_of[id], *a };
      g_array_append_val (out, e);
      memset (a, 0, sizeof *a);
    }
}

void
sl_scope_blocks_build (SlScopeBlocks *blocks, guint size, SlStatsTable *table, const SlSpans *spans,
                       guint lo, guint hi, const guint32 *ids, const guint32 *key_of, guint n_ids)
{
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (SlScopeKeyAcc));

  blocks->lo = lo;
  blocks->size = size;
  blocks->n_blocks = (hi - lo) / size;   /* a last partial block is walked */
  blocks->first = g_new (guint, blocks->n_blocks + 1);
  for (guint b = 0; b < blocks->n_blocks; b++)
    {
      guint from = lo + b * size, to = from + size;

      blocks->first[b] = entries->len;
      sl_stats_table_visit_spans (table, spans, from, to, ids, key_of, n_ids, NULL);
      take_block (table, entries, ids, key_of, n_ids, from, to);
    }
  blocks->first[blocks->n_blocks] = entries->len;
  blocks->entries = (SlScopeKeyAcc *) g_array_free (g_steal_pointer (&entries), FALSE);
}

void
sl_scope_blocks_clear (SlScopeBlocks *blocks)
{
  g_clear_pointer (&blocks->first, g_free);
  g_clear_pointer (&blocks->entries, g_free);
  blocks->n_blocks = 0;
}

/* Sum of (x - ref) of @a: its total less count ref, modulo 2^128. */
static unsigned __int128
dev_sum (const SlStatsAcc *a)
{
  unsigned __int128 total = (unsigned __int128) (__int128) a->total
                            + ((unsigned __int128) (__int128) a->total_wraps << 64);

  return total - (unsigned __int128) a->count * (unsigned __int128) (__int128) a->ref;
}

/* @b into @a as if @b's values had been visited after @a's: count, total
 * (with its wraps), min, max exactly; the sum of squares moved to @a's
 * reference value, (x - ra)^2 = (x - rb)^2 + 2 d (x - rb) + d^2 with
 * d = rb - ra, modulo 2^128.  The standard deviation reads n S2 - S1^2,
 * which is exact modulo 2^128 whatever the reference, so it comes out the
 * same as one walk's while it fits (see finish_one in sl-stats.c). */
void
sl_scope_acc_merge (SlStatsAcc *a, const SlStatsAcc *b)
{
  unsigned __int128 d, s2;

  if (a->count == 0)
    {
      *a = *b;
      return;
    }
  d = (unsigned __int128) (__int128) _sl_stats_dev (b->ref, a->ref);
  s2 = (unsigned __int128) b->sumsq + 2 * d * dev_sum (b) + (unsigned __int128) b->count * d * d;
  a->sumsq = (__int128) ((unsigned __int128) a->sumsq + s2);
  a->sumsq_wraps += b->sumsq_wraps;
  a->count += b->count;
  _sl_sum_add (&a->total, &a->total_wraps, b->total);
  a->total_wraps += b->total_wraps;
  a->min = MIN (a->min, b->min);
  a->max = MAX (a->max, b->max);
}

void
sl_scope_blocks_add (const SlScopeBlocks *blocks, SlStatsTable *table, const SlSpans *spans,
                     guint first, guint last, const guint32 *ids, const guint32 *key_of, guint n_ids)
{
  /* whole blocks inside [first, last): [b0, b1) */
  guint size = blocks->size;
  guint b0 = (first - blocks->lo + size - 1) / size;
  guint b1 = MIN ((last - blocks->lo) / size, blocks->n_blocks);

  if (first >= last)
    return;
  if (b0 >= b1)
    {
      sl_stats_table_visit_spans (table, spans, first, last, ids, key_of, n_ids, NULL);
      return;
    }
  sl_stats_table_visit_spans (table, spans, first, blocks->lo + b0 * size, ids, key_of,
                              n_ids, NULL);
  for (guint i = blocks->first[b0]; i < blocks->first[b1]; i++)
    sl_scope_acc_merge (&table->acc[blocks->entries[i].key], &blocks->entries[i].acc);
  sl_stats_table_visit_spans (table, spans, blocks->lo + b1 * size, last, ids, key_of,
                              n_ids, NULL);
}
