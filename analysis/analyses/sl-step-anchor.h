/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-step-anchor.h: training steps of a kernel sequence whose steps do not
 * launch exactly the same kernels (a few data-dependent kernels more in some
 * steps, one step with an extra block), found from a once-per-step anchor.
 *
 * An anchor is a name, or a run of 2 or 3 names, that occurs evenly spaced
 * in the sequence (positions, not times, so a stall changes nothing) from
 * its first repeat to its last, at least three times.  The segments between
 * its occurrences are checked by content: consecutive segments must hold
 * similar name histograms (overlap of counts, >= 0.8 on average), and almost
 * all kernels (a share given by the caller) must have names found in most
 * segments (otherwise the segments are blocks of a step, or micro-batches,
 * and the once-per-step work is missing from most of them).  Of the anchors that pass, the shortest whose
 * similarity is within 0.02 of the best is the step (a name occurring every
 * second step is not).  Step boundaries are then placed where the idle time
 * before a kernel is the longest, at the same offset from the anchor in
 * every step: of each step's longest idle time's offset, the one whose idle
 * time is long in most steps (a stall, long in one step only, never is).
 * O(n log n). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint      period;       /* median kernels per step */
  double     similarity;   /* mean histogram overlap of consecutive steps */
  /* Sequence positions where a step starts, ascending; the first may be 0
   * and the last n (the sequence starts or ends with a full step). */
  GArray    *boundaries;   /* guint */
} SlStepAnchor;

/* @dense: n name ids in [0, m); @gap_before: idle time before each kernel
 * (gap_before[0] ignored); @min_presence: share of the kernels whose names
 * must be found in at least 80 % of the steps.  FALSE (and @out empty) when
 * no anchor makes steps. */
gboolean sl_step_anchor_find  (const guint32 *dense, guint m, const gint64 *gap_before, guint n,
                               double min_presence, SlStepAnchor *out);
void     sl_step_anchor_clear (SlStepAnchor *anchor);

/* The position of [lo, hi) ∩ [0, n) with the longest idle time before it
 * (@gap_before[i]; position 0 counts as none), nearest @x on ties;
 * G_MAXUINT when the range is empty.  Step boundaries go there. */
guint    sl_step_longest_gap_in (const gint64 *gap_before, guint n, gint64 lo, gint64 hi, gint64 x);

G_END_DECLS
