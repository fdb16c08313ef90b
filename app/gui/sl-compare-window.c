/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare-window.c: the comparison window, its pages and its summary
 * (step times, categories as stacked bars, iterations as strips). */
#include "sl-compare-window-private.h"
#include "sl-locale-format.h"
#include "sl-stacked-bar.h"
#include "sl-strip-plot.h"
#include "sl-timeline-colors.h"

#include <math.h>
#include <glib/gi18n.h>

enum { PROP_0, PROP_PROBE_STATE, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SlCompareWindow, sl_compare_window, GTK_TYPE_APPLICATION_WINDOW)

char *
_sl_compare_letter (guint p)
{
  return g_strdup_printf ("%c", 'A' + (int) MIN (p, 25));
}

/* One colour per profile, the same in every view (blue, orange, green, purple). */
guint32
_sl_compare_color (guint p)
{
  static const guint32 colors[] = { 0x1c71d8, 0xe66100, 0x26a269, 0x813d9c, 0xa51d2d };
  return colors[p % G_N_ELEMENTS (colors)];
}

double
_sl_compare_basis_time (const SlCompare *cmp, const SlCompareKernel *k, guint p)
{
  return cmp->basis == SL_COMPARE_PER_ITERATION ? k->per_iteration_ns[p] : k->per_call_ns[p];
}


static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_margin_top (label, 6);
  return label;
}

static GtkWidget *
cell (const char *text, float xalign)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  return label;
}

/* "A  name  median  p10–p90  change" per profile. */
static GtkWidget *
step_grid (SlCompareWindow *self)
{
  const SlCompare *cmp = self->result->compare;
  GtkWidget *grid = gtk_grid_new ();
  const char *heads[] = { "", _("Profile"), _("Median step"), _("p10–p90"), _("Change") };

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  for (guint c = 0; c < G_N_ELEMENTS (heads); c++)
    gtk_grid_attach (GTK_GRID (grid), cell (heads[c], c >= 2 ? 1 : 0), c, 0, 1, 1);
  for (guint p = 0; p < cmp->n_profiles; p++)
    {
      const SlCompareIterations *its = &cmp->iterations[p];
      g_autofree char *letter = _sl_compare_letter (p), *name = g_file_get_basename (self->files[p]);
      g_autofree char *median = its->found ? sl_locale_duration_precise (its->median_ns) : g_strdup ("–");
      g_autofree char *p10 = sl_locale_duration (its->p10_ns), *p90 = sl_locale_duration (its->p90_ns);
      g_autofree char *spread = its->found ? g_strdup_printf ("%s–%s", p10, p90) : g_strdup ("–");
      g_autofree char *change = p > 0 && cmp->has_step ? g_strdup_printf ("%+.1f %%", cmp->step_change_pct[p])
                                                       : g_strdup ("–");
      g_autofree char *markup = g_markup_printf_escaped ("<span foreground=\"#%06x\">●</span> %s",
                                                         _sl_compare_color (p), letter);
      GtkWidget *mark = gtk_label_new (NULL);
      GtkWidget *name_cell = cell (name, 0);

      gtk_label_set_markup (GTK_LABEL (mark), markup);
      gtk_widget_set_hexpand (name_cell, TRUE);
      gtk_widget_set_tooltip_text (name_cell, cmp->paths[p]);
      gtk_grid_attach (GTK_GRID (grid), mark, 0, p + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), name_cell, 1, p + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell (median, 1), 2, p + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell (spread, 1), 3, p + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell (change, 1), 4, p + 1, 1, 1);
    }
  return grid;
}

/* What kernel times are compared by, and the verdict, as the CLI says them. */
static char *
basis_text (const SlCompare *cmp)
{
  const char *verdict = cmp->verdict == SL_COMPARE_REGRESSED ? _("regressed")
                        : cmp->verdict == SL_COMPARE_IMPROVED ? _("improved") : _("neutral");

  if (cmp->has_step)
    return g_strdup_printf (_("Compared per iteration (step time %+.1f %%): %s"), cmp->verdict_change_pct, verdict);
  return g_strdup_printf (_("Compared per call (not every profile has iterations; %+.1f %%): %s"),
                          cmp->verdict_change_pct, verdict);
}

/* One stacked bar per profile, on one scale: the longest total fills the width. */
static void
add_category_bars (SlCompareWindow *self, GtkWidget *box)
{
  const SlCompare *cmp = self->result->compare;
  double full = 0;

  for (guint p = 0; p < cmp->n_profiles; p++)
    full = MAX (full, (double) cmp->kernel_total_ns[p]);
  for (guint p = 0; p < cmp->n_profiles; p++)
    {
      g_autofree SlStackedPart *parts = g_new0 (SlStackedPart, MAX (cmp->n_categories, 1));
      g_autofree char *letter = _sl_compare_letter (p), *total = sl_locale_duration (cmp->kernel_total_ns[p]);
      g_autofree char *text = g_strdup_printf (_("%s: kernel time %s"), letter, total);
      GtkWidget *bar = sl_stacked_bar_new ();

      for (guint c = 0; c < cmp->n_categories; c++)
        {
          parts[c].value = (double) cmp->categories[c].total_ns[p];
          parts[c].rgb = sl_timeline_color_rgb (sl_timeline_colors_for_category (cmp->categories[c].name));
          parts[c].label = cmp->categories[c].name;
        }
      sl_stacked_bar_set_parts (SL_STACKED_BAR (bar), parts, cmp->n_categories);
      sl_stacked_bar_set_full (SL_STACKED_BAR (bar), full);
      gtk_box_append (GTK_BOX (box), cell (text, 0));
      gtk_box_append (GTK_BOX (box), bar);
    }
}

static void
fill_strip (SlCompareWindow *self)
{
  sl_strip_plot_clear (SL_STRIP_PLOT (self->strip));
  for (guint p = 0; p < self->n; p++)
    {
      const SlIterations *its = self->result->iterations[p];
      g_autofree char *letter = _sl_compare_letter (p);
      g_autofree gint64 *durs = g_new0 (gint64, its ? MAX (its->n_iterations, 1) : 1);
      guint n = its ? its->n_iterations : 0;

      for (guint i = 0; i < n; i++)
        durs[i] = its->iterations[i].dur_ns;
      sl_strip_plot_add_row (SL_STRIP_PLOT (self->strip), letter, durs, n, _sl_compare_color (p));
    }
}

static void
fill_summary (SlCompareWindow *self)
{
  GtkWidget *box = self->summary_box, *child, *basis;
  g_autofree char *text = basis_text (self->result->compare);

  while ((child = gtk_widget_get_first_child (box)) != NULL)
    gtk_box_remove (GTK_BOX (box), child);
  gtk_box_append (GTK_BOX (box), heading (_("Step time")));
  gtk_box_append (GTK_BOX (box), step_grid (self));
  basis = cell (text, 0);
  gtk_label_set_wrap (GTK_LABEL (basis), TRUE);
  gtk_box_append (GTK_BOX (box), basis);
  /* the strips right under the step times they spread, so both are in
   * view without scrolling; the categories' bars and legends come last */
  gtk_box_append (GTK_BOX (box), heading (_("Iteration durations (bar: median)")));
  self->strip = sl_strip_plot_new ();
  fill_strip (self);
  gtk_box_append (GTK_BOX (box), self->strip);
  gtk_box_append (GTK_BOX (box), heading (_("Kernel time by category")));
  add_category_bars (self, box);
}

void
_sl_compare_show (SlCompareWindow *self)
{
  fill_summary (self);
  _sl_compare_table_fill (self);
  _sl_compare_timelines_fill (self);
  _sl_compare_export_enable (self);
  gtk_label_set_text (GTK_LABEL (self->subtitle_label), _("Kernel time: the last profile against the first"));
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "compare");
  _sl_compare_probe_changed (self);
}

void
_sl_compare_show_error (SlCompareWindow *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (GTK_LABEL (self->error_label), message);
  /* the subtitle said "Loading…"; a selectable label that takes the focus
   * has all its text selected, which reads as highlighted by mistake */
  gtk_label_set_text (GTK_LABEL (self->subtitle_label), _("Not compared"));
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "error");
  gtk_label_select_region (GTK_LABEL (self->error_label), 0, 0);
  _sl_compare_probe_changed (self);
}

static void
cancel_clicked_cb (SlCompareWindow *self)
{
  _sl_compare_cancel (self);
  _sl_compare_show_error (self, _("Loading was cancelled."));
}

static GtkWidget *
loading_page (SlCompareWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12), *cancel;

  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (box, 480, -1);
  gtk_box_append (GTK_BOX (box), heading (_("Loading the profiles to compare")));
  self->progress = gtk_progress_bar_new ();
  gtk_box_append (GTK_BOX (box), self->progress);
  self->phase_label = cell ("", 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->phase_label), PANGO_ELLIPSIZE_NONE);
  gtk_box_append (GTK_BOX (box), self->phase_label);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_widget_set_halign (cancel, GTK_ALIGN_CENTER);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (cancel_clicked_cb), self);
  gtk_box_append (GTK_BOX (box), cancel);
  return box;
}

static GtkWidget *
error_page (SlCompareWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), heading (_("Could Not Compare")));
  self->error_label = gtk_label_new ("");
  gtk_label_set_wrap (GTK_LABEL (self->error_label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (self->error_label), 70);
  gtk_label_set_selectable (GTK_LABEL (self->error_label), TRUE);
  gtk_box_append (GTK_BOX (box), self->error_label);
  return box;
}

/* Summary on the left, the kernel table and histograms on the right, the
 * timelines below both. */
static GtkWidget *
compare_page (SlCompareWindow *self)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *top = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->summary_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (self->summary_box, 12);
  gtk_widget_set_margin_end (self->summary_box, 12);
  gtk_widget_set_margin_bottom (self->summary_box, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->summary_box);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (scroller, 440, -1);
  gtk_paned_set_start_child (GTK_PANED (top), scroller);
  gtk_paned_set_resize_start_child (GTK_PANED (top), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (top), FALSE);
  gtk_paned_set_end_child (GTK_PANED (top), _sl_compare_table_new (self));
  gtk_paned_set_start_child (GTK_PANED (paned), top);
  gtk_paned_set_end_child (GTK_PANED (paned), _sl_compare_timelines_new (self));
  gtk_paned_set_position (GTK_PANED (paned), 390);
  return paned;
}

static void
build (SlCompareWindow *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GString *title = g_string_new (NULL);

  for (guint p = 0; p < self->n; p++)
    {
      g_autofree char *name = g_file_get_basename (self->files[p]);
      g_string_append_printf (title, "%s%s", p ? " ↔ " : "", name);
    }
  self->title_label = gtk_label_new (title->str);
  gtk_label_set_ellipsize (GTK_LABEL (self->title_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (self->title_label, "title");
  self->subtitle_label = gtk_label_new (_("Loading…"));
  gtk_widget_add_css_class (self->subtitle_label, "subtitle");
  gtk_box_append (GTK_BOX (titles), self->title_label);
  gtk_box_append (GTK_BOX (titles), self->subtitle_label);
  gtk_widget_set_valign (titles, GTK_ALIGN_CENTER);
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (header), titles);
  _sl_compare_export_new (self, header);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);
  /* Translators: the comparison window's title, then the compared files */
  {
    g_autofree char *window_title = g_strdup_printf (_("Compare: %s"), title->str);
    gtk_window_set_title (GTK_WINDOW (self), window_title);
  }
  g_string_free (title, TRUE);

  self->stack = gtk_stack_new ();
  gtk_stack_add_named (GTK_STACK (self->stack), loading_page (self), "loading");
  gtk_stack_add_named (GTK_STACK (self->stack), error_page (self), "error");
  gtk_stack_add_named (GTK_STACK (self->stack), compare_page (self), "compare");
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "loading");
  gtk_window_set_child (GTK_WINDOW (self), self->stack);
  gtk_window_set_default_size (GTK_WINDOW (self), 1400, 900);
}

static void
sl_compare_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlCompareWindow *self = SL_COMPARE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PROBE_STATE:
      g_value_take_string (value, _sl_compare_probe_state (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

void
_sl_compare_probe_changed (SlCompareWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBE_STATE]);
}

static void
sl_compare_window_dispose (GObject *object)
{
  SlCompareWindow *self = SL_COMPARE_WINDOW (object);

  _sl_compare_cancel (self);
  if (self->hist_cancellable != NULL)
    g_cancellable_cancel (self->hist_cancellable);
  g_clear_object (&self->hist_cancellable);
  _sl_compare_timelines_dispose (self);
  _sl_compare_export_dispose (self);
  G_OBJECT_CLASS (sl_compare_window_parent_class)->dispose (object);
}

static void
sl_compare_window_finalize (GObject *object)
{
  SlCompareWindow *self = SL_COMPARE_WINDOW (object);

  for (guint p = 0; p < self->n; p++)
    {
      g_clear_object (&self->files[p]);
      g_clear_pointer (&self->profiles[p], sl_profile_unref);
      g_clear_pointer (&self->models[p], sl_timeline_model_unref);
    }
  g_free (self->files);
  g_free (self->profiles);
  g_free (self->models);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->result, _sl_compare_result_free);
  g_free (self->error);
  g_free (self->hist_name);
  G_OBJECT_CLASS (sl_compare_window_parent_class)->finalize (object);
}

static void
sl_compare_window_class_init (SlCompareWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = sl_compare_window_get_property;
  object_class->dispose = sl_compare_window_dispose;
  object_class->finalize = sl_compare_window_finalize;
  /* for the GUI tests (sl-compare-window-probe.c) */
  properties[PROP_PROBE_STATE] = g_param_spec_string ("probe-state", NULL, NULL, NULL,
                                                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_compare_window_init (SlCompareWindow *self)
{
}

SlCompareWindow *
sl_compare_window_new (GtkApplication *app, GFile **files, guint n_files)
{
  SlCompareWindow *self;

  g_return_val_if_fail (GTK_IS_APPLICATION (app), NULL);
  self = g_object_new (SL_TYPE_COMPARE_WINDOW, "application", app, NULL);
  self->n = n_files;
  self->files = g_new0 (GFile *, MAX (n_files, 1));
  self->profiles = g_new0 (SlProfile *, MAX (n_files, 1));
  self->models = g_new0 (SlTimelineModel *, MAX (n_files, 1));
  for (guint p = 0; p < n_files; p++)
    self->files[p] = g_object_ref (files[p]);
  build (self);
  _sl_compare_probe_start (self);
  if (n_files < 2)
    _sl_compare_show_error (self, _("Comparing needs at least two profiles: sightline --compare A B [C…]"));
  else
    _sl_compare_load (self);
  return self;
}
