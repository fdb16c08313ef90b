/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-bookmarks.c: the window keeps the profile's bookmarks: one
 * SlBookmarkStore per loaded profile, handed to the views through the
 * session; its problem (a file kept aside) in a bar over the timeline;
 * Ctrl+D, ' and Shift+' (win.add-bookmark, win.next-bookmark,
 * win.previous-bookmark). */
#include "sl-window-private.h"
#include "sl-bookmark-files.h"
#include "sl-bookmark-name.h"
#include "sl-bookmark-popover.h"

#include <glib/gi18n.h>

static SlBookmarkStore *
current_store (SlWindow *self)
{
  return self->session != NULL ? sl_session_get_bookmarks (self->session) : NULL;
}

static void
problem_changed_cb (SlWindow *self)
{
  SlBookmarkStore *store = current_store (self);
  const char *problem = store != NULL ? sl_bookmark_store_get_problem (store) : NULL;

  gtk_label_set_text (GTK_LABEL (self->bookmark_problem), problem ? problem : "");
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->bookmark_bar), problem != NULL);
}

/* After a complete load (the store needs the start of the whole profile):
 * the staged GPU rows keep the session, so this runs once per profile. */
void
_sl_window_bookmarks_profile_loaded (SlWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlBookmarkStore) store = NULL;

  if (self->session == NULL)
    return;
  if (current_store (self) == NULL)
    {
      store = sl_bookmark_store_new_for_profile (sl_session_get_profile (self->session), &error);
      if (store == NULL)
        g_warning ("no bookmarks for this profile: %s", error->message);
      else
        g_signal_connect_object (store, "notify::problem", G_CALLBACK (problem_changed_cb), self,
                                 G_CONNECT_SWAPPED);
      sl_session_set_bookmarks (self->session, store);
    }
  problem_changed_cb (self);
}

/* The range Ctrl+D bookmarks: the selection, else what is visible. */
static SlTimeRange
range_to_bookmark (SlWindow *self)
{
  const SlTimeRange *selected = sl_session_get_selected_range (self->session);

  return selected != NULL ? *selected : *sl_session_get_visible_range (self->session);
}

/* Where the popover points: the middle of the range on the ruler, kept
 * inside the timeline. */
static GdkRectangle
ruler_point (SlWindow *self, gint64 start, gint64 end)
{
  SlTimelineLayout *l = sl_timeline_get_layout (SL_TIMELINE (self->timeline));
  double s = gtk_widget_get_scale_factor (self->timeline);
  int w = gtk_widget_get_width (self->timeline);
  double x = w / 2.0, y = 30;

  if (l != NULL)
    {
      x = (l->header_width + sl_timeline_layout_time_to_x (l, start / 2 + end / 2)) / s;
      x = CLAMP (x, l->header_width / s, w - 1);
      y = (l->minimap_height + l->ruler_height) / s;
    }
  return (GdkRectangle) { (int) x, (int) y, 1, 1 };
}

void
_sl_window_bookmark_range (SlWindow *self, gint64 start, gint64 end, const char *name)
{
  SlBookmarkStore *store = current_store (self);
  g_autofree char *guess = NULL;
  g_autoptr(SlBookmark) bookmark = NULL;
  GdkRectangle rect;

  if (store == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  if (name == NULL)
    guess = sl_bookmark_name_guess (sl_session_get_profile (self->session), start, end,
                                    sl_bookmark_store_get_bookmarks (store)->len);
  bookmark = sl_bookmark_new (name ? name : guess, NULL, NULL, start, end);
  rect = ruler_point (self, start, end);
  sl_bookmark_popover_show (sl_bookmark_popover_new (store, bookmark), self->timeline, &rect);
}

static void
add_bookmark_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  SlTimeRange range;

  if (self->session == NULL)
    return;
  range = range_to_bookmark (self);
  _sl_window_bookmark_range (self, range.start, range.end, NULL);
}

/* Bookmarks by start (the user's order is for the list): the next one
 * after the selection's start (or the visible range's), or the previous. */
static const SlBookmark *
step_target (SlWindow *self, int direction)
{
  GPtrArray *all = sl_bookmark_store_get_bookmarks (current_store (self));
  const SlTimeRange *sel = sl_session_get_selected_range (self->session);
  const SlTimeRange *vis = sl_session_get_visible_range (self->session);
  gint64 from = sel ? sel->start : direction > 0 ? vis->start - 1 : vis->end + 1;
  gint64 from_end = sel ? sel->end : from;
  const SlBookmark *best = NULL;

  for (guint i = 0; i < all->len; i++)
    {
      const SlBookmark *b = all->pdata[i];
      gboolean after = b->start > from || (b->start == from && b->end > from_end);
      gboolean before = b->start < from || (b->start == from && b->end < from_end);

      if (direction > 0 && after &&
          (best == NULL || b->start < best->start || (b->start == best->start && b->end < best->end)))
        best = b;
      else if (direction < 0 && before &&
               (best == NULL || b->start > best->start || (b->start == best->start && b->end > best->end)))
        best = b;
    }
  return best;
}

void
_sl_window_show_bookmark (SlWindow *self, const SlBookmark *b)
{
  gint64 margin = MAX ((b->end - b->start) / 10, 1000);

  sl_session_navigate_to (self->session, &(SlTimeRange) { b->start - margin, b->end + margin });
  sl_session_set_selected_range (self->session, &(SlTimeRange) { b->start, b->end });
}

static void
step_bookmark_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  gboolean next = g_str_equal (g_action_get_name (G_ACTION (action)), "next-bookmark");
  const SlBookmark *b;

  if (current_store (self) == NULL || (b = step_target (self, next ? 1 : -1)) == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  _sl_window_show_bookmark (self, b);
}

/* What an export or import did, in the bar (errors and successes alike:
 * a native dialog has closed, the user wants to know it worked). */
static void
files_done_cb (const char *message, gboolean failed, gpointer data)
{
  g_autoptr(SlWindow) self = data;

  if (message == NULL)
    return;
  gtk_label_set_text (GTK_LABEL (self->bookmark_problem), message);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->bookmark_bar), TRUE);
}

static void
export_bookmarks_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;

  if (current_store (self) != NULL)
    sl_bookmark_files_export (GTK_WINDOW (self), current_store (self), sl_session_get_profile (self->session)->path,
                              files_done_cb, g_object_ref (self));
}

static void
import_bookmarks_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;

  if (current_store (self) != NULL)
    sl_bookmark_files_import (GTK_WINDOW (self), current_store (self), files_done_cb, g_object_ref (self));
}

/* A page's pick (Enter, double click): the bookmark by id. */
static void
show_bookmark_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  const SlBookmark *b = current_store (self) ? sl_bookmark_store_find (current_store (self),
                                                                       g_variant_get_string (param, NULL)) : NULL;

  if (b != NULL)
    _sl_window_show_bookmark (self, b);
}

/* "Bookmark…" in the context menu of an event, an iteration, a gap or an
 * NVTX tree row: its span, (start, end) in capture-clock ns. */
static void
bookmark_range_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  gint64 a, b;

  g_variant_get (param, "(xx)", &a, &b);
  if (self->session != NULL && a <= b)
    _sl_window_bookmark_range (self, a, b, NULL);
}

static const GActionEntry entries[] = {
  { "bookmark-range", bookmark_range_action, "(xx)" },
  { "show-bookmark", show_bookmark_action, "s" },
  { "add-bookmark", add_bookmark_action },
  { "export-bookmarks", export_bookmarks_action },
  { "import-bookmarks", import_bookmarks_action },
  { "next-bookmark", step_bookmark_action },
  { "previous-bookmark", step_bookmark_action },
};

/* ' and Shift+' are plain keys: bound where they bubble up from the
 * profile's views, so a text field (a bookmark's name) still types them. */
static void
add_step_keys (SlWindow *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  const struct { const char *trigger, *action; } keys[] = {
    { "apostrophe", "win.next-bookmark" },
    { "<Shift>apostrophe", "win.previous-bookmark" },
    { "quotedbl", "win.previous-bookmark" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string (keys[i].trigger),
                                                            gtk_named_action_new (keys[i].action)));
  gtk_widget_add_controller (self->side_paned, controller);
}

static void
dismiss_problem (SlWindow *self)
{
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->bookmark_bar), FALSE);
}

static GtkWidget *
problem_bar (SlWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");

  self->bookmark_problem = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->bookmark_problem), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->bookmark_problem), 0);
  gtk_widget_set_hexpand (self->bookmark_problem, TRUE);
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_set_tooltip_text (close, _("Dismiss"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (close), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Dismiss"), -1);
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("dialog-warning-symbolic"));
  gtk_box_append (GTK_BOX (box), self->bookmark_problem);
  gtk_box_append (GTK_BOX (box), close);
  gtk_widget_add_css_class (box, "toolbar");
  self->bookmark_bar = gtk_revealer_new ();
  gtk_revealer_set_child (GTK_REVEALER (self->bookmark_bar), box);
  g_signal_connect_swapped (close, "clicked", G_CALLBACK (dismiss_problem), self);
  return self->bookmark_bar;
}

void
_sl_window_bookmarks_init (SlWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  gtk_widget_insert_after (problem_bar (self), gtk_widget_get_parent (self->load_bar), self->load_bar);
  add_step_keys (self);
}
