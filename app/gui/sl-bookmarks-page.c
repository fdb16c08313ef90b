/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmarks-page.c: the Bookmarks page.
 *
 * The list holds the bookmarks' ids (a GtkStringList); cells look each up
 * in the store, which stays the one truth: its "changed" (this window, or
 * another one on the same profile) refills the ids.  Enter or a double
 * click shows a bookmark (win.show-bookmark); Delete removes it with an
 * Undo bar, since a note may hold an afternoon's findings. */
#include "sl-bookmarks-page.h"
#include "sl-locale-format.h"
#include "sl-bookmark-popover.h"
#include "sightline.h"
#include "sl-session.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

struct _SlBookmarksPage {
  GtkWidget        parent_instance;

  SlSession       *session;
  GSignalGroup    *store_signals;
  GtkStringList   *ids;
  GtkSingleSelection *selection;
  GtkWidget       *box;
  GtkWidget       *view;
  GtkWidget       *empty;
  GtkWidget       *edit_button;
  GtkWidget       *undo_bar;
  GtkWidget       *undo_label;
  SlBookmark      *deleted;        /* what Undo puts back, at deleted_at */
  guint            deleted_at;
  char            *probe_state;
};

enum {
  PROP_0,
  PROP_SESSION,
  PROP_PROBE_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SlBookmarksPage, sl_bookmarks_page, GTK_TYPE_WIDGET)

static SlBookmarkStore *
store_of (SlBookmarksPage *self)
{
  return self->session != NULL ? sl_session_get_bookmarks (self->session) : NULL;
}

static const SlBookmark *
bookmark_at (SlBookmarksPage *self, guint position)
{
  const char *id = gtk_string_list_get_string (self->ids, position);

  return id != NULL && store_of (self) != NULL ? sl_bookmark_store_find (store_of (self), id) : NULL;
}

static const SlBookmark *
selected_bookmark (SlBookmarksPage *self)
{
  return bookmark_at (self, gtk_single_selection_get_selected (self->selection));
}

/* ---- probe state ------------------------------------------------------------ */

static void
update_probe_state (SlBookmarksPage *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->ids));
  guint sel = gtk_single_selection_get_selected (self->selection);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      const SlBookmark *bm = bookmark_at (self, i);

      if (bm == NULL)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, bm->name);
      json_builder_set_member_name (b, "start");
      json_builder_add_int_value (b, bm->start);
      json_builder_set_member_name (b, "end");
      json_builder_add_int_value (b, bm->end);
      json_builder_set_member_name (b, "note");
      json_builder_add_string_value (b, bm->note);
      json_builder_set_member_name (b, "color");
      json_builder_add_string_value (b, bm->color);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "selected");
  json_builder_add_int_value (b, sel == GTK_INVALID_LIST_POSITION ? -1 : (gint64) sel);
  json_builder_set_member_name (b, "undo");
  json_builder_add_boolean_value (b, gtk_revealer_get_reveal_child (GTK_REVEALER (self->undo_bar)));
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  g_free (self->probe_state);
  self->probe_state = json_to_string (root, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBE_STATE]);
}

/* ---- following the store ---------------------------------------------------- */

static void
refill (SlBookmarksPage *self)
{
  SlBookmarkStore *store = store_of (self);
  GPtrArray *all = store ? sl_bookmark_store_get_bookmarks (store) : NULL;
  const SlBookmark *was = selected_bookmark (self);
  g_autofree char *was_id = was ? g_strdup (was->id) : NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->ids));

  for (guint i = 0; all != NULL && i < all->len; i++)
    g_ptr_array_add (ids, ((SlBookmark *) all->pdata[i])->id);
  g_ptr_array_add (ids, NULL);
  gtk_string_list_splice (self->ids, 0, n, (const char * const *) ids->pdata);
  for (guint i = 0; was_id != NULL && all != NULL && i < all->len; i++)
    if (g_str_equal (((SlBookmark *) all->pdata[i])->id, was_id))
      gtk_single_selection_set_selected (self->selection, i);
  gtk_widget_set_visible (self->empty, all == NULL || all->len == 0);
  update_probe_state (self);
}

static void
bookmarks_changed_cb (SlBookmarksPage *self)
{
  g_signal_group_set_target (self->store_signals, store_of (self));
  refill (self);
}

/* A bookmark shown (' , a flag, Enter here) is the row selected here. */
static void
selected_range_cb (SlBookmarksPage *self)
{
  const SlTimeRange *range = sl_session_get_selected_range (self->session);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->ids));

  for (guint i = 0; range != NULL && i < n; i++)
    {
      const SlBookmark *b = bookmark_at (self, i);

      if (b != NULL && b->start == range->start && b->end == range->end)
        {
          gtk_single_selection_set_selected (self->selection, i);
          return;
        }
    }
}

static void
set_session (SlBookmarksPage *self, SlSession *session)
{
  if (self->session == session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    {
      g_signal_connect_object (session, "notify::bookmarks", G_CALLBACK (bookmarks_changed_cb), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selected-range", G_CALLBACK (selected_range_cb), self,
                               G_CONNECT_SWAPPED);
    }
  bookmarks_changed_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/* ---- actions on the selected bookmark -------------------------------------- */

static void
report (SlBookmarksPage *self, GError *error)
{
  if (error != NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->undo_label), error->message);
      gtk_revealer_set_reveal_child (GTK_REVEALER (self->undo_bar), TRUE);
    }
}

static void
activate_cb (SlBookmarksPage *self, guint position)
{
  const SlBookmark *b = bookmark_at (self, position);

  if (b != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.show-bookmark", "s", b->id);
}

static void
edit_clicked (SlBookmarksPage *self)
{
  const SlBookmark *b = selected_bookmark (self);

  if (b != NULL)
    sl_bookmark_popover_show (sl_bookmark_popover_new (store_of (self), b), self->edit_button, NULL);
}

static void
move_by (SlBookmarksPage *self, int delta)
{
  const SlBookmark *b = selected_bookmark (self);
  guint pos = gtk_single_selection_get_selected (self->selection);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->ids));
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;

  if (b == NULL || (delta < 0 && pos == 0) || (delta > 0 && pos + 1 >= n))
    return;
  id = g_strdup (b->id);
  if (!sl_bookmark_store_move (store_of (self), id, pos + delta, &error))
    report (self, error);
  gtk_single_selection_set_selected (self->selection, pos + delta);
  update_probe_state (self);
}

static void
move_up_clicked (SlBookmarksPage *self)
{
  move_by (self, -1);
}

static void
move_down_clicked (SlBookmarksPage *self)
{
  move_by (self, 1);
}

static void
delete_clicked (SlBookmarksPage *self)
{
  const SlBookmark *b = selected_bookmark (self);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (b == NULL)
    return;
  g_clear_pointer (&self->deleted, sl_bookmark_free);
  self->deleted = sl_bookmark_copy (b);
  self->deleted_at = gtk_single_selection_get_selected (self->selection);
  if (!sl_bookmark_store_remove (store_of (self), self->deleted->id, &error))
    {
      report (self, error);
      return;
    }
  text = g_strdup_printf (_("Bookmark “%s” deleted"), self->deleted->name);
  gtk_label_set_text (GTK_LABEL (self->undo_label), text);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->undo_bar), TRUE);
  update_probe_state (self);
}

static void
undo_clicked (SlBookmarksPage *self)
{
  g_autoptr(GError) error = NULL;

  gtk_revealer_set_reveal_child (GTK_REVEALER (self->undo_bar), FALSE);
  if (self->deleted != NULL && store_of (self) != NULL &&
      !sl_bookmark_store_insert (store_of (self), self->deleted_at, self->deleted, &error))
    report (self, error);
  g_clear_pointer (&self->deleted, sl_bookmark_free);
  update_probe_state (self);
}

/* ---- cells ---------------------------------------------------------------- */

typedef enum { COL_NAME, COL_START, COL_DURATION, COL_NOTE } Column;

static void
draw_swatch (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  GdkRGBA rgba;
  const char *color = g_object_get_data (G_OBJECT (area), "color");

  if (color == NULL || !gdk_rgba_parse (&rgba, color))
    return;
  gdk_cairo_set_source_rgba (cr, &rgba);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
}

static void
setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_INT (data) == COL_START ||
                                           GPOINTER_TO_INT (data) == COL_DURATION ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (GPOINTER_TO_INT (data) == COL_NAME)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *swatch = gtk_drawing_area_new ();

      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 4);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch, NULL, NULL);
      gtk_box_append (GTK_BOX (box), swatch);
      gtk_box_append (GTK_BOX (box), label);
      gtk_list_item_set_child (item, box);
    }
  else
    gtk_list_item_set_child (item, label);
}

static char *
cell_text (SlBookmarksPage *self, const SlBookmark *b, Column column)
{
  g_autofree char *first_line = NULL;

  switch (column)
    {
    case COL_NAME:
      return g_strdup (b->name);
    case COL_START:
      return sl_locale_duration (b->start - sl_bookmark_store_get_profile_start (store_of (self)));
    case COL_DURATION:
      return sl_locale_duration (b->end - b->start);
    case COL_NOTE:
    default:
      first_line = g_strdup (b->note);
      g_strdelimit (first_line, "\n\r\t", ' ');
      return g_steal_pointer (&first_line);
    }
}

static void
bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  SlBookmarksPage *self = g_object_get_data (G_OBJECT (factory), "page");
  GtkWidget *child = gtk_list_item_get_child (item);
  GtkWidget *label = GTK_IS_LABEL (child) ? child : gtk_widget_get_last_child (child);
  const SlBookmark *b = bookmark_at (self, gtk_list_item_get_position (item));
  g_autofree char *text = b ? cell_text (self, b, GPOINTER_TO_INT (data)) : NULL;

  gtk_label_set_text (GTK_LABEL (label), text ? text : "");
  if (GPOINTER_TO_INT (data) == COL_NOTE && b != NULL)
    gtk_widget_set_tooltip_text (label, *b->note ? b->note : NULL);
  if (!GTK_IS_LABEL (child) && b != NULL)
    {
      GtkWidget *swatch = gtk_widget_get_first_child (child);

      g_object_set_data_full (G_OBJECT (swatch), "color", g_strdup (b->color), g_free);
      gtk_widget_queue_draw (swatch);
    }
}

static void
add_column (SlBookmarksPage *self, const char *title, Column column, gboolean expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  g_object_set_data (G_OBJECT (factory), "page", self);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (col, expand);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->view), col);
  g_object_unref (col);
}

/* ---- building ------------------------------------------------------------- */

static GtkWidget *
tool_button (SlBookmarksPage *self, const char *icon, const char *tooltip, GCallback clicked)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, tooltip);
  /* icon only: without a label GTK 4.8 names it "GtkImage" */
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  if (clicked != NULL)
    g_signal_connect_swapped (button, "clicked", clicked, self);
  return button;
}

static GtkWidget *
toolbar (SlBookmarksPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  GtkWidget *add = tool_button (self, "list-add-symbolic", _("Bookmark the selection (Ctrl+D)"), NULL);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (add), "win.add-bookmark");
  self->edit_button = tool_button (self, "document-edit-symbolic", _("Rename, note, colour"),
                                   G_CALLBACK (edit_clicked));
  gtk_box_append (GTK_BOX (box), add);
  gtk_box_append (GTK_BOX (box), self->edit_button);
  gtk_box_append (GTK_BOX (box), tool_button (self, "go-up-symbolic", _("Move up"), G_CALLBACK (move_up_clicked)));
  gtk_box_append (GTK_BOX (box), tool_button (self, "go-down-symbolic", _("Move down"),
                                              G_CALLBACK (move_down_clicked)));
  gtk_box_append (GTK_BOX (box), tool_button (self, "user-trash-symbolic", _("Delete (Delete)"),
                                              G_CALLBACK (delete_clicked)));
  gtk_widget_add_css_class (box, "toolbar");
  return box;
}

static GtkWidget *
undo_bar (SlBookmarksPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *undo = gtk_button_new_with_mnemonic (_("_Undo"));

  self->undo_label = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->undo_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (self->undo_label), 0);
  gtk_widget_set_hexpand (self->undo_label, TRUE);
  g_signal_connect_swapped (undo, "clicked", G_CALLBACK (undo_clicked), self);
  gtk_box_append (GTK_BOX (box), self->undo_label);
  gtk_box_append (GTK_BOX (box), undo);
  gtk_widget_add_css_class (box, "toolbar");
  self->undo_bar = gtk_revealer_new ();
  gtk_revealer_set_child (GTK_REVEALER (self->undo_bar), box);
  return self->undo_bar;
}

static gboolean
delete_key_cb (GtkWidget *widget, GVariant *args, gpointer data)
{
  delete_clicked (SL_BOOKMARKS_PAGE (data));
  return TRUE;
}

static void
build_view (SlBookmarksPage *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkEventController *keys = gtk_shortcut_controller_new ();

  self->ids = gtk_string_list_new (NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->ids)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  self->view = gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)));
  add_column (self, _("Name"), COL_NAME, TRUE);
  add_column (self, _("Start"), COL_START, FALSE);
  add_column (self, _("Duration"), COL_DURATION, FALSE);
  add_column (self, _("Note"), COL_NOTE, TRUE);
  g_signal_connect_swapped (self->view, "activate", G_CALLBACK (activate_cb), self);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (update_probe_state), self);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Delete, 0),
                                                          gtk_callback_action_new (delete_key_cb, self, NULL)));
  gtk_widget_add_controller (self->view, keys);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->view);
  gtk_widget_set_vexpand (scroller, TRUE);
  self->empty = gtk_label_new (_("No bookmarks yet. Select a range and press Ctrl+D."));
  gtk_label_set_wrap (GTK_LABEL (self->empty), TRUE);
  gtk_widget_add_css_class (self->empty, "dim-label");
  gtk_widget_set_margin_top (self->empty, 12);
  gtk_box_append (GTK_BOX (self->box), toolbar (self));
  gtk_box_append (GTK_BOX (self->box), self->empty);
  gtk_box_append (GTK_BOX (self->box), scroller);
  gtk_box_append (GTK_BOX (self->box), undo_bar (self));
}

/* ---- GObject -------------------------------------------------------------- */

GtkWidget *
sl_bookmarks_page_new (void)
{
  return g_object_new (SL_TYPE_BOOKMARKS_PAGE, NULL);
}

static void
sl_bookmarks_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlBookmarksPage *self = SL_BOOKMARKS_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_PROBE_STATE:
      g_value_set_string (value, self->probe_state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_bookmarks_page_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      set_session (SL_BOOKMARKS_PAGE (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_bookmarks_page_dispose (GObject *object)
{
  SlBookmarksPage *self = SL_BOOKMARKS_PAGE (object);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  if (self->store_signals != NULL)
    g_signal_group_set_target (self->store_signals, NULL);
  g_clear_object (&self->store_signals);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->ids);
  g_clear_pointer (&self->deleted, sl_bookmark_free);
  g_clear_pointer (&self->probe_state, g_free);
  G_OBJECT_CLASS (sl_bookmarks_page_parent_class)->dispose (object);
}

static void
sl_bookmarks_page_class_init (SlBookmarksPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_bookmarks_page_dispose;
  object_class->get_property = sl_bookmarks_page_get_property;
  object_class->set_property = sl_bookmarks_page_set_property;
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROBE_STATE] =
    g_param_spec_string ("probe-state", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  /* named in init: a screen reader tells the page, not "filler" */
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sl_bookmarks_page_init (SlBookmarksPage *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Bookmarks"), -1);
  self->store_signals = g_signal_group_new (SL_TYPE_BOOKMARK_STORE);
  g_signal_group_connect_swapped (self->store_signals, "changed", G_CALLBACK (refill), self);
  build_view (self);
  update_probe_state (self);
}
