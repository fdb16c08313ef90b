/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-spans.h: start + duration, the common part of every event array, and
 * the one binary search over sorted times (building spans is in
 * sl-spans-private.h, for the loader). */
#pragma once

#include "sl-types.h"

G_BEGIN_DECLS

typedef struct {
  guint    n;
  gint64  *start;          /* sorted ascending within one track */
  guint32 *dur;            /* ns; SL_LONG_DUR when >= 2^32-1 ns, see long_dur */
  /* Durations of 4.29 s or more are rare (long syncs, whole-run ranges);
   * they live in a small table sorted by index instead of widening dur[]. */
  guint    n_long;
  guint32 *long_index;
  gint64  *long_dur;
} SlSpans;

gint64 _sl_spans_long_dur (const SlSpans *spans, guint i);

static inline gint64
sl_spans_dur (const SlSpans *spans, guint i)
{
  guint32 d = spans->dur[i];
  return G_LIKELY (d != SL_LONG_DUR) ? (gint64) d : _sl_spans_long_dur (spans, i);
}

static inline gint64
sl_spans_end (const SlSpans *spans, guint i)
{
  return spans->start[i] + sl_spans_dur (spans, i);
}

/* Index of the first span whose start is >= t (n when none); the _in
 * variant searches [lo, hi) only, a sorted slice (an NVTX depth row). */
guint sl_spans_lower_bound    (const SlSpans *spans, gint64 t);
guint sl_spans_lower_bound_in (const SlSpans *spans, guint lo, guint hi, gint64 t);
/* The same over any sorted array of times (NVTX marks): the one binary search. */
guint sl_times_lower_bound    (const gint64 *times, guint lo, guint hi, gint64 t);

G_END_DECLS
