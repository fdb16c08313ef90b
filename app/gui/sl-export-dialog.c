/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-dialog.c: the choices of File > Export….
 *
 * The dialog lives as long as its window and only hides, so the next
 * export starts from the last one's choices; what depends on the profile
 * (GPUs, processes, ranges) is refreshed each time it is presented. */
#include "sl-export-dialog-private.h"
#include "sl-locale-format.h"
#include "sl-json.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

G_DEFINE_FINAL_TYPE (SlExportDialog, sl_export_dialog, GTK_TYPE_WINDOW)

enum { PROP_0, PROP_SESSION, PROP_PROBE_STATE, N_PROPS };
static GParamSpec *properties[N_PROPS];

enum { EXPORTED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* the extensions a format's destination gets, longest first */
static const char * const extensions[] = { ".json.gz", ".json", ".html", ".htm", ".csv" };

SlExportFormat
_sl_export_dialog_get_format (SlExportDialog *self)
{
  if (gtk_check_button_get_active (GTK_CHECK_BUTTON (self->format_csv)))
    return SL_EXPORT_CSV;
  if (gtk_check_button_get_active (GTK_CHECK_BUTTON (self->format_perfetto)))
    return SL_EXPORT_PERFETTO;
  return SL_EXPORT_HTML;
}

const char *
_sl_export_dialog_scope_name (SlExportDialog *self)
{
  if (gtk_check_button_get_active (GTK_CHECK_BUTTON (self->scope_visible)))
    return "visible";
  if (gtk_check_button_get_active (GTK_CHECK_BUTTON (self->scope_selection)))
    return "selection";
  if (gtk_check_button_get_active (GTK_CHECK_BUTTON (self->scope_bookmark)))
    return "bookmark";
  return "whole";
}

void
_sl_export_dialog_notify_state (SlExportDialog *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBE_STATE]);
}

/* ---- the destination follows the format, and the format the destination ---- */

static const char *
format_extension (SlExportFormat format)
{
  switch (format)
    {
    case SL_EXPORT_CSV: return ".csv";
    case SL_EXPORT_PERFETTO: return ".json";
    case SL_EXPORT_HTML: default: return ".html";
    }
}

static void
format_toggled_cb (SlExportDialog *self, GtkCheckButton *button)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));
  SlExportFormat format = _sl_export_dialog_get_format (self);
  g_autofree char *stem = g_strdup (text);

  if (!gtk_check_button_get_active (button))
    return;
  gtk_widget_set_visible (self->choose_folder_button, format == SL_EXPORT_CSV);
  _sl_export_dialog_notify_state (self);
  if (self->syncing || *text == '\0' || g_str_has_suffix (text, "/"))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (extensions); i++)
    if (g_str_has_suffix (stem, extensions[i]))
      {
        stem[strlen (stem) - strlen (extensions[i])] = '\0';
        break;
      }
  self->syncing = TRUE;
  g_autofree char *path = g_strconcat (stem, format_extension (format), NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path);
  self->syncing = FALSE;
}

static void
path_changed_cb (SlExportDialog *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));
  GtkWidget *buttons[] = { self->format_html, self->format_csv, self->format_perfetto };
  SlExportFormat format;

  _sl_export_dialog_notify_state (self);
  if (self->syncing || !sl_export_format_from_path (text, &format) || format == _sl_export_dialog_get_format (self))
    return;
  self->syncing = TRUE;
  gtk_check_button_set_active (GTK_CHECK_BUTTON (buttons[format]), TRUE);
  self->syncing = FALSE;
}

/* The profile's folder when we may write there, else the home folder. */
static char *
default_path (SlExportDialog *self)
{
  SlProfile *profile = sl_session_get_profile (self->session);
  g_autofree char *dir = g_path_get_dirname (profile->path);
  g_autofree char *base = g_path_get_basename (profile->path);
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  if (g_access (dir, W_OK) != 0)
    {
      g_free (dir);
      dir = g_strdup (g_get_home_dir ());
    }
  g_autofree char *name = g_strconcat (base, format_extension (_sl_export_dialog_get_format (self)), NULL);
  return g_build_filename (dir, name, NULL);
}

/* ---- what the profile offers ---------------------------------------------- */

static void
clear_box (GtkWidget *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (box)) != NULL)
    gtk_flow_box_remove (GTK_FLOW_BOX (box), child);
}

/* A checked box for one GPU or process; its id in "sl-id". */
static void
add_check (SlExportDialog *self, GtkWidget *box, const char *label, guint32 id)
{
  GtkWidget *check = gtk_check_button_new_with_label (label);

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  g_object_set_data (G_OBJECT (check), "sl-id", GUINT_TO_POINTER (id));
  g_signal_connect_swapped (check, "toggled", G_CALLBACK (_sl_export_dialog_notify_state), self);
  gtk_flow_box_append (GTK_FLOW_BOX (box), check);
}

static void
fill_gpus (SlExportDialog *self, SlProfile *profile)
{
  clear_box (self->gpu_box);
  for (guint i = 0; i < profile->n_gpus; i++)
    {
      const SlGpu *gpu = &profile->gpus[i];
      g_autofree char *label = NULL;

      if (!gpu->has_activity)
        continue;
      /* Translators: GPU device id and model, e.g. "GPU 0 · H100" */
      label = gpu->name != NULL ? g_strdup_printf (_("GPU %u · %s"), gpu->device, gpu->name)
                                : g_strdup_printf (_("GPU %u"), gpu->device);
      add_check (self, self->gpu_box, label, gpu->device);
    }
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

/* The processes with CPU events or GPU work (a GPU-only load has no CPU side). */
static void
fill_processes (SlExportDialog *self, SlProfile *profile)
{
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (guint32));
  GHashTable *names = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < profile->n_processes; i++)
    {
      g_array_append_val (pids, profile->processes[i].pid);
      if (profile->processes[i].name != SL_NONE)
        g_hash_table_insert (names, GUINT_TO_POINTER (profile->processes[i].pid),
                             (gpointer) sl_strings_get (profile->strings, profile->processes[i].name));
    }
  for (guint i = 0; i < profile->n_streams; i++)
    g_array_append_val (pids, profile->streams[i].pid);
  g_array_sort (pids, compare_u32);
  clear_box (self->process_box);
  for (guint i = 0; i < pids->len; i++)
    {
      guint32 pid = g_array_index (pids, guint32, i);
      const char *name = g_hash_table_lookup (names, GUINT_TO_POINTER (pid));
      g_autofree char *label = NULL;

      if (i > 0 && pid == g_array_index (pids, guint32, i - 1))
        continue;
      label = name != NULL ? g_strdup_printf ("%s (%u)", name, pid) : g_strdup_printf (_("Process %u"), pid);
      add_check (self, self->process_box, label, pid);
    }
  g_hash_table_unref (names);
}

static char *
range_text (const SlTimeRange *range, gint64 origin)
{
  gint64 precision = MAX (1, (range->end - range->start) / 100);
  g_autofree char *a = sl_locale_time (range->start - origin, precision);
  g_autofree char *b = sl_locale_time (range->end - origin, precision);
  g_autofree char *d = sl_locale_duration (range->end - range->start);

  return g_strdup_printf ("%s – %s, %s", a, b, d);
}

/* The scope choices say which range they are; one that does not exist is
 * insensitive (and not chosen). */
static void
update_scopes (SlExportDialog *self)
{
  SlProfile *profile = sl_session_get_profile (self->session);
  const SlTimeRange *visible = sl_session_get_visible_range (self->session);
  const SlTimeRange *selected = sl_session_get_selected_range (self->session);
  g_autofree char *v = range_text (visible, profile->start_ns);
  g_autofree char *s = selected != NULL ? range_text (selected, profile->start_ns) : NULL;
  g_autofree char *vl = g_strdup_printf (_("_Visible range (%s)"), v);
  g_autofree char *sl = s != NULL ? g_strdup_printf (_("_Selection (%s)"), s) : g_strdup (_("_Selection (none)"));
  gboolean has_bookmarks = self->bookmarks != NULL && self->bookmarks->len > 0;

  gtk_check_button_set_label (GTK_CHECK_BUTTON (self->scope_visible), vl);
  gtk_check_button_set_label (GTK_CHECK_BUTTON (self->scope_selection), sl);
  gtk_widget_set_sensitive (self->scope_selection, selected != NULL);
  gtk_widget_set_sensitive (self->scope_bookmark, has_bookmarks);
  gtk_widget_set_sensitive (self->bookmark_dropdown, has_bookmarks);
  if ((selected == NULL && gtk_check_button_get_active (GTK_CHECK_BUTTON (self->scope_selection))) ||
      (!has_bookmarks && gtk_check_button_get_active (GTK_CHECK_BUTTON (self->scope_bookmark))))
    gtk_check_button_set_active (GTK_CHECK_BUTTON (self->scope_whole), TRUE);
}

static GPtrArray *
copy_bookmarks (GPtrArray *bookmarks)
{
  GPtrArray *copy = g_ptr_array_new_full (bookmarks->len, (GDestroyNotify) sl_bookmark_free);

  for (guint i = 0; i < bookmarks->len; i++)
    g_ptr_array_add (copy, sl_bookmark_copy (bookmarks->pdata[i]));
  return copy;
}

void
sl_export_dialog_set_bookmarks (SlExportDialog *self, GPtrArray *bookmarks)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  g_return_if_fail (SL_IS_EXPORT_DIALOG (self));

  g_clear_pointer (&self->bookmarks, g_ptr_array_unref);
  /* a copy: the export reads it in a worker while the store may change */
  self->bookmarks = bookmarks != NULL ? copy_bookmarks (bookmarks) : NULL;
  for (guint i = 0; bookmarks != NULL && i < bookmarks->len; i++)
    {
      const SlBookmark *bookmark = bookmarks->pdata[i];
      gtk_string_list_append (names, *bookmark->name ? bookmark->name : _("(unnamed)"));
    }
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->bookmark_dropdown), G_LIST_MODEL (names));
  if (self->session != NULL)
    update_scopes (self);
}

void
sl_export_dialog_present (SlExportDialog *self)
{
  SlProfile *profile;

  g_return_if_fail (SL_IS_EXPORT_DIALOG (self));
  g_return_if_fail (self->session != NULL);

  profile = sl_session_get_profile (self->session);
  /* a run in progress keeps the lists it was started from */
  if (self->cancellable == NULL)
    {
      fill_gpus (self, profile);
      fill_processes (self, profile);
      update_scopes (self);
      if (*gtk_editable_get_text (GTK_EDITABLE (self->path_entry)) == '\0')
        {
          g_autofree char *path = default_path (self);
          gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path);
        }
      /* a new export: the last one's outcome is in the window's bar or gone */
      _sl_export_dialog_show_status (self, "idle", NULL);
    }
  gtk_window_present (GTK_WINDOW (self));
  _sl_export_dialog_notify_state (self);
}

/* ---- the choices as an export ---------------------------------------------- */

/* Adds the checked ids of @box to @filter unless all are checked ("all"
 * needs no filter); FALSE when none is. */
static gboolean
add_checked (GtkWidget *box, SlFilter *filter, void (*add) (SlFilter *, guint32))
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (box); c != NULL; c = gtk_widget_get_next_sibling (c), n++)
    {
      GtkWidget *check = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (c));
      guint32 id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "sl-id"));

      if (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)))
        g_array_append_val (ids, id);
    }
  if (ids->len < n)
    for (guint i = 0; i < ids->len; i++)
      add (filter, g_array_index (ids, guint32, i));
  return n == 0 || ids->len > 0;
}

/* The scope's range and its label for the report's header. */
static gboolean
scope_range (SlExportDialog *self, SlTimeRange *range, char **label)
{
  const char *scope = _sl_export_dialog_scope_name (self);
  const SlTimeRange *r = NULL;

  if (g_str_equal (scope, "visible"))
    r = sl_session_get_visible_range (self->session), *label = g_strdup (_("visible range"));
  else if (g_str_equal (scope, "selection"))
    r = sl_session_get_selected_range (self->session), *label = g_strdup (_("selection"));
  else if (g_str_equal (scope, "bookmark"))
    {
      guint i = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->bookmark_dropdown));
      const SlBookmark *bookmark = self->bookmarks != NULL && i < self->bookmarks->len ? self->bookmarks->pdata[i] : NULL;

      if (bookmark != NULL)
        {
          *range = (SlTimeRange) { bookmark->start, bookmark->end };
          /* Translators: the scope of an export, in its header */
          *label = g_strdup_printf (_("bookmark “%s”"), bookmark->name);
          return TRUE;
        }
    }
  if (r != NULL)
    *range = *r;
  return r != NULL;
}

SlExportRequest *
_sl_export_dialog_request (SlExportDialog *self, GError **error)
{
  g_autoptr(SlExportRequest) request = sl_export_request_new ();
  SlTimeRange range;

  request->format = _sl_export_dialog_get_format (self);
  request->filter = sl_filter_new ();
  if (!add_checked (self->gpu_box, request->filter, sl_filter_add_gpu))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("Choose at least one GPU."));
      return NULL;
    }
  if (!add_checked (self->process_box, request->filter, sl_filter_add_pid))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("Choose at least one process."));
      return NULL;
    }
  if (scope_range (self, &range, &request->scope_label))
    sl_filter_set_range (request->filter, range.start, range.end);
  if (sl_filter_is_empty (request->filter))
    g_clear_pointer (&request->filter, sl_filter_free);
  request->names = gtk_check_button_get_active (GTK_CHECK_BUTTON (self->names_demangled)) ? SL_NAMES_DEMANGLED
                                                                                          : SL_NAMES_SHORT;
  request->bookmarks = self->bookmarks != NULL ? g_ptr_array_ref (self->bookmarks) : NULL;
  request->include_environment = gtk_check_button_get_active (GTK_CHECK_BUTTON (self->env_check));
  return g_steal_pointer (&request);
}

void
_sl_export_dialog_exported (SlExportDialog *self, const char *path)
{
  g_signal_emit (self, signals[EXPORTED], 0, path);
}

/* While an export runs only Cancel works: the choices are its. */
void
_sl_export_dialog_set_running (SlExportDialog *self, gboolean running)
{
  /* an entry made insensitive with the focus in it warns ("did not
   * receive a focus-out event"): Cancel, the one button left, takes it */
  if (running)
    gtk_widget_grab_focus (self->cancel_button);
  for (GtkWidget *c = gtk_widget_get_first_child (gtk_window_get_child (GTK_WINDOW (self)));
       c != NULL; c = gtk_widget_get_next_sibling (c))
    if (c != self->progress_bar && c != self->status_label)
      gtk_widget_set_sensitive (c, !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "export.run", !running);
  gtk_widget_set_visible (self->progress_bar, running);
}

/* ---- the state for the GUI tests --------------------------------------------- */

static void
add_checks (JsonBuilder *b, const char *name, GtkWidget *box)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (GtkWidget *c = gtk_widget_get_first_child (box); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *check = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (c));

      json_builder_begin_object (b);
      sl_json_member_int (b, "id", GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "sl-id")));
      sl_json_member_string (b, "label", gtk_check_button_get_label (GTK_CHECK_BUTTON (check)));
      sl_json_member_int (b, "checked", gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static char *
probe_state (SlExportDialog *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  sl_json_member_int (b, "shown", gtk_widget_get_visible (GTK_WIDGET (self)));
  sl_json_member_string (b, "format", sl_export_format_name (_sl_export_dialog_get_format (self)));
  sl_json_member_string (b, "scope", _sl_export_dialog_scope_name (self));
  sl_json_member_int (b, "selection_sensitive", gtk_widget_get_sensitive (self->scope_selection));
  sl_json_member_int (b, "bookmark_sensitive", gtk_widget_get_sensitive (self->scope_bookmark));
  sl_json_member_string (b, "names", gtk_check_button_get_active (GTK_CHECK_BUTTON (self->names_demangled))
                                       ? "demangled" : "short");
  sl_json_member_int (b, "environment", gtk_check_button_get_active (GTK_CHECK_BUTTON (self->env_check)));
  sl_json_member_string (b, "destination", gtk_editable_get_text (GTK_EDITABLE (self->path_entry)));
  add_checks (b, "gpus", self->gpu_box);
  add_checks (b, "processes", self->process_box);
  sl_json_member_string (b, "state", self->state);
  sl_json_member_double (b, "progress", self->fraction);
  sl_json_member_string (b, "last_path", self->last_path);
  sl_json_member_string (b, "error", self->error);
  sl_json_member_string (b, "status", gtk_widget_get_visible (self->status_label)
                                        ? gtk_label_get_text (GTK_LABEL (self->status_label)) : NULL);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_to_string (root, FALSE);
}

/* ---- the object ---------------------------------------------------------------- */

void
sl_export_dialog_set_session (SlExportDialog *self, SlSession *session)
{
  g_return_if_fail (SL_IS_EXPORT_DIALOG (self));
  g_return_if_fail (session == NULL || SL_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;
  /* another profile: its own folder and name */
  if (self->cancellable == NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->path_entry), "");
  if (session == NULL)
    _sl_export_dialog_hide (self);
  else if (gtk_widget_get_visible (GTK_WIDGET (self)))
    sl_export_dialog_present (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

SlExportDialog *
sl_export_dialog_new (GtkWindow *parent, SlSession *session)
{
  return g_object_new (SL_TYPE_EXPORT_DIALOG, "transient-for", parent, "session", session, NULL);
}

static void
action_cb (GtkWidget *widget, const char *name, GVariant *param)
{
  SlExportDialog *self = SL_EXPORT_DIALOG (widget);

  if (g_str_equal (name, "export.run"))
    _sl_export_dialog_run (self);
  else if (g_str_equal (name, "export.cancel"))
    _sl_export_dialog_cancel (self);
  else
    _sl_export_dialog_choose (self, g_str_equal (name, "export.choose-folder"));
}

static void
sl_export_dialog_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlExportDialog *self = SL_EXPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_SESSION: g_value_set_object (value, self->session); break;
    case PROP_PROBE_STATE: g_value_take_string (value, probe_state (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_export_dialog_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  SlExportDialog *self = SL_EXPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_SESSION: sl_export_dialog_set_session (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_export_dialog_dispose (GObject *object)
{
  SlExportDialog *self = SL_EXPORT_DIALOG (object);

  _sl_export_dialog_run_dispose (self);
  g_clear_object (&self->session);
  g_clear_pointer (&self->bookmarks, g_ptr_array_unref);
  g_clear_pointer (&self->last_path, g_free);
  g_clear_pointer (&self->error, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_EXPORT_DIALOG);
  G_OBJECT_CLASS (sl_export_dialog_parent_class)->dispose (object);
}

static void
bind_children (GtkWidgetClass *widget_class)
{
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, SlExportDialog, name)
  BIND (format_html); BIND (format_csv); BIND (format_perfetto);
  BIND (scope_whole); BIND (scope_visible); BIND (scope_selection); BIND (scope_bookmark);
  BIND (bookmark_dropdown); BIND (gpu_box); BIND (process_box);
  BIND (names_short); BIND (names_demangled); BIND (env_check); BIND (env_warning);
  BIND (path_entry); BIND (choose_folder_button); BIND (progress_bar); BIND (status_label);
  BIND (cancel_button); BIND (export_button);
#undef BIND
}

static void
sl_export_dialog_class_init (SlExportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = sl_export_dialog_get_property;
  object_class->set_property = sl_export_dialog_set_property;
  object_class->dispose = sl_export_dialog_dispose;
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION, rw);
  properties[PROP_PROBE_STATE] = g_param_spec_string ("probe-state", NULL, NULL, NULL,
                                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[EXPORTED] = g_signal_new ("exported", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                    NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sightline/Sightline/sl-export-dialog.ui");
  bind_children (widget_class);
  gtk_widget_class_install_action (widget_class, "export.run", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "export.cancel", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "export.choose-file", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "export.choose-folder", NULL, action_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "export.cancel", NULL);
}

static void
sl_export_dialog_init (SlExportDialog *self)
{
  GtkWidget *formats[3];

  gtk_widget_init_template (GTK_WIDGET (self));
  self->state = "idle";
  formats[0] = self->format_html, formats[1] = self->format_csv, formats[2] = self->format_perfetto;
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    g_signal_connect_swapped (formats[i], "toggled", G_CALLBACK (format_toggled_cb), self);
  g_signal_connect_swapped (self->path_entry, "changed", G_CALLBACK (path_changed_cb), self);
  g_signal_connect_swapped (self->scope_whole, "toggled", G_CALLBACK (_sl_export_dialog_notify_state), self);
  g_signal_connect_swapped (self->scope_visible, "toggled", G_CALLBACK (_sl_export_dialog_notify_state), self);
  g_signal_connect_swapped (self->scope_selection, "toggled", G_CALLBACK (_sl_export_dialog_notify_state), self);
  g_signal_connect_swapped (self->scope_bookmark, "toggled", G_CALLBACK (_sl_export_dialog_notify_state), self);
  g_signal_connect_swapped (self->names_demangled, "toggled", G_CALLBACK (_sl_export_dialog_notify_state), self);
  g_signal_connect_swapped (self->env_check, "toggled", G_CALLBACK (_sl_export_dialog_notify_state), self);
  g_signal_connect_swapped (self, "notify::visible", G_CALLBACK (_sl_export_dialog_notify_state), self);
}
