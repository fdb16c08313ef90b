/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-histogram.h: a duration histogram (sl-duration-histogram.h) drawn with
 * cairo: log-scale time axis, a bar per bin, p50 / p90 / p99 marked.
 * Dragging across bars selects a run of bins and emits "bins-selected";
 * "resized" says where the bins are has changed. */
#pragma once

#include <gtk/gtk.h>

#include "sl-duration-histogram.h"

G_BEGIN_DECLS

#define SL_TYPE_HISTOGRAM (sl_histogram_get_type ())
G_DECLARE_FINAL_TYPE (SlHistogram, sl_histogram, SL, HISTOGRAM, GtkWidget)

GtkWidget *sl_histogram_new           (void);
/* Shows @histogram (nullable; taken: (transfer full)); clears the selection. */
void       sl_histogram_set_histogram (SlHistogram         *self,
                                       SlDurationHistogram *histogram);
const SlDurationHistogram *sl_histogram_get_histogram (SlHistogram *self);
/* Marks bins [@first, @last] (G_MAXUINT: none) without emitting. */
void       sl_histogram_set_selection (SlHistogram         *self,
                                       guint                first,
                                       guint                last);
/* The left and right x (widget coordinates) of bin @i; FALSE without it. */
gboolean   sl_histogram_bin_x         (SlHistogram         *self,
                                       guint                i,
                                       double              *x0,
                                       double              *x1);
/* The bin under x (widget coordinates), clamped to the bins; G_MAXUINT when empty. */
guint      sl_histogram_bin_at        (SlHistogram         *self,
                                       double               x);

G_END_DECLS
