/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-stats-split.c: two parts of a statistics pass at once. */
#include "sl-stats-split.h"

#include <string.h>

#define SPLIT_MIN_VALUES (1 << 18)   /* fewer: a thread costs more than it saves */
#define SPLIT_MAX_COLLECT (1 << 24)  /* a second collect buffer at most this big (192 MB) */

guint
sl_analysis_threads (void)
{
  static gsize threads = 0;

  if (g_once_init_enter (&threads))
    {
      const char *env = g_getenv ("SL_ANALYSIS_THREADS");
      gsize n = env != NULL ? CLAMP (g_ascii_strtoull (env, NULL, 10), 1, SL_STATS_MAX_PARTS)
                            : CLAMP (g_get_num_processors (), 1, SL_STATS_MAX_PARTS);
      g_once_init_leave (&threads, n);
    }
  return (guint) threads;
}

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
        part->fused = g_new0 (guint32, (gsize) table->n_keys * SL_STATS_FUSED_BINS);
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
        for (gsize i = 0, n = (gsize) table->n_keys * SL_STATS_FUSED_BINS; i < n; i++)
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
  SlStatsTable     table;
  SlStatsVisitPart visit;
  gpointer         data;
} Part;

static gpointer
run_part (gpointer data)
{
  Part *p = data;

  p->visit (&p->table, 1, 2, p->data);
  return NULL;
}

void
sl_stats_table_visit_split (SlStatsTable *table, gsize n_values, SlStatsVisitPart visit, gpointer data)
{
  Part part = { .visit = visit, .data = data };
  GThread *thread;

  if (sl_analysis_threads () < 2 || n_values < SPLIT_MIN_VALUES || !can_split (table))
    {
      visit (table, 0, 1, data);
      return;
    }
  part_init (&part.table, table);
  thread = g_thread_try_new ("sl-stats-part", run_part, &part, NULL);
  visit (table, 0, 2, data);
  if (thread != NULL)
    g_thread_join (thread);
  else
    run_part (&part);    /* no thread to be had: the second part after the first */
  merge (table, &part.table);
  part_clear (&part.table);
}
