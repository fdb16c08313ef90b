/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tooltip.h: a widget's tooltip text, kept by the widget and handed to
 * GTK only when a tooltip is asked for. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Sets @widget's tooltip to @text (NULL or "": none), as
 * gtk_widget_set_tooltip_text() would, without its cost: GTK 4.8 asks the
 * X server where the pointer is (two round trips) each time a visible
 * widget's tooltip is set, which list rows and summary links do by the
 * hundred.  The text is not the widget's accessible description: give
 * those widgets an accessible label where the text is not their own. */
void        sl_tooltip_set_text (GtkWidget  *widget,
                                 const char *text);   /* nullable */

/* The text sl_tooltip_set_text() set, NULL without one. */
const char *sl_tooltip_get_text (GtkWidget  *widget);

G_END_DECLS
