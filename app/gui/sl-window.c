/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window.c: one window per profile: its welcome, loading, error and
 * profile pages.  Loading, actions, drops and the test probe live in the
 * other sl-window-*.c files. */
#include "sl-window-private.h"
#include "sl-flame.h"
#include "sl-load-bar.h"
#include "sl-recent.h"
#include "sl-recent-row.h"
#include "sl-settings.h"

#include <glib/gi18n.h>

enum {
  PROP_0,
  PROP_FILE,
  PROP_SESSION,
  PROP_LOADER,
  N_PROPS
};

enum {
  OPEN_REQUEST,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SlWindow, sl_window, GTK_TYPE_APPLICATION_WINDOW)

/* ---- pages ------------------------------------------------------------------ */

const char *
_sl_window_get_page (SlWindow *self)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (self->stack));
}

void
_sl_window_set_page (SlWindow *self, const char *page)
{
  gboolean profile = g_strcmp0 (page, "profile") == 0;

  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), page);
  _sl_window_update_actions (self, page);
  gtk_widget_set_visible (self->details_button, profile);
  gtk_widget_set_visible (self->panel_button, profile);
  if (profile)
    gtk_widget_grab_focus (self->timeline);
}

void
_sl_window_set_titles (SlWindow *self, const char *title, const char *subtitle)
{
  gtk_label_set_text (GTK_LABEL (self->title_label), title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (GTK_LABEL (self->subtitle_label), subtitle ? subtitle : "");
  gtk_widget_set_visible (self->subtitle_label, subtitle != NULL && *subtitle);
}

void
_sl_window_show_error (SlWindow *self, const char *title, const char *message)
{
  gtk_label_set_text (GTK_LABEL (self->error_title), title);
  gtk_label_set_text (GTK_LABEL (self->error_message), message);
  _sl_window_set_page (self, "error");
  /* Not the selectable message: it would show up all selected.  Setting
   * the window's focus also holds before the window is first shown. */
  gtk_window_set_focus (GTK_WINDOW (self), self->error_open_button);
  gtk_label_select_region (GTK_LABEL (self->error_message), 0, 0);
}

/* Asks whoever owns the window (the application) to show @file: it may
 * already be open elsewhere, or go to a new window. */
void
_sl_window_request_open (SlWindow *self, GFile *file)
{
  g_signal_emit (self, signals[OPEN_REQUEST], 0, file);
}

/* ---- the welcome page's recent profiles ---------------------------------------- */

static void
recent_row_activated_cb (SlWindow      *self,
                         GtkListBoxRow *row,
                         GtkListBox    *box)
{
  g_autoptr(GFile) file = g_file_new_for_uri (sl_recent_row_get_uri (SL_RECENT_ROW (row)));

  _sl_window_request_open (self, file);
}

void
sl_window_refresh_recent (SlWindow *self)
{
  GList *items = sl_recent_list ();
  GtkWidget *child;

  g_return_if_fail (SL_IS_WINDOW (self));
  while ((child = gtk_widget_get_first_child (self->recent_list)))
    gtk_list_box_remove (GTK_LIST_BOX (self->recent_list), child);
  for (GList *l = items; l; l = l->next)
    gtk_list_box_append (GTK_LIST_BOX (self->recent_list), sl_recent_row_new (l->data));
  gtk_widget_set_visible (self->recent_list, items != NULL);
  gtk_widget_set_visible (self->recent_title, items != NULL);
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* ---- public --------------------------------------------------------------------- */

gboolean
sl_window_is_empty (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);
  return self->session == NULL && self->loader == NULL;
}

GFile *
sl_window_get_file (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return self->file;
}

SlSession *
sl_window_get_session (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return self->session;
}

SlProfileLoader *
sl_window_get_loader (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return self->loader;
}

SlWindow *
sl_window_new (GtkApplication *app)
{
  SlWindow *self = g_object_new (SL_TYPE_WINDOW, "application", app, NULL);

  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->menu_button),
                                  G_MENU_MODEL (gtk_application_get_menu_by_id (app, "primary-menu")));
  sl_window_refresh_recent (self);
  return self;
}

/* ---- state the other files change ---------------------------------------------- */

void
_sl_window_set_file (SlWindow *self, GFile *file)
{
  if (g_set_object (&self->file, file))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
}

void
_sl_window_set_loader (SlWindow *self, SlProfileLoader *loader)
{
  if (!g_set_object (&self->loader, loader))
    return;
  /* a replaced loader, still finishing in its thread, no longer moves the bar */
  g_binding_group_set_source (self->progress_bindings, loader);
  self->staged_shown = FALSE;
  _sl_window_update_actions (self, _sl_window_get_page (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADER]);
}

void
_sl_window_set_session (SlWindow *self, SlSession *session)
{
  if (!g_set_object (&self->session, session))
    return;
  sl_timeline_set_session (SL_TIMELINE (self->timeline), session);
  sl_details_pane_set_session (SL_DETAILS_PANE (self->details), session);
  sl_side_panel_set_session (SL_SIDE_PANEL (self->side_panel), session);
  sl_flame_set_session (SL_FLAME (gtk_widget_get_first_child (self->flame_slot)), session);
  sl_timeline_legend_set_model (SL_TIMELINE_LEGEND (self->legend), session ? sl_session_get_model (session) : NULL);
  _sl_window_bind_history (self);
  _sl_window_sync_exact_names (self);
  _sl_window_rows_session_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/* ---- GObject ---------------------------------------------------------------------- */

static void
sl_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlWindow *self = SL_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_LOADER:
      g_value_set_object (value, self->loader);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_window_dispose (GObject *object)
{
  SlWindow *self = SL_WINDOW (object);

  g_clear_pointer (&self->probe, _sl_window_probe_free);
  g_clear_handle_id (&self->fit_source, g_source_remove);
  _sl_window_cancel_cpu_side (self);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->loader);
  g_clear_object (&self->progress_bindings);
  _sl_window_rows_dispose (self);
  _sl_window_clock_dispose (self);
  g_clear_object (&self->file);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_WINDOW);
  G_OBJECT_CLASS (sl_window_parent_class)->dispose (object);
}

static void
sl_window_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  GTK_WIDGET_CLASS (sl_window_parent_class)->size_allocate (widget, width, height, baseline);
  _sl_window_queue_fit (SL_WINDOW (widget), width);
}

static void
bind_template_children (GtkWidgetClass *widget_class)
{
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sightline/Sightline/sl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SlWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, details_button);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, panel_button);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, recent_title);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, phase_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, error_title);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, error_message);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, error_open_button);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, side_paned);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, side_panel);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, timeline_paned);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, flame_slot);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, legend);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, empty_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, details);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, details_scroller);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, load_bar);
  gtk_widget_class_bind_template_callback (widget_class, recent_row_activated_cb);
}

static void
sl_window_class_init (SlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sl_window_dispose;
  object_class->get_property = sl_window_get_property;
  GTK_WIDGET_CLASS (klass)->size_allocate = sl_window_size_allocate;

  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, ro);
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION, ro);
  properties[PROP_LOADER] = g_param_spec_object ("loader", NULL, NULL, SL_TYPE_PROFILE_LOADER, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* the window wants @file shown; the application decides where */
  signals[OPEN_REQUEST] = g_signal_new ("open-request", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_FILE);

  g_type_ensure (SL_TYPE_TIMELINE);
  g_type_ensure (SL_TYPE_TIMELINE_LEGEND);
  g_type_ensure (SL_TYPE_DETAILS_PANE);
  g_type_ensure (SL_TYPE_LOAD_BAR);
  g_type_ensure (SL_TYPE_SIDE_PANEL);
  bind_template_children (GTK_WIDGET_CLASS (klass));
}

static void
sl_window_init (SlWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  _sl_window_bind_progress (self);
  _sl_window_add_actions (self);
  _sl_window_bookmarks_init (self);
  _sl_window_add_drop_target (self);
  gtk_paned_set_position (GTK_PANED (self->side_paned), 380);
  gtk_paned_set_position (GTK_PANED (self->paned), 760);
  _sl_window_set_page (self, "welcome");
  /* the flame stack lives in its slot from the start, so the probe sees it */
  gtk_box_append (GTK_BOX (self->flame_slot), sl_flame_new ());
  sl_flame_set_time_axis (SL_FLAME (gtk_widget_get_first_child (self->flame_slot)), SL_TIMELINE (self->timeline));
  _sl_window_rows_init (self);
  _sl_window_export_init (self);
  self->probe = _sl_window_probe_new (self);
  sl_settings_track_window (GTK_WINDOW (self));
  sl_settings_track_time_display (g_action_map_lookup_action (G_ACTION_MAP (self), "absolute-time"));
  _sl_window_clock_init (self);
}
