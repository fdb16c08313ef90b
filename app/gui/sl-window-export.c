/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-export.c: File > Export… (win.export) and the bar that says
 * where the export went.  The dialog is made on first use and lives as
 * long as the window (it hides on close), so it remembers the choices. */
#include "sl-window-private.h"
#include "sl-export-dialog.h"
#include "sl-export-toast.h"

static void
exported_cb (SlWindow *self, const char *path)
{
  sl_export_toast_show (SL_EXPORT_TOAST (self->export_toast), path);
}

/* The dialog offers the profile's bookmarks as scopes, and the exports
 * carry those in scope. */
static void
bookmarks_changed_cb (SlWindow *self)
{
  SlBookmarkStore *store = self->session != NULL ? sl_session_get_bookmarks (self->session) : NULL;

  if (self->export_dialog != NULL)
    sl_export_dialog_set_bookmarks (SL_EXPORT_DIALOG (self->export_dialog),
                                    store != NULL ? sl_bookmark_store_get_bookmarks (store) : NULL);
}

/* A dialog shows the profile the window shows. */
static void
session_changed_cb (SlWindow *self)
{
  g_clear_signal_handler (&self->export_bookmarks_handler, self->export_bookmarks_session);
  g_clear_weak_pointer (&self->export_bookmarks_session);
  if (self->session != NULL)
    {
      g_set_weak_pointer (&self->export_bookmarks_session, self->session);
      self->export_bookmarks_handler = g_signal_connect_swapped (self->session, "notify::bookmarks",
                                                                 G_CALLBACK (bookmarks_changed_cb), self);
    }
  if (self->export_dialog != NULL)
    sl_export_dialog_set_session (SL_EXPORT_DIALOG (self->export_dialog), self->session);
  if (self->session == NULL)
    sl_export_toast_hide (SL_EXPORT_TOAST (self->export_toast));
}

void
_sl_window_export (SlWindow *self)
{
  if (self->session == NULL)
    return;
  if (self->export_dialog == NULL)
    {
      self->export_dialog = GTK_WIDGET (sl_export_dialog_new (GTK_WINDOW (self), self->session));
      g_object_add_weak_pointer (G_OBJECT (self->export_dialog), (gpointer *) &self->export_dialog);
      g_signal_connect_swapped (self->export_dialog, "exported", G_CALLBACK (exported_cb), self);
    }
  bookmarks_changed_cb (self);
  sl_export_dialog_present (SL_EXPORT_DIALOG (self->export_dialog));
}

void
_sl_window_export_init (SlWindow *self)
{
  GtkWidget *page = gtk_widget_get_parent (self->load_bar);

  /* under the load bar, on the profile page */
  self->export_toast = sl_export_toast_new ();
  gtk_box_insert_child_after (GTK_BOX (page), self->export_toast, self->load_bar);
  g_signal_connect (self, "notify::session", G_CALLBACK (session_changed_cb), NULL);
}
