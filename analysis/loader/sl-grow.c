/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-grow.c: how far a loader array grows when it is full.
 *
 * Doubling copies every value about once more and, for arrays under
 * SL_HUGE_PAGE (a 1 M-kernel profile's streams: ~744 kB a column), copies
 * them on the heap into fresh pages: at 1 M events a good part of the
 * load's page faults were in those copies.  Rows of one stream or thread
 * are spread evenly enough over a table that, a few thousand rows after
 * its first, the array's share of the rows read since predicts its final
 * size: it grows once to (near) that size instead. */
#include "sl-grow.h"

/* Below this many rows read, a share says little: double. */
#define MIN_ROWS_TO_PROJECT 4096
/* At most this many times the array's count in one step: a wrong row
 * estimate (a damaged file's max(rowid)) cannot ask for absurd sizes. */
#define MAX_STEP 16u

guint
_sl_grow_capacity (guint cap, guint n, guint64 first_row, guint64 rows, guint64 rows_expected)
{
  guint64 doubled = MAX ((guint64) cap * 2, 64);
  /* from the array's first row: streams and threads start late too */
  guint64 rows_read = rows - MIN (first_row, rows);
  guint64 want, projected;

  rows_expected -= MIN (first_row, rows_expected);
  if (rows_read < MIN_ROWS_TO_PROJECT || rows_expected <= rows_read)
    want = doubled;
  else
    {
      /* + 1/8 and 64: a share read early varies (untouched room costs
       * address space only, and the arrays are trimmed after the merge) */
      projected = (guint64) ((double) n * (double) rows_expected / (double) rows_read);
      projected += projected / 8 + 64;
      /* at least 1/8 more each time: a projection a little short still
       * costs a bounded number of copies */
      want = CLAMP (projected, (guint64) cap + cap / 8 + 1, MAX ((guint64) n * MAX_STEP, doubled));
    }
  return (guint) MIN (MAX (want, (guint64) n + 1), (guint64) G_MAXUINT);
}
