/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-summary-histogram.c: a kernel's or the iterations' durations, and the
 * highlight of the instances in the bins the user drags across. */
#include "sl-summary-histogram.h"
#include "sl-background.h"
#include "sl-locale-format.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-histogram.h"

#define N_BINS 40

/* One instance: its event (kind SL_EVENT_NONE when it has none: a step found
 * from kernels or gaps) and its duration. */
typedef struct {
  SlEventRef ref;
  gint64     dur_ns;
} Item;

struct _SlSummaryHistogram {
  GtkWidget       parent_instance;

  GtkWidget      *box;
  GtkWidget      *kernel_toggle;
  GtkWidget      *iterations_toggle;
  GtkWidget      *caption;       /* what is shown */
  GtkWidget      *figures;       /* its count and percentiles */
  GtkWidget      *histogram;
  GtkWidget      *outliers;
  SlSession      *session;
  SlFilter       *filter;
  SlScopeSummary *summary;
  gboolean        iterations;
  char           *name;          /* the kernel shown */
  GCancellable   *cancellable;
  GArray         *items;         /* Item, of what the histogram shows */
  guint           sel_first;     /* G_MAXUINT: none */
  guint           sel_last;
  guint           n_highlighted;
};

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SlSummaryHistogram, sl_summary_histogram, GTK_TYPE_WIDGET)

static void
changed (SlSummaryHistogram *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
set_caption (SlSummaryHistogram *self, const SlDurationHistogram *h)
{
  g_autofree char *text = NULL;

  if (self->iterations)
    text = g_strdup (_("Iteration durations"));
  else if (self->name == NULL)
    text = g_strdup (_("Click a kernel name to see its durations."));
  else
    text = g_strdup (self->name);
  gtk_label_set_text (GTK_LABEL (self->caption), text);
  gtk_widget_set_tooltip_text (self->caption, text);
  if (h != NULL && h->n > 0)
    {
      g_autofree char *p50 = sl_locale_duration (h->p50_ns), *p90 = sl_locale_duration (h->p90_ns);
      g_autofree char *p99 = sl_locale_duration (h->p99_ns);
      g_autofree char *figures = g_strdup_printf (ngettext ("%" PRIu64 " instance · p50 %s · p90 %s · p99 %s",
                                                            "%" PRIu64 " instances · p50 %s · p90 %s · p99 %s",
                                                            h->n),
                                                  h->n, p50, p90, p99);
      gtk_label_set_text (GTK_LABEL (self->figures), figures);
    }
  else
    gtk_label_set_text (GTK_LABEL (self->figures), "");
}

/* The histogram of @items' durations: O(n) with three selections, so a
 * kernel's instances (a million and more in a big profile) have theirs
 * built in the worker that found them, off the main loop. */
static SlDurationHistogram *
items_histogram (const GArray *items)
{
  g_autofree gint64 *d = g_new (gint64, MAX (items->len, 1));

  for (guint i = 0; i < items->len; i++)
    d[i] = g_array_index (items, Item, i).dur_ns;
  return sl_duration_histogram_new (d, items->len, N_BINS);
}

/* Takes @items and @h, their histogram: shows it. */
static void
show_histogram (SlSummaryHistogram *self, GArray *items, SlDurationHistogram *h)
{
  g_clear_pointer (&self->items, g_array_unref);
  self->items = items;
  self->sel_first = self->sel_last = G_MAXUINT;
  self->n_highlighted = 0;
  set_caption (self, h);
  sl_histogram_set_histogram (SL_HISTOGRAM (self->histogram), h);
  gtk_widget_set_sensitive (self->outliers, items->len > 0);
  changed (self);
}

/* Takes @items (a few: the iterations, or none): shows their histogram. */
static void
show_items (SlSummaryHistogram *self, GArray *items)
{
  show_histogram (self, items, items_histogram (items));
}

/* ---- the kernel's instances, found in a worker ---- */

typedef struct {
  SlProfile *profile;
  SlFilter  *filter;
  char      *name;
} Job;

static void
job_free (Job *job)
{
  sl_profile_unref (job->profile);
  g_clear_pointer (&job->filter, sl_filter_free);
  g_free (job->name);
  g_free (job);
}

/* What the worker found: the instances and their histogram. */
typedef struct {
  GArray              *items;
  SlDurationHistogram *histogram;
} Found;

static void
found_free (Found *found)
{
  g_clear_pointer (&found->items, g_array_unref);
  g_clear_pointer (&found->histogram, sl_duration_histogram_free);
  g_free (found);
}

static void
find_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  g_autoptr(GArray) instances = NULL;
  Found *found = g_new0 (Found, 1);

  sl_background_thread ();
  instances = sl_kernel_instances_named (job->profile, job->filter, job->name);
  found->items = g_array_sized_new (FALSE, FALSE, sizeof (Item), instances->len);
  for (guint i = 0; i < instances->len; i++)
    {
      const SlKernelInstance *k = &g_array_index (instances, SlKernelInstance, i);
      Item item = { { SL_EVENT_KERNEL, k->stream, k->index }, k->dur_ns };
      g_array_append_val (found->items, item);
    }
  found->histogram = items_histogram (found->items);
  g_task_return_pointer (task, found, (GDestroyNotify) found_free);
}

static void
find_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Found *found = g_task_propagate_pointer (G_TASK (result), NULL);

  /* NULL when cancelled: the widget may be gone */
  if (found != NULL)
    {
      g_clear_object (&SL_SUMMARY_HISTOGRAM (source)->cancellable);
      show_histogram (SL_SUMMARY_HISTOGRAM (source), g_steal_pointer (&found->items),
                      g_steal_pointer (&found->histogram));
      found_free (found);
    }
}

static void
iteration_items (SlSummaryHistogram *self)
{
  GArray *items = g_array_new (FALSE, FALSE, sizeof (Item));
  const SlIterations *it = self->summary != NULL ? self->summary->iterations : NULL;

  for (guint i = 0; it != NULL && i < it->n_iterations; i++)
    {
      const SlIteration *s = &it->iterations[i];
      Item item = { { SL_EVENT_NONE, 0, 0 }, s->dur_ns };

      if (it->method == SL_ITERATIONS_NVTX && s->thread != SL_NONE)
        item.ref = (SlEventRef) { SL_EVENT_NVTX, s->thread, s->range };
      g_array_append_val (items, item);
    }
  show_items (self, items);
}

static void
refresh (SlSummaryHistogram *self)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->session == NULL || self->iterations || self->name == NULL)
    {
      if (self->iterations)
        iteration_items (self);
      else
        show_items (self, g_array_new (FALSE, FALSE, sizeof (Item)));
      return;
    }
  self->cancellable = g_cancellable_new ();
  job = g_new0 (Job, 1);
  job->profile = sl_profile_ref (sl_session_get_profile (self->session));
  job->filter = self->filter != NULL ? sl_filter_copy (self->filter) : NULL;
  job->name = g_strdup (self->name);
  task = g_task_new (self, self->cancellable, find_done, NULL);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, find_thread);
  set_caption (self, NULL);
  changed (self);
}

/* ---- highlight ---- */

static void
highlight (SlSummaryHistogram *self, const GArray *refs, const char *label)
{
  SlTimelineModel *model = self->session != NULL ? sl_session_get_model (self->session) : NULL;
  g_autoptr(SlHighlight) hl = NULL;

  if (model == NULL)
    return;
  hl = sl_highlight_new (model, (const SlEventRef *) refs->data, refs->len, label, TRUE);
  self->n_highlighted = sl_highlight_get_n (hl);
  sl_session_set_highlight (self->session, hl);
}

void
sl_summary_histogram_select_bins (SlSummaryHistogram *self, guint first, guint last)
{
  const SlDurationHistogram *h = sl_histogram_get_histogram (SL_HISTOGRAM (self->histogram));
  g_autoptr(GArray) refs = g_array_new (FALSE, FALSE, sizeof (SlEventRef));
  g_autofree char *label = NULL;

  g_return_if_fail (SL_IS_SUMMARY_HISTOGRAM (self));
  if (h == NULL || h->n_bins == 0 || self->items == NULL)
    return;
  last = MIN (last, h->n_bins - 1);
  first = MIN (first, last);
  for (guint i = 0; i < self->items->len; i++)
    {
      const Item *item = &g_array_index (self->items, Item, i);
      if (item->ref.kind != SL_EVENT_NONE && item->dur_ns >= h->edges[first] && item->dur_ns < h->edges[last + 1])
        g_array_append_val (refs, item->ref);
    }
  self->sel_first = first;
  self->sel_last = last;
  sl_histogram_set_selection (SL_HISTOGRAM (self->histogram), first, last);
  label = g_strdup_printf (_("histogram: %s"), self->iterations ? _("iterations") : self->name);
  highlight (self, refs, label);
  changed (self);
}

static int
item_slower_first (gconstpointer a, gconstpointer b)
{
  gint64 x = ((const Item *) a)->dur_ns, y = ((const Item *) b)->dur_ns;

  return x > y ? -1 : x < y;
}

void
sl_summary_histogram_select_outliers (SlSummaryHistogram *self)
{
  const SlDurationHistogram *h = sl_histogram_get_histogram (SL_HISTOGRAM (self->histogram));
  g_autoptr(GArray) sorted = NULL;
  g_autoptr(GArray) refs = g_array_new (FALSE, FALSE, sizeof (SlEventRef));
  guint k;

  g_return_if_fail (SL_IS_SUMMARY_HISTOGRAM (self));
  if (h == NULL || self->items == NULL || self->items->len == 0)
    return;
  /* the slowest ceil (n / 100) instances */
  k = (self->items->len + 99) / 100;
  sorted = g_array_copy (self->items);
  g_array_sort (sorted, item_slower_first);
  for (guint i = 0; i < k; i++)
    if (g_array_index (sorted, Item, i).ref.kind != SL_EVENT_NONE)
      g_array_append_val (refs, g_array_index (sorted, Item, i).ref);
  self->sel_first = sl_duration_histogram_bin_of (h, g_array_index (sorted, Item, k - 1).dur_ns);
  self->sel_last = h->n_bins - 1;
  sl_histogram_set_selection (SL_HISTOGRAM (self->histogram), self->sel_first, self->sel_last);
  highlight (self, refs, _("histogram: slowest 1 %"));
  changed (self);
}

/* ---- inputs ---- */

static void
set_name (SlSummaryHistogram *self, const char *name)
{
  if (name == NULL || g_strcmp0 (self->name, name) == 0)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  if (!self->iterations)
    refresh (self);
}

static void
kernel_name_cb (SlSummaryHistogram *self)
{
  set_name (self, sl_session_get_kernel_name (self->session));
}

/* A kernel selected in the timeline: its name as `kernels` lists it. */
static void
selected_event_cb (SlSummaryHistogram *self)
{
  const SlEventRef *ev = sl_session_get_selected_event (self->session);
  const SlProfile *p = sl_session_get_profile (self->session);

  if (ev == NULL || ev->kind != SL_EVENT_KERNEL || ev->owner >= p->n_streams
      || ev->index >= p->streams[ev->owner].kernels.spans.n)
    return;
  set_name (self, sl_strings_get (p->strings,
                                  sl_kernel_func_name_id (p, p->streams[ev->owner].kernels.func[ev->index],
                                                          SL_NAMES_SHORT)));
}

void
sl_summary_histogram_set_session (SlSummaryHistogram *self, SlSession *session)
{
  g_return_if_fail (SL_IS_SUMMARY_HISTOGRAM (self));
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  if (!g_set_object (&self->session, session))
    return;
  g_clear_pointer (&self->name, g_free);
  if (session != NULL)
    {
      g_signal_connect_swapped (session, "notify::kernel-name", G_CALLBACK (kernel_name_cb), self);
      g_signal_connect_swapped (session, "notify::selected-event", G_CALLBACK (selected_event_cb), self);
      self->name = g_strdup (sl_session_get_kernel_name (session));
    }
  refresh (self);
}

void
sl_summary_histogram_set_scope (SlSummaryHistogram *self, const SlFilter *filter, SlScopeSummary *summary)
{
  g_return_if_fail (SL_IS_SUMMARY_HISTOGRAM (self));
  g_clear_pointer (&self->filter, sl_filter_free);
  self->filter = filter != NULL ? sl_filter_copy (filter) : NULL;
  g_clear_pointer (&self->summary, sl_scope_summary_unref);
  self->summary = summary != NULL ? sl_scope_summary_ref (summary) : NULL;
  /* until the user picks one, the kernel that takes the most time */
  if (self->name == NULL && summary != NULL && summary->kernels->n_rows > 0)
    self->name = g_strdup (summary->kernels->rows[0].name);
  refresh (self);
}

void
sl_summary_histogram_set_iterations (SlSummaryHistogram *self, gboolean iterations)
{
  g_return_if_fail (SL_IS_SUMMARY_HISTOGRAM (self));
  if (self->iterations == !!iterations)
    return;
  self->iterations = !!iterations;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->kernel_toggle), !iterations);
  refresh (self);
}

/* ---- probe ---- */

static void
add_bins (JsonBuilder *b, const SlDurationHistogram *h)
{
  json_builder_set_member_name (b, "bins");
  json_builder_begin_array (b);
  for (guint i = 0; h != NULL && i < h->n_bins; i++)
    {
      json_builder_begin_array (b);
      json_builder_add_int_value (b, h->edges[i]);
      json_builder_add_int_value (b, h->edges[i + 1]);
      json_builder_add_int_value (b, (gint64) h->counts[i]);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
}

/* Where each bin is, in window coordinates, for the test to drag across. */
static void
add_bins_x (JsonBuilder *b, SlSummaryHistogram *self)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
  graphene_point_t origin = GRAPHENE_POINT_INIT (0, 0);
  graphene_point_t button;
  double sx = 0, sy = 0, x0, x1;

  if (native != NULL)
    {
      if (!gtk_widget_compute_point (self->histogram, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (0, 0), &origin))
        origin = GRAPHENE_POINT_INIT (0, 0);
      gtk_native_get_surface_transform (native, &sx, &sy);
    }
  sl_json_member_double (b, "y", origin.y + sy + gtk_widget_get_height (self->histogram) / 2.0);
  if (native != NULL && gtk_widget_compute_point (self->outliers, GTK_WIDGET (native),
                                                  &GRAPHENE_POINT_INIT (gtk_widget_get_width (self->outliers) / 2.0,
                                                                        gtk_widget_get_height (self->outliers) / 2.0),
                                                  &button))
    {
      sl_json_member_double (b, "outliers_x", button.x + sx);
      sl_json_member_double (b, "outliers_y", button.y + sy);
    }
  if (native != NULL && gtk_widget_compute_point (self->iterations_toggle, GTK_WIDGET (native),
                                                  &GRAPHENE_POINT_INIT (gtk_widget_get_width (self->iterations_toggle) / 2.0,
                                                                        gtk_widget_get_height (self->iterations_toggle) / 2.0),
                                                  &button))
    {
      sl_json_member_double (b, "iterations_x", button.x + sx);
      sl_json_member_double (b, "iterations_y", button.y + sy);
    }
  json_builder_set_member_name (b, "bins_x");
  json_builder_begin_array (b);
  for (guint i = 0; sl_histogram_bin_x (SL_HISTOGRAM (self->histogram), i, &x0, &x1); i++)
    {
      json_builder_begin_array (b);
      json_builder_add_double_value (b, origin.x + sx + x0);
      json_builder_add_double_value (b, origin.x + sx + x1);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
}

JsonNode *
sl_summary_histogram_to_json (SlSummaryHistogram *self)
{
  const SlDurationHistogram *h = sl_histogram_get_histogram (SL_HISTOGRAM (self->histogram));
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_string (b, "mode", self->iterations ? "iterations" : "kernel");
  sl_json_member_string (b, "name", self->name);
  /* how the iterations shown were found, whatever the mode */
  sl_json_member_string (b, "method", self->summary != NULL && self->summary->iterations != NULL
                                      ? sl_iterations_method_name (self->summary->iterations->method) : NULL);
  json_builder_set_member_name (b, "computing");
  json_builder_add_boolean_value (b, self->cancellable != NULL && !self->iterations);
  sl_json_member_int (b, "n", h != NULL ? (gint64) h->n : 0);
  sl_json_member_int (b, "p50_ns", h != NULL ? h->p50_ns : 0);
  sl_json_member_int (b, "p90_ns", h != NULL ? h->p90_ns : 0);
  sl_json_member_int (b, "p99_ns", h != NULL ? h->p99_ns : 0);
  add_bins (b, h);
  json_builder_set_member_name (b, "selected");
  if (self->sel_first == G_MAXUINT)
    json_builder_add_null_value (b);
  else
    {
      json_builder_begin_array (b);
      json_builder_add_int_value (b, self->sel_first);
      json_builder_add_int_value (b, self->sel_last);
      json_builder_end_array (b);
    }
  sl_json_member_int (b, "highlighted", self->n_highlighted);
  add_bins_x (b, self);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ---- widget ---- */

static void
bins_selected_cb (SlHistogram *histogram, guint first, guint last, SlSummaryHistogram *self)
{
  sl_summary_histogram_select_bins (self, first, last);
}

static void
mode_toggled_cb (GtkToggleButton *kernel, SlSummaryHistogram *self)
{
  sl_summary_histogram_set_iterations (self, !gtk_toggle_button_get_active (kernel));
}

static void
sl_summary_histogram_dispose (GObject *object)
{
  SlSummaryHistogram *self = SL_SUMMARY_HISTOGRAM (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_pointer (&self->filter, sl_filter_free);
  g_clear_pointer (&self->summary, sl_scope_summary_unref);
  g_clear_pointer (&self->items, g_array_unref);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (sl_summary_histogram_parent_class)->dispose (object);
}

static void
sl_summary_histogram_class_init (SlSummaryHistogramClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sl_summary_histogram_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  /* named in init: a screen reader tells the page, not "filler" */
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
  /* what the probe shows changed */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                   NULL, G_TYPE_NONE, 0);
}

/* [Kernel | Iterations]          [Outliers] */
static GtkWidget *
mode_switch (SlSummaryHistogram *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *linked = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *iter = gtk_toggle_button_new_with_label (_("Iterations"));

  self->iterations_toggle = iter;

  self->kernel_toggle = gtk_toggle_button_new_with_label (_("Kernel"));
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (iter), GTK_TOGGLE_BUTTON (self->kernel_toggle));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->kernel_toggle), TRUE);
  gtk_widget_add_css_class (linked, "linked");
  gtk_box_append (GTK_BOX (linked), self->kernel_toggle);
  gtk_box_append (GTK_BOX (linked), iter);
  g_signal_connect (self->kernel_toggle, "toggled", G_CALLBACK (mode_toggled_cb), self);
  self->outliers = gtk_button_new_with_label (_("Outliers"));
  gtk_widget_set_tooltip_text (self->outliers, _("Highlight the slowest 1 % (then F3 / Shift+F3)"));
  gtk_widget_set_hexpand (self->outliers, TRUE);
  gtk_widget_set_halign (self->outliers, GTK_ALIGN_END);
  g_signal_connect_swapped (self->outliers, "clicked", G_CALLBACK (sl_summary_histogram_select_outliers), self);
  gtk_box_append (GTK_BOX (row), linked);
  gtk_box_append (GTK_BOX (row), self->outliers);
  return row;
}

static void
sl_summary_histogram_init (SlSummaryHistogram *self)
{
  self->sel_first = self->sel_last = G_MAXUINT;
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Durations"), -1);
  gtk_box_append (GTK_BOX (self->box), mode_switch (self));
  self->caption = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->caption), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->caption), PANGO_ELLIPSIZE_MIDDLE);
  gtk_box_append (GTK_BOX (self->box), self->caption);
  self->figures = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->figures), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->figures), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->figures, "caption");
  gtk_box_append (GTK_BOX (self->box), self->figures);
  self->histogram = sl_histogram_new ();
  gtk_widget_set_tooltip_text (self->histogram, _("Drag across bars to highlight those instances"));
  g_signal_connect (self->histogram, "bins-selected", G_CALLBACK (bins_selected_cb), self);
  g_signal_connect_swapped (self->histogram, "resized", G_CALLBACK (changed), self);
  gtk_box_append (GTK_BOX (self->box), self->histogram);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  set_caption (self, NULL);
}

GtkWidget *
sl_summary_histogram_new (void)
{
  return g_object_new (SL_TYPE_SUMMARY_HISTOGRAM, NULL);
}
