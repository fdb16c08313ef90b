/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-summary-sections.c: one grid per part of the scope summary. */
#include "sl-summary-sections.h"
#include "sl-tooltip.h"
#include "sl-locale-format.h"

#include <glib/gi18n.h>

#include "sl-bookmark-menu.h"
#include "sl-stacked-bar.h"
#include "sl-summary-cpu.h"
#include "sl-timeline-colors.h"

#define KEY_START "sl-summary-start"
#define KEY_END   "sl-summary-end"

static void
add_title (GtkBox *box, const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_margin_top (label, 10);
  gtk_box_append (box, label);
}

static GtkWidget *
add_grid (GtkBox *box)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 10);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  gtk_box_append (box, grid);
  return grid;
}

static GtkWidget *
cell (const char *text, gboolean numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), numeric ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (label, !numeric);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  return label;
}

/* A cell taking ownership of @text. */
static GtkWidget *
cell_take (char *text, gboolean numeric)
{
  GtkWidget *label = cell (text, numeric);

  g_free (text);
  return label;
}

static GtkWidget *
link_cell (const char *text)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *label = cell (text, FALSE);

  sl_tooltip_set_text (button, text);
  /* GTK 4.8 does not name a button after a child label: the class name would be read */
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  gtk_button_set_child (GTK_BUTTON (button), label);
  gtk_button_set_has_frame (GTK_BUTTON (button), FALSE);
  gtk_widget_add_css_class (button, "summary-link");
  return button;
}

static void
add_none (GtkBox *box, const char *text)
{
  GtkWidget *label = cell (text, FALSE);

  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (box, label);
}

static void
header_row (GtkWidget *grid, const char *const *titles, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *label = cell (_(titles[i]), i > 0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_grid_attach (GTK_GRID (grid), label, i, 0, 1, 1);
    }
}

static void
fill_gpus (GtkBox *box, const SlScopeSummary *s)
{
  static const char *const titles[] = { N_("GPU"), N_("Utilization"), N_("Kernels"), N_("Copies") };
  GtkWidget *grid;

  add_title (box, _("GPU utilization"));
  if (s->gaps->n_devices == 0)
    {
      add_none (box, _("No GPU work in this range."));
      return;
    }
  grid = add_grid (box);
  header_row (grid, titles, G_N_ELEMENTS (titles));
  for (guint d = 0; d < s->gaps->n_devices; d++)
    {
      const SlGapsDevice *dev = &s->gaps->devices[d];
      gtk_grid_attach (GTK_GRID (grid), cell_take (g_strdup_printf (_("GPU %u"), dev->device), FALSE), 0, d + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell_take (sl_locale_percent (dev->utilization_pct), TRUE), 1, d + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell_take (sl_locale_duration (dev->kernel_busy_ns), TRUE), 2, d + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell_take (sl_locale_duration (dev->copy_busy_ns), TRUE), 3, d + 1, 1, 1);
    }
}

static void
kernel_clicked_cb (GtkButton *button, SlSession *session)
{
  sl_session_set_kernel_name (session, sl_tooltip_get_text (GTK_WIDGET (button)));
}

/* Rows of a name table: name (a link with @clicked), count, total, share. */
static void
fill_names (GtkBox *box, const SlNameRow *rows, guint n, GCallback clicked, SlSession *session)
{
  static const char *const titles[] = { N_("Name"), N_("Count"), N_("Total"), N_("Share") };
  GtkWidget *grid = add_grid (box);

  header_row (grid, titles, G_N_ELEMENTS (titles));
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *name = clicked != NULL ? link_cell (rows[i].name) : cell (rows[i].name, FALSE);

      if (clicked != NULL)
        {
          g_signal_connect_object (name, "clicked", clicked, session, 0);
          gtk_widget_add_css_class (name, SL_SUMMARY_KERNEL_LINK);
        }
      else
        sl_tooltip_set_text (name, rows[i].name);
      gtk_grid_attach (GTK_GRID (grid), name, 0, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell_take (sl_locale_count ((gint64) rows[i].stats.count), TRUE),
                       1, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell_take (sl_locale_duration (rows[i].stats.total), TRUE), 2, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell_take (sl_locale_percent (rows[i].time_pct), TRUE), 3, i + 1, 1, 1);
    }
}

static void
fill_categories (GtkBox *box, const SlCategorySummary *c)
{
  g_autofree SlStackedPart *parts = g_new0 (SlStackedPart, MAX (c->n_rows, 1));
  GtkWidget *bar;

  add_title (box, _("Kernel categories"));
  if (c->n_rows == 0)
    {
      add_none (box, _("No kernels in this range."));
      return;
    }
  for (guint i = 0; i < c->n_rows; i++)
    {
      parts[i].value = (double) c->rows[i].total_ns;
      parts[i].rgb = sl_timeline_color_rgb (sl_timeline_colors_for_category (c->rows[i].name));
      parts[i].label = c->rows[i].name;
    }
  bar = sl_stacked_bar_new ();
  sl_stacked_bar_set_parts (SL_STACKED_BAR (bar), parts, c->n_rows);
  gtk_box_append (box, bar);
}

static void
fill_overlap (GtkBox *box, const SlOverlap *o)
{
  static const char *const titles[] = { N_("GPU"), N_("NCCL"), N_("Overlapped"), N_("Share") };
  GtkWidget *grid;
  guint row = 1;

  add_title (box, _("NCCL overlap with compute"));
  for (guint i = 0; i < o->n_devices; i++)
    if (o->devices[i].nccl_ns > 0)
      row++;
  if (row == 1)
    {
      add_none (box, _("No NCCL kernels in this range."));
      return;
    }
  grid = add_grid (box);
  header_row (grid, titles, G_N_ELEMENTS (titles));
  row = 1;
  for (guint i = 0; i < o->n_devices; i++)
    {
      const SlOverlapDevice *d = &o->devices[i];
      if (d->nccl_ns == 0)
        continue;
      gtk_grid_attach (GTK_GRID (grid), cell_take (g_strdup_printf (_("GPU %u"), d->device), FALSE), 0, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell_take (sl_locale_duration (d->nccl_ns), TRUE), 1, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell_take (sl_locale_duration (d->overlap_ns), TRUE), 2, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell_take (sl_locale_percent (d->overlap_pct), TRUE), 3, row++, 1, 1);
    }
}

/* Zooms the timeline to the span on the button, with a tenth on each side. */
static void
span_clicked_cb (GtkButton *button, SlSession *session)
{
  gint64 start = *(gint64 *) g_object_get_data (G_OBJECT (button), KEY_START);
  gint64 end = *(gint64 *) g_object_get_data (G_OBJECT (button), KEY_END);
  gint64 margin = MAX ((end - start) / 10, 1);
  SlTimeRange visible = { start - margin, end + margin };

  sl_session_navigate_to (session, &visible);
}

static GtkWidget *
span_link (const char *text, gint64 start, gint64 end, SlSession *session)
{
  GtkWidget *button = link_cell (text);

  g_object_set_data_full (G_OBJECT (button), KEY_START, g_memdup2 (&start, sizeof start), g_free);
  g_object_set_data_full (G_OBJECT (button), KEY_END, g_memdup2 (&end, sizeof end), g_free);
  g_signal_connect_object (button, "clicked", G_CALLBACK (span_clicked_cb), session, 0);
  return button;
}

/* Selects the gap on the button and shows it: the timeline marks the
 * selection, and a Shift+drag or the details pane can take it from there. */
static void
gap_clicked_cb (GtkButton *button, SlSession *session)
{
  SlTimeRange gap;

  if (!sl_summary_sections_link_span (GTK_WIDGET (button), &gap.start, &gap.end))
    return;
  span_clicked_cb (button, session);
  g_object_set_data (G_OBJECT (session), SL_SUMMARY_OWN_SELECTION, GINT_TO_POINTER (1));
  sl_session_set_selected_range (session, &gap);
  g_object_set_data (G_OBJECT (session), SL_SUMMARY_OWN_SELECTION, NULL);
}

gboolean
sl_summary_sections_link_span (GtkWidget *link, gint64 *start, gint64 *end)
{
  gint64 *s = g_object_get_data (G_OBJECT (link), KEY_START);
  gint64 *e = g_object_get_data (G_OBJECT (link), KEY_END);

  if (s == NULL || e == NULL || !gtk_widget_has_css_class (link, SL_SUMMARY_GAP_LINK))
    return FALSE;
  *start = *s;
  *end = *e;
  return TRUE;
}

static void
attach_span (GtkWidget *grid, guint row, char *text, gint64 start, gint64 end, SlSession *session)
{
  g_autofree char *at = sl_locale_duration (start - sl_session_get_profile (session)->start_ns);

  GtkWidget *link = span_link (text, start, end, session);

  /* an iteration's or a gap's right click: "Bookmark…" */
  sl_bookmark_menu_attach_span (link, start, end);
  gtk_grid_attach (GTK_GRID (grid), link, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), cell (at, TRUE), 1, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), cell_take (sl_locale_duration (end - start), TRUE), 2, row, 1, 1);
  g_free (text);
}

#define MAX_ITERATIONS 200

/* The iterations' title and, when there are any, their grid's header: the
 * grid their rows go in, NULL without one. */
static GtkWidget *
iterations_head (GtkBox *box, const SlIterations *it)
{
  static const char *const titles[] = { N_("Iteration"), N_("Start"), N_("Duration") };
  GtkWidget *grid;

  add_title (box, _("Iterations"));
  if (it == NULL || it->n_iterations == 0)
    {
      add_none (box, _("No repeating steps found in this range."));
      return NULL;
    }
  grid = add_grid (box);
  header_row (grid, titles, G_N_ELEMENTS (titles));
  return grid;
}

static guint
n_iteration_rows (const SlIterations *it)
{
  return it != NULL ? MIN (it->n_iterations, MAX_ITERATIONS) : 0;
}

/* Iterations [@first, @end) of the rows shown, into @grid. */
static void
iteration_rows (GtkWidget *grid, const SlIterations *it, guint first, guint end, SlSession *session)
{
  for (guint i = first; i < end; i++)
    {
      gint64 start, stop;
      sl_scope_iteration_span (it, i, &start, &stop);
      attach_span (grid, i + 1, g_strdup_printf (_("#%u (pid %u)"), it->iterations[i].index, it->iterations[i].pid),
                   start, stop, session);
    }
}

static void
fill_gaps (GtkBox *box, const SlScopeSummary *s, SlSession *session)
{
  static const char *const titles[] = { N_("GPU"), N_("Start"), N_("Length") };
  GtkWidget *grid;

  add_title (box, _("Largest idle gaps"));
  if (s->n_top_gaps == 0)
    {
      add_none (box, _("No idle gaps between kernels in this range."));
      return;
    }
  grid = add_grid (box);
  header_row (grid, titles, G_N_ELEMENTS (titles));
  for (guint i = 0; i < s->n_top_gaps; i++)
    {
      GtkWidget *stacks = sl_summary_cpu_gap_expander (session, s->top_gaps[i].device, s->top_gaps[i].gap->start_ns,
                                                       s->top_gaps[i].gap->end_ns);

      /* each gap on two lines: its span, then what the CPU did meanwhile */
      GtkWidget *link;

      attach_span (grid, 2 * i + 1, g_strdup_printf (_("GPU %u"), s->top_gaps[i].device), s->top_gaps[i].gap->start_ns,
                   s->top_gaps[i].gap->end_ns, session);
      /* a gap is selected, not only shown: its own handler */
      link = gtk_grid_get_child_at (GTK_GRID (grid), 0, 2 * i + 1);
      g_signal_handlers_disconnect_by_func (link, span_clicked_cb, session);
      gtk_widget_add_css_class (link, SL_SUMMARY_GAP_LINK);
      g_signal_connect_object (link, "clicked", G_CALLBACK (gap_clicked_cb), session, 0);
      if (stacks != NULL)
        gtk_grid_attach (GTK_GRID (grid), stacks, 0, 2 * i + 2, 3, 1);
    }
}

/* NVTX rows share the name table's columns: shallow copies as SlNameRow. */
static void
fill_nvtx (GtkBox *box, const SlNvtxSummary *n, SlSession *session)
{
  g_autofree SlNameRow *rows = g_new0 (SlNameRow, MAX (n->n_rows, 1));

  for (guint i = 0; i < n->n_rows; i++)
    {
      rows[i].name = n->rows[i].name;
      rows[i].stats = n->rows[i].stats;
      rows[i].time_pct = n->rows[i].time_pct;
    }
  fill_names (box, rows, n->n_rows, NULL, session);
}

static void
fill_name_tables (GtkBox *box, const SlScopeSummary *s, SlSession *session)
{
  add_title (box, _("Top kernels"));
  if (s->kernels->n_rows == 0)
    add_none (box, _("No kernels in this range."));
  else
    fill_names (box, s->kernels->rows, s->kernels->n_rows, G_CALLBACK (kernel_clicked_cb), session);
  add_title (box, _("Top CUDA API calls"));
  if (s->api->n_rows == 0)
    add_none (box, _("No CUDA API calls in this range."));
  else
    fill_names (box, s->api->rows, s->api->n_rows, NULL, session);
  add_title (box, _("NVTX ranges"));
  if (s->nvtx->n_rows == 0)
    add_none (box, _("No NVTX ranges in this range."));
  else
    fill_nvtx (box, s->nvtx, session);
}

/* ---- the fill, a piece at a time ---- */

/* Rows of iterations per piece: a piece's widgets are made, styled and
 * laid out in a few ms, not the tens of ms of a whole summary. */
#define ROWS_PER_PIECE 25

typedef enum { STEP_CLEAR, STEP_GPUS, STEP_NAMES, STEP_OVERLAP, STEP_ITERATIONS, STEP_ROWS, STEP_GAPS, STEP_DONE } Step;

struct _SlSummaryFill {
  GtkBox         *box;       /* (unowned): the fill dies with it */
  SlScopeSummary *summary;   /* nullable */
  SlSession      *session;   /* nullable */
  Step            step;
  GtkWidget      *grid;      /* the iterations' grid, when it has rows */
  guint           row;       /* the next iteration row */
};

SlSummaryFill *
sl_summary_fill_new (GtkBox *box, SlScopeSummary *summary, SlSession *session)
{
  SlSummaryFill *fill = g_new0 (SlSummaryFill, 1);

  g_return_val_if_fail (GTK_IS_BOX (box), NULL);
  fill->box = box;
  fill->summary = summary != NULL ? sl_scope_summary_ref (summary) : NULL;
  fill->session = session != NULL ? g_object_ref (session) : NULL;
  return fill;
}

void
sl_summary_fill_free (SlSummaryFill *fill)
{
  g_clear_pointer (&fill->summary, sl_scope_summary_unref);
  g_clear_object (&fill->session);
  g_free (fill);
}

static void
clear (GtkBox *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))))
    gtk_box_remove (box, child);
}

/* The next iteration rows; the step after them once all are in. */
static Step
step_rows (SlSummaryFill *fill)
{
  const SlIterations *it = fill->summary->iterations;
  guint end = MIN (fill->row + ROWS_PER_PIECE, n_iteration_rows (it));

  if (fill->grid != NULL)
    iteration_rows (fill->grid, it, fill->row, end, fill->session);
  fill->row = end;
  return fill->grid != NULL && end < n_iteration_rows (it) ? STEP_ROWS : STEP_GAPS;
}

gboolean
sl_summary_fill_step (SlSummaryFill *fill)
{
  SlScopeSummary *s = fill->summary;

  if (fill->step == STEP_CLEAR)
    clear (fill->box);
  else if (fill->step == STEP_GPUS)
    {
      fill_gpus (fill->box, s);
      fill_categories (fill->box, s->categories);
    }
  else if (fill->step == STEP_NAMES)
    fill_name_tables (fill->box, s, fill->session);
  else if (fill->step == STEP_OVERLAP)
    fill_overlap (fill->box, s->overlap);
  else if (fill->step == STEP_ITERATIONS)
    fill->grid = iterations_head (fill->box, s->iterations);
  else if (fill->step == STEP_ROWS)
    {
      fill->step = step_rows (fill);
      return TRUE;
    }
  else if (fill->step == STEP_GAPS)
    fill_gaps (fill->box, s, fill->session);
  if (fill->step < STEP_DONE)
    fill->step++;
  if (fill->step == STEP_GPUS && (s == NULL || fill->session == NULL))
    fill->step = STEP_DONE;
  return fill->step < STEP_DONE;
}

void
sl_summary_sections_fill (GtkBox *box, SlScopeSummary *s, SlSession *session)
{
  SlSummaryFill *fill;

  g_return_if_fail (GTK_IS_BOX (box));
  fill = sl_summary_fill_new (box, s, session);
  while (sl_summary_fill_step (fill))
    ;
  sl_summary_fill_free (fill);
}
