/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-rows.c: the window keeps the timeline's row control: each
 * profile's row layout saved and restored (sl-row-store.h), the main
 * menu's Show Hidden Rows, the label column's width between runs. */
#include "sl-window-private.h"
#include "sl-row-store.h"
#include "sl-timeline-rows.h"
#include "sl-ui-state.h"

/* The main menu's Show Hidden Rows lists the rows hidden in this window. */
static void
update_hidden_menu (SlWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GMenu *section = app ? G_MENU (gtk_application_get_menu_by_id (app, "hidden-rows-section")) : NULL;
  const SlRowLayout *rows = sl_timeline_get_row_layout (SL_TIMELINE (self->timeline));
  SlTimelineLayout *l = sl_timeline_get_layout (SL_TIMELINE (self->timeline));
  g_autoptr(GPtrArray) keys = NULL;

  if (section == NULL)
    return;
  g_menu_remove_all (section);
  if (rows == NULL || l == NULL)
    return;
  keys = sl_row_layout_get_hidden_keys (rows);
  for (guint i = 0; i < keys->len; i++)
    {
      guint r = sl_timeline_layout_find_key (l, keys->pdata[i]);
      g_autofree char *title = r != SL_NONE ? sl_timeline_row_title (l->model, r) : g_strdup (keys->pdata[i]);
      g_autoptr(GMenuItem) item = g_menu_item_new (title, NULL);

      g_menu_item_set_action_and_target_value (item, "win.show-row", g_variant_new_string (keys->pdata[i]));
      g_menu_append_item (section, item);
    }
}

static void
row_layout_changed_cb (SlWindow *self)
{
  const SlRowLayout *rows = sl_timeline_get_row_layout (SL_TIMELINE (self->timeline));

  if (self->rows_id != NULL && rows != NULL)
    sl_row_store_save (self->rows_id, rows);
  update_hidden_menu (self);
}

static void
loaded_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(SlWindow) self = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autoptr(SlRowLayout) rows = sl_row_store_load_finish (result, &id, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    {
      g_debug ("no row layout: %s", error->message);
      return;
    }
  g_free (self->rows_id);
  self->rows_id = g_steal_pointer (&id);
  if (rows != NULL)
    sl_timeline_set_row_layout (SL_TIMELINE (self->timeline), rows);
  update_hidden_menu (self);
}

void
_sl_window_rows_session_changed (SlWindow *self)
{
  SlProfile *profile = self->session ? sl_session_get_profile (self->session) : NULL;

  g_cancellable_cancel (self->rows_cancellable);
  g_clear_object (&self->rows_cancellable);
  g_clear_pointer (&self->rows_id, g_free);
  update_hidden_menu (self);
  if (profile == NULL || profile->path == NULL)
    return;
  self->rows_cancellable = g_cancellable_new ();
  sl_row_store_load_async (profile->path, self->rows_cancellable, loaded_cb, g_object_ref (self));
}

static void
label_width_cb (SlWindow *self)
{
  g_autofree char *text = g_strdup_printf ("%d", sl_timeline_get_label_width (SL_TIMELINE (self->timeline)));

  sl_ui_state_set_string ("label-width", text);
}

void
_sl_window_rows_init (SlWindow *self)
{
  g_autofree char *width = sl_ui_state_get_string ("label-width", NULL);

  if (width != NULL && g_ascii_strtoll (width, NULL, 10) > 0)
    sl_timeline_set_label_width (SL_TIMELINE (self->timeline), (int) g_ascii_strtoll (width, NULL, 10));
  g_signal_connect_object (self->timeline, "row-layout-changed", G_CALLBACK (row_layout_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "notify::label-width", G_CALLBACK (label_width_cb),
                           self, G_CONNECT_SWAPPED);
}

void
_sl_window_rows_dispose (SlWindow *self)
{
  g_cancellable_cancel (self->rows_cancellable);
  g_clear_object (&self->rows_cancellable);
  g_clear_pointer (&self->rows_id, g_free);
}
