/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-step-period.h: the period of a kernel sequence (one stream's kernel
 * names in launch order), for finding training steps without NVTX.
 *
 * Candidate periods come from "anchor" names, whose occurrences are evenly
 * spaced in the sequence; each is checked by how often seq[i] == seq[i + L]
 * (its match).  The best is the smallest period whose match is within 0.02
 * of the best match, at least 0.8, with at least two repeats in the
 * sequence.  Positions, not times, so a stall inside one step changes
 * nothing.  Near-linear: O(n) per candidate, at most 32 candidates.
 *
 * When some names occur in fewer than half the repeats (the once-per-step
 * work around a model's repeated blocks), the period is a "block": step
 * boundaries are then where those rare kernels cluster.  It is a block too
 * when its repeats lack some kinds of kernels (names found in 80 % of them
 * cover less than 99 % of its kernels: a layer's cycle of ops inside a
 * forward pass lacks the backward's); a once-per-step anchor at least two
 * blocks long then gives the steps, else there is no step boundary.
 * Otherwise each repeat is a step, cut where the idle time before a
 * position of the period is the longest in median over the repeats (a
 * stall in one step does not move it).
 *
 * Steps that do not launch exactly the same kernels (a few more in some, an
 * extra block in one) have no exact period, or one of several steps: a
 * once-per-step anchor (sl-step-anchor.h) then gives the steps. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  SL_STEP_UNIT_NONE,       /* no period */
  SL_STEP_UNIT_STEP,       /* each repeat of the period is a step */
  SL_STEP_UNIT_BLOCK,      /* the period repeats inside steps (layers, blocks) */
} SlStepUnit;

typedef struct {
  SlStepUnit unit;
  guint      period;       /* kernels per repeat, 0 when none */
  double     match;        /* share of i with seq[i] == seq[i + period] */
  guint      repeats;      /* n / period */
  /* Sequence positions where a step starts, ascending; the last may be n
   * (the sequence ends with a full step).  Kernels before the first and
   * from the last one (when < n) belong to partial steps. */
  GArray    *boundaries;   /* guint */
} SlStepPeriod;

/* @seq: n name ids (dense or not); @gap_before: idle time before each
 * kernel on its device (gap_before[0] ignored). */
void sl_step_period_find  (const guint32 *seq, const gint64 *gap_before, guint n, SlStepPeriod *out);
void sl_step_period_clear (SlStepPeriod *period);

G_END_DECLS
