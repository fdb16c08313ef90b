/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-summary-histogram.h: the Summary page's duration histogram: the
 * session's kernel (or the kernel selected in the timeline) in the page's
 * scope, or the iterations; dragging across bins highlights exactly those
 * instances in every view, "Outliers" the slowest 1 %. */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "sightline.h"
#include "sl-session.h"

G_BEGIN_DECLS

#define SL_TYPE_SUMMARY_HISTOGRAM (sl_summary_histogram_get_type ())
G_DECLARE_FINAL_TYPE (SlSummaryHistogram, sl_summary_histogram, SL, SUMMARY_HISTOGRAM, GtkWidget)

GtkWidget *sl_summary_histogram_new       (void);
void       sl_summary_histogram_set_session (SlSummaryHistogram *self,
                                           SlSession          *session);
/* The page's scope: @filter (nullable: all; copied) and its summary's
 * iterations (@summary nullable; kept). */
void       sl_summary_histogram_set_scope (SlSummaryHistogram *self,
                                           const SlFilter     *filter,
                                           SlScopeSummary     *summary);
/* Shows iteration durations (TRUE) or the kernel's (FALSE). */
void       sl_summary_histogram_set_iterations (SlSummaryHistogram *self,
                                                gboolean            iterations);
/* Highlights the instances in bins [@first, @last] (what a drag does). */
void       sl_summary_histogram_select_bins (SlSummaryHistogram *self,
                                             guint               first,
                                             guint               last);
/* Highlights the slowest 1 % (the Outliers button). */
void       sl_summary_histogram_select_outliers (SlSummaryHistogram *self);
/* {"mode": "kernel"|"iterations", "name", "computing", "n", "p50_ns", "p90_ns",
 *  "p99_ns", "bins": [[lo_ns, hi_ns, count]], "selected": [first, last]|null,
 *  "highlighted"} for the test probe. (transfer full) */
JsonNode  *sl_summary_histogram_to_json   (SlSummaryHistogram *self);

G_END_DECLS
