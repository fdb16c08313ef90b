/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-actions.c: the win.* actions (menus, buttons and shortcuts). */
#include "sl-window-private.h"
#include "sl-compare-window.h"
#include "sl-file-chooser.h"
#include "sl-ui-state.h"

#include <glib/gi18n.h>

static void
file_chosen_cb (GFile *file, gpointer data)
{
  g_autoptr(SlWindow) self = data;

  if (file != NULL)
    _sl_window_request_open (self, file);
}

static void
open_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;

  sl_file_chooser_open (GTK_WINDOW (self), file_chosen_cb, g_object_ref (self));
}

static void
open_recent_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  _sl_window_request_open (SL_WINDOW (data), file);
}

static void
reload_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  g_autoptr(GFile) file = self->file ? g_object_ref (self->file) : NULL;

  if (file != NULL)
    sl_window_load (self, file);
}

static void
cancel_load_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  g_autoptr(GFile) shown = NULL;

  _sl_window_cancel_load (self);
  /* back to the profile shown before, if any */
  if (self->session != NULL)
    shown = g_file_new_for_path (sl_session_get_profile (self->session)->path);
  _sl_window_set_file (self, shown);
  _sl_window_show_current (self);
}

static void
close_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  gtk_window_close (GTK_WINDOW (data));
}

/* Zoom, fit and selection actions are the timeline's own. */
static void
timeline_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  g_autofree char *name = g_strconcat ("timeline.", g_action_get_name (G_ACTION (action)), NULL);

  gtk_widget_activate_action (self->timeline, name, NULL);
}

/* An entry of Show Hidden Rows: the row's key. */
static void
show_row_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;

  gtk_widget_activate_action_variant (self->timeline, "timeline.show-row", param);
}

static void
go_back_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;

  if (self->session != NULL)
    sl_session_go_back (self->session);
}

static void
go_forward_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;

  if (self->session != NULL)
    sl_session_go_forward (self->session);
}

static void
absolute_time_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  SlWindow *self = data;

  g_simple_action_set_state (action, state);
  sl_timeline_set_relative_time (SL_TIMELINE (self->timeline), !g_variant_get_boolean (state));
}

static void
show_details_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  SlWindow *self = data;

  g_simple_action_set_state (action, state);
  gtk_widget_set_visible (self->details_scroller, g_variant_get_boolean (state));
  _sl_window_pane_toggled (self, self->details_scroller, g_variant_get_boolean (state));
}

static void
show_panel_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  SlWindow *self = data;

  g_simple_action_set_state (action, state);
  gtk_widget_set_visible (self->side_panel, g_variant_get_boolean (state));
  sl_ui_state_set_boolean ("side-panel-shown", g_variant_get_boolean (state));
  _sl_window_pane_toggled (self, self->side_panel, g_variant_get_boolean (state));
}

/* Shows the side panel on page @param ("tree", "search", "summary") with
 * the focus in it: Ctrl+F is the search page's. */
static void
show_page_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;

  g_action_group_change_action_state (G_ACTION_GROUP (self), "show-panel", g_variant_new_boolean (TRUE));
  sl_side_panel_present_page (SL_SIDE_PANEL (self->side_panel), g_variant_get_string (param, NULL));
}

static void
show_flame_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  SlWindow *self = data;

  g_simple_action_set_state (action, state);
  gtk_widget_set_visible (self->flame_slot, g_variant_get_boolean (state));
}

/* F3 and Shift+F3: through what a view highlighted (search matches, a
 * tree row's instances, a histogram's bins). */
static void
step_match_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  gboolean next = g_str_equal (g_action_get_name (G_ACTION (action)), "next-match");

  if (self->session != NULL && !sl_session_step_highlight (self->session, next ? 1 : -1))
    gtk_widget_error_bell (GTK_WIDGET (self));
}

/* The session's "exact-names" follows the action; views read the session. */
static void
exact_names_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  SlWindow *self = data;

  g_simple_action_set_state (action, state);
  if (self->session != NULL)
    sl_session_set_exact_names (self->session, g_variant_get_boolean (state));
}

static void
export_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  _sl_window_export (SL_WINDOW (data));
}

/* The profile shown is A, the chosen ones B, C…: a comparison window. */
static void
compare_chosen_cb (GPtrArray *chosen, gpointer data)
{
  g_autoptr(SlWindow) self = data;
  g_autoptr(GPtrArray) files = NULL;
  SlCompareWindow *window;

  if (chosen->len == 0 || self->session == NULL)
    return;
  files = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (files, g_file_new_for_path (sl_session_get_profile (self->session)->path));
  for (guint i = 0; i < chosen->len; i++)
    g_ptr_array_add (files, g_object_ref (chosen->pdata[i]));
  window = sl_compare_window_new (gtk_window_get_application (GTK_WINDOW (self)), (GFile **) files->pdata, files->len);
  gtk_window_present (GTK_WINDOW (window));
}

static void
compare_with_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;

  sl_file_chooser_open_many (GTK_WINDOW (self), _("Compare With"), _("_Compare"), compare_chosen_cb, g_object_ref (self));
}

static const GActionEntry win_entries[] = {
  { "open", open_action },
  { "open-recent", open_recent_action, "s" },
  { "reload", reload_action },
  { "cancel-load", cancel_load_action },
  { "close", close_action },
  { "export", export_action },
  { "compare-with", compare_with_action },
  { "zoom-in", timeline_action },
  { "zoom-out", timeline_action },
  { "fit", timeline_action },
  { "zoom-to-selection", timeline_action },
  { "clear-selection", timeline_action },
  { "go-back", go_back_action },
  { "go-forward", go_forward_action },
  { "absolute-time", NULL, NULL, "false", absolute_time_changed },
  { "show-details", NULL, NULL, "true", show_details_changed },
  { "exact-names", NULL, NULL, "false", exact_names_changed },
  { "show-panel", NULL, NULL, "true", show_panel_changed },
  { "show-page", show_page_action, "s" },
  { "show-flame", NULL, NULL, "false", show_flame_changed },
  { "hide-row", timeline_action },
  { "pin-row", timeline_action },
  { "show-row", show_row_action, "s" },
  { "show-all-rows", timeline_action },
  { "reset-row-layout", timeline_action },
  { "next-match", step_match_action },
  { "previous-match", step_match_action },
};

/* Actions that act on the profile shown. */
static const char * const profile_actions[] = {
  "zoom-in", "zoom-out", "fit", "zoom-to-selection", "clear-selection", "absolute-time", "show-details",
  "exact-names", "show-panel", "show-page", "show-flame", "next-match", "previous-match",
  "hide-row", "pin-row", "show-row", "show-all-rows", "reset-row-layout", "compare-with", "export",
  "add-bookmark", "next-bookmark", "previous-bookmark", "export-bookmarks", "import-bookmarks",
  "bookmark-range", "show-bookmark",
};

static void
set_enabled (SlWindow *self, const char *name, gboolean enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

void
_sl_window_update_actions (SlWindow *self, const char *page)
{
  gboolean profile = g_strcmp0 (page, "profile") == 0;
  gboolean loading = g_strcmp0 (page, "loading") == 0;

  for (guint i = 0; i < G_N_ELEMENTS (profile_actions); i++)
    set_enabled (self, profile_actions[i], profile);
  set_enabled (self, "reload", self->file != NULL && !loading);
  /* the loading page, or the CPU side of GPU rows shown */
  set_enabled (self, "cancel-load", loading || self->staged_shown || self->cpu_cancellable != NULL);
}

/* Back and forward are enabled when the session has somewhere to go. */
void
_sl_window_bind_history (SlWindow *self)
{
  static const char * const names[][2] = { { "go-back", "can-go-back" }, { "go-forward", "can-go-forward" } };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), names[i][0]);

      if (self->session != NULL)
        g_object_bind_property (self->session, names[i][1], action, "enabled", G_BINDING_SYNC_CREATE);
      else
        g_simple_action_set_enabled (G_SIMPLE_ACTION (action), FALSE);
    }
}

/* A new session (another profile) starts with the window's choice. */
void
_sl_window_sync_exact_names (SlWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "exact-names");
  g_autoptr(GVariant) state = g_action_get_state (action);

  if (self->session != NULL)
    sl_session_set_exact_names (self->session, g_variant_get_boolean (state));
}

void
_sl_window_add_actions (SlWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_entries, G_N_ELEMENTS (win_entries), self);
  /* the panel as the user left it last time */
  g_action_group_change_action_state (G_ACTION_GROUP (self), "show-panel",
                                      g_variant_new_boolean (sl_ui_state_get_boolean ("side-panel-shown", TRUE)));
  _sl_window_bind_history (self);
}
