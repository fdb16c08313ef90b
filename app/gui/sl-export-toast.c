/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-toast.c: the bar that follows a successful export.
 *
 * Open hands the file to the desktop's default application; Show in
 * Folder asks the file manager (org.freedesktop.FileManager1.ShowItems)
 * to select it, and opens its folder when no file manager answers.
 * GtkFileLauncher would do both, but it is GTK 4.10. */
#include "sl-export-toast.h"
#include "sl-json.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

/* Long enough to reach for a button, short enough not to linger. */
#define SHOWN_SECONDS 20

struct _SlExportToast {
  GtkWidget  parent_instance;

  GtkWidget *revealer;
  GtkWidget *label;

  char      *path;
  guint      hide_source;
};

G_DEFINE_FINAL_TYPE (SlExportToast, sl_export_toast, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_PROBE_STATE, N_PROPS };
static GParamSpec *properties[N_PROPS];

static gboolean
hide_cb (gpointer data)
{
  SlExportToast *self = data;

  self->hide_source = 0;
  sl_export_toast_hide (self);
  return G_SOURCE_REMOVE;
}

void
sl_export_toast_show (SlExportToast *self, const char *path)
{
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (SL_IS_EXPORT_TOAST (self));
  g_return_if_fail (path != NULL);

  g_free (self->path);
  self->path = g_strdup (path);
  name = g_path_get_basename (path);
  /* Translators: %s is the file (or folder) written */
  text = g_strdup_printf (_("Exported to %s"), name);
  gtk_label_set_text (GTK_LABEL (self->label), text);
  gtk_widget_set_tooltip_text (self->label, path);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->revealer), TRUE);
  g_clear_handle_id (&self->hide_source, g_source_remove);
  self->hide_source = g_timeout_add_seconds (SHOWN_SECONDS, hide_cb, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBE_STATE]);
}

void
sl_export_toast_hide (SlExportToast *self)
{
  g_return_if_fail (SL_IS_EXPORT_TOAST (self));

  g_clear_handle_id (&self->hide_source, g_source_remove);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->revealer), FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBE_STATE]);
}

static void
launch_uri (SlExportToast *self, const char *path)
{
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
  g_autoptr(GAppLaunchContext) context = NULL;

  if (uri == NULL)
    return;
  if (native != NULL)
    context = G_APP_LAUNCH_CONTEXT (gdk_display_get_app_launch_context (gtk_widget_get_display (GTK_WIDGET (self))));
  g_app_info_launch_default_for_uri_async (uri, context, NULL, NULL, NULL);
}

static void
show_items_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(SlExportToast) self = data;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, NULL);
  g_autofree char *dir = NULL;

  if (reply != NULL || self->path == NULL)
    return;
  /* no file manager on the bus: its folder, at least */
  dir = g_str_has_suffix (self->path, "/") ? g_strdup (self->path) : g_path_get_dirname (self->path);
  launch_uri (self, dir);
}

static void
show_in_folder (SlExportToast *self)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autofree char *uri = g_filename_to_uri (self->path, NULL, NULL);
  const char *uris[] = { uri, NULL };

  if (bus == NULL || uri == NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self->path);
      launch_uri (self, dir);
      return;
    }
  g_dbus_connection_call (bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
                          "org.freedesktop.FileManager1", "ShowItems",
                          g_variant_new ("(^ass)", uris, ""), NULL, G_DBUS_CALL_FLAGS_NONE, 5000, NULL,
                          show_items_cb, g_object_ref (self));
}

static void
action_cb (GtkWidget *widget, const char *name, GVariant *param)
{
  SlExportToast *self = SL_EXPORT_TOAST (widget);

  if (self->path != NULL && g_str_equal (name, "toast.open"))
    launch_uri (self, self->path);
  else if (self->path != NULL && g_str_equal (name, "toast.show-in-folder"))
    show_in_folder (self);
  sl_export_toast_hide (self);
}

static char *
probe_state (SlExportToast *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  sl_json_member_int (b, "shown", gtk_revealer_get_reveal_child (GTK_REVEALER (self->revealer)));
  sl_json_member_string (b, "text", gtk_label_get_text (GTK_LABEL (self->label)));
  sl_json_member_string (b, "path", self->path);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_to_string (root, FALSE);
}

GtkWidget *
sl_export_toast_new (void)
{
  return g_object_new (SL_TYPE_EXPORT_TOAST, NULL);
}

static void
sl_export_toast_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_PROBE_STATE: g_value_take_string (value, probe_state (SL_EXPORT_TOAST (object))); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_export_toast_dispose (GObject *object)
{
  SlExportToast *self = SL_EXPORT_TOAST (object);

  g_clear_handle_id (&self->hide_source, g_source_remove);
  g_clear_pointer (&self->path, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_EXPORT_TOAST);
  G_OBJECT_CLASS (sl_export_toast_parent_class)->dispose (object);
}

static void
sl_export_toast_class_init (SlExportToastClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = sl_export_toast_get_property;
  object_class->dispose = sl_export_toast_dispose;
  properties[PROP_PROBE_STATE] = g_param_spec_string ("probe-state", NULL, NULL, NULL,
                                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sightline/Sightline/sl-export-toast.ui");
  gtk_widget_class_bind_template_child (widget_class, SlExportToast, revealer);
  gtk_widget_class_bind_template_child (widget_class, SlExportToast, label);
  gtk_widget_class_install_action (widget_class, "toast.open", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "toast.show-in-folder", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "toast.dismiss", NULL, action_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  /* Adwaita styles "actionbar > revealer > box" like GtkActionBar's */
  gtk_widget_class_set_css_name (widget_class, "actionbar");
  /* a bar that reports progress or a result: a screen reader's "status" */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_STATUS);
}

static void
sl_export_toast_init (SlExportToast *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Export"), -1);
}
