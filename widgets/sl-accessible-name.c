/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-accessible-name.c: a control's accessible name and tooltip. */
#include "sl-accessible-name.h"

void
sl_accessible_name_set (GtkWidget *widget, const char *name)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (name != NULL);

  gtk_widget_set_tooltip_text (widget, name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  /* GTK 4.8's GtkDropDown does not pass its label on to the toggle button
   * inside it, and AT-SPI presents that button on its own */
  if (!GTK_IS_DROP_DOWN (widget))
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}
