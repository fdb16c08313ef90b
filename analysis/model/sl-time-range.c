/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-time-range.c: the boxed time range, and times as users write them. */
#include "sl-time-range.h"
#include "sl-filter.h"

#include <glib/gi18n-lib.h>

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

gboolean
sl_time_point_parse (const char *text, SlTimePoint *out, GError **error)
{
  const char *p = text;

  g_return_val_if_fail (text != NULL, FALSE);
  while (g_ascii_isspace (*p))
    p++;
  out->from_start = *p == '+';
  if (out->from_start)
    p++;
  if (!(out->from_start && (*p == '-' || *p == '+')) && sl_parse_time (p, &out->ns, NULL))
    return TRUE;
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("“%s” is not a time: write whole nanoseconds (12345 or 1.5e9), a number with "
                 "a unit ns, us, µs, ms or s (39.98s), or +TIME from the profile's start "
                 "(+1.2s); a fraction needs a unit"), text);
  return FALSE;
}
