/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-rank-heatmap.c: the rank x iteration heat map.  Emits "cell-activated"
 * (row, iteration) when a cell is clicked, "row-activated" (row) when a
 * row's label or numbers are. */
#include "sl-rank-heatmap.h"
#include "sl-locale-format.h"

#include <glib/gi18n.h>
#include <math.h>

#define LABEL_W   150.0
#define SIDE_W    210.0
#define HEADER_H  18.0
#define MAX_ROW_H 26.0
/* Rows shrink to this much before the map asks for more height (and its
 * scroller scrolls): 256 ranks fit in about 1,000 px. */
#define MIN_ROW_H 4.0
/* Labels need this much: on thinner rows only every k-th row is named. */
#define TEXT_H    13.0

struct _SlRankHeatmap {
  GtkWidget      parent_instance;
  const SlRanks *ranks;
  GStrv          labels;
};

enum { CELL_ACTIVATED, ROW_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SlRankHeatmap, sl_rank_heatmap, GTK_TYPE_WIDGET)

gint64
sl_rank_heatmap_cell_late (const SlRanks *ranks, guint row, guint iteration)
{
  const SlRanksCell *c;

  if (ranks == NULL || row >= ranks->n_rows || iteration >= ranks->n_iterations)
    return 0;
  c = &ranks->rows[row].cells[iteration];
  return c->present ? MAX (0, c->end_ns - ranks->stragglers[iteration].median_end_ns) : 0;
}

/* The grid's geometry: cells fill what the labels leave. */
static gboolean
grid (SlRankHeatmap *self, double *cell_w, double *row_h)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self)) - LABEL_W - SIDE_W;
  double h = gtk_widget_get_height (GTK_WIDGET (self)) - HEADER_H;

  if (self->ranks == NULL || self->ranks->n_rows == 0 || self->ranks->n_iterations == 0 || w < 1 || h < 1)
    return FALSE;
  *cell_w = w / self->ranks->n_iterations;
  *row_h = MIN (MAX_ROW_H, h / self->ranks->n_rows);
  return TRUE;
}

gboolean
sl_rank_heatmap_cell_rect (SlRankHeatmap *self, guint row, guint iteration, graphene_rect_t *rect)
{
  double cw, rh;

  g_return_val_if_fail (SL_IS_RANK_HEATMAP (self), FALSE);
  if (!grid (self, &cw, &rh) || row >= self->ranks->n_rows || iteration >= self->ranks->n_iterations)
    return FALSE;
  graphene_rect_init (rect, LABEL_W + iteration * cw, HEADER_H + row * rh, cw, rh);
  return TRUE;
}

static gboolean
cell_at (SlRankHeatmap *self, double x, double y, guint *row, guint *iteration)
{
  double cw, rh;

  if (!grid (self, &cw, &rh) || x < LABEL_W || y < HEADER_H)
    return FALSE;
  *iteration = (guint) ((x - LABEL_W) / cw);
  *row = (guint) ((y - HEADER_H) / rh);
  return *iteration < self->ranks->n_iterations && *row < self->ranks->n_rows;
}

static gint64
max_late (const SlRanks *ranks)
{
  gint64 m = 0;

  for (guint i = 0; i < ranks->n_iterations; i++)
    for (guint r = 0; r < ranks->n_rows; r++)
      m = MAX (m, sl_rank_heatmap_cell_late (ranks, r, i));
  return m;
}

/* Pale blue on time to saturated red at the table's latest: a late cell
 * stands out whatever the job's step time. */
static void
set_cell_color (cairo_t *cr, double t)
{
  t = CLAMP (t, 0.0, 1.0);
  cairo_set_source_rgb (cr, 0.80 + 0.04 * t, 0.87 - 0.68 * t, 0.95 - 0.80 * t);
}

static char *
row_label (SlRankHeatmap *self, guint r)
{
  if (self->labels != NULL && r < g_strv_length (self->labels))
    return g_strdup (self->labels[r]);
  if (self->ranks->rows[r].rank >= 0)
    return g_strdup_printf (_("Rank %d"), self->ranks->rows[r].rank);
  return g_strdup_printf (_("Row %u"), r);
}

static void
draw_text (cairo_t *cr, double x, double y, const char *text)
{
  cairo_move_to (cr, x, y);
  cairo_show_text (cr, text);
}

static void
draw_cells (SlRankHeatmap *self, cairo_t *cr, double cw, double rh)
{
  const SlRanks *ranks = self->ranks;
  double peak = (double) MAX (max_late (ranks), 1);

  for (guint r = 0; r < ranks->n_rows; r++)
    for (guint i = 0; i < ranks->n_iterations; i++)
      {
        const SlRanksCell *c = &ranks->rows[r].cells[i];
        double x = LABEL_W + i * cw, y = HEADER_H + r * rh;

        if (!c->present)
          cairo_set_source_rgb (cr, 0.93, 0.93, 0.93);
        else
          set_cell_color (cr, sl_rank_heatmap_cell_late (ranks, r, i) / peak);
        /* thin rows go without the white gap, or it would be all one sees */
        if (rh >= 8)
          cairo_rectangle (cr, x + 0.5, y + 0.5, MAX (cw - 1, 1), MAX (rh - 1, 1));
        else
          cairo_rectangle (cr, x + 0.5, y, MAX (cw - 1, 1), rh);
        cairo_fill (cr);
        if (ranks->stragglers[i].rank == r && rh >= 8)
          {
            cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
            cairo_set_line_width (cr, 2);
            cairo_rectangle (cr, x + 1.5, y + 1.5, MAX (cw - 3, 1), MAX (rh - 3, 1));
            cairo_stroke (cr);
          }
        else if (ranks->stragglers[i].rank == r)
          {
            /* too thin to outline: a dark tick at the cell's end */
            cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
            cairo_rectangle (cr, x + MAX (cw - 4, 0), y, MIN (cw, 3), rh);
            cairo_fill (cr);
          }
      }
}

static guint
label_every (double rh)
{
  return MAX (1, (guint) ceil (TEXT_H / rh));
}

/* Iteration numbers above, as many as fit. */
static void
draw_header (SlRankHeatmap *self, cairo_t *cr, double cw)
{
  guint every = MAX (1, (guint) (28.0 / cw) + 1);

  cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
  for (guint i = 0; i < self->ranks->n_iterations; i += every)
    {
      char text[16];
      g_snprintf (text, sizeof text, "%u", i);
      draw_text (cr, LABEL_W + i * cw + 2, HEADER_H - 5, text);
    }
}

static void
draw_rows (SlRankHeatmap *self, cairo_t *cr, double cw, double rh)
{
  double side_x = LABEL_W + cw * self->ranks->n_iterations + 8;
  guint every = label_every (rh);

  cairo_set_source_rgb (cr, 0.15, 0.15, 0.15);
  for (guint r = 0; r < self->ranks->n_rows; r += every)
    {
      const SlRanksRow *row = &self->ranks->rows[r];
      g_autofree char *label = row_label (self, r);
      g_autofree char *step = sl_locale_duration (row->step_median_ns);
      g_autofree char *wait = sl_locale_duration (row->nccl_wait_ns);
      g_autofree char *side = g_strdup_printf (_("step %s · NCCL wait %s"), step, wait);
      double y = HEADER_H + r * rh + rh / 2 + 4;

      /* a long file name must not run over the cells (the rank's header shows it whole) */
      cairo_save (cr);
      cairo_rectangle (cr, 0, y - TEXT_H, LABEL_W - 4, 2 * TEXT_H);
      cairo_clip (cr);
      draw_text (cr, 4, y, label);
      cairo_restore (cr);
      draw_text (cr, side_x, y, side);
    }
}

static void
sl_rank_heatmap_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  SlRankHeatmap *self = SL_RANK_HEATMAP (widget);
  double cw, rh;
  cairo_t *cr;

  if (!grid (self, &cw, &rh))
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                                  gtk_widget_get_height (widget)));
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 11);
  draw_cells (self, cr, cw, rh);
  draw_header (self, cr, cw);
  draw_rows (self, cr, cw, rh);
  cairo_destroy (cr);
}

static char *
cell_tooltip (SlRankHeatmap *self, guint r, guint i)
{
  const SlRanksCell *c = &self->ranks->rows[r].cells[i];
  const SlRanksStraggler *s = &self->ranks->stragglers[i];
  g_autofree char *label = row_label (self, r);
  g_autofree char *dur = NULL, *late = NULL, *wait = NULL;

  if (!c->present)
    return g_strdup_printf (_("%s · iteration %u: no step"), label, i);
  dur = sl_locale_duration (c->end_ns - c->start_ns);
  late = sl_locale_duration (sl_rank_heatmap_cell_late (self->ranks, r, i));
  wait = sl_locale_duration (c->nccl_wait_ns);
  return g_strdup_printf (_("%s · iteration %u\nstep %s\nends %s after the median end\nNCCL wait %s%s"),
                          label, i, dur, late, wait,
                          s->rank == r ? _("\nthe straggler of this iteration") : "");
}

static gboolean
sl_rank_heatmap_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  SlRankHeatmap *self = SL_RANK_HEATMAP (widget);
  g_autofree char *text = NULL;
  guint r, i;

  if (!cell_at (self, x, y, &r, &i))
    return FALSE;
  text = cell_tooltip (self, r, i);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* A click on a row's label or numbers (beside the cells). */
static gboolean
row_at (SlRankHeatmap *self, double x, double y, guint *row)
{
  double cw, rh;

  if (!grid (self, &cw, &rh) || y < HEADER_H || (x >= LABEL_W && x < LABEL_W + cw * self->ranks->n_iterations))
    return FALSE;
  *row = (guint) ((y - HEADER_H) / rh);
  return *row < self->ranks->n_rows;
}

static void
pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, SlRankHeatmap *self)
{
  guint r, i;

  if (cell_at (self, x, y, &r, &i))
    g_signal_emit (self, signals[CELL_ACTIVATED], 0, r, i);
  else if (row_at (self, x, y, &r))
    g_signal_emit (self, signals[ROW_ACTIVATED], 0, r);
}

static void
sl_rank_heatmap_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                         int *minimum, int *natural, int *min_baseline, int *nat_baseline)
{
  SlRankHeatmap *self = SL_RANK_HEATMAP (widget);
  guint n = self->ranks ? self->ranks->n_rows : 0;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = (int) (LABEL_W + SIDE_W + 100);
  else
    {
      *minimum = (int) (HEADER_H + n * MIN_ROW_H);
      *natural = (int) (HEADER_H + n * MAX_ROW_H);
    }
}

static void
sl_rank_heatmap_finalize (GObject *object)
{
  g_strfreev (SL_RANK_HEATMAP (object)->labels);
  G_OBJECT_CLASS (sl_rank_heatmap_parent_class)->finalize (object);
}

static void
sl_rank_heatmap_class_init (SlRankHeatmapClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = sl_rank_heatmap_finalize;
  widget_class->snapshot = sl_rank_heatmap_snapshot;
  widget_class->measure = sl_rank_heatmap_measure;
  widget_class->query_tooltip = sl_rank_heatmap_query_tooltip;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
  signals[CELL_ACTIVATED] = g_signal_new ("cell-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  signals[ROW_ACTIVATED] = g_signal_new ("row-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
sl_rank_heatmap_init (SlRankHeatmap *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Rank lateness per iteration"), -1);
}

GtkWidget *
sl_rank_heatmap_new (void)
{
  return g_object_new (SL_TYPE_RANK_HEATMAP, NULL);
}

void
sl_rank_heatmap_set_ranks (SlRankHeatmap *self, const SlRanks *ranks, const char *const *labels)
{
  g_return_if_fail (SL_IS_RANK_HEATMAP (self));
  self->ranks = ranks;
  g_clear_pointer (&self->labels, g_strfreev);
  self->labels = labels ? g_strdupv ((char **) labels) : NULL;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
