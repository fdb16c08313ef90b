/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-histogram-overlay.c: overlaid duration histograms, cairo. */
#include "sl-histogram-overlay.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sl-locale-format.h"

#define PAD      8
#define AXIS_H  18
#define TITLE_H 18

typedef struct {
  char    *label;
  guint64 *counts;
  guint64  total;
  guint32  rgb;
} Series;

struct _SlHistogramOverlay {
  GtkWidget  parent_instance;
  char      *title;
  guint      n_bins;
  gint64    *edges;
  GPtrArray *series;       /* Series */
};

G_DEFINE_FINAL_TYPE (SlHistogramOverlay, sl_histogram_overlay, GTK_TYPE_WIDGET)

static void
series_free (gpointer data)
{
  Series *s = data;

  g_free (s->label);
  g_free (s->counts);
  g_free (s);
}

static void
set_rgb (cairo_t *cr, guint32 rgb, double alpha)
{
  cairo_set_source_rgba (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0,
                         alpha);
}

static int
text_at (GtkWidget *widget, cairo_t *cr, const char *text, double x, double y, double xalign)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int w, h;

  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - w * xalign, y);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
  return w;
}

/* x of @ns on the log axis from edges[0] to edges[n_bins]. */
static double
x_of (SlHistogramOverlay *self, double ns, double x0, double w)
{
  double lo = log (MAX (self->edges[0], 1)), hi = log (MAX (self->edges[self->n_bins], 2));

  if (hi <= lo)
    return x0;
  return x0 + (log (MAX (ns, 1)) - lo) / (hi - lo) * w;
}

static double
max_share (SlHistogramOverlay *self)
{
  double top = 0;

  for (guint s = 0; s < self->series->len; s++)
    {
      const Series *se = self->series->pdata[s];
      for (guint b = 0; b < self->n_bins && se->total > 0; b++)
        top = MAX (top, (double) se->counts[b] / se->total);
    }
  return top > 0 ? top : 1;
}

/* A series as an outlined step shape with a translucent fill. */
static void
draw_series (SlHistogramOverlay *self, cairo_t *cr, const Series *se, double x0, double w, double base, double h,
             double top)
{
  if (se->total == 0)
    return;
  cairo_move_to (cr, x_of (self, self->edges[0], x0, w), base);
  for (guint b = 0; b < self->n_bins; b++)
    {
      double y = base - (double) se->counts[b] / se->total / top * h;
      cairo_line_to (cr, x_of (self, self->edges[b], x0, w), y);
      cairo_line_to (cr, x_of (self, self->edges[b + 1], x0, w), y);
    }
  cairo_line_to (cr, x_of (self, self->edges[self->n_bins], x0, w), base);
  cairo_close_path (cr);
  set_rgb (cr, se->rgb, 0.25);
  cairo_fill_preserve (cr);
  set_rgb (cr, se->rgb, 0.95);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);
}

static void
draw_legend (SlHistogramOverlay *self, cairo_t *cr, double right)
{
  double x = right;

  for (guint s = self->series->len; s-- > 0;)
    {
      const Series *se = self->series->pdata[s];
      g_autofree char *text = g_strdup_printf ("%s (%" G_GUINT64_FORMAT ")", se->label, se->total);
      PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      int w, h;

      pango_layout_get_pixel_size (layout, &w, &h);
      x -= w;
      set_rgb (cr, 0x000000, 0.8);
      cairo_move_to (cr, x, 0);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
      x -= 14;
      set_rgb (cr, se->rgb, 0.95);
      cairo_rectangle (cr, x, 4, 10, 10);
      cairo_fill (cr);
      x -= 12;
    }
}

static void
draw_axis (SlHistogramOverlay *self, cairo_t *cr, double x0, double w, double base)
{
  guint ticks = MIN (self->n_bins, 4);

  for (guint k = 0; k <= ticks; k++)
    {
      guint b = ticks ? self->n_bins * k / ticks : 0;
      g_autofree char *text = sl_locale_duration (self->edges[b]);
      double x = x_of (self, self->edges[b], x0, w);

      set_rgb (cr, 0x000000, 0.7);
      text_at (GTK_WIDGET (self), cr, text, x, base + 2, k == 0 ? 0 : k == ticks ? 1 : 0.5);
    }
  set_rgb (cr, 0x000000, 0.4);
  cairo_rectangle (cr, x0, base, w, 1);
  cairo_fill (cr);
}

static void
sl_histogram_overlay_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  SlHistogramOverlay *self = SL_HISTOGRAM_OVERLAY (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double x0 = PAD, w = width - 2 * PAD, base = height - AXIS_H, top;
  cairo_t *cr;

  if (width <= 2 * PAD || height <= AXIS_H + TITLE_H + 4)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->title != NULL)
    {
      set_rgb (cr, 0x000000, 0.8);
      text_at (widget, cr, self->title, PAD, 0, 0);
    }
  if (self->n_bins > 0 && self->series->len > 0)
    {
      top = max_share (self);
      for (guint s = 0; s < self->series->len; s++)
        draw_series (self, cr, self->series->pdata[s], x0, w, base, base - TITLE_H - 4, top);
      draw_axis (self, cr, x0, w, base);
      draw_legend (self, cr, width - PAD);
    }
  cairo_destroy (cr);
}

static void
sl_histogram_overlay_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                              int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_VERTICAL ? 90 : 200;
  *natural = orientation == GTK_ORIENTATION_VERTICAL ? 130 : 400;
}

void
sl_histogram_overlay_set_bins (SlHistogramOverlay *self, const gint64 *edges, guint n_bins, const char *title)
{
  g_return_if_fail (SL_IS_HISTOGRAM_OVERLAY (self));
  g_free (self->edges);
  g_free (self->title);
  self->edges = n_bins > 0 ? g_memdup2 (edges, (n_bins + 1) * sizeof (gint64)) : NULL;
  self->n_bins = self->edges != NULL ? n_bins : 0;
  self->title = g_strdup (title);
  g_ptr_array_set_size (self->series, 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_histogram_overlay_add_series (SlHistogramOverlay *self, const char *label, const guint64 *counts, guint32 rgb)
{
  Series *se;

  g_return_if_fail (SL_IS_HISTOGRAM_OVERLAY (self));
  se = g_new0 (Series, 1);
  se->label = g_strdup (label);
  se->counts = g_memdup2 (counts, MAX (self->n_bins, 1) * sizeof (guint64));
  for (guint b = 0; b < self->n_bins; b++)
    se->total += counts[b];
  se->rgb = rgb;
  g_ptr_array_add (self->series, se);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
sl_histogram_overlay_get_n_series (SlHistogramOverlay *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_OVERLAY (self), 0);
  return self->series->len;
}

static void
sl_histogram_overlay_finalize (GObject *object)
{
  SlHistogramOverlay *self = SL_HISTOGRAM_OVERLAY (object);

  g_ptr_array_unref (self->series);
  g_free (self->edges);
  g_free (self->title);
  G_OBJECT_CLASS (sl_histogram_overlay_parent_class)->finalize (object);
}

static void
sl_histogram_overlay_class_init (SlHistogramOverlayClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_histogram_overlay_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = sl_histogram_overlay_snapshot;
  GTK_WIDGET_CLASS (klass)->measure = sl_histogram_overlay_measure;
  /* drawn with cairo: a picture to a screen reader, named in init */
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_IMG);
}

static void
sl_histogram_overlay_init (SlHistogramOverlay *self)
{
  self->series = g_ptr_array_new_with_free_func (series_free);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Duration histograms of the compared profiles"), -1);
}

GtkWidget *
sl_histogram_overlay_new (void)
{
  return g_object_new (SL_TYPE_HISTOGRAM_OVERLAY, NULL);
}
