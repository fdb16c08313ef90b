/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-strip-plot.h: durations as dots, one row per series (the iterations
 * of each compared profile), on a shared linear time axis, each row's
 * median marked. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_STRIP_PLOT (sl_strip_plot_get_type ())
G_DECLARE_FINAL_TYPE (SlStripPlot, sl_strip_plot, SL, STRIP_PLOT, GtkWidget)

GtkWidget *sl_strip_plot_new        (void);
/* Removes every row. */
void       sl_strip_plot_clear      (SlStripPlot  *self);
/* Appends a row named @label of @n durations @values_ns (copied), drawn in
 * @rgb (0xRRGGBB). */
void       sl_strip_plot_add_row    (SlStripPlot  *self,
                                     const char   *label,
                                     const gint64 *values_ns,
                                     guint         n,
                                     guint32       rgb);

G_END_DECLS
