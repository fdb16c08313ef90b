/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare-export.c: the comparison window's Export Report… (Ctrl+E):
 * a save dialog (GtkFileChooserNative, so it works in the Flatpak), then
 * the HTML report written by a worker (sl_export_compare_html_to_path:
 * atomic, no file on error or cancel) and the path or the error shown in
 * the header bar.  The report is the one `sightline-cli compare A B
 * --html OUT` writes (same comparison: default categories, ±5 %). */
#include "sl-compare-window-private.h"
#include "sl-export-compare-html.h"

#include <string.h>
#include <glib/gi18n.h>

typedef struct {
  SlCompareReport report;
  char           *path;
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  g_free (job->path);
  g_free (job);
}

static void
export_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  ExportJob *job = data;
  GError *error = NULL;

  /* The profiles, comparison and iterations are immutable and the task
   * holds the window that owns them. */
  if (sl_export_compare_html_to_path (&job->report, job->path, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
export_done_cb (GObject *source, GAsyncResult *res, gpointer data)
{
  SlCompareWindow *self = SL_COMPARE_WINDOW (source);
  ExportJob *job = g_task_get_task_data (G_TASK (res));
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (g_task_propagate_boolean (G_TASK (res), &error))
    text = g_strdup_printf (_("Report saved to %s"), job->path);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  else
    text = g_strdup_printf (_("Export failed: %s"), error->message);
  gtk_label_set_text (GTK_LABEL (self->export_label), text);
  gtk_widget_set_tooltip_text (self->export_label, text);
  gtk_widget_set_sensitive (self->export_button, TRUE);
  g_free (self->export_path);
  self->export_path = error == NULL ? g_strdup (job->path) : NULL;
  _sl_compare_probe_changed (self);
}

void
_sl_compare_export_to (SlCompareWindow *self, const char *path)
{
  ExportJob *job = g_new0 (ExportJob, 1);
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (self->result != NULL);
  job->report = (SlCompareReport) {
    .profiles = self->profiles, .n_profiles = self->n, .compare = self->result->compare,
    .iterations = self->result->iterations, .threshold = 0.05,
  };
  job->path = g_strdup (path);
  g_clear_object (&self->export_cancellable);
  self->export_cancellable = g_cancellable_new ();
  gtk_widget_set_sensitive (self->export_button, FALSE);
  gtk_label_set_text (GTK_LABEL (self->export_label), _("Writing the report…"));
  task = g_task_new (self, self->export_cancellable, export_done_cb, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) export_job_free);
  g_task_run_in_thread (task, export_thread);
}

static void
chooser_response_cb (GtkNativeDialog *native, int response, gpointer data)
{
  SlCompareWindow *self = SL_COMPARE_WINDOW (data);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        _sl_compare_export_to (self, path);
    }
  g_object_unref (native);
  g_object_unref (self);
}

/* "a-vs-b.html" from the first and last profile's names. */
static char *
suggested_name (SlCompareWindow *self)
{
  g_autofree char *a = g_file_get_basename (self->files[0]);
  g_autofree char *b = g_file_get_basename (self->files[self->n - 1]);
  char *dot;

  if ((dot = strrchr (a, '.')) != NULL)
    *dot = '\0';
  if ((dot = strrchr (b, '.')) != NULL)
    *dot = '\0';
  return g_strdup_printf ("%s-vs-%s.html", a, b);
}

static void
export_activated_cb (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  SlCompareWindow *self = SL_COMPARE_WINDOW (data);
  g_autofree char *name = suggested_name (self);
  GtkFileChooserNative *native;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->result == NULL)
    return;
  native = gtk_file_chooser_native_new (_("Export Comparison Report"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
  gtk_file_filter_set_name (filter, _("HTML report"));
  gtk_file_filter_add_suffix (filter, "html");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
  /* GtkFileChooserNative asks before overwriting by itself (GTK 4). */
  g_signal_connect (native, "response", G_CALLBACK (chooser_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

GtkWidget *
_sl_compare_export_new (SlCompareWindow *self, GtkWidget *header)
{
  GSimpleAction *action = g_simple_action_new ("export-report", NULL);
  GtkEventController *shortcuts = gtk_shortcut_controller_new ();

  g_signal_connect (action, "activate", G_CALLBACK (export_activated_cb), self);
  g_simple_action_set_enabled (action, FALSE);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));
  g_object_unref (action);
  /* Ctrl+E as in the main window's File → Export…; local to this window. */
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>e"),
                                                          gtk_named_action_new ("win.export-report")));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
  self->export_button = gtk_button_new_with_mnemonic (_("_Export Report…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->export_button), "win.export-report");
  gtk_widget_set_tooltip_text (self->export_button, _("Save the comparison as a self-contained HTML report (Ctrl+E)"));
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), self->export_button);
  self->export_label = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->export_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (self->export_label), 50);
  gtk_widget_add_css_class (self->export_label, "dim-label");
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), self->export_label);
  return self->export_button;
}

void
_sl_compare_export_enable (SlCompareWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "export-report");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->result != NULL);
}

void
_sl_compare_export_dispose (SlCompareWindow *self)
{
  if (self->export_cancellable != NULL)
    g_cancellable_cancel (self->export_cancellable);
  g_clear_object (&self->export_cancellable);
  g_clear_pointer (&self->export_path, g_free);
}
