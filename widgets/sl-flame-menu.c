/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-menu.c: the flame stack's context menu on a node (right-click,
 * or the Menu key / Shift+F10 on the node under the pointer or clicked
 * last): Show in Timeline, Zoom Into, Copy Name. */
#include "sl-flame-private.h"

#include <glib/gi18n.h>

/* The node the menu is about, valid only while self->layout is the one
 * it was taken from (a rebuild frees the nodes it names) and the mode the
 * same (the same layout's rows and nodes are indexed apart). */
gboolean
_sl_flame_menu_target_valid (SlFlame *self)
{
  return self->has_menu_target && self->layout != NULL && self->layout == self->menu_layout
         && self->mode == self->menu_mode;
}

static void
show_activated (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlFlame *self = data;

  if (!_sl_flame_menu_target_valid (self))
    return;
  _sl_flame_pick (self, &self->menu_target);
  _sl_flame_show_in_timeline (self);
  _sl_flame_changed (self);
}

static void
zoom_activated (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlFlame *self = data;
  SlFlamePrim target = self->menu_target;

  if (_sl_flame_menu_target_valid (self))
    _sl_flame_activate (self, &target);
}

static void
copy_activated (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlFlame *self = data;
  g_autofree char *name = _sl_flame_menu_target_valid (self) ? _sl_flame_prim_name (self, &self->menu_target) : NULL;

  if (name != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (self->canvas), name);
}

/* Opens the menu at @prim (a copy is kept: prims are redrawn). */
static void
popup_at (SlFlame *self, const SlFlamePrim *prim)
{
  double gutter, width, x0, x1;

  _sl_flame_axis (self, &gutter, &width);
  x0 = gutter + MAX (prim->x0, 0);
  x1 = gutter + MIN (prim->x1, width);
  GdkRectangle at = { (int) ((x0 + x1) / 2), (int) ((prim->row + 0.5) * SL_FLAME_ROW_HEIGHT), 1, 1 };
  gboolean is_box = prim->kind == SL_FLAME_PRIM_BOX;

  self->menu_target = *prim;
  self->has_menu_target = TRUE;
  self->menu_layout = self->layout;
  self->menu_mode = self->mode;
  /* a "N more" block has no single name or instances: only zoom */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (self->menu_actions, "show")), is_box);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (self->menu_actions, "copy")), is_box);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &at);
  gtk_popover_popup (GTK_POPOVER (self->menu));
  _sl_flame_update_probe (self);
}

static void
pressed_cb (GtkGestureClick *click, int n_press, double x, double y, SlFlame *self)
{
  const SlFlamePrim *prim;

  gtk_widget_grab_focus (self->canvas);
  if (gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (click)) != GDK_BUTTON_SECONDARY)
    return;
  prim = _sl_flame_hit (self, x, y);
  if (prim != NULL)
    popup_at (self, prim);
}

/* The keyboard's node: under the pointer, else the one the menu or a click
 * was last about, else the first drawn. */
static gboolean
menu_key_cb (GtkWidget *widget, GVariant *args, gpointer data)
{
  SlFlame *self = data;

  if (self->layout == NULL || self->prims == NULL)
    return FALSE;
  if (self->has_hover)
    popup_at (self, &self->hover);
  else if (_sl_flame_menu_target_valid (self))
    popup_at (self, &self->menu_target);
  else
    for (guint i = 0; i < self->prims->len; i++)
      if (g_array_index (self->prims, SlFlamePrim, i).kind == SL_FLAME_PRIM_BOX)
        {
          popup_at (self, &g_array_index (self->prims, SlFlamePrim, i));
          break;
        }
  return TRUE;
}

static GMenuModel *
menu_model (void)
{
  GMenu *menu = g_menu_new ();

  g_menu_append (menu, _("Show in _Timeline"), "flame.show");
  g_menu_append (menu, _("_Zoom Into"), "flame.zoom");
  g_menu_append (menu, _("_Copy Name"), "flame.copy");
  return G_MENU_MODEL (menu);
}

static void
menu_closed_cb (SlFlame *self)
{
  _sl_flame_update_probe (self);
}

void
_sl_flame_menu_init (SlFlame *self)
{
  static const GActionEntry entries[] = {
    { "show", show_activated, NULL, NULL, NULL },
    { "zoom", zoom_activated, NULL, NULL, NULL },
    { "copy", copy_activated, NULL, NULL, NULL },
  };
  g_autoptr(GMenuModel) model = menu_model ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_shortcut_controller_new ();

  self->menu_actions = G_ACTION_MAP (g_simple_action_group_new ());
  g_action_map_add_action_entries (self->menu_actions, entries, G_N_ELEMENTS (entries), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "flame", G_ACTION_GROUP (self->menu_actions));
  self->menu = gtk_popover_menu_new_from_model (model);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
  gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->menu, self->canvas);
  g_signal_connect_swapped (self->menu, "closed", G_CALLBACK (menu_closed_cb), self);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (self->canvas, GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_focusable (self->canvas, TRUE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Menu, 0),
                                                          gtk_callback_action_new (menu_key_cb, self, NULL)));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_F10, GDK_SHIFT_MASK),
                                                          gtk_callback_action_new (menu_key_cb, self, NULL)));
  gtk_widget_add_controller (self->canvas, keys);
}

void
_sl_flame_menu_dispose (SlFlame *self)
{
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  g_clear_object (&self->menu_actions);
}

gboolean
_sl_flame_menu_open (SlFlame *self)
{
  return self->menu != NULL && gtk_widget_get_visible (self->menu);
}
