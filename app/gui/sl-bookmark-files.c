/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-files.c: exporting and importing bookmark files.
 *
 * The import's "absolute or relative time" question is a choice of the
 * file chooser itself (gtk_file_chooser_add_choice), so it is one dialog,
 * also through the portal. */
#include "sl-bookmark-files.h"

#include <glib/gi18n.h>

typedef struct {
  SlBookmarkStore     *store;
  gboolean             import;
  SlBookmarkFilesDone  done;
  gpointer             user_data;
} Pending;

static void
pending_free (Pending *pending)
{
  g_object_unref (pending->store);
  g_free (pending);
}

static void
finish (Pending *pending, GFile *file, const char *choice)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *message = NULL;

  if (path == NULL)
    message = g_strdup (_("Bookmarks can only be read from and written to local files."));
  else if (!pending->import)
    {
      if (sl_bookmark_store_export (pending->store, path, &error))
        message = g_strdup_printf (_("Bookmarks exported to %s."), path);
    }
  else
    {
      int n = sl_bookmark_store_import (pending->store, path, g_strcmp0 (choice, "relative") == 0, &error);

      if (n >= 0)
        message = g_strdup_printf (g_dngettext (NULL, "%d bookmark imported.", "%d bookmarks imported.", n), n);
    }
  if (error != NULL)
    pending->done (error->message, TRUE, pending->user_data);
  else
    pending->done (message, path == NULL, pending->user_data);
}

static void
response_cb (GtkNativeDialog *dialog, int response, Pending *pending)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      const char *choice = pending->import ? gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "times") : NULL;

      finish (pending, file, choice);
    }
  else
    pending->done (NULL, FALSE, pending->user_data);
  pending_free (pending);
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
add_json_filter (GtkFileChooser *chooser)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Bookmark files"));
  gtk_file_filter_add_suffix (filter, "json");
  gtk_file_filter_add_mime_type (filter, "application/json");
  gtk_file_chooser_add_filter (chooser, filter);
  g_object_unref (filter);
}

static void
run (GtkFileChooserNative *native, SlBookmarkStore *store, gboolean import,
     SlBookmarkFilesDone done, gpointer user_data)
{
  Pending *pending = g_new0 (Pending, 1);

  pending->store = g_object_ref (store);
  pending->import = import;
  pending->done = done;
  pending->user_data = user_data;
  add_json_filter (GTK_FILE_CHOOSER (native));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_signal_connect (native, "response", G_CALLBACK (response_cb), pending);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

void
sl_bookmark_files_export (GtkWindow *parent, SlBookmarkStore *store, const char *profile_name,
                          SlBookmarkFilesDone done, gpointer user_data)
{
  GtkFileChooserNative *native;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;

  g_return_if_fail (SL_IS_BOOKMARK_STORE (store));
  native = gtk_file_chooser_native_new (_("Export Bookmarks"), parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Export"), _("_Cancel"));
  base = g_path_get_basename (profile_name ? profile_name : "profile");
  if (strrchr (base, '.') != NULL)
    *strrchr (base, '.') = '\0';
  /* TRANSLATORS: the suggested file name; %s is the profile's name */
  name = g_strdup_printf (_("%s bookmarks.json"), base);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
  run (native, store, FALSE, done, user_data);
}

void
sl_bookmark_files_import (GtkWindow *parent, SlBookmarkStore *store, SlBookmarkFilesDone done, gpointer user_data)
{
  GtkFileChooserNative *native;
  const char *ids[] = { "absolute", "relative", NULL };
  const char *labels[] = { _("By absolute time (this capture)"),
                           _("By time relative to the profile start (another capture)"), NULL };

  g_return_if_fail (SL_IS_BOOKMARK_STORE (store));
  native = gtk_file_chooser_native_new (_("Import Bookmarks"), parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                        _("_Import"), _("_Cancel"));
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (native), "times", _("Place bookmarks"), ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (native), "times", "absolute");
  run (native, store, TRUE, done, user_data);
}
