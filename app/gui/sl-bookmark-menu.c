/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-menu.c: a one-item context menu, "Bookmark…".
 *
 * The popover is parented to the clicked widget only while it shows, so
 * list cells that are recycled or destroyed never carry one. */
#include "sl-bookmark-menu.h"

#include <glib/gi18n.h>

static gboolean
unparent_idle (gpointer data)
{
  GtkWidget *popover = data;

  if (gtk_widget_get_parent (popover) != NULL)
    gtk_widget_unparent (popover);
  g_object_unref (popover);
  return G_SOURCE_REMOVE;
}

static void
closed_cb (GtkPopover *popover)
{
  /* after the item's action ran: it is activated once the popover closed */
  g_idle_add (unparent_idle, g_object_ref (popover));
}

void
sl_bookmark_menu_popup (GtkWidget *parent, double x, double y, gint64 start, gint64 end)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenuItem) item = g_menu_item_new (_("Bookmark…"), NULL);
  GtkWidget *popover;

  g_return_if_fail (GTK_IS_WIDGET (parent));
  g_menu_item_set_action_and_target_value (item, "win.bookmark-range", g_variant_new ("(xx)", start, end));
  g_menu_append_item (menu, item);
  popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  gtk_widget_set_parent (popover, parent);
  gtk_popover_set_pointing_to (GTK_POPOVER (popover), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  g_signal_connect (popover, "closed", G_CALLBACK (closed_cb), NULL);
  gtk_popover_popup (GTK_POPOVER (popover));
}

static void
pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  const gint64 *span = data;

  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  sl_bookmark_menu_popup (widget, x, y, span[0], span[1]);
}

static void
span_free (gpointer data, GClosure *closure)
{
  g_free (data);
}

void
sl_bookmark_menu_attach_span (GtkWidget *widget, gint64 start, gint64 end)
{
  GtkGesture *gesture = gtk_gesture_click_new ();
  gint64 *span = g_new (gint64, 2);

  span[0] = start;
  span[1] = end;
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect_data (gesture, "pressed", G_CALLBACK (pressed_cb), span, span_free, 0);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
}
