/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-histogram.c: bars on a log-scale time axis, percentiles, drag to select. */
#include "sl-histogram.h"

#include <math.h>

#include "sl-format.h"
#include "sl-locale-format.h"

#include <glib/gi18n.h>

#define PAD_LEFT   44.0
#define PAD_RIGHT  10.0
#define PAD_TOP    18.0
#define PAD_BOTTOM 22.0

struct _SlHistogram {
  GtkWidget            parent_instance;

  SlDurationHistogram *histogram;
  guint                sel_first;     /* G_MAXUINT: none */
  guint                sel_last;
  guint                drag_bin;
  int                  width;
};

enum { BINS_SELECTED, RESIZED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SlHistogram, sl_histogram, GTK_TYPE_WIDGET)

static double
log_of (gint64 v)
{
  return log ((double) MAX (v, 1));
}

/* The x of duration @v: the axis is log-scale from the first edge to the last. */
static double
x_of (SlHistogram *self, double width, gint64 v)
{
  const SlDurationHistogram *h = self->histogram;
  double lo = log_of (h->edges[0]), hi = log_of (h->edges[h->n_bins]);
  double plot = width - PAD_LEFT - PAD_RIGHT;

  if (hi <= lo)
    return PAD_LEFT + plot / 2;
  return PAD_LEFT + (log_of (v) - lo) / (hi - lo) * plot;
}

guint
sl_histogram_bin_at (SlHistogram *self, double x)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  g_return_val_if_fail (SL_IS_HISTOGRAM (self), G_MAXUINT);
  if (self->histogram == NULL || self->histogram->n_bins == 0)
    return G_MAXUINT;
  for (guint i = 0; i + 1 < self->histogram->n_bins; i++)
    if (x < x_of (self, width, self->histogram->edges[i + 1]))
      return i;
  return self->histogram->n_bins - 1;
}

gboolean
sl_histogram_bin_x (SlHistogram *self, guint i, double *x0, double *x1)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  g_return_val_if_fail (SL_IS_HISTOGRAM (self), FALSE);
  if (self->histogram == NULL || i >= self->histogram->n_bins)
    return FALSE;
  *x0 = x_of (self, width, self->histogram->edges[i]);
  *x1 = x_of (self, width, self->histogram->edges[i + 1]);
  return TRUE;
}

static void
set_color (cairo_t *cr, const GdkRGBA *c, double alpha)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha * alpha);
}

static void
show_text (SlHistogram *self, cairo_t *cr, double x, double y, double xalign, const char *text)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  int w, h;

  pango_layout_get_pixel_size (layout, &w, &h);
  /* inside the widget, whatever the alignment asked */
  x = CLAMP (x - w * xalign, 0, MAX (0, gtk_widget_get_width (GTK_WIDGET (self)) - w));
  cairo_move_to (cr, round (x), round (y));
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
draw_bars (SlHistogram *self, cairo_t *cr, double width, double height, const GdkRGBA *fg)
{
  const SlDurationHistogram *h = self->histogram;
  guint64 max = 1;
  g_autofree char *max_text = NULL;
  double plot_h = height - PAD_TOP - PAD_BOTTOM;

  for (guint i = 0; i < h->n_bins; i++)
    max = MAX (max, h->counts[i]);
  max_text = sl_locale_count ((gint64) max);
  for (guint i = 0; i < h->n_bins; i++)
    {
      double x0 = x_of (self, width, h->edges[i]), x1 = x_of (self, width, h->edges[i + 1]);
      double bh = h->counts[i] > 0 ? MAX (1.0, plot_h * h->counts[i] / (double) max) : 0;
      gboolean selected = self->sel_first != G_MAXUINT && i >= self->sel_first && i <= self->sel_last;

      if (selected)
        {
          cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.18);
          cairo_rectangle (cr, x0, PAD_TOP, x1 - x0, plot_h);
          cairo_fill (cr);
        }
      cairo_set_source_rgb (cr, selected ? 0.21 : 0.45, selected ? 0.52 : 0.55, selected ? 0.89 : 0.65);
      cairo_rectangle (cr, x0 + 0.5, PAD_TOP + plot_h - bh, MAX (1.0, x1 - x0 - 1.0), bh);
      cairo_fill (cr);
    }
  set_color (cr, fg, 0.7);
  show_text (self, cr, PAD_LEFT - 4, PAD_TOP - 6, 1.0, max_text);
  show_text (self, cr, PAD_LEFT - 4, PAD_TOP + plot_h - 14, 1.0, "0");
}

static void
draw_axis (SlHistogram *self, cairo_t *cr, double width, double height, const GdkRGBA *fg)
{
  const SlDurationHistogram *h = self->histogram;
  double y = height - PAD_BOTTOM;
  gint64 ticks[3] = { h->edges[0], 0, h->edges[h->n_bins] };
  const double align[3] = { 0.0, 0.5, 1.0 };

  ticks[1] = (gint64) exp ((log_of (ticks[0]) + log_of (ticks[2])) / 2);
  set_color (cr, fg, 0.5);
  cairo_rectangle (cr, PAD_LEFT, y, width - PAD_LEFT - PAD_RIGHT, 1);
  cairo_fill (cr);
  set_color (cr, fg, 0.8);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *text = sl_locale_duration (ticks[i]);
      g_autofree char *first = sl_locale_duration (ticks[0]);
      double x = x_of (self, width, ticks[i]);

      /* one value, or a span too narrow for three labels: the ends only,
       * and one label when they read the same */
      if (i > 0 && g_str_equal (text, first))
        continue;
      if (i == 1 && (x - x_of (self, width, ticks[0]) < 60 || x_of (self, width, ticks[2]) - x < 60))
        continue;
      cairo_rectangle (cr, round (x), y, 1, 4);
      cairo_fill (cr);
      show_text (self, cr, x, y + 4, align[i], text);
    }
}

static void
draw_percentiles (SlHistogram *self, cairo_t *cr, double width, double height)
{
  const SlDurationHistogram *h = self->histogram;
  const struct { const char *name; gint64 v; double r, g, b; } marks[] = {
    { "p50", h->p50_ns, 0.18, 0.62, 0.30 }, { "p90", h->p90_ns, 0.90, 0.55, 0.10 },
    { "p99", h->p99_ns, 0.85, 0.20, 0.20 },
  };
  static const double dash[] = { 3.0, 2.0 };
  double last_label = -G_MAXDOUBLE;

  for (guint i = 0; i < G_N_ELEMENTS (marks); i++)
    {
      double x = round (x_of (self, width, marks[i].v)) + 0.5;

      cairo_set_source_rgb (cr, marks[i].r, marks[i].g, marks[i].b);
      cairo_set_line_width (cr, 1.0);
      cairo_set_dash (cr, dash, 2, 0);
      cairo_move_to (cr, x, PAD_TOP);
      cairo_line_to (cr, x, height - PAD_BOTTOM);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      /* a label too close to the previous one would cover it: the caption
       * under the title gives every value anyway */
      if (x - last_label < 30)
        continue;
      show_text (self, cr, x, 1, 0.5, marks[i].name);
      last_label = x;
    }
}

static void
sl_histogram_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  SlHistogram *self = SL_HISTOGRAM (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GdkRGBA fg;
  cairo_t *cr;

  if (self->histogram == NULL || self->histogram->n == 0 || width <= PAD_LEFT + PAD_RIGHT)
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw_bars (self, cr, width, height, &fg);
  draw_axis (self, cr, width, height, &fg);
  draw_percentiles (self, cr, width, height);
  cairo_destroy (cr);
}

void
sl_histogram_set_selection (SlHistogram *self, guint first, guint last)
{
  g_return_if_fail (SL_IS_HISTOGRAM (self));
  self->sel_first = MIN (first, last);
  self->sel_last = MAX (first, last);
  if (first == G_MAXUINT || last == G_MAXUINT)
    self->sel_first = self->sel_last = G_MAXUINT;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Duration histogram"), -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, SlHistogram *self)
{
  self->drag_bin = sl_histogram_bin_at (self, x);
  sl_histogram_set_selection (self, self->drag_bin, self->drag_bin);
}

static void
drag_update_cb (GtkGestureDrag *gesture, double dx, double dy, SlHistogram *self)
{
  double x, y;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  sl_histogram_set_selection (self, self->drag_bin, sl_histogram_bin_at (self, x + dx));
}

static void
drag_end_cb (GtkGestureDrag *gesture, double dx, double dy, SlHistogram *self)
{
  drag_update_cb (gesture, dx, dy, self);
  if (self->sel_first != G_MAXUINT)
    g_signal_emit (self, signals[BINS_SELECTED], 0, self->sel_first, self->sel_last);
}

void
sl_histogram_set_histogram (SlHistogram *self, SlDurationHistogram *histogram)
{
  g_return_if_fail (SL_IS_HISTOGRAM (self));
  g_clear_pointer (&self->histogram, sl_duration_histogram_free);
  self->histogram = histogram;
  sl_histogram_set_selection (self, G_MAXUINT, G_MAXUINT);
}

const SlDurationHistogram *
sl_histogram_get_histogram (SlHistogram *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM (self), NULL);
  return self->histogram;
}

static void
sl_histogram_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                      int *minimum, int *natural, int *min_baseline, int *nat_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 160 : 120;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 300 : 170;
}

static void
sl_histogram_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  SlHistogram *self = SL_HISTOGRAM (widget);

  if (self->width != width)
    {
      self->width = width;
      g_signal_emit (self, signals[RESIZED], 0);
    }
}

static void
sl_histogram_finalize (GObject *object)
{
  g_clear_pointer (&SL_HISTOGRAM (object)->histogram, sl_duration_histogram_free);
  G_OBJECT_CLASS (sl_histogram_parent_class)->finalize (object);
}

static void
sl_histogram_class_init (SlHistogramClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = sl_histogram_finalize;
  widget_class->snapshot = sl_histogram_snapshot;
  widget_class->measure = sl_histogram_measure;
  widget_class->size_allocate = sl_histogram_size_allocate;
  /* (first, last): the bins dragged across, inclusive */
  signals[BINS_SELECTED] = g_signal_new ("bins-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  signals[RESIZED] = g_signal_new ("resized", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
sl_histogram_init (SlHistogram *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  self->sel_first = self->sel_last = G_MAXUINT;
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
}

GtkWidget *
sl_histogram_new (void)
{
  return g_object_new (SL_TYPE_HISTOGRAM, NULL);
}
