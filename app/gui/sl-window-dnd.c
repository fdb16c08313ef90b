/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-dnd.c: profiles dropped on the window (from a file manager). */
#include "sl-window-private.h"

static gboolean
drop_cb (SlWindow      *self,
         const GValue  *value,
         double         x,
         double         y,
         GtkDropTarget *target)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  /* several files at once: the ranks of one job, in one ranks window */
  if (files != NULL && files->next != NULL)
    {
      g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
      for (GSList *l = files; l; l = l->next)
        {
          char *path = g_file_get_path (G_FILE (l->data));
          if (path != NULL)
            g_ptr_array_add (paths, path);
        }
      g_ptr_array_add (paths, NULL);
      g_action_group_activate_action (G_ACTION_GROUP (gtk_window_get_application (GTK_WINDOW (self))), "merge",
                                      g_variant_new_strv ((const char * const *) paths->pdata, -1));
      return TRUE;
    }
  for (GSList *l = files; l; l = l->next)
    _sl_window_request_open (self, G_FILE (l->data));
  return files != NULL;
}

void
_sl_window_add_drop_target (SlWindow *self)
{
  GtkDropTarget *target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect_object (target, "drop", G_CALLBACK (drop_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
}
