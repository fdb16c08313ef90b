/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-narrow.c: a narrow window keeps its timeline wide.
 *
 * At 800 px the details pane and the side panel left the timeline 225 px.
 * Now, when the timeline would get less than SL_TIMELINE_MIN_WIDTH, the
 * details pane folds away first, then the side panel; they come back by
 * themselves when the window widens again, or at once with Ctrl+I / F9 —
 * and opening one in a narrow window folds the other. */
#include "sl-window-private.h"

#define SL_TIMELINE_MIN_WIDTH 500

/* A pane's width as last shown, or its minimum before it ever was. */
static int
pane_width (GtkWidget *pane, int *last)
{
  int req = 0;

  if (gtk_widget_get_visible (pane) && gtk_widget_get_width (pane) > 0)
    *last = gtk_widget_get_width (pane);
  gtk_widget_get_size_request (pane, &req, NULL);
  return MAX (*last, req);
}

/* Shows or hides a pane as the program's own decision: the action's state
 * follows, but not the remembered choice ("side-panel-shown"). */
static void
set_pane (SlWindow *self, const char *action, GtkWidget *pane, gboolean shown)
{
  GAction *a = g_action_map_lookup_action (G_ACTION_MAP (self), action);

  g_simple_action_set_state (G_SIMPLE_ACTION (a), g_variant_new_boolean (shown));
  gtk_widget_set_visible (pane, shown);
}

static void
fold_to_fit (SlWindow *self, int room, int wd, int wp)
{
  if (gtk_widget_get_visible (self->details_scroller) && room < SL_TIMELINE_MIN_WIDTH)
    {
      set_pane (self, "show-details", self->details_scroller, FALSE);
      self->details_folded = TRUE;
      room += wd;
    }
  if (gtk_widget_get_visible (self->side_panel) && room < SL_TIMELINE_MIN_WIDTH)
    {
      set_pane (self, "show-panel", self->side_panel, FALSE);
      self->panel_folded = TRUE;
      room += wp;
    }
  /* wider again: what was folded comes back while the timeline keeps its room */
  if (self->panel_folded && room - wp >= SL_TIMELINE_MIN_WIDTH)
    {
      set_pane (self, "show-panel", self->side_panel, TRUE);
      self->panel_folded = FALSE;
      room -= wp;
    }
  if (self->details_folded && room - wd >= SL_TIMELINE_MIN_WIDTH)
    {
      set_pane (self, "show-details", self->details_scroller, TRUE);
      self->details_folded = FALSE;
    }
}

/* @opened: the pane the user just showed (the other one yields), or NULL
 * after a resize. */
void
_sl_window_fit_panes (SlWindow  *self,
                      GtkWidget *opened)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int wd = pane_width (self->details_scroller, &self->details_width);
  int wp = pane_width (self->side_panel, &self->panel_width);
  int room = width;

  if (width <= 0)
    return;   /* not laid out yet: the first allocation decides */
  room -= gtk_widget_get_visible (self->details_scroller) ? wd : 0;
  room -= gtk_widget_get_visible (self->side_panel) ? wp : 0;
  if (opened == NULL)
    fold_to_fit (self, room, wd, wp);
  else if (room < SL_TIMELINE_MIN_WIDTH && opened == self->details_scroller &&
           gtk_widget_get_visible (self->side_panel))
    {
      set_pane (self, "show-panel", self->side_panel, FALSE);
      self->panel_folded = TRUE;
    }
  else if (room < SL_TIMELINE_MIN_WIDTH && opened == self->side_panel)
    {
      /* the panel at its narrowest: its 380 px default is for wide windows */
      gtk_paned_set_position (GTK_PANED (self->side_paned), 0);
      if (gtk_widget_get_visible (self->details_scroller))
        {
          set_pane (self, "show-details", self->details_scroller, FALSE);
          self->details_folded = TRUE;
        }
    }
}

/* The user showed or hid @pane: that choice is theirs, not a fold. */
void
_sl_window_pane_toggled (SlWindow  *self,
                         GtkWidget *pane,
                         gboolean   shown)
{
  if (pane == self->details_scroller)
    self->details_folded = FALSE;
  else
    self->panel_folded = FALSE;
  if (shown)
    _sl_window_fit_panes (self, pane);
}

static gboolean
fit_idle_cb (gpointer data)
{
  SlWindow *self = data;

  self->fit_source = 0;
  _sl_window_fit_panes (self, NULL);
  return G_SOURCE_REMOVE;
}

/* After an allocation: showing or hiding a pane while allocating would
 * resize in the middle of a layout, so it waits for the main loop. */
void
_sl_window_queue_fit (SlWindow *self,
                      int       width)
{
  if (width == self->fitted_width || self->fit_source != 0)
    return;
  self->fitted_width = width;
  self->fit_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, fit_idle_cb, self, NULL);
}
