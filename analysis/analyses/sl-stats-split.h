/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-stats-split.h: a pass of a statistics table visited in two parts at
 * once, on two cores.  The parts' sums and collected values merge into the
 * same answers as one visit in order gives (sums are exact, order
 * statistics do not depend on the order of the values). */
#pragma once

#include "sl-parallel.h"
#include "sl-stats.h"

G_BEGIN_DECLS

#define SL_STATS_MAX_PARTS SL_PARALLEL_MAX_PARTS

/* Visits part @part of @n_parts of the values into @table (the caller's
 * table, or a private one of the part's): the parts together are every
 * value of the pass, each once.  Runs on another thread for part > 0, at
 * the same time as part 0: it may only read what is shared, and write
 * @table and the part's own scratch.  It must not add keys. */
typedef void (*SlStatsVisitPart) (SlStatsTable *table, guint part, guint n_parts, gpointer data);

/* One pass of @table (after sl_stats_table_pass() said TRUE) over about
 * @n_values values: in two parts at once where the machine has two cores,
 * the pass can be split (the sums, or the collection of values inside the
 * selection windows) and there are enough values to be worth a thread;
 * else in one part.  SL_ANALYSIS_THREADS=1 keeps every pass in one. */
void   sl_stats_table_visit_split (SlStatsTable *table, gsize n_values, SlStatsVisitPart visit,
                                   gpointer data);

/* Clips [*@first, *@last), values [@before, @before + n) of the pass's
 * @total in order, to those part @part of @n_parts takes (an equal share
 * each, in order).  FALSE when none are left. */
static inline gboolean
sl_stats_part_clip (guint64 before, guint64 total, guint part, guint n_parts, guint *first, guint *last)
{
  guint64 lo = total * part / n_parts, hi = total * (part + 1) / n_parts;
  guint64 n = *last - *first;
  guint64 from = MAX (before, lo), to = MIN (before + n, hi);

  if (from >= to)
    return FALSE;
  *last = *first + (guint) (to - before);
  *first = *first + (guint) (from - before);
  return TRUE;
}

G_END_DECLS
