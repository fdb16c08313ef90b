/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-dialog-run.c: from the dialog's choices to a file.
 *
 * The destination comes from the path entry (typed, or set by the file
 * chooser); an existing file is replaced only after asking.  The export
 * runs in a worker (sl-export-job.c); Cancel stops it, and
 * sl_export_to_path() guarantees that a cancelled or failed export leaves
 * no file behind.  On success the dialog hides and says "exported". */
#include "sl-export-dialog-private.h"
#include "sl-file-chooser.h"

#include <glib/gi18n.h>

/* A static @state, and @text (nullable) shown under the choices. */
void
_sl_export_dialog_show_status (SlExportDialog *self, const char *state, const char *text)
{
  self->state = state;
  gtk_label_set_text (GTK_LABEL (self->status_label), text != NULL ? text : "");
  gtk_widget_set_visible (self->status_label, text != NULL);
  if (g_str_equal (state, "failed"))
    gtk_widget_add_css_class (self->status_label, "error");
  else
    gtk_widget_remove_css_class (self->status_label, "error");
  _sl_export_dialog_notify_state (self);
}

static void
progress_cb (double fraction, gpointer data)
{
  SlExportDialog *self = data;

  /* a late update of a run already over */
  if (self->cancellable == NULL)
    return;
  self->fraction = fraction;
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), fraction);
  _sl_export_dialog_notify_state (self);
}

static void
export_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(SlExportDialog) self = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_steal_pointer (&self->running_path);

  g_clear_object (&self->cancellable);
  if (self->progress_bar == NULL)
    return;   /* destroyed with its window meanwhile */
  _sl_export_dialog_set_running (self, FALSE);
  if (sl_export_job_finish (result, &error))
    {
      g_clear_pointer (&self->error, g_free);
      g_free (self->last_path);
      self->last_path = g_strdup (path);
      self->fraction = 1.0;
      _sl_export_dialog_show_status (self, "done", NULL);
      _sl_export_dialog_hide (self);
      _sl_export_dialog_exported (self, path);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _sl_export_dialog_show_status (self, "cancelled", _("The export was cancelled; no file was written."));
  else
    {
      g_free (self->error);
      self->error = g_strdup (error->message);
      _sl_export_dialog_show_status (self, "failed", error->message);
    }
}

/* ~ and relative paths as a shell would take them. */
static char *
expand_path (const char *text)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (text));
  gboolean dir = g_str_has_suffix (trimmed, "/");
  g_autofree char *abs = NULL;

  if (g_str_has_prefix (trimmed, "~/"))
    abs = g_build_filename (g_get_home_dir (), trimmed + 2, NULL);
  else
    abs = g_canonicalize_filename (trimmed, NULL);
  /* the trailing "/" says "a folder" to sl_export_to_path() */
  return dir && !g_str_has_suffix (abs, "/") ? g_strconcat (abs, "/", NULL) : g_steal_pointer (&abs);
}

static void
start (SlExportDialog *self, const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlExportRequest) request = _sl_export_dialog_request (self, &error);

  if (request == NULL)
    {
      _sl_export_dialog_show_status (self, "failed", error->message);
      return;
    }
  self->cancellable = g_cancellable_new ();
  g_free (self->running_path);
  self->running_path = g_strdup (path);
  self->fraction = 0;
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  _sl_export_dialog_set_running (self, TRUE);
  {
    /* Translators: %s is the destination's path */
    g_autofree char *text = g_strdup_printf (_("Exporting to %s…"), path);
    _sl_export_dialog_show_status (self, "running", text);
  }
  sl_export_job_run (sl_session_get_profile (self->session), g_steal_pointer (&request), path,
                     self->cancellable, progress_cb, self, export_done_cb, g_object_ref (self));
}

/* ---- replacing what is there ------------------------------------------------- */

static void
question_response_cb (GtkDialog *question, int response, gpointer data)
{
  SlExportDialog *self = data;
  g_autofree char *path = g_strdup (g_object_get_data (G_OBJECT (question), "sl-path"));

  self->question = NULL;
  gtk_window_destroy (GTK_WINDOW (question));
  /* the focus back where the user was (without a window manager, nowhere) */
  gtk_window_present (GTK_WINDOW (self));
  if (response == GTK_RESPONSE_ACCEPT)
    start (self, path);
  else
    _sl_export_dialog_show_status (self, "idle", NULL);
}

/* What an export to @path would replace: the file, or a folder's
 * kernels.csv; NULL when nothing. */
static char *
replaced_file (const char *path)
{
  g_autofree char *kernels = g_build_filename (path, "kernels.csv", NULL);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return g_file_test (kernels, G_FILE_TEST_EXISTS) ? g_steal_pointer (&kernels) : NULL;
  return g_file_test (path, G_FILE_TEST_EXISTS) ? g_strdup (path) : NULL;
}

/* GtkAlertDialog is 4.10: GtkMessageDialog it is. */
static void
ask_replace (SlExportDialog *self, const char *path, const char *replaced)
{
  g_autofree char *name = g_path_get_basename (replaced);
  g_autofree char *dir = g_path_get_dirname (replaced);
  GtkWidget *question;

  question = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                     GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                     /* Translators: %s is a file name */
                                     _("Replace “%s”?"), name);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (question),
                                            /* Translators: %s is a folder */
                                            _("A file with this name already exists in “%s”. Replacing it overwrites its contents."),
                                            dir);
  gtk_dialog_add_button (GTK_DIALOG (question), _("_Cancel"), GTK_RESPONSE_CANCEL);
  gtk_dialog_add_button (GTK_DIALOG (question), _("_Replace"), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (question), GTK_RESPONSE_ACCEPT),
                            "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (question), GTK_RESPONSE_CANCEL);
  g_object_set_data_full (G_OBJECT (question), "sl-path", g_strdup (path), g_free);
  g_signal_connect (question, "response", G_CALLBACK (question_response_cb), self);
  self->question = question;
  _sl_export_dialog_show_status (self, "confirming", NULL);
  gtk_window_present (GTK_WINDOW (question));
}

void
_sl_export_dialog_run (SlExportDialog *self)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->path_entry))));
  g_autofree char *path = NULL;
  g_autofree char *replaced = NULL;

  if (self->cancellable != NULL || self->question != NULL || self->session == NULL)
    return;
  if (*text == '\0')
    {
      _sl_export_dialog_show_status (self, "failed", _("Choose where to save the export."));
      return;
    }
  path = expand_path (text);
  replaced = replaced_file (path);
  if (replaced != NULL)
    ask_replace (self, path, replaced);
  else
    start (self, path);
}

/* Cancel stops a running export, else closes the dialog. */
void
_sl_export_dialog_cancel (SlExportDialog *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  else
    _sl_export_dialog_hide (self);
}

/* Hidden with the focus in the entry, GTK on X11 warns that its text
 * "did not receive a focus-out event": the focus leaves first. */
void
_sl_export_dialog_hide (SlExportDialog *self)
{
  gtk_window_set_focus (GTK_WINDOW (self), NULL);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

void
_sl_export_dialog_run_dispose (SlExportDialog *self)
{
  /* the worker finishes on its own, holding what it needs */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->running_path, g_free);
  if (self->question != NULL)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&self->question)));
}

/* ---- the destination from a file chooser ---------------------------------------- */

static void
chosen_cb (GFile *file, gpointer data)
{
  g_autoptr(SlExportDialog) self = data;
  g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
  gboolean folder = GPOINTER_TO_INT (g_object_steal_data (G_OBJECT (self), "sl-choosing-folder"));

  if (path == NULL || self->path_entry == NULL)
    return;
  if (folder)
    {
      g_autofree char *dir = g_str_has_suffix (path, "/") ? g_strdup (path) : g_strconcat (path, "/", NULL);
      gtk_editable_set_text (GTK_EDITABLE (self->path_entry), dir);
    }
  else
    gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path);
}

void
_sl_export_dialog_choose (SlExportDialog *self, gboolean folder)
{
  g_autofree char *initial = expand_path (gtk_editable_get_text (GTK_EDITABLE (self->path_entry)));

  if (folder && !g_file_test (initial, G_FILE_TEST_IS_DIR))
    {
      char *dir = g_path_get_dirname (initial);
      g_free (initial);
      initial = dir;
    }
  g_object_set_data (G_OBJECT (self), "sl-choosing-folder", GINT_TO_POINTER (folder));
  sl_file_chooser_save (GTK_WINDOW (self), folder ? _("Export to a Folder") : _("Export To"), initial, folder,
                        chosen_cb, g_object_ref (self));
}
