/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-search-page.c: the side panel's search page.
 *
 * Kernels (short and demangled names), NVTX ranges and CUDA API calls by
 * name: a substring in any case or /REGEX/.  The search runs in a worker
 * as the user types (GtkSearchEntry waits 150 ms between keys; a newer
 * search cancels the one running) and makes the session's highlight of
 * all matches, so the timeline dims the rest and F3 walks them.  "In scope
 * only" searches the range of the session's scope (as `sightline-cli search
 * --range`), taken when the search starts; the name groups are listed by
 * total time, count or name. */
#include "sl-search-page.h"
#include "sl-locale-format.h"
#include "sl-search-page-private.h"

#include "sl-probe-bounds.h"
#include "sl-reveal-model.h"

#include <glib/gi18n.h>

/* Rows of new results shown per main-loop iteration (sl-reveal-model.c). */
#define REVEAL_STEP 32

struct _SlSearchPage {
  GtkWidget       parent_instance;

  GtkWidget      *box;
  GtkWidget      *entry;
  GtkWidget      *status;
  GtkWidget      *view;
  GtkWidget      *scope_check;   /* "In scope only" */
  GtkWidget      *sort_buttons[3]; /* by SlSearchSort */
  GtkSingleSelection *selection;
  GtkTreeListModel *tree;        /* the rows shown: the groups, and their matches when open */
  SlSearchSort    sort;
  gboolean        scoped;        /* the results shown are of scope_range */
  SlTimeRange     scope_range;
  SlSession      *session;
  SlSearchResult *result;        /* the results shown, NULL when none */
  char           *error;         /* the last search's error (an invalid regex) */
  GCancellable   *cancellable;   /* the search running */
  gboolean        jump;          /* Enter came before the results: jump when they do */
};

enum { PROP_0, PROP_SESSION, PROP_PROBE_STATE, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SlSearchPage, sl_search_page, GTK_TYPE_WIDGET)

/* ---- the worker ---------------------------------------------------------- */

typedef struct {
  SlProfile       *profile;
  SlTimelineModel *model;
  SlFilter        *filter;      /* nullable: the scope's range */
  char            *pattern;
} Job;

static void
job_free (Job *job)
{
  sl_profile_unref (job->profile);
  sl_timeline_model_unref (job->model);
  g_clear_pointer (&job->filter, sl_filter_free);
  g_free (job->pattern);
  g_free (job);
}

/* The search, the highlight of its matches (already in the highlight's
 * order) and the NVTX attribution the instance rows show (cached with the
 * profile): all off the main thread. */
static void
search_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;
  SlNameSearch *search = sl_name_search_compute (job->profile, job->filter, job->pattern, cancellable, &error);
  g_autofree SlEventRef *refs = NULL;
  g_autofree char *label = NULL;
  SlSearchResult *result;

  if (search == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  result = _sl_search_result_new (job->profile, search, NULL);
  refs = g_new (SlEventRef, MAX (search->n_hits, 1));
  for (guint i = 0; i < search->n_hits; i++)
    refs[i] = _sl_search_result_event (result, i);
  label = g_strdup_printf (_("Search: %s"), job->pattern);
  result->highlight = sl_highlight_new (job->model, refs, search->n_hits, label, TRUE);
  sl_attribution_get (job->profile);
  if (g_task_return_error_if_cancelled (task))
    _sl_search_result_unref (result);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) _sl_search_result_unref);
}

/* ---- showing a result ---------------------------------------------------- */

static void
notify_probe (SlSearchPage *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBE_STATE]);
}

static void
set_status (SlSearchPage *self)
{
  g_autofree char *text = NULL;

  if (self->error != NULL)
    text = g_strdup (self->error);
  else if (self->cancellable != NULL)
    text = g_strdup (_("Searching…"));
  else if (self->result == NULL)
    text = g_strdup (_("Kernels, NVTX ranges and CUDA API calls by name: a part of it in any case, or /regex/."));
  else if (self->result->search->n_hits == 0)
    text = g_strdup (_("No matches."));
  else
    {
      g_autofree char *n = sl_locale_count (self->result->search->n_hits);
      guint names = _sl_search_result_n_listed (self->result);

      text = g_strdup_printf (g_dngettext (NULL, "%s match in %u name: Enter jumps to the first, F3 to the next.",
                                           "%s matches in %u names: Enter jumps to the first, F3 to the next.",
                                           names),
                              n, names);
    }
  gtk_label_set_text (GTK_LABEL (self->status), text);
  notify_probe (self);
}

/* The rows of @tree (nullable) reach the list a slice per main-loop
 * iteration: a GTK 4.8 column view makes the widgets of up to 200 rows
 * in one go when its model changes. */
static void
show_tree (SlSearchPage *self, GtkTreeListModel *tree)
{
  g_autoptr(SlRevealModel) reveal = NULL;

  g_set_object (&self->tree, tree);
  if (tree != NULL)
    {
      reveal = sl_reveal_model_new (g_object_ref (G_LIST_MODEL (tree)));
      sl_reveal_model_restart (reveal, REVEAL_STEP);
    }
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (reveal));
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
}

/* The session's highlight goes with the results shown; another view's
 * highlight is left alone. */
static void
show_result (SlSearchPage *self, SlSearchResult *result)
{
  SlHighlight *old = self->result != NULL ? self->result->highlight : NULL;
  g_autoptr(GtkTreeListModel) tree = result != NULL ? _sl_search_tree_new (result, self->sort) : NULL;

  if (self->session != NULL)
    {
      if (result != NULL)
        sl_session_set_highlight (self->session, result->highlight);
      else if (old != NULL && sl_session_get_highlight (self->session) == old)
        sl_session_set_highlight (self->session, NULL);
    }
  g_clear_pointer (&self->result, _sl_search_result_unref);
  self->result = result;
  show_tree (self, tree);
  set_status (self);
}

static void
search_done_cb (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(GError) error = NULL;
  SlSearchResult *result = g_task_propagate_pointer (G_TASK (res), &error);
  SlSearchPage *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = SL_SEARCH_PAGE (source);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->error, g_free);
  if (result == NULL)
    {
      self->error = g_strdup_printf (_("Invalid regular expression: %s"), error->message);
      show_result (self, NULL);
      return;
    }
  show_result (self, result);
  if (self->jump && self->session != NULL)
    sl_session_show_highlighted (self->session, 0);
  self->jump = FALSE;
}

static void
cancel_search (SlSearchPage *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
}

/* With "In scope only", a filter of the scope's range in *@filter (NULL
 * otherwise); FALSE when the scope has no range now. */
static gboolean
scope_filter (SlSearchPage *self, SlFilter **filter)
{
  *filter = NULL;
  self->scoped = gtk_check_button_get_active (GTK_CHECK_BUTTON (self->scope_check));
  if (!self->scoped)
    return TRUE;
  if (!sl_session_get_scope_range (self->session, &self->scope_range))
    return FALSE;
  *filter = sl_filter_new ();
  sl_filter_set_range (*filter, self->scope_range.start, self->scope_range.end);
  return TRUE;
}

static void
start_search (SlSearchPage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  g_autoptr(GTask) task = NULL;
  Job *job;

  cancel_search (self);
  g_clear_pointer (&self->error, g_free);
  if (self->session != NULL)
    sl_session_set_search (self->session, text);
  if (self->session == NULL || *text == '\0')
    {
      self->jump = FALSE;
      show_result (self, NULL);
      return;
    }
  job = g_new0 (Job, 1);
  if (!scope_filter (self, &job->filter))
    {
      g_free (job);
      self->jump = FALSE;
      self->error = g_strdup (_("Nothing is in scope: select a time range (Shift+drag) or search the whole profile."));
      show_result (self, NULL);
      return;
    }
  job->profile = sl_profile_ref (sl_session_get_profile (self->session));
  job->model = sl_timeline_model_ref (sl_session_get_model (self->session));
  job->pattern = g_strdup (text);
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, search_done_cb, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, search_thread);
  set_status (self);
}

/* ---- the user ------------------------------------------------------------ */

/* Enter: the first match, now or when the search running ends. */
static void
entry_activate_cb (SlSearchPage *self)
{
  if (self->cancellable != NULL || self->result == NULL)
    {
      self->jump = TRUE;
      if (self->cancellable == NULL)
        start_search (self);
      return;
    }
  if (self->session != NULL)
    sl_session_show_highlighted (self->session, 0);
}

/* A row activated: an instance is selected and shown; a group opens or
 * closes and its first instance is shown. */
static void
row_activate_cb (SlSearchPage *self, guint position)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  g_autoptr(SlSearchItem) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  SlSearchResult *r;
  guint hit;
  SlEventRef ev;

  if (item == NULL || self->session == NULL)
    return;
  r = _sl_search_item_get_result (item);
  hit = _sl_search_item_get_hit (item);
  if (hit == G_MAXUINT)
    {
      const SlNameGroup *g = &r->search->groups[_sl_search_item_get_group (item)];

      gtk_tree_list_row_set_expanded (row, !gtk_tree_list_row_get_expanded (row));
      hit = r->search->order[g->first];
    }
  ev = _sl_search_result_event (r, hit);
  sl_session_show_highlighted (self->session, sl_highlight_find (r->highlight, sl_session_get_model (self->session), &ev));
}

/* A kernel group picked: the histogram shows that kernel. */
static void
selection_changed_cb (SlSearchPage *self)
{
  g_autoptr(GtkTreeListRow) row = gtk_single_selection_get_selected_item (self->selection) != NULL
                                  ? g_object_ref (gtk_single_selection_get_selected_item (self->selection)) : NULL;
  g_autoptr(SlSearchItem) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  SlSearchResult *r;
  const SlNameGroup *g;

  if (item == NULL || self->session == NULL)
    return;
  r = _sl_search_item_get_result (item);
  g = &r->search->groups[_sl_search_item_get_group (item)];
  if (g->kind == SL_NAME_GROUP_KERNEL)
    sl_session_set_kernel_name (self->session, sl_name_search_group_name (r->profile, g));
}

static void
focus_changed_cb (SlSearchPage *self)
{
  notify_probe (self);
}

/* ---- the session --------------------------------------------------------- */

/* A more complete model (a staged load): the same search over it. */
static void
model_changed_cb (SlSearchPage *self)
{
  if (self->result != NULL || self->cancellable != NULL)
    start_search (self);
}

/* The scope's range changed: searched in scope, search it again.  The
 * visible range is not followed (it is taken when the search starts):
 * Enter and F3 move the view, and must not replace what they walk. */
static void
scope_changed_cb (SlSearchPage *self)
{
  if (gtk_check_button_get_active (GTK_CHECK_BUTTON (self->scope_check)) && (self->result != NULL || self->cancellable != NULL || self->error != NULL))
    start_search (self);
}

static void
scope_toggled_cb (SlSearchPage *self)
{
  if (*gtk_editable_get_text (GTK_EDITABLE (self->entry)) != '\0')
    start_search (self);
  notify_probe (self);
}

/* Another order: the same result, its groups listed anew. */
static void
sort_toggled_cb (GtkToggleButton *button, SlSearchPage *self)
{
  g_autoptr(GtkTreeListModel) tree = NULL;

  if (!gtk_toggle_button_get_active (button))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (self->sort_buttons); i++)
    if (self->sort_buttons[i] == GTK_WIDGET (button))
      self->sort = i;
  tree = self->result != NULL ? _sl_search_tree_new (self->result, self->sort) : NULL;
  show_tree (self, tree);
  notify_probe (self);
}

static void
set_session (SlSearchPage *self, SlSession *session)
{
  if (self->session == session)
    return;
  cancel_search (self);
  show_result (self, NULL);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    {
      static const char *const scope_signals[] = { "notify::scope", "notify::selected-range", "notify::bookmark-range" };

      g_signal_connect_object (session, "notify::model", G_CALLBACK (model_changed_cb), self, G_CONNECT_SWAPPED);
      for (guint i = 0; i < G_N_ELEMENTS (scope_signals); i++)
        g_signal_connect_object (session, scope_signals[i], G_CALLBACK (scope_changed_cb), self, G_CONNECT_SWAPPED);
    }
  if (*gtk_editable_get_text (GTK_EDITABLE (self->entry)) != '\0')
    start_search (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/* ---- the test probe ------------------------------------------------------ */

static gboolean
entry_has_focus (SlSearchPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == self->entry || gtk_widget_is_ancestor (focus, self->entry));
}

/* The first 50 groups, in the order the list shows them. */
static void
add_groups (JsonBuilder *b, SlSearchPage *self, const SlSearchResult *r)
{
  static const char *const kinds[] = { "kernel", "range", "api" };
  GListModel *groups = self->tree != NULL ? gtk_tree_list_model_get_model (self->tree) : NULL;

  json_builder_set_member_name (b, "groups");
  json_builder_begin_array (b);
  for (guint i = 0; groups != NULL && i < MIN (g_list_model_get_n_items (groups), 50); i++)
    {
      g_autoptr(SlSearchItem) item = g_list_model_get_item (groups, i);
      const SlNameGroup *g = &r->search->groups[_sl_search_item_get_group (item)];

      json_builder_begin_object (b);
      sl_json_member_string (b, "kind", kinds[g->kind]);
      sl_json_member_string (b, "name", sl_name_search_group_name (r->profile, g));
      sl_json_member_int (b, "count", g->n);
      sl_json_member_int (b, "total_ns", g->total_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}


/* "in_scope", "range" (searched, or null), "sort" and where the controls are. */
static void
add_options (JsonBuilder *b, SlSearchPage *self)
{
  static const char *const sorts[] = { "time", "count", "name" };

  sl_json_member_boolean (b, "in_scope", gtk_check_button_get_active (GTK_CHECK_BUTTON (self->scope_check)));
  json_builder_set_member_name (b, "range");
  if (self->result != NULL && self->scoped)
    {
      json_builder_begin_array (b);
      json_builder_add_int_value (b, self->scope_range.start);
      json_builder_add_int_value (b, self->scope_range.end);
      json_builder_end_array (b);
    }
  else
    json_builder_add_null_value (b);
  sl_json_member_string (b, "sort", sorts[self->sort]);
  sl_probe_add_bounds (b, "scope_check", self->scope_check);
  for (guint i = 0; i < G_N_ELEMENTS (sorts); i++)
    {
      g_autofree char *key = g_strdup_printf ("sort_%s", sorts[i]);
      sl_probe_add_bounds (b, key, self->sort_buttons[i]);
    }
}

/* {"text", "focus", "searching", "error", "matches", "kernels", "ranges",
 *  "api", "names", "groups": [{kind, name, count, total_ns}] (the first 50,
 *  as listed), "in_scope", "range", "sort", geometries,
 *  "first": {start_ns, end_ns} of the first match by time, or null} */
static char *
probe_state (SlSearchPage *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  SlSearchResult *r = self->result;

  json_builder_begin_object (b);
  sl_json_member_string (b, "text", gtk_editable_get_text (GTK_EDITABLE (self->entry)));
  sl_json_member_boolean (b, "focus", entry_has_focus (self));
  sl_json_member_boolean (b, "searching", self->cancellable != NULL);
  json_builder_set_member_name (b, "error");
  if (self->error != NULL)
    json_builder_add_string_value (b, self->error);
  else
    json_builder_add_null_value (b);
  sl_json_member_int (b, "matches", r != NULL ? r->search->n_hits : 0);
  sl_json_member_int (b, "kernels", r != NULL ? r->search->n_kernels : 0);
  sl_json_member_int (b, "ranges", r != NULL ? r->search->n_ranges : 0);
  sl_json_member_int (b, "api", r != NULL ? r->search->n_api : 0);
  sl_json_member_int (b, "names", r != NULL ? _sl_search_result_n_listed (r) : 0);
  if (r != NULL)
    add_groups (b, self, r);
  add_options (b, self);
  json_builder_set_member_name (b, "first");
  if (r != NULL && r->search->n_hits > 0)
    {
      json_builder_begin_object (b);
      sl_json_member_int (b, "start_ns", r->search->hits[0].start);
      sl_json_member_int (b, "end_ns", sl_name_search_hit_end (r->profile, &r->search->hits[0]));
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_to_string (root, FALSE);
}

/* ---- the object ---------------------------------------------------------- */

static void
sl_search_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlSearchPage *self = SL_SEARCH_PAGE (object);

  if (prop_id == PROP_SESSION)
    g_value_set_object (value, self->session);
  else if (prop_id == PROP_PROBE_STATE)
    g_value_take_string (value, probe_state (self));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
sl_search_page_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  SlSearchPage *self = SL_SEARCH_PAGE (object);

  if (prop_id == PROP_SESSION)
    set_session (self, g_value_get_object (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
sl_search_page_dispose (GObject *object)
{
  SlSearchPage *self = SL_SEARCH_PAGE (object);

  cancel_search (self);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_pointer (&self->result, _sl_search_result_unref);
  g_clear_pointer (&self->error, g_free);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (sl_search_page_parent_class)->dispose (object);
}

static void
sl_search_page_class_init (SlSearchPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_search_page_dispose;
  object_class->get_property = sl_search_page_get_property;
  object_class->set_property = sl_search_page_set_property;
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROBE_STATE] = g_param_spec_string ("probe-state", NULL, NULL, NULL,
                                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  /* named in init: a screen reader tells the page, not "filler" */
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
}

static GtkWidget *
make_view (SlSearchPage *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  self->view = gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)));
  _sl_search_columns_add (GTK_COLUMN_VIEW (self->view));
  gtk_widget_add_css_class (self->view, "data-table");
  g_signal_connect_swapped (self->view, "activate", G_CALLBACK (row_activate_cb), self);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->view);
  gtk_widget_set_vexpand (scrolled, TRUE);
  return scrolled;
}

/* [x] In scope only        Sort: [Time|Count|Name] */
static GtkWidget *
make_options (SlSearchPage *self)
{
  static const char *const labels[] = { N_("Time"), N_("Count"), N_("Name") };
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *linked = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  self->scope_check = gtk_check_button_new_with_label (_("In scope only"));
  gtk_widget_set_tooltip_text (self->scope_check, _("Search only the range of the summary's scope (selection, bookmark or view)"));
  gtk_widget_set_hexpand (self->scope_check, TRUE);
  g_signal_connect_swapped (self->scope_check, "toggled", G_CALLBACK (scope_toggled_cb), self);
  gtk_widget_add_css_class (linked, "linked");
  gtk_widget_set_tooltip_text (linked, _("List the names by total time, count or name"));
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      self->sort_buttons[i] = gtk_toggle_button_new_with_label (_(labels[i]));
      if (i > 0)
        gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (self->sort_buttons[i]), GTK_TOGGLE_BUTTON (self->sort_buttons[0]));
      gtk_box_append (GTK_BOX (linked), self->sort_buttons[i]);
    }
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->sort_buttons[SL_SEARCH_SORT_TIME]), TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    g_signal_connect (self->sort_buttons[i], "toggled", G_CALLBACK (sort_toggled_cb), self);
  gtk_widget_set_margin_start (row, 6);
  gtk_widget_set_margin_end (row, 6);
  gtk_box_append (GTK_BOX (row), self->scope_check);
  gtk_box_append (GTK_BOX (row), linked);
  return row;
}

static void
sl_search_page_init (SlSearchPage *self)
{
  GtkEventController *focus = gtk_event_controller_focus_new ();

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Search"), -1);
  self->entry = gtk_search_entry_new ();
  g_object_set (self->entry, "placeholder-text", _("Kernel, NVTX range or API call"), NULL);
  gtk_search_entry_set_search_delay (GTK_SEARCH_ENTRY (self->entry), 150);
  gtk_widget_set_margin_start (self->entry, 6);
  gtk_widget_set_margin_end (self->entry, 6);
  gtk_widget_set_margin_top (self->entry, 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Search"), -1);
  gtk_widget_set_tooltip_text (self->entry, _("Kernel, NVTX range or API call"));
  g_signal_connect_swapped (self->entry, "search-changed", G_CALLBACK (start_search), self);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (entry_activate_cb), self);
  g_signal_connect_swapped (focus, "notify::contains-focus", G_CALLBACK (focus_changed_cb), self);
  gtk_widget_add_controller (self->entry, focus);
  self->status = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->status), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_widget_set_margin_start (self->status, 8);
  gtk_widget_set_margin_end (self->status, 8);
  gtk_box_append (GTK_BOX (self->box), self->entry);
  gtk_box_append (GTK_BOX (self->box), make_options (self));
  gtk_box_append (GTK_BOX (self->box), self->status);
  gtk_box_append (GTK_BOX (self->box), make_view (self));
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  set_status (self);
}

GtkWidget *
sl_search_page_new (void)
{
  return g_object_new (SL_TYPE_SEARCH_PAGE, NULL);
}
