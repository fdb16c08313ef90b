/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-file-chooser.c: GtkFileChooserNative with profile filters. */
#include "sl-file-chooser.h"

#include <glib/gi18n.h>

typedef struct {
  SlFileChosenFunc  callback;
  SlFilesChosenFunc many;
  gpointer          user_data;
} Pending;

static void
response_cb (GtkNativeDialog *dialog,
             int              response,
             Pending         *pending)
{
  g_autoptr(GFile) file = NULL;

  if (pending->many != NULL)
    {
      g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GListModel) chosen = response == GTK_RESPONSE_ACCEPT
                                     ? gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog)) : NULL;

      for (guint i = 0; chosen != NULL && i < g_list_model_get_n_items (chosen); i++)
        g_ptr_array_add (files, g_list_model_get_item (chosen, i));
      pending->many (files, pending->user_data);
    }
  else
    {
      if (response == GTK_RESPONSE_ACCEPT)
        file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      pending->callback (file, pending->user_data);
    }
  g_free (pending);
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static GtkFileChooserNative *
chooser_new (GtkWindow *parent, const char *title, const char *accept)
{
  GtkFileChooserNative *native;
  GtkFileFilter *filter;

  native = gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_OPEN, accept, _("_Cancel"));
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
  return native;
}

void
sl_file_chooser_open (GtkWindow        *parent,
                      SlFileChosenFunc  callback,
                      gpointer          user_data)
{
  GtkFileChooserNative *native = chooser_new (parent, _("Open Profile"), _("_Open"));
  Pending *pending;

  pending = g_new0 (Pending, 1);
  pending->callback = callback;
  pending->user_data = user_data;
  g_signal_connect (native, "response", G_CALLBACK (response_cb), pending);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

void
sl_file_chooser_open_many (GtkWindow         *parent,
                           const char        *title,
                           const char        *accept,
                           SlFilesChosenFunc  callback,
                           gpointer           user_data)
{
  GtkFileChooserNative *native = chooser_new (parent, title, accept);
  Pending *pending = g_new0 (Pending, 1);

  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (native), TRUE);
  pending->many = callback;
  pending->user_data = user_data;
  g_signal_connect (native, "response", G_CALLBACK (response_cb), pending);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

void
sl_file_chooser_save (GtkWindow        *parent,
                      const char       *title,
                      const char       *initial,
                      gboolean          folder,
                      SlFileChosenFunc  callback,
                      gpointer          user_data)
{
  GtkFileChooserNative *native;
  Pending *pending;

  native = gtk_file_chooser_native_new (title, parent,
                                        folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER : GTK_FILE_CHOOSER_ACTION_SAVE,
                                        folder ? _("_Select") : _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  if (initial != NULL && *initial != '\0')
    {
      g_autoptr(GFile) file = g_file_new_for_path (initial);
      g_autoptr(GFile) dir = folder ? g_object_ref (file) : g_file_get_parent (file);
      g_autofree char *name = g_file_get_basename (file);

      if (dir != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), dir, NULL);
      if (!folder && name != NULL)
        gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
    }
  pending = g_new0 (Pending, 1);
  pending->callback = callback;
  pending->user_data = user_data;
  g_signal_connect (native, "response", G_CALLBACK (response_cb), pending);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

void
sl_file_chooser_open_folder (GtkWindow        *parent,
                             const char       *title,
                             const char       *accept,
                             SlFileChosenFunc  callback,
                             gpointer          user_data)
{
  GtkFileChooserNative *native = gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                              accept, _("_Cancel"));
  Pending *pending = g_new0 (Pending, 1);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  pending->callback = callback;
  pending->user_data = user_data;
  g_signal_connect (native, "response", G_CALLBACK (response_cb), pending);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}
