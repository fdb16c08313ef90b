/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-name.c: a name for a new bookmark from the NVTX ranges.
 *
 * Users bookmark steps and phases, which programs mark with NVTX ranges,
 * so the range whose span matches the bookmark's best (overlap over the
 * union: a whole step scores 1, a kernel inside it little) names it.  One
 * pass over the push/pop ranges: a few ms at a million ranges, once per
 * Ctrl+D. */
#include "sl-bookmark-name.h"

#include <glib/gi18n.h>

/* Below this a range is a poor name for the span (it covers a third). */
#define MIN_MATCH 0.34

static double
match (gint64 a0, gint64 a1, gint64 b0, gint64 b1)
{
  gint64 overlap = MIN (a1, b1) - MAX (a0, b0);
  gint64 both = MAX (a1, b1) - MIN (a0, b0);

  if (overlap < 0 || both <= 0)
    return overlap == 0 && both == 0 ? 1 : 0;
  return (double) overlap / (double) both;
}

char *
sl_bookmark_name_guess (const SlProfile *profile, gint64 start, gint64 end, guint n_bookmarks)
{
  double best = MIN_MATCH;
  guint32 name = SL_NONE;

  g_return_val_if_fail (profile != NULL, NULL);
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;

      for (guint i = 0; i < r->spans.n; i++)
        {
          gint64 s = r->spans.start[i];
          double m;

          if (s > end)
            continue;   /* sorted by (depth, start): the next depth may start earlier */
          m = match (start, end, s, sl_spans_end (&r->spans, i));
          if (m > best)
            {
              best = m;
              name = r->name[i];
            }
        }
    }
  if (name != SL_NONE && profile->strings != NULL && sl_strings_get (profile->strings, name) != NULL)
    return g_strdup (sl_strings_get (profile->strings, name));
  return g_strdup_printf (_("Bookmark %u"), n_bookmarks + 1);
}
