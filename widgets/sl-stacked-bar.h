/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-stacked-bar.h: one horizontal bar split into coloured parts, with a
 * legend (the Summary page's kernel time per category). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct {
  double      value;       /* > 0; parts are drawn in proportion */
  guint32     rgb;         /* 0xRRGGBB */
  const char *label;       /* the legend's text for it */
} SlStackedPart;

#define SL_TYPE_STACKED_BAR (sl_stacked_bar_get_type ())
G_DECLARE_FINAL_TYPE (SlStackedBar, sl_stacked_bar, SL, STACKED_BAR, GtkWidget)

GtkWidget *sl_stacked_bar_new       (void);
/* Replaces the parts (copied). */
void       sl_stacked_bar_set_parts (SlStackedBar        *self,
                                     const SlStackedPart *parts,
                                     guint                n_parts);

/* The value the bar's whole width stands for (bars compared side by side
 * share it), 0 (the default) for the sum of the parts; never less than it. */
void       sl_stacked_bar_set_full  (SlStackedBar        *self,
                                     double               full);

G_END_DECLS
