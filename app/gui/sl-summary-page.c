/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-summary-page.c: the side panel's Summary page.  The scope (whole
 * profile or the selected range) decides a filter; a worker computes the
 * scope summary (sl-scope-summary.h), the previous run cancelled; the
 * sections and the histogram show the result. */
#include "sl-summary-page.h"
#include "sl-background.h"
#include "sl-tooltip.h"
#include "sl-accessible-name.h"
#include "sl-locale-format.h"

#include <glib/gi18n.h>

#include "sl-summary-cpu.h"
#include "sl-summary-histogram.h"
#include "sl-summary-sections.h"

/* Selections change on every motion of a drag: wait for it to rest. */
#define SETTLE_MS 120

struct _SlSummaryPage {
  GtkWidget       parent_instance;

  GtkWidget      *box;
  GtkWidget      *scope_dropdown;
  GSignalGroup   *bookmark_signals;  /* the session's store: its bookmarks are scopes too */
  gboolean        filling_scopes;
  GtkWidget      *range_label;
  GtkWidget      *status;
  GtkWidget      *sections;
  GtkWidget      *histogram;
  SlSession      *session;
  GCancellable   *cancellable;
  guint           settle_id;
  guint           laid_out_id;
  gboolean        fill_pending;   /* the sections wait for the page to show */
  guint           fill_id;        /* their fill, after the page showed */
  SlSummaryFill  *fill;           /* a fill going on, a piece per frame */
  guint           fill_tick;
  gboolean        has_scope;
  SlTimeRange     scope_range;
  SlScopeSummary *summary;
  SlSummaryCpu   *cpu_summary;   /* nullable */
  char           *probe_state;
};

enum { PROP_0, PROP_SESSION, PROP_PROBE_STATE, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SlSummaryPage, sl_summary_page, GTK_TYPE_WIDGET)

/* Where the links of @css_class visible in the sections are, in window
 * coordinates, for the test to click (a gap's with its span). */
static void
add_links (JsonBuilder *b, SlSummaryPage *self, const char *member, const char *css_class)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
  GtkWidget *scroller = gtk_widget_get_ancestor (self->sections, GTK_TYPE_SCROLLED_WINDOW);
  double sx = 0, sy = 0;

  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  if (native != NULL)
    gtk_native_get_surface_transform (native, &sx, &sy);
  for (GtkWidget *grid = gtk_widget_get_first_child (self->sections); native != NULL && grid != NULL;
       grid = gtk_widget_get_next_sibling (grid))
    for (GtkWidget *c = gtk_widget_get_first_child (grid); c != NULL; c = gtk_widget_get_next_sibling (c))
      {
        graphene_point_t p, in_scroller;
        double w = gtk_widget_get_width (c), h = gtk_widget_get_height (c);
        gint64 start, end;

        if (!gtk_widget_has_css_class (c, css_class)
            || !gtk_widget_compute_point (c, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (w / 2, h / 2), &p)
            || !gtk_widget_compute_point (c, scroller, &GRAPHENE_POINT_INIT (w / 2, h / 2), &in_scroller)
            || in_scroller.y < 0 || in_scroller.y > gtk_widget_get_height (scroller))
          continue;
        json_builder_begin_object (b);
        sl_json_member_string (b, "name", sl_tooltip_get_text (c));
        sl_json_member_double (b, "x", p.x + sx);
        sl_json_member_double (b, "y", p.y + sy);
        if (sl_summary_sections_link_span (c, &start, &end))
          {
            sl_json_member_int (b, "start_ns", start);
            sl_json_member_int (b, "end_ns", end);
          }
        json_builder_end_object (b);
      }
  json_builder_end_array (b);
}

static void
update_probe_state (SlSummaryPage *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  sl_json_member_string (b, "scope", self->session == NULL ? "whole"
                                     : sl_session_get_scope (self->session) == SL_SCOPE_SELECTION ? "selection"
                                     : sl_session_get_scope (self->session) == SL_SCOPE_BOOKMARK ? "bookmark" : "whole");
  /* still coming: the summary, or the sections' pieces (until laid out) */
  sl_json_member_boolean (b, "computing", self->cancellable != NULL || self->settle_id != 0 || self->fill != NULL);
  sl_json_member_boolean (b, "has_scope", self->has_scope);
  sl_json_member_int (b, "start_ns", self->scope_range.start);
  sl_json_member_int (b, "end_ns", self->scope_range.end);
  json_builder_set_member_name (b, "summary");
  if (self->summary != NULL && self->cancellable == NULL && self->settle_id == 0)
    json_builder_add_value (b, sl_scope_summary_to_json (self->summary));
  else
    json_builder_add_null_value (b);
  sl_json_member_int (b, "session_highlight_n",
                      self->session != NULL && sl_session_get_highlight (self->session) != NULL
                      ? sl_highlight_get_n (sl_session_get_highlight (self->session)) : 0);
  add_links (b, self, "kernel_links", SL_SUMMARY_KERNEL_LINK);
  add_links (b, self, "gap_links", SL_SUMMARY_GAP_LINK);
  json_builder_set_member_name (b, "cpu");
  if (self->cpu_summary != NULL && self->cancellable == NULL && self->settle_id == 0)
    json_builder_add_value (b, sl_summary_cpu_to_json (self->cpu_summary));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "histogram");
  json_builder_add_value (b, sl_summary_histogram_to_json (SL_SUMMARY_HISTOGRAM (self->histogram)));
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  g_free (self->probe_state);
  self->probe_state = json_to_string (root, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBE_STATE]);
}

/* New sections have a place only after the next layout: say so again then. */
static gboolean
laid_out_cb (gpointer data)
{
  SlSummaryPage *self = data;

  self->laid_out_id = 0;
  if (self->fill != NULL && self->fill_tick == 0)
    g_clear_pointer (&self->fill, sl_summary_fill_free);   /* all its pieces are in */
  update_probe_state (self);
  return G_SOURCE_REMOVE;
}

/* Scrolled: the links moved, say where they are once it stops. */
static void
scrolled_cb (SlSummaryPage *self)
{
  g_clear_handle_id (&self->laid_out_id, g_source_remove);
  self->laid_out_id = g_timeout_add (250, laid_out_cb, self);
}

static void
show_range (SlSummaryPage *self)
{
  const SlProfile *p = sl_session_get_profile (self->session);
  g_autofree char *from = sl_locale_duration (self->scope_range.start - p->start_ns);
  g_autofree char *to = sl_locale_duration (self->scope_range.end - p->start_ns);
  g_autofree char *len = sl_locale_duration (self->scope_range.end - self->scope_range.start);
  g_autofree char *text = g_strdup_printf (_("%s – %s (%s)"), from, to, len);

  gtk_label_set_text (GTK_LABEL (self->range_label), text);
}

static void
set_status (SlSummaryPage *self, const char *text)
{
  gtk_label_set_text (GTK_LABEL (self->status), text != NULL ? text : "");
  gtk_widget_set_visible (self->status, text != NULL);
}

/* ---- the worker ---- */

typedef struct {
  SlProfile     *profile;
  SlFilter      *filter;
  SlCpuActivity *cpu;          /* nullable: the CPU samples (sl-summary-cpu.c) */
  gint64         start, end;
  SlSummaryCpu  *cpu_summary;  /* the worker's */
} Job;

static void
job_free (Job *job)
{
  sl_profile_unref (job->profile);
  g_clear_pointer (&job->filter, sl_filter_free);
  g_clear_pointer (&job->cpu, sl_cpu_activity_unref);
  g_clear_pointer (&job->cpu_summary, sl_summary_cpu_free);
  g_free (job);
}

static void
compute_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;
  SlScopeSummary *s;

  sl_background_thread ();
  s = sl_scope_summary_compute (job->profile, job->filter, cancellable, &error);

  if (s != NULL)
    job->cpu_summary = sl_summary_cpu_compute (job->cpu, job->start, job->end);

  if (s != NULL)
    g_task_return_pointer (task, s, (GDestroyNotify) sl_scope_summary_unref);
  else
    g_task_return_error (task, error);
}

static void
stop_fill (SlSummaryPage *self)
{
  if (self->fill_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->fill_tick);
  self->fill_tick = 0;
  g_clear_pointer (&self->fill, sl_summary_fill_free);
}

/* Empties the sections at once (no summary, or another scope's). */
static void
clear_sections (SlSummaryPage *self)
{
  self->fill_pending = FALSE;
  g_clear_handle_id (&self->fill_id, g_source_remove);
  stop_fill (self);
  sl_summary_sections_fill (GTK_BOX (self->sections), NULL, self->session);
}

/* One piece of the sections per frame, then the CPU's. */
static gboolean
fill_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  SlSummaryPage *self = SL_SUMMARY_PAGE (widget);

  if (sl_summary_fill_step (self->fill))
    return G_SOURCE_CONTINUE;
  self->fill_tick = 0;
  sl_summary_cpu_fill (GTK_BOX (self->sections), self->cpu_summary);
  /* the probe says the page is ready once the new links have a place */
  g_clear_handle_id (&self->laid_out_id, g_source_remove);
  self->laid_out_id = g_timeout_add (250, laid_out_cb, self);
  return G_SOURCE_REMOVE;
}

/* The sections of the summary shown: hundreds of widgets (links, labels,
 * menus), whose creation and first style and layout cost tens of ms on
 * the main loop at once: they come a piece per frame.  A page not shown
 * has them built when it is next shown, so a load under another page
 * does not pay for them. */
static void
fill_sections (SlSummaryPage *self)
{
  self->fill_pending = FALSE;
  g_clear_handle_id (&self->fill_id, g_source_remove);
  stop_fill (self);
  self->fill = sl_summary_fill_new (GTK_BOX (self->sections), self->summary, self->session);
  sl_summary_fill_step (self->fill);   /* the old sections go at once */
  self->fill_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), fill_tick_cb, NULL, NULL);
  update_probe_state (self);
}

static gboolean
fill_cb (gpointer data)
{
  SlSummaryPage *self = data;

  self->fill_id = 0;
  fill_sections (self);
  return G_SOURCE_REMOVE;
}

/* Shown with a fill waiting: after this frame, not inside the map. */
static void
sl_summary_page_map (GtkWidget *widget)
{
  SlSummaryPage *self = SL_SUMMARY_PAGE (widget);

  GTK_WIDGET_CLASS (sl_summary_page_parent_class)->map (widget);
  if (self->fill_pending && self->fill_id == 0)
    self->fill_id = g_idle_add (fill_cb, self);
}

static void
compute_done (GObject *source, GAsyncResult *result, gpointer data)
{
  SlSummaryPage *self = SL_SUMMARY_PAGE (source);
  g_autoptr(GError) error = NULL;
  SlScopeSummary *s = g_task_propagate_pointer (G_TASK (result), &error);
  Job *job = g_task_get_task_data (G_TASK (result));

  if (s == NULL)
    return;   /* cancelled: a newer run is on its way */
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->summary, sl_scope_summary_unref);
  self->summary = s;
  set_status (self, NULL);
  g_clear_pointer (&self->cpu_summary, sl_summary_cpu_free);
  self->cpu_summary = g_steal_pointer (&job->cpu_summary);
  sl_summary_histogram_set_scope (SL_SUMMARY_HISTOGRAM (self->histogram), job->filter, s);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    fill_sections (self);
  else
    {
      /* the old sections go at once: they are another scope's */
      clear_sections (self);
      self->fill_pending = TRUE;   /* at the next map */
      update_probe_state (self);
    }
}

static void
start (SlSummaryPage *self)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->has_scope = self->session != NULL && sl_session_get_scope_range (self->session, &self->scope_range);
  if (!self->has_scope)
    {
      g_clear_pointer (&self->summary, sl_scope_summary_unref);
      g_clear_pointer (&self->cpu_summary, sl_summary_cpu_free);
      clear_sections (self);
      gtk_label_set_text (GTK_LABEL (self->range_label), "");
      set_status (self, self->session != NULL ? _("Select a time range in the timeline (Shift+drag).") : NULL);
      update_probe_state (self);
      return;
    }
  show_range (self);
  job = g_new0 (Job, 1);
  job->profile = sl_profile_ref (sl_session_get_profile (self->session));
  if (sl_session_get_model (self->session)->cpu != NULL)
    job->cpu = sl_cpu_activity_ref (sl_session_get_model (self->session)->cpu);
  /* the whole run holds samples outside the profile's span (a file of samples only has none) */
  job->start = sl_session_get_scope (self->session) == SL_SCOPE_WHOLE ? G_MININT64 : self->scope_range.start;
  job->end = sl_session_get_scope (self->session) == SL_SCOPE_WHOLE ? G_MAXINT64 : self->scope_range.end;
  if (sl_session_get_scope (self->session) != SL_SCOPE_WHOLE)
    {
      job->filter = sl_filter_new ();
      sl_filter_set_range (job->filter, self->scope_range.start, self->scope_range.end);
    }
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, compute_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, compute_thread);
  set_status (self, _("Computing…"));
  update_probe_state (self);
}

static gboolean
settle_cb (gpointer data)
{
  SlSummaryPage *self = data;

  self->settle_id = 0;
  start (self);
  return G_SOURCE_REMOVE;
}

static void
schedule (SlSummaryPage *self)
{
  g_clear_handle_id (&self->settle_id, g_source_remove);
  self->settle_id = g_timeout_add (SETTLE_MS, settle_cb, self);
  update_probe_state (self);
}

/* ---- the scope ---- */

/* The dropdown: Whole profile, Selection, then each bookmark (by its
 * place in the store): the entry that stands for the session's scope. */
static guint
scope_position (SlSummaryPage *self)
{
  SlScope scope = sl_session_get_scope (self->session);
  SlBookmarkStore *store = sl_session_get_bookmarks (self->session);
  const SlTimeRange *range = sl_session_get_bookmark_range (self->session);
  GPtrArray *all = store ? sl_bookmark_store_get_bookmarks (store) : NULL;

  if (scope == SL_SCOPE_SELECTION)
    return 1;
  for (guint i = 0; scope == SL_SCOPE_BOOKMARK && range != NULL && all != NULL && i < all->len; i++)
    if (((SlBookmark *) all->pdata[i])->start == range->start && ((SlBookmark *) all->pdata[i])->end == range->end)
      return 2 + i;
  return 0;
}

static void
show_scope (SlSummaryPage *self)
{
  self->filling_scopes = TRUE;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->scope_dropdown), scope_position (self));
  self->filling_scopes = FALSE;
}

static void
fill_scopes (SlSummaryPage *self)
{
  GtkStringList *list = GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (self->scope_dropdown)));
  SlBookmarkStore *store = self->session ? sl_session_get_bookmarks (self->session) : NULL;
  GPtrArray *all = store ? sl_bookmark_store_get_bookmarks (store) : NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; all != NULL && i < all->len; i++)
    /* TRANSLATORS: a scope of the summary: %s is the bookmark's name */
    g_ptr_array_add (names, g_strdup_printf (_("Bookmark: %s"), ((SlBookmark *) all->pdata[i])->name));
  g_ptr_array_add (names, NULL);
  self->filling_scopes = TRUE;
  gtk_string_list_splice (list, 2, g_list_model_get_n_items (G_LIST_MODEL (list)) - 2,
                          (const char * const *) names->pdata);
  self->filling_scopes = FALSE;
  if (self->session != NULL)
    show_scope (self);
}

static void
bookmarks_changed_cb (SlSummaryPage *self)
{
  g_signal_group_set_target (self->bookmark_signals, self->session ? sl_session_get_bookmarks (self->session) : NULL);
  fill_scopes (self);
}

static void
scope_changed_cb (SlSummaryPage *self)
{
  show_scope (self);
  schedule (self);
}

/* A new selection is what the user wants summed up: the scope follows it. */
static void
selected_range_cb (SlSummaryPage *self)
{
  /* but not a gap picked from this page's own list */
  if (g_object_get_data (G_OBJECT (self->session), SL_SUMMARY_OWN_SELECTION) != NULL)
    return;
  if (sl_session_get_selected_range (self->session) != NULL)
    sl_session_set_scope (self->session, SL_SCOPE_SELECTION);
  if (sl_session_get_scope (self->session) == SL_SCOPE_SELECTION)
    schedule (self);
}

static void
dropdown_cb (SlSummaryPage *self)
{
  guint i = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->scope_dropdown));
  SlBookmarkStore *store = self->session ? sl_session_get_bookmarks (self->session) : NULL;
  GPtrArray *all = store ? sl_bookmark_store_get_bookmarks (store) : NULL;

  if (self->session == NULL || self->filling_scopes)
    return;
  if (i >= 2 && all != NULL && i - 2 < all->len)
    {
      const SlBookmark *b = all->pdata[i - 2];

      sl_session_set_bookmark_range (self->session, &(SlTimeRange) { b->start, b->end });
      sl_session_set_scope (self->session, SL_SCOPE_BOOKMARK);
      schedule (self);   /* another bookmark under the same scope */
    }
  else
    sl_session_set_scope (self->session, i == 1 ? SL_SCOPE_SELECTION : SL_SCOPE_WHOLE);
}

static void
set_session (SlSummaryPage *self, SlSession *session)
{
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  if (!g_set_object (&self->session, session))
    return;
  sl_summary_histogram_set_session (SL_SUMMARY_HISTOGRAM (self->histogram), session);
  if (session != NULL)
    {
      g_signal_connect_swapped (session, "notify::scope", G_CALLBACK (scope_changed_cb), self);
      g_signal_connect_swapped (session, "notify::selected-range", G_CALLBACK (selected_range_cb), self);
      g_signal_connect_swapped (session, "notify::model", G_CALLBACK (schedule), self);
      g_signal_connect_swapped (session, "notify::highlight", G_CALLBACK (update_probe_state), self);
      g_signal_connect_swapped (session, "notify::bookmarks", G_CALLBACK (bookmarks_changed_cb), self);
    }
  bookmarks_changed_cb (self);
  start (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/* ---- GObject ---- */

static void
sl_summary_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlSummaryPage *self = SL_SUMMARY_PAGE (object);

  if (prop_id == PROP_SESSION)
    g_value_set_object (value, self->session);
  else if (prop_id == PROP_PROBE_STATE)
    g_value_set_string (value, self->probe_state);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
sl_summary_page_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  SlSummaryPage *self = SL_SUMMARY_PAGE (object);

  if (prop_id == PROP_SESSION)
    set_session (self, g_value_get_object (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
sl_summary_page_dispose (GObject *object)
{
  SlSummaryPage *self = SL_SUMMARY_PAGE (object);

  g_clear_handle_id (&self->settle_id, g_source_remove);
  g_clear_handle_id (&self->laid_out_id, g_source_remove);
  g_clear_handle_id (&self->fill_id, g_source_remove);
  stop_fill (self);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  if (self->bookmark_signals != NULL)
    g_signal_group_set_target (self->bookmark_signals, NULL);
  g_clear_object (&self->bookmark_signals);
  g_clear_pointer (&self->summary, sl_scope_summary_unref);
  g_clear_pointer (&self->cpu_summary, sl_summary_cpu_free);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (sl_summary_page_parent_class)->dispose (object);
}

static void
sl_summary_page_finalize (GObject *object)
{
  g_free (SL_SUMMARY_PAGE (object)->probe_state);
  G_OBJECT_CLASS (sl_summary_page_parent_class)->finalize (object);
}

/* Link rows as compact as the plain ones: the theme pads buttons for
 * toolbars, not for table cells. */
static void
add_style (void)
{
  GtkCssProvider *css = gtk_css_provider_new ();
  static const char rules[] = "button.summary-link { padding: 0 2px; min-height: 0; }";

  gtk_css_provider_load_from_data (css, rules, -1);
  if (gdk_display_get_default () != NULL)
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_unref (css);
}

static void
sl_summary_page_class_init (SlSummaryPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  add_style ();
  object_class->dispose = sl_summary_page_dispose;
  object_class->finalize = sl_summary_page_finalize;
  object_class->get_property = sl_summary_page_get_property;
  object_class->set_property = sl_summary_page_set_property;
  GTK_WIDGET_CLASS (klass)->map = sl_summary_page_map;
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                  G_PARAM_STATIC_STRINGS);
  properties[PROP_PROBE_STATE] = g_param_spec_string ("probe-state", NULL, NULL, NULL,
                                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  /* named in init: a screen reader tells the page, not "filler" */
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
}

static GtkWidget *
header (SlSummaryPage *self)
{
  static const char *const scopes[] = { N_("Whole profile"), N_("Selection"), NULL };
  const char *translated[] = { _(scopes[0]), _(scopes[1]), NULL };
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->scope_dropdown = gtk_drop_down_new_from_strings (translated);
  sl_accessible_name_set (self->scope_dropdown, _("What the summary covers"));
  g_signal_connect_swapped (self->scope_dropdown, "notify::selected", G_CALLBACK (dropdown_cb), self);
  self->range_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->range_label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->range_label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->range_label, "numeric");
  gtk_box_append (GTK_BOX (row), self->scope_dropdown);
  gtk_box_append (GTK_BOX (row), self->range_label);
  return row;
}

/* The sections scroll; the histogram stays in view below them. */
static GtkWidget *
content (SlSummaryPage *self)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *bottom = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *title = gtk_label_new (_("Durations"));

  self->sections = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_margin_start (self->sections, 8);
  gtk_widget_set_margin_end (self->sections, 8);
  gtk_widget_set_margin_bottom (self->sections, 8);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->sections);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 160);
  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), "value-changed",
                           G_CALLBACK (scrolled_cb), self, G_CONNECT_SWAPPED);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (bottom), title);
  self->histogram = sl_summary_histogram_new ();
  g_signal_connect_swapped (self->histogram, "changed", G_CALLBACK (update_probe_state), self);
  gtk_box_append (GTK_BOX (bottom), self->histogram);
  gtk_widget_set_margin_start (bottom, 8);
  gtk_widget_set_margin_end (bottom, 8);
  gtk_widget_set_margin_top (bottom, 6);
  gtk_widget_set_margin_bottom (bottom, 8);
  gtk_paned_set_start_child (GTK_PANED (paned), scroller);
  gtk_paned_set_end_child (GTK_PANED (paned), bottom);
  gtk_paned_set_resize_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_widget_set_vexpand (paned, TRUE);
  return paned;
}

static void
sl_summary_page_init (SlSummaryPage *self)
{
  GtkWidget *top;

  self->bookmark_signals = g_signal_group_new (SL_TYPE_BOOKMARK_STORE);
  g_signal_group_connect_swapped (self->bookmark_signals, "changed", G_CALLBACK (fill_scopes), self);
  top = header (self);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_margin_start (top, 8);
  gtk_widget_set_margin_end (top, 8);
  gtk_widget_set_margin_top (top, 6);
  gtk_box_append (GTK_BOX (self->box), top);
  self->status = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_box_append (GTK_BOX (self->box), self->status);
  gtk_box_append (GTK_BOX (self->box), content (self));
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Summary"), -1);
  update_probe_state (self);
}

GtkWidget *
sl_summary_page_new (void)
{
  return g_object_new (SL_TYPE_SUMMARY_PAGE, NULL);
}
