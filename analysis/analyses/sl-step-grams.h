/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-step-grams.h: the grams of a kernel sequence (runs of 1 to 3 names)
 * with their positions, grouped by gram, for the once-per-step anchors
 * (sl-step-anchor.h).
 *
 * The groups come in key order: shorter grams first, then by the last
 * name, ..., the first; positions ascending in each.  Only a few grams can
 * be anchors, so a caller's test on each gram's occurrence count, first and
 * last position and shortest and longest distance between occurrences
 * leaves the others out before their positions are gathered: one pass over
 * the sequence per gram length and a table per gram, when the grams of a
 * length are few (a main stream's sequence uses tens of names), else a
 * radix sort of every gram. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether a gram occurring @count times, first at @first and last at @last,
 * with distances between consecutive occurrences in [@lo, @hi], in a
 * sequence of @n, may be kept (it must hold whenever the caller would
 * keep the gram: a FALSE only saves work). */
typedef gboolean (*SlGramTest) (guint count, guint first, guint last, guint lo, guint hi, guint n);

typedef struct {
  guint  *pos;             /* positions, group after group */
  GArray *starts;          /* guint: group k is pos[starts[k], starts[k + 1]) */
} SlStepGrams;

/* @dense: n names in [0, m).  Groups of grams for which @test may be TRUE
 * (all grams may come, every gram occurring at least once does when
 * @test always says TRUE). */
void sl_step_grams_find  (const guint32 *dense, guint m, guint n, SlGramTest test, SlStepGrams *out);
void sl_step_grams_clear (SlStepGrams *grams);

G_END_DECLS
