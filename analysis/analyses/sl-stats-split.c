/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-stats-split.c: two parts of a statistics pass at once. */
#include "sl-stats-split.h"

#include <string.h>

#define SPLIT_MIN_VALUES (1 << 18)   /* fewer: a thread costs more than it saves */
#define SPLIT_MAX_COLLECT (1 << 24)  /* a second collect buffer at most this big (192 MB) */

/* Whether this pass of @table can be split: the first (sums per key, and
 * its log-scale bins), or a pass where every key only collects the values
 * inside one window (the usual last).  Histogram passes stay whole. */
static gboolean
can_split (const SlStatsTable *table)
{
  if (table->phase == 1)
    return TRUE;
  return table->win != NULL && table->g_cap <= SPLIT_MAX_COLLECT;
}

/* A private table for a part: the caller's keys and windows, empty sums
 * and bins, its own collect buffer. */
static void
part_init (SlStatsTable *part, const SlStatsTable *table)
{
  memset (part, 0, sizeof *part);
  part->is_part = TRUE;
  part->n_keys = table->n_keys;
  part->phase = table->phase;
  part->medians = table->medians;
  if (table->phase == 1)
    {
      part->acc = g_new0 (SlStatsAcc, MAX (table->n_keys, 1));
      if (table->fused != NULL)
        part->fused = g_new0 (guint32, (gsize) table->n_keys * SL_STATS_FUSED_STRIDE);
    }
  else
    {
      part->win = table->win;       /* read only */
      part->g_cap = table->g_cap;
      part->gkey = g_new (guint32, table->g_cap + 1);
      part->gval = g_new (gint64, table->g_cap + 1);
    }
}

static void
part_clear (SlStatsTable *part)
{
  g_free (part->acc);
  g_free (part->fused);
  g_free (part->gkey);
  g_free (part->gval);
  memset (part, 0, sizeof *part);
}

static void
merge (SlStatsTable *table, const SlStatsTable *part)
{
  if (table->phase == 1)
    {
      for (guint k = 0; k < table->n_keys; k++)
        _sl_stats_acc_merge (&table->acc[k], &part->acc[k]);
      if (table->fused != NULL)
        for (gsize i = 0, n = (gsize) table->n_keys * SL_STATS_FUSED_STRIDE; i < n; i++)
          table->fused[i] += part->fused[i];
      return;
    }
  /* the order of collected values does not matter to the selection */
  gsize n = MIN (part->g_n, table->g_cap - table->g_n);
  memcpy (table->gkey + table->g_n, part->gkey, n * sizeof (guint32));
  memcpy (table->gval + table->g_n, part->gval, n * sizeof (gint64));
  table->g_n += n;
}

typedef struct {
  SlStatsTable    *table;
  SlStatsTable     part;
  SlStatsVisitPart visit;
  gpointer         data;
} Split;

static void
run_part (guint part, guint n_parts, gpointer data)
{
  Split *split = data;

  split->visit (part == 0 ? split->table : &split->part, part, n_parts, split->data);
}

void
sl_stats_table_visit_split (SlStatsTable *table, gsize n_values, SlStatsVisitPart visit, gpointer data)
{
  Split split = { table, { 0 }, visit, data };

  if (sl_analysis_threads () < 2 || n_values < SPLIT_MIN_VALUES || !can_split (table))
    {
      visit (table, 0, 1, data);
      return;
    }
  part_init (&split.part, table);
  sl_parallel_run (2, run_part, &split);
  merge (table, &split.part);
  part_clear (&split.part);
}
