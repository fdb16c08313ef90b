/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-accessible-name.h: give a control its accessible name and tooltip at
 * once, reaching into the GTK 4.8 composite controls whose inner button is
 * what a screen reader lands on. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Sets @name as @widget's accessible label and tooltip; for a GtkDropDown
 * also labels its inner toggle button, which GTK 4.8 leaves named
 * "GtkToggleButton". */
void sl_accessible_name_set (GtkWidget  *widget,
                             const char *name);

G_END_DECLS
