/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree-page.c: the side panel's NVTX tree page: the NVTX hierarchy of the
 * session's scope with identical paths merged (sl-tree-agg.h), computed in a
 * worker whenever the model, the scope or exact-names change. */
#include "sl-tree-page-private.h"
#include "sl-background.h"
#include "sl-bookmark-menu.h"

#include "sl-probe-bounds.h"
#include "sl-locale-format.h"

#include <glib/gi18n.h>

/* The visible range moves with every scroll: wait for it to rest. */
#define RANGE_DELAY_MS 250
/* Rows of a new tree shown per main-loop iteration (sl-reveal-model.c):
 * ~0.3 ms each in a GTK 4.8 column view, which makes up to 200. */
#define REVEAL_STEP 32

enum { PROP_0, PROP_SESSION, PROP_PROBE_STATE, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SlTreePage, sl_tree_page, GTK_TYPE_WIDGET)

typedef struct {
  SlProfile *profile;
  SlFilter  *filter;        /* nullable: the whole profile */
  gboolean   exact;
} Request;

static void
request_free (Request *r)
{
  sl_profile_unref (r->profile);
  g_clear_pointer (&r->filter, sl_filter_free);
  g_free (r);
}

void
_sl_tree_page_changed (SlTreePage *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBE_STATE]);
}

static void
set_status (SlTreePage *self)
{
  g_autofree char *text = NULL;

  if (self->cancellable != NULL)
    text = g_strdup (_("Computing the NVTX tree…"));
  else if (self->session == NULL)
    text = g_strdup ("");
  else if (!self->want_ok)
    text = g_strdup (_("The scope has no range: select one, or change the scope."));
  else if (self->agg == NULL || sl_tree_agg_get_n_nodes (self->agg) == 0)
    text = g_strdup (sl_session_get_loading (self->session) ? _("Loading the CPU side…")
                                                            : _("No NVTX ranges or kernels in the scope."));
  else
    {
      g_autofree char *paths = sl_locale_count (sl_tree_agg_get_n_nodes (self->agg));
      g_autofree char *kernels = sl_locale_count ((gint64) sl_tree_agg_get_kernels (self->agg));

      /* TRANSLATORS: the NVTX page's status: aggregated paths and the kernels under them */
      text = g_strdup_printf (_("%s paths, %s kernels"), paths, kernels);
    }
  gtk_label_set_text (GTK_LABEL (self->status), text);
}

static GListModel *
create_children_cb (gpointer item, gpointer data)
{
  SlTreePage *self = data;

  return _sl_tree_item_children (item, self->agg_model != NULL ? self->agg_model->profile : NULL);
}

static GListModel *
root_items (SlTreeAgg *agg)
{
  GListStore *store = g_list_store_new (SL_TYPE_TREE_ITEM);

  for (guint i = 0; agg != NULL && i < sl_tree_agg_get_n_roots (agg); i++)
    {
      g_autoptr(SlTreeItem) item = _sl_tree_item_new_node (agg, i);
      g_list_store_append (store, item);
    }
  return G_LIST_MODEL (store);
}

/* Shows @agg (nullable) computed on @model, with the rows that were open
 * still open (the first time: the roots). */
static void
show_agg (SlTreePage *self, SlTreeAgg *agg, SlTimelineModel *model)
{
  g_autoptr(GHashTable) open = self->agg != NULL ? _sl_tree_page_expanded (self) : NULL;

  self->swapping = TRUE;
  sl_reveal_model_restart (self->reveal, REVEAL_STEP);
  g_clear_pointer (&self->agg, sl_tree_agg_unref);
  g_clear_pointer (&self->folded, g_strfreev);
  g_clear_pointer (&self->keep, g_free);
  _sl_tree_page_hold_model (&self->agg_model, model);
  self->agg = agg != NULL ? sl_tree_agg_ref (agg) : NULL;
  g_clear_object (&self->tree_model);
  self->tree_model = gtk_tree_list_model_new (root_items (agg), FALSE, FALSE, create_children_cb, self, NULL);
  if (open != NULL)
    _sl_tree_page_reexpand (self, open);
  else
    _sl_tree_page_expand (self, 2);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->swapping = FALSE;
  g_clear_pointer (&self->selected_name, g_free);
  g_clear_pointer (&self->selected_path, g_strfreev);
  _sl_tree_page_refilter (self);
  set_status (self);
  _sl_tree_page_changed (self);
}

static void
compute_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Request *r = data;
  SlTreeAgg *agg;

  sl_background_thread ();
  agg = sl_tree_agg_compute (r->profile, r->filter, r->exact, cancellable);

  if (agg == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, agg, (GDestroyNotify) sl_tree_agg_unref);
}

static void
compute_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  SlTreePage *self = SL_TREE_PAGE (source);
  GTask *task = G_TASK (result);
  g_autoptr(SlTreeAgg) agg = g_task_propagate_pointer (task, NULL);

  /* a newer request replaced this one */
  if (g_task_get_cancellable (task) != self->cancellable)
    return;
  g_clear_object (&self->cancellable);
  if (agg != NULL)
    show_agg (self, agg, self->want_model);
  else
    set_status (self);
}

/* What the session asks for now; FALSE when it is what was last asked. */
static gboolean
update_request (SlTreePage *self)
{
  SlTimelineModel *model = sl_session_get_model (self->session);
  gboolean exact = sl_session_get_exact_names (self->session);
  SlTimeRange range = { 0, 0 };
  gboolean ok = sl_session_get_scope_range (self->session, &range);

  if (model == self->want_model && exact == self->want_exact && ok == self->want_ok
      && (!ok || (range.start == self->want_range.start && range.end == self->want_range.end)))
    return FALSE;
  _sl_tree_page_hold_model (&self->want_model, model);
  self->want_exact = exact;
  self->want_ok = ok;
  self->want_range = range;
  return TRUE;
}

static void
start_compute (SlTreePage *self)
{
  Request *r;
  g_autoptr(GTask) task = NULL;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (!self->want_ok)
    {
      show_agg (self, NULL, self->want_model);
      return;
    }
  r = g_new0 (Request, 1);
  r->profile = sl_profile_ref (self->want_model->profile);
  r->exact = self->want_exact;
  if (sl_session_get_scope (self->session) != SL_SCOPE_WHOLE)
    {
      r->filter = sl_filter_new ();
      sl_filter_set_range (r->filter, self->want_range.start, self->want_range.end);
    }
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, compute_done_cb, NULL);
  g_task_set_task_data (task, r, (GDestroyNotify) request_free);
  g_task_run_in_thread (task, compute_thread);
  set_status (self);
  _sl_tree_page_changed (self);
}

static gboolean
compute_cb (gpointer data)
{
  SlTreePage *self = data;

  self->compute_source = 0;
  /* the GPU rows of a staged load have no NVTX ranges yet: a tree of bare
   * kernels would be thrown away, and building it (seconds on 10 M
   * kernels) would slow the loading of the CPU side; "loading" ends with
   * the complete profile, which schedules the tree again */
  if (self->session != NULL && sl_session_get_loading (self->session))
    set_status (self);
  else if (self->session != NULL && update_request (self))
    start_compute (self);
  else
    set_status (self);
  return G_SOURCE_REMOVE;
}

static void
schedule (SlTreePage *self, guint delay_ms)
{
  g_clear_handle_id (&self->compute_source, g_source_remove);
  self->compute_source = g_timeout_add (delay_ms, compute_cb, self);
}

static void
session_changed_cb (SlSession *session, GParamSpec *pspec, SlTreePage *self)
{
  schedule (self, 0);
}

/* A moved range matters only when the scope is that range. */
static void
range_changed_cb (SlSession *session, GParamSpec *pspec, SlTreePage *self)
{
  SlScope scope = sl_session_get_scope (session);
  const char *name = g_param_spec_get_name (pspec);

  if ((scope == SL_SCOPE_VISIBLE && g_str_equal (name, "visible-range"))
      || (scope == SL_SCOPE_SELECTION && g_str_equal (name, "selected-range"))
      || (scope == SL_SCOPE_BOOKMARK && g_str_equal (name, "bookmark-range")))
    schedule (self, RANGE_DELAY_MS);
}

static void
highlight_changed_cb (SlSession *session, GParamSpec *pspec, SlTreePage *self)
{
  _sl_tree_page_changed (self);
}

static void
set_session (SlTreePage *self, SlSession *session)
{
  static const char * const recompute[] = { "notify::model", "notify::exact-names", "notify::scope",
                                            "notify::loading" };
  static const char * const ranges[] = { "notify::visible-range", "notify::selected-range",
                                         "notify::bookmark-range" };

  if (self->session == session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->want_model, sl_timeline_model_unref);
  show_agg (self, NULL, NULL);
  if (session != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (recompute); i++)
        g_signal_connect (session, recompute[i], G_CALLBACK (session_changed_cb), self);
      for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
        g_signal_connect (session, ranges[i], G_CALLBACK (range_changed_cb), self);
      g_signal_connect (session, "notify::highlight", G_CALLBACK (highlight_changed_cb), self);
      g_signal_connect_swapped (session, "notify::selected-event", G_CALLBACK (_sl_tree_page_reveal_selected), self);
      schedule (self, 0);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

static void
add_node_json (JsonBuilder *b, const SlTreeAggNode *n)
{
  json_builder_begin_object (b);
  sl_json_member_string (b, "name", n->name);
  sl_json_member_string (b, "kind", n->kind == SL_TREE_RANGE ? "range" : "kernel");
  sl_json_member_int (b, "instances", (gint64) n->instances);
  sl_json_member_int (b, "cpu_ns", n->cpu_ns);
  sl_json_member_int (b, "gpu_ns", n->gpu_ns);
  sl_json_member_int (b, "kernels", (gint64) n->kernels);
  json_builder_end_object (b);
}


/* The selected instance row: its place among its kernel name's instances
 * and how many rows that name lists, for the tests to check that every
 * instance is reachable. */
static void
add_selected_instance (JsonBuilder *b, SlTreePage *self)
{
  g_autoptr(GtkTreeListRow) row = gtk_single_selection_get_selected_item (self->selection) != NULL
                                    ? g_object_ref (gtk_single_selection_get_selected_item (self->selection)) : NULL;
  g_autoptr(SlTreeItem) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  g_autoptr(GtkTreeListRow) parent = row != NULL ? gtk_tree_list_row_get_parent (row) : NULL;
  GListModel *siblings = parent != NULL ? gtk_tree_list_row_get_children (parent) : NULL;

  json_builder_set_member_name (b, "selected_instance");
  if (item == NULL || item->kind != SL_TREE_ITEM_INSTANCE || siblings == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  sl_json_member_int (b, "position", item->position);
  sl_json_member_int (b, "of", g_list_model_get_n_items (siblings));
  sl_json_member_int (b, "start_ns", item->start_ns);
  json_builder_end_object (b);
}

/* {"rows", "roots": [...], "first_rows" (names of the first 8), "selected", "selected_path", "highlighted",
 *  "computing", "exact_names", "filter", "paths", "kernels", "selected_instance", "view", "entry"} for
 * the GUI tests. */
static char *
probe_state (SlTreePage *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  SlHighlight *current = self->session != NULL ? sl_session_get_highlight (self->session) : NULL;

  json_builder_begin_object (b);
  sl_json_member_int (b, "rows", g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)));
  {
    g_autoptr(GtkColumnViewColumn) name = g_list_model_get_item (gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->view)), 0);
    sl_json_member_int (b, "name_width", name != NULL ? gtk_column_view_column_get_fixed_width (name) : -1);
  }
  json_builder_set_member_name (b, "roots");
  json_builder_begin_array (b);
  for (guint i = 0; self->agg != NULL && i < sl_tree_agg_get_n_roots (self->agg); i++)
    add_node_json (b, sl_tree_agg_get_node (self->agg, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "first_rows");
  json_builder_begin_array (b);
  for (guint i = 0; i < MIN (g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)), 8); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->filter_model), i);
      g_autoptr(SlTreeItem) item = gtk_tree_list_row_get_item (row);

      sl_json_add_string (b, item->label);
    }
  json_builder_end_array (b);
  sl_json_member_string (b, "selected", self->selected_name);
  json_builder_set_member_name (b, "selected_path");
  json_builder_begin_array (b);
  for (guint i = 0; self->selected_path != NULL && self->selected_path[i] != NULL; i++)
    sl_json_add_string (b, self->selected_path[i]);
  json_builder_end_array (b);
  sl_json_member_int (b, "highlighted",
                      current != NULL && current == self->highlight ? sl_highlight_get_n (current) : 0);
  sl_json_member_boolean (b, "computing", self->cancellable != NULL || self->compute_source != 0
                                          || !sl_reveal_model_is_done (self->reveal));
  sl_json_member_boolean (b, "exact_names", self->agg != NULL && sl_tree_agg_get_exact_names (self->agg));
  sl_json_member_string (b, "filter", gtk_editable_get_text (GTK_EDITABLE (self->entry)));
  sl_json_member_int (b, "paths", self->agg != NULL ? sl_tree_agg_get_n_nodes (self->agg) : 0);
  sl_json_member_int (b, "kernels", self->agg != NULL ? (gint64) sl_tree_agg_get_kernels (self->agg) : 0);
  add_selected_instance (b, self);
  sl_probe_add_bounds (b, "view", self->view);
  sl_probe_add_bounds (b, "entry", self->entry);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_to_string (root, FALSE);
}

static void
sl_tree_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlTreePage *self = SL_TREE_PAGE (object);

  if (prop_id == PROP_SESSION)
    g_value_set_object (value, self->session);
  else if (prop_id == PROP_PROBE_STATE)
    g_value_take_string (value, probe_state (self));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
sl_tree_page_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  SlTreePage *self = SL_TREE_PAGE (object);

  if (prop_id == PROP_SESSION)
    set_session (self, g_value_get_object (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
sl_tree_page_dispose (GObject *object)
{
  SlTreePage *self = SL_TREE_PAGE (object);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->highlight_cancellable);
  g_clear_object (&self->highlight_cancellable);
  g_clear_handle_id (&self->compute_source, g_source_remove);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->reveal);
  g_clear_object (&self->tree_model);
  g_clear_pointer (&self->want_model, sl_timeline_model_unref);
  g_clear_pointer (&self->agg_model, sl_timeline_model_unref);
  g_clear_pointer (&self->agg, sl_tree_agg_unref);
  g_clear_pointer (&self->highlight, sl_highlight_unref);
  g_clear_pointer (&self->folded, g_strfreev);
  g_clear_pointer (&self->keep, g_free);
  g_clear_pointer (&self->filter_text, g_free);
  g_clear_pointer (&self->selected_name, g_free);
  g_clear_pointer (&self->selected_path, g_strfreev);
  G_OBJECT_CLASS (sl_tree_page_parent_class)->dispose (object);
}

static void
expand_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _sl_tree_page_expand (SL_TREE_PAGE (widget), g_variant_get_int32 (param));
}

static void
sl_tree_page_class_init (SlTreePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_tree_page_dispose;
  object_class->get_property = sl_tree_page_get_property;
  object_class->set_property = sl_tree_page_set_property;
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                  | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROBE_STATE] = g_param_spec_string ("probe-state", NULL, NULL, NULL,
                                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  /* named in init: a screen reader tells the page, not "filler" */
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
  /* 1, 2, 4: levels shown; 0: all */
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "tree.expand", "i", expand_action);
}

static GtkWidget *
expand_button (void)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  GtkWidget *button = gtk_menu_button_new ();

  g_menu_append (menu, _("Collapse to the Roots"), "tree.expand(1)");
  g_menu_append (menu, _("Expand to Depth 2"), "tree.expand(2)");
  g_menu_append (menu, _("Expand to Depth 4"), "tree.expand(4)");
  g_menu_append (menu, _("Expand All"), "tree.expand(0)");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-list-symbolic");
  gtk_widget_set_tooltip_text (button, _("Expand or collapse the tree"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Expand or collapse the tree"), -1);
  return button;
}

static GtkWidget *
step_button (const char *icon, const char *action, const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  return button;
}

static GtkWidget *
build_toolbar (SlTreePage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);

  self->entry = gtk_search_entry_new ();
  g_object_set (self->entry, "placeholder-text", _("Filter names"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Filter names"), -1);
  gtk_widget_set_tooltip_text (self->entry, _("Filter names"));
  gtk_widget_set_hexpand (self->entry, TRUE);
  g_signal_connect_swapped (self->entry, "search-changed", G_CALLBACK (_sl_tree_page_refilter), self);
  gtk_box_append (GTK_BOX (bar), self->entry);
  gtk_box_append (GTK_BOX (bar), expand_button ());
  gtk_box_append (GTK_BOX (bar), step_button ("go-up-symbolic", "win.previous-match",
                                              _("Previous instance (Shift+F3)")));
  gtk_box_append (GTK_BOX (bar), step_button ("go-down-symbolic", "win.next-match",
                                              _("Next instance (F3)")));
  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 6);
  return bar;
}

/* A right click on the tree: "Bookmark…" for the instance the selected row
 * shows (its span, as the timeline selects it). */
static void
context_cb (GtkGestureClick *gesture, int n_press, double x, double y, SlTreePage *self)
{
  const SlEventRef *ev = self->session ? sl_session_get_selected_event (self->session) : NULL;
  gint64 a, b;

  if (ev == NULL || gtk_single_selection_get_selected_item (self->selection) == NULL)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  sl_timeline_model_event_span (sl_session_get_model (self->session), ev, &a, &b);
  sl_bookmark_menu_popup (self->view, x, y, a, b);
}

/* tree list -> sorted by the column view's columns -> filtered -> selection */
static void
build_view (SlTreePage *self)
{
  GtkGesture *context = gtk_gesture_click_new ();

  GtkSorter *sorter;

  self->view = gtk_column_view_new (NULL);
  _sl_tree_page_add_columns (GTK_COLUMN_VIEW (self->view));
  sorter = GTK_SORTER (gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->view)))));
  self->sort_model = gtk_sort_list_model_new (NULL, sorter);
  self->filter = gtk_custom_filter_new (_sl_tree_page_filter_func, self, NULL);
  self->filter_model = gtk_filter_list_model_new (G_LIST_MODEL (self->sort_model), GTK_FILTER (self->filter));
  self->reveal = sl_reveal_model_new (G_LIST_MODEL (self->filter_model));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->reveal)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->view), GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (self->view), TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (_sl_tree_page_selected_cb), self);
  g_signal_connect_swapped (self->filter_model, "items-changed", G_CALLBACK (_sl_tree_page_changed), self);
  g_signal_connect_swapped (self->reveal, "items-changed", G_CALLBACK (_sl_tree_page_changed), self);
  g_signal_connect_swapped (self->view, "activate", G_CALLBACK (_sl_tree_page_activate_cb), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL, _("NVTX tree"), -1);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (context), GDK_BUTTON_SECONDARY);
  g_signal_connect (context, "pressed", G_CALLBACK (context_cb), self);
  gtk_widget_add_controller (self->view, GTK_EVENT_CONTROLLER (context));
}

/* "plus" / "minus" (or Shift+Right / Shift+Left): open or close the
 * selected row from the keyboard; the expander arrow is not focusable in
 * a GTK 4.8 column view. */
static gboolean
expand_key_cb (GtkWidget *view, GVariant *args, gpointer data)
{
  SlTreePage *self = data;
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->selection);

  if (row == NULL || !gtk_tree_list_row_is_expandable (row))
    return FALSE;
  gtk_tree_list_row_set_expanded (row, g_variant_get_boolean (args));
  return TRUE;
}

static void
add_expand_keys (SlTreePage *self)
{
  static const struct { guint key; GdkModifierType mods; gboolean open; } keys[] = {
    { GDK_KEY_plus, 0, TRUE }, { GDK_KEY_KP_Add, 0, TRUE }, { GDK_KEY_Right, GDK_SHIFT_MASK, TRUE },
    { GDK_KEY_minus, 0, FALSE }, { GDK_KEY_KP_Subtract, 0, FALSE }, { GDK_KEY_Left, GDK_SHIFT_MASK, FALSE },
  };
  GtkEventController *controller = gtk_shortcut_controller_new ();

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].key, keys[i].mods),
                                                gtk_callback_action_new (expand_key_cb, self, NULL));
      gtk_shortcut_set_arguments (shortcut, g_variant_new_boolean (keys[i].open));
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
    }
  gtk_widget_add_controller (self->view, controller);
}

static void
sl_tree_page_init (SlTreePage *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GListModel *columns;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_box_append (GTK_BOX (self->box), build_toolbar (self));
  self->status = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->status), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_widget_set_margin_start (self->status, 8);
  gtk_box_append (GTK_BOX (self->box), self->status);
  build_view (self);
  add_expand_keys (self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->view);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (self->box), scrolled);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("NVTX"), -1);
  /* the heaviest first: GPU time, descending */
  columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->view));
  {
    g_autoptr(GtkColumnViewColumn) gpu = g_list_model_get_item (columns, 3);
    gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->view), gpu, GTK_SORT_DESCENDING);
  }
  show_agg (self, NULL, NULL);
}

GtkWidget *
sl_tree_page_new (void)
{
  return g_object_new (SL_TYPE_TREE_PAGE, NULL);
}
