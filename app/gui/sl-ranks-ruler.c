/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks-ruler.c: the ranks window's one ruler.  The ranks' timelines
 * hide their own (each on its own capture clock); this one labels the job
 * clock over the same x as their bodies, with the same ticks as a
 * timeline's ruler (sl_ruler_ticks). */
#include "sl-ranks-ruler.h"
#include "sl-timeline-ruler.h"
#include "sl-timeline-colors.h"

#include <glib/gi18n.h>
#include <math.h>

#define RULER_HEIGHT 26

struct _SlRanksRuler {
  GtkWidget  parent_instance;
  gint64     start, end;
  double     body_x, body_w;
  GArray    *ticks;               /* SlRulerTick of the last frame */
};

G_DEFINE_FINAL_TYPE (SlRanksRuler, sl_ranks_ruler, GTK_TYPE_WIDGET)

static double
measure_text (const char *text, gpointer data)
{
  PangoLayout *layout = data;
  int w;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  return w;
}

static PangoLayout *
small_layout (GtkWidget *widget)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, NULL);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_scale_new (0.85));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  return layout;
}

static void
set_color (cairo_t *cr, guint32 rgb)
{
  cairo_set_source_rgb (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0);
}

static void
draw_text (cairo_t *cr, PangoLayout *layout, const char *text, double x, double h)
{
  int th;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, NULL, &th);
  cairo_move_to (cr, x, (h - th) / 2.0);
  pango_cairo_show_layout (cr, layout);
}

/* The ticks of the job clock: relative labels counted from job time 0,
 * spaced as a timeline's ruler spaces them. */
static void
collect_ticks (SlRanksRuler *self, PangoLayout *layout)
{
  SlRulerSpec spec = {
    .t0 = (double) self->start, .px_ns = (double) (self->end - self->start) / self->body_w,
    .width = (int) self->body_w, .origin = 0, .relative = TRUE,
    .min_px = 110, .pad_px = 3, .gap_px = 12,
    .measure = measure_text, .measure_data = layout,
  };

  sl_ruler_ticks (&spec, self->ticks);
}

static void
sl_ranks_ruler_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  SlRanksRuler *self = SL_RANKS_RULER (widget);
  double w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = small_layout (widget);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  GdkRGBA fg;
  SlTimelineStyle style;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  sl_timeline_style_init (&style, 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5, 1);
  set_color (cr, style.header_bg);
  cairo_paint (cr);
  set_color (cr, style.rule);
  cairo_rectangle (cr, 0, h - 1, w, 1);
  cairo_fill (cr);
  set_color (cr, style.fg_dim);
  /* Translators: the ranks window's ruler, over the label column */
  draw_text (cr, layout, _("Job time"), 6, h);
  sl_ruler_ticks_clear (self->ticks);
  if (self->body_w > 1 && self->end > self->start)
    {
      collect_ticks (self, layout);
      for (guint k = 0; k < self->ticks->len; k++)
        {
          const SlRulerTick *tick = &g_array_index (self->ticks, SlRulerTick, k);
          double x = floor (self->body_x + tick->x);

          set_color (cr, style.tick);
          cairo_rectangle (cr, x, h - 10, 1, 9);
          cairo_fill (cr);
          set_color (cr, style.fg);
          if (tick->text != NULL)
            draw_text (cr, layout, tick->text, x + 3, h - 8);
        }
    }
  cairo_destroy (cr);
}

static void
sl_ranks_ruler_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                        int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = *natural = orientation == GTK_ORIENTATION_VERTICAL ? RULER_HEIGHT : 100;
}

static void
sl_ranks_ruler_finalize (GObject *object)
{
  SlRanksRuler *self = SL_RANKS_RULER (object);

  sl_ruler_ticks_clear (self->ticks);
  g_array_unref (self->ticks);
  G_OBJECT_CLASS (sl_ranks_ruler_parent_class)->finalize (object);
}

static void
sl_ranks_ruler_class_init (SlRanksRulerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_ranks_ruler_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = sl_ranks_ruler_snapshot;
  GTK_WIDGET_CLASS (klass)->measure = sl_ranks_ruler_measure;
}

static void
sl_ranks_ruler_init (SlRanksRuler *self)
{
  self->ticks = g_array_new (FALSE, TRUE, sizeof (SlRulerTick));
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
sl_ranks_ruler_new (void)
{
  return g_object_new (SL_TYPE_RANKS_RULER, NULL);
}

void
sl_ranks_ruler_set_view (SlRanksRuler *self, gint64 start, gint64 end, double body_x, double body_w)
{
  g_return_if_fail (SL_IS_RANKS_RULER (self));
  if (self->start == start && self->end == end && self->body_x == body_x && self->body_w == body_w)
    return;
  self->start = start;
  self->end = end;
  self->body_x = body_x;
  self->body_w = body_w;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_ranks_ruler_get_view (SlRanksRuler *self, gint64 *start, gint64 *end, double *body_x, double *body_w)
{
  *start = self->start;
  *end = self->end;
  *body_x = self->body_x;
  *body_w = self->body_w;
}

char **
sl_ranks_ruler_dup_labels (SlRanksRuler *self)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint k = 0; k < self->ticks->len; k++)
    if (g_array_index (self->ticks, SlRulerTick, k).text != NULL)
      g_ptr_array_add (out, g_strdup (g_array_index (self->ticks, SlRulerTick, k).text));
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}
