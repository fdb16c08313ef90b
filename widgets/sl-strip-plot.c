/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-strip-plot.c: a dot per value, a row per series, cairo. */
#include "sl-strip-plot.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>

#include "sl-locale-format.h"

#define LABEL_W  28
#define ROW_H    26
#define AXIS_H   18

typedef struct {
  char    *label;
  GArray  *values;         /* gint64 */
  guint32  rgb;
} Row;

struct _SlStripPlot {
  GtkWidget  parent_instance;
  GPtrArray *rows;         /* Row */
};

G_DEFINE_FINAL_TYPE (SlStripPlot, sl_strip_plot, GTK_TYPE_WIDGET)

static void
row_free (gpointer data)
{
  Row *row = data;

  g_free (row->label);
  g_array_unref (row->values);
  g_free (row);
}

static void
set_rgb (cairo_t *cr, guint32 rgb, double alpha)
{
  cairo_set_source_rgba (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0,
                         alpha);
}

static int
cmp_gint64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The range every row shares, padded so that no dot sits on an edge. */
static void
value_range (SlStripPlot *self, double *lo, double *hi)
{
  *lo = G_MAXDOUBLE;
  *hi = -G_MAXDOUBLE;
  for (guint r = 0; r < self->rows->len; r++)
    {
      GArray *v = ((Row *) self->rows->pdata[r])->values;
      for (guint i = 0; i < v->len; i++)
        {
          *lo = MIN (*lo, (double) g_array_index (v, gint64, i));
          *hi = MAX (*hi, (double) g_array_index (v, gint64, i));
        }
    }
  if (*lo > *hi)
    *lo = 0, *hi = 1;
  {
    double pad = MAX ((*hi - *lo) * 0.05, 1);
    *lo -= pad;
    *hi += pad;
  }
}

static void
draw_text (GtkWidget *widget, cairo_t *cr, const char *text, double x, double y, double xalign)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int w, h;

  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - w * xalign, y - h / 2.0);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
draw_row (SlStripPlot *self, cairo_t *cr, const Row *row, double y, double x0, double w, double lo, double hi)
{
  g_autofree gint64 *sorted = g_memdup2 (row->values->data, row->values->len * sizeof (gint64));
  guint n = row->values->len;

  set_rgb (cr, 0x000000, 0.8);
  draw_text (GTK_WIDGET (self), cr, row->label, 4, y, 0);
  for (guint i = 0; i < n; i++)
    {
      double v = (double) g_array_index (row->values, gint64, i);
      /* a fixed jitter by position: the same picture every time */
      double jitter = ((i * 2654435761u) % 1000) / 1000.0 - 0.5;

      set_rgb (cr, row->rgb, 0.75);
      cairo_arc (cr, x0 + (v - lo) / (hi - lo) * w, y + jitter * (ROW_H - 10), 3, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  if (n == 0)
    return;
  qsort (sorted, n, sizeof (gint64), cmp_gint64);
  set_rgb (cr, 0x000000, 0.9);
  cairo_set_line_width (cr, 2);
  cairo_move_to (cr, x0 + ((double) sorted[n / 2] - lo) / (hi - lo) * w, y - ROW_H / 2.0 + 2);
  cairo_rel_line_to (cr, 0, ROW_H - 4);
  cairo_stroke (cr);
}

static void
draw_axis (SlStripPlot *self, cairo_t *cr, double y, double x0, double w, double lo, double hi)
{
  for (guint k = 0; k <= 4; k++)
    {
      double v = lo + (hi - lo) * k / 4.0;
      g_autofree char *text = sl_locale_duration ((gint64) llround (MAX (v, 0)));
      double x = x0 + w * k / 4.0;

      set_rgb (cr, 0x000000, 0.15);
      cairo_rectangle (cr, round (x), 0, 1, y);
      cairo_fill (cr);
      set_rgb (cr, 0x000000, 0.7);
      draw_text (GTK_WIDGET (self), cr, text, x, y + AXIS_H / 2.0, k == 0 ? 0 : k == 4 ? 1 : 0.5);
    }
}

static void
sl_strip_plot_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  SlStripPlot *self = SL_STRIP_PLOT (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double lo, hi, x0 = LABEL_W, w = MAX (width - LABEL_W - 8, 10);
  cairo_t *cr;

  if (self->rows->len == 0 || width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  value_range (self, &lo, &hi);
  draw_axis (self, cr, self->rows->len * ROW_H, x0, w, lo, hi);
  for (guint r = 0; r < self->rows->len; r++)
    draw_row (self, cr, self->rows->pdata[r], r * ROW_H + ROW_H / 2.0, x0, w, lo, hi);
  cairo_destroy (cr);
}

static void
sl_strip_plot_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                       int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  SlStripPlot *self = SL_STRIP_PLOT (widget);

  if (orientation == GTK_ORIENTATION_VERTICAL)
    *minimum = *natural = MAX (self->rows->len, 1) * ROW_H + AXIS_H;
  else
    *minimum = *natural = 200;
}

void
sl_strip_plot_clear (SlStripPlot *self)
{
  g_return_if_fail (SL_IS_STRIP_PLOT (self));
  g_ptr_array_set_size (self->rows, 0);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
sl_strip_plot_add_row (SlStripPlot *self, const char *label, const gint64 *values_ns, guint n, guint32 rgb)
{
  Row *row;

  g_return_if_fail (SL_IS_STRIP_PLOT (self));
  row = g_new0 (Row, 1);
  row->label = g_strdup (label);
  row->values = g_array_sized_new (FALSE, FALSE, sizeof (gint64), n);
  g_array_append_vals (row->values, values_ns, n);
  row->rgb = rgb;
  g_ptr_array_add (self->rows, row);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
sl_strip_plot_finalize (GObject *object)
{
  g_ptr_array_unref (SL_STRIP_PLOT (object)->rows);
  G_OBJECT_CLASS (sl_strip_plot_parent_class)->finalize (object);
}

static void
sl_strip_plot_class_init (SlStripPlotClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_strip_plot_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = sl_strip_plot_snapshot;
  GTK_WIDGET_CLASS (klass)->measure = sl_strip_plot_measure;
  /* drawn with cairo: a picture to a screen reader, named in init */
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_IMG);
}

static void
sl_strip_plot_init (SlStripPlot *self)
{
  self->rows = g_ptr_array_new_with_free_func (row_free);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Kernel durations of the compared profiles"), -1);
}

GtkWidget *
sl_strip_plot_new (void)
{
  return g_object_new (SL_TYPE_STRIP_PLOT, NULL);
}
