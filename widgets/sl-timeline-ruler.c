/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-ruler.c: tick steps, tick labels and drawing the ruler. */
#include "sl-timeline-ruler.h"
#include "sl-timeline-render-private.h"
#include "sl-format.h"
#include "sl-int.h"

#include <glib/gi18n-lib.h>
#include <math.h>

gint64
sl_timeline_layout_tick_step (const SlTimelineLayout *self,
                              double                  min_px)
{
  double target = MAX (min_px * self->px_ns, 1.0);
  gint64 base = 1;

  while (base <= G_MAXINT64 / 10)
    {
      static const int mult[] = { 1, 2, 5 };
      for (guint k = 0; k < G_N_ELEMENTS (mult); k++)
        if ((double) base * mult[k] >= target)
          return base * mult[k];
      base *= 10;
    }
  return base;
}

char *
sl_timeline_layout_format_tick (const SlTimelineLayout *self,
                                gint64                  t,
                                gint64                  step)
{
  if (self->relative_time)
    {
      /* The unit follows the time's magnitude, the decimals the tick step:
       * deep inside a long run a label reads "16.305326 s", not
       * "16305326 µs". */
      gint64 rel = sl_sat_sub (t, self->model->profile->start_ns);
      return sl_format_time_in_unit (rel, MAX ((gint64) MIN (sl_abs_u64 (rel), G_MAXINT64), step), step);
    }
  /* absolute capture-clock time reads best in seconds */
  return sl_format_time_in_unit (t, G_GINT64_CONSTANT (1000000000), step);
}

/* The first multiple of @step from the time origin at or after the view's
 * start (clamped: origin and view can be 2^63 ns apart). */
static gint64
first_tick (const SlFrame *f, gint64 step)
{
  gint64 k = sl_int64_from_double (ceil ((f->layout->t0 - f->tick_origin) / (double) step));

  return sl_sat_add (f->tick_origin, sl_sat_mul (k, step));
}

void
_sl_timeline_ruler_collect_ticks (SlFrame *f)
{
  SlTimelineLayout *l = f->layout;
  GArray *ticks = f->renderer->ticks;

  f->tick_step = sl_timeline_layout_tick_step (l, 110 * f->scale);
  f->tick_origin = l->relative_time ? l->model->profile->start_ns : 0;
  g_array_set_size (ticks, 0);
  for (gint64 t = first_tick (f, f->tick_step);
       sl_timeline_layout_time_to_x (l, t) < f->body_width && t < G_MAXINT64; t = sl_sat_add (t, f->tick_step))
    g_array_append_val (ticks, t);
}

/* Major ticks every step; minor ones at a fifth or a half of it. */
static void
write_ticks (SlFrame *f, gboolean minor)
{
  gint64 step = f->tick_step;
  gint64 mstep = minor ? step / (step % 5 == 0 && (step / 5) % 2 == 0 ? 5 : 2) : step;
  int len = minor ? (int) (4 * f->scale) : (int) (9 * f->scale);
  int bottom = f->layout->minimap_height + f->layout->ruler_height - 1;
  guint32 px = _sl_opaque (minor ? f->style->tick_minor : f->style->tick);

  if (mstep <= 0)
    return;
  for (gint64 t = first_tick (f, mstep); ; t = sl_sat_add (t, mstep))
    {
      double x = sl_timeline_layout_time_to_x (f->layout, t);

      if (x >= f->body_width || t == G_MAXINT64)
        break;
      if (x < 0)
        continue;
      for (int y = bottom - len; y < bottom && y < f->height; y++)
        _sl_frame_line (f, y)[f->header_width + (int) x] = px;
    }
}

void
_sl_timeline_ruler_write (SlFrame *f)
{
  int W = f->width, H = f->height;
  int mh = f->layout->minimap_height, rh = f->layout->ruler_height;
  guint32 *scan = f->renderer->scan;

  _sl_fill_span (scan, 0, W, _sl_opaque (f->style->header_bg));
  _sl_frame_copy_lines (f, MIN (mh, H), MIN (mh + rh, H), scan);
  if (mh + rh - 1 < H)
    _sl_fill_span (_sl_frame_line (f, mh + rh - 1), 0, W, _sl_opaque (f->style->rule));
  if (mh < H)
    _sl_fill_span (_sl_frame_line (f, mh), 0, W, _sl_opaque (f->style->rule));
  write_ticks (f, FALSE);
  write_ticks (f, TRUE);
}

/* In the ruler's header corner: how much time the view shows, and how. */
static void
draw_span (SlFrame *f)
{
  const SlTimelineFont *font = &f->renderer->small;
  SlTimelineLayout *l = f->layout;
  double s = f->scale;
  g_autofree char *dur = sl_format_duration (sl_int64_from_double (l->px_ns * f->body_width));
  g_autofree char *text = g_strdup_printf (l->relative_time ? _("%s shown · relative")
                                                            : _("%s shown · absolute"), dur);

  _sl_set_source_rgba (f->cr, f->style->fg_dim, 1);
  sl_timeline_font_show (f->cr, font, text, 6 * s,
                         l->minimap_height + (l->ruler_height + font->ascent - font->descent) / 2,
                         f->header_width - 12 * s);
  f->stats.n_labels++;
}

void
_sl_timeline_ruler_draw_labels (SlFrame *f)
{
  const SlTimelineFont *font = &f->renderer->small;
  GArray *ticks = f->renderer->ticks;
  SlTimelineLayout *l = f->layout;
  double s = f->scale;
  double baseline = l->minimap_height + l->ruler_height - 10 * s - font->descent;

  _sl_set_source_rgba (f->cr, f->style->fg, 1);
  for (guint k = 0; k < ticks->len; k++)
    {
      gint64 t = g_array_index (ticks, gint64, k);
      double x = f->header_width + sl_timeline_layout_time_to_x (l, t);
      g_autofree char *text = sl_timeline_layout_format_tick (l, t, f->tick_step);

      if (sl_timeline_font_show (f->cr, font, text, x + 3 * s, baseline,
                                 MIN (f->width - x - 3 * s, 105 * s)))
        f->stats.n_labels++;
    }
  draw_span (f);
}
