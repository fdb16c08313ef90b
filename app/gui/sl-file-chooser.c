/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-file-chooser.c: GtkFileChooserNative with profile filters. */
#include "sl-file-chooser.h"

#include <glib/gi18n.h>

typedef struct {
  SlFileChosenFunc callback;
  gpointer         user_data;
} Pending;

static void
response_cb (GtkNativeDialog *dialog,
             int              response,
             Pending         *pending)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  pending->callback (file, pending->user_data);
  g_free (pending);
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

void
sl_file_chooser_open (GtkWindow        *parent,
                      SlFileChosenFunc  callback,
                      gpointer          user_data)
{
  GtkFileChooserNative *native;
  GtkFileFilter *filter;
  Pending *pending;

  native = gtk_file_chooser_native_new (_("Open Profile"), parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                        _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Nsight Systems profiles"));
  gtk_file_filter_add_mime_type (filter, "application/vnd.sqlite3");
  gtk_file_filter_add_mime_type (filter, "application/x-nsys-rep");
  gtk_file_filter_add_suffix (filter, "sqlite");
  gtk_file_filter_add_suffix (filter, "nsys-rep");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
  g_object_unref (filter);

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("All files"));
  gtk_file_filter_add_pattern (filter, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
  g_object_unref (filter);

  pending = g_new0 (Pending, 1);
  pending->callback = callback;
  pending->user_data = user_data;
  g_signal_connect (native, "response", G_CALLBACK (response_cb), pending);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

typedef struct {
  SlFilesChosenFunc callback;
  gpointer          user_data;
} PendingMany;

static void
many_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  PendingMany     *pending)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);
          char *path = g_file_get_path (file);
          if (path != NULL)
            g_ptr_array_add (paths, path);
        }
    }
  g_ptr_array_add (paths, NULL);
  pending->callback (paths->len > 1 ? (const char * const *) paths->pdata : NULL, pending->user_data);
  g_free (pending);
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

void
sl_file_chooser_open_many (GtkWindow         *parent,
                           SlFilesChosenFunc  callback,
                           gpointer           user_data)
{
  GtkFileChooserNative *native;
  GtkFileFilter *filter;
  PendingMany *pending;

  native = gtk_file_chooser_native_new (_("Open Ranks"), parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                        _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (native), TRUE);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Nsight Systems profiles"));
  gtk_file_filter_add_mime_type (filter, "application/vnd.sqlite3");
  gtk_file_filter_add_suffix (filter, "sqlite");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
  g_object_unref (filter);

  pending = g_new0 (PendingMany, 1);
  pending->callback = callback;
  pending->user_data = user_data;
  g_signal_connect (native, "response", G_CALLBACK (many_response_cb), pending);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}
