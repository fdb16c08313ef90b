/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-time-range.c: the boxed time range. */
#include "sl-time-range.h"

G_DEFINE_BOXED_TYPE (SlTimeRange, sl_time_range, sl_time_range_copy, sl_time_range_free)

SlTimeRange *
sl_time_range_new (gint64 start, gint64 end)
{
  SlTimeRange *range = g_new (SlTimeRange, 1);

  /* callers hand over a drag in either direction */
  range->start = MIN (start, end);
  range->end = MAX (start, end);
  return range;
}

SlTimeRange *
sl_time_range_copy (const SlTimeRange *range)
{
  return range != NULL ? g_memdup2 (range, sizeof *range) : NULL;
}

void
sl_time_range_free (SlTimeRange *range)
{
  g_free (range);
}

gboolean
sl_time_range_equal (const SlTimeRange *a, const SlTimeRange *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return a->start == b->start && a->end == b->end;
}
