/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-histogram-overlay.h: several duration histograms on the same bins,
 * drawn over each other (one colour per series, with a legend): a kernel's
 * durations in each compared profile.  Each series is scaled to its own
 * count, so shapes compare even when the numbers of calls differ. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_HISTOGRAM_OVERLAY (sl_histogram_overlay_get_type ())
G_DECLARE_FINAL_TYPE (SlHistogramOverlay, sl_histogram_overlay, SL, HISTOGRAM_OVERLAY, GtkWidget)

GtkWidget *sl_histogram_overlay_new        (void);
/* Sets the bins (@n_bins + 1 edges in ns, log-spaced, copied) and removes
 * every series; @title names what is shown (nullable). */
void       sl_histogram_overlay_set_bins   (SlHistogramOverlay *self,
                                            const gint64       *edges,
                                            guint               n_bins,
                                            const char         *title);
/* Adds a series of n_bins @counts (copied) named @label in @rgb. */
void       sl_histogram_overlay_add_series (SlHistogramOverlay *self,
                                            const char         *label,
                                            const guint64      *counts,
                                            guint32             rgb);
/* Series shown, for tests. */
guint      sl_histogram_overlay_get_n_series (SlHistogramOverlay *self);

G_END_DECLS
