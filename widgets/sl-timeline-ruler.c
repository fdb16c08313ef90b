/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-ruler.c: tick steps, tick labels and drawing the ruler. */
#include "sl-timeline-ruler.h"
#include "sl-timeline-render-private.h"
#include "sl-locale-format.h"
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
  if (self->wall_utc_ns != 0)
    return sl_ruler_wall_clock_label (sl_sat_add (self->wall_utc_ns, sl_sat_sub (t, self->wall_origin_ns)), step);
  if (self->relative_time)
    {
      /* The unit follows the time's magnitude, the decimals the tick step:
       * deep inside a long run a label reads "16.305326 s", not
       * "16305326 µs". */
      gint64 rel = sl_sat_sub (t, self->model->profile->start_ns);
      return sl_locale_time_in_unit (rel, MAX ((gint64) MIN (sl_abs_u64 (rel), G_MAXINT64), step), step);
    }
  /* absolute capture-clock time reads best in seconds */
  return sl_locale_time_in_unit (t, G_GINT64_CONSTANT (1000000000), step);
}

char *
sl_ruler_wall_clock_label (gint64 utc_ns,
                           gint64 step_ns)
{
  gint64 sec = utc_ns / 1000000000, frac = utc_ns % 1000000000;
  g_autoptr(GDateTime) dt = NULL;
  g_autofree char *hms = NULL;
  char digits[16];
  int decimals = 0;

  if (frac < 0)
    sec--, frac += 1000000000;
  dt = g_date_time_new_from_unix_local (sec);
  if (dt == NULL)
    return g_strdup ("–");
  hms = g_date_time_format (dt, "%H:%M:%S");
  for (gint64 q = MAX (step_ns, 1); q < 1000000000 && decimals < 9; q *= 10)
    decimals++;
  if (decimals == 0)
    return g_steal_pointer (&hms);
  g_snprintf (digits, sizeof digits, "%09" G_GINT64_FORMAT, frac);
  digits[decimals] = '\0';
  /* the decimal point the user's locale writes */
  return sl_locale_adopt (g_strdup_printf ("%s.%s", hms, digits));
}

/* The 1-2-5 step after @step. */
static gint64
next_step (gint64 step)
{
  gint64 base = 1;

  while (base <= step / 10)
    base *= 10;
  if (step < 2 * base)
    return 2 * base;
  if (step < 5 * base)
    return 5 * base;
  return base <= G_MAXINT64 / 10 ? 10 * base : G_MAXINT64;
}

static gint64
step_at_least (double ns)
{
  gint64 step = 1;

  while (step < G_MAXINT64 && (double) step < ns)
    step = next_step (step);
  return step;
}

/* The unit's magnitude: the largest time shown, so every label of one view
 * says "ms" (not "50 ms | 0.10 s"); absolute capture-clock time reads best
 * in seconds. */
static gint64
label_magnitude (const SlRulerSpec *spec)
{
  double a = fabs (spec->t0 - (double) spec->origin);
  double b = fabs (spec->t0 + spec->width * spec->px_ns - (double) spec->origin);

  if (!spec->relative)
    return G_GINT64_CONSTANT (1000000000);
  return sl_int64_from_double (MIN (MAX (a, b), (double) G_MAXINT64));
}

void
sl_ruler_ticks_clear (GArray *ticks)
{
  for (guint i = 0; i < ticks->len; i++)
    g_free (g_array_index (ticks, SlRulerTick, i).text);
  g_array_set_size (ticks, 0);
}

/* Every tick at @step with its label; the widest label's width. */
static double
fill_ticks (const SlRulerSpec *spec, gint64 step, gint64 magnitude, GArray *out)
{
  gint64 k = sl_int64_from_double (ceil ((spec->t0 - spec->origin) / (double) step));
  double widest = 0;

  sl_ruler_ticks_clear (out);
  for (gint64 t = sl_sat_add (spec->origin, sl_sat_mul (k, step)); t < G_MAXINT64; t = sl_sat_add (t, step))
    {
      SlRulerTick tick = { t, (t - spec->t0) / spec->px_ns, NULL, 0 };

      if (tick.x >= spec->width)
        break;
      if (spec->wall_utc_ns != 0)
        tick.text = sl_ruler_wall_clock_label (sl_sat_add (spec->wall_utc_ns, sl_sat_sub (t, spec->origin)), step);
      else
        tick.text = sl_locale_time_in_unit (spec->relative ? (double) sl_sat_sub (t, spec->origin) : (double) t,
                                            magnitude, step);
      tick.text_w = spec->measure (tick.text, spec->measure_data);
      widest = MAX (widest, tick.text_w);
      g_array_append_val (out, tick);
    }
  return widest;
}

gint64
sl_ruler_ticks (const SlRulerSpec *spec,
                GArray            *out)
{
  gint64 magnitude = label_magnitude (spec);
  gint64 step = step_at_least (MAX (spec->min_px * spec->px_ns, 1.0));

  g_return_val_if_fail (spec->px_ns > 0 && spec->measure != NULL, 1);
  /* fewer ticks rather than labels cut or run together */
  while (fill_ticks (spec, step, magnitude, out) + spec->gap_px > step / spec->px_ns && step < G_MAXINT64)
    step = next_step (step);
  for (guint i = 0; i < out->len; i++)
    {
      SlRulerTick *tick = &g_array_index (out, SlRulerTick, i);
      double x0 = tick->x + spec->pad_px, x1 = x0 + tick->text_w;

      if (x1 > spec->width || (spec->keep_x1 > spec->keep_x0 && x0 < spec->keep_x1 && x1 > spec->keep_x0))
        g_clear_pointer (&tick->text, g_free);
    }
  return step;
}

double
sl_ruler_badge_x (double x0,
                  double x1,
                  double w,
                  int    width)
{
  double x = (MAX (x0, 0) + MIN (x1, width)) / 2 - w / 2;

  return MAX (MIN (x, width - w), 0);
}

/* The first multiple of @step from the time origin at or after the view's
 * start (clamped: origin and view can be 2^63 ns apart). */
static gint64
first_tick (const SlFrame *f, gint64 step)
{
  gint64 k = sl_int64_from_double (ceil ((f->layout->t0 - f->tick_origin) / (double) step));

  return sl_sat_add (f->tick_origin, sl_sat_mul (k, step));
}

static double
measure_small (const char *text, gpointer data)
{
  return sl_timeline_font_width (data, text);
}

/* A profile without a single timed event has no span: a 0-7 ns ruler
 * would be a lie. */
static gboolean
has_span (const SlTimelineLayout *l)
{
  return l->model->end_ns > l->model->start_ns;
}

/* The selected range's length, centred over it on the ruler when any of
 * it is in view; the tick labels keep out of its way. */
static void
place_badge (SlFrame *f)
{
  SlTimelineRenderer *r = f->renderer;
  SlTimelineLayout *l = f->layout;
  double x0, x1;

  g_clear_pointer (&r->badge, g_free);
  if (!l->has_range)
    return;
  x0 = sl_timeline_layout_time_to_x (l, l->range_start);
  x1 = sl_timeline_layout_time_to_x (l, l->range_end);
  if (x1 < 0 || x0 >= f->body_width)
    return;
  r->badge = sl_locale_duration (sl_span (l->range_start, l->range_end));
  r->badge_w = sl_timeline_font_width (&r->small, r->badge) + 8 * f->scale;
  r->badge_x = sl_ruler_badge_x (x0, x1, r->badge_w, f->body_width);
}

void
_sl_timeline_ruler_collect_ticks (SlFrame *f)
{
  SlTimelineLayout *l = f->layout;
  SlTimelineRenderer *r = f->renderer;
  double s = f->scale;
  SlRulerSpec spec = {
    .t0 = l->t0, .px_ns = l->px_ns, .width = f->body_width,
    .origin = !l->relative_time ? 0 : l->has_origin ? l->origin_ns : l->model->profile->start_ns, .relative = l->relative_time,
    .min_px = 110 * s, .pad_px = 3 * s, .gap_px = 12 * s,
    .measure = measure_small, .measure_data = &r->small,
  };

  if (l->wall_utc_ns != 0)
    {
      /* ticks on whole minutes of the clock, so steps of seconds land on
       * round times of day */
      gint64 into_minute = l->wall_utc_ns % G_GINT64_CONSTANT (60000000000);

      spec.origin = sl_sat_sub (l->wall_origin_ns, into_minute);
      spec.wall_utc_ns = sl_sat_sub (l->wall_utc_ns, into_minute);
    }
  place_badge (f);
  r->ruler_note = has_span (l) ? NULL : _("No timed events: nothing to measure");
  if (r->badge != NULL)
    {
      spec.keep_x0 = r->badge_x - 4 * s;
      spec.keep_x1 = r->badge_x + r->badge_w + 4 * s;
    }
  g_array_set_size (r->ticks, 0);
  sl_ruler_ticks_clear (r->tick_labels);
  f->tick_origin = spec.origin;
  f->tick_step = has_span (l) ? sl_ruler_ticks (&spec, r->tick_labels) : 0;
  for (guint k = 0; k < r->tick_labels->len; k++)
    g_array_append_val (r->ticks, g_array_index (r->tick_labels, SlRulerTick, k).t);
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
  g_autofree char *dur = sl_locale_duration (sl_int64_from_double (l->px_ns * f->body_width));
  g_autofree char *text = !has_span (l) ? g_strdup (_("No time span"))
                          : g_strdup_printf (l->wall_utc_ns != 0 ? _("%s shown · wall clock")
                                             : l->relative_time ? _("%s shown · relative")
                                                                : _("%s shown · absolute"), dur);

  /* a narrow label column keeps the span, not the clock's name */
  if (sl_timeline_font_width (font, text) > f->header_width - 12 * s && has_span (l))
    {
      g_free (text);
      text = g_strdup_printf (_("%s shown"), dur);
    }

  _sl_set_source_rgba (f->cr, f->style->fg_dim, 1);
  sl_timeline_font_show (f->cr, font, text, 6 * s,
                         l->minimap_height + (l->ruler_height + font->ascent - font->descent) / 2,
                         f->header_width - 12 * s);
  f->stats.n_labels++;
}

static void
draw_badge (SlFrame *f)
{
  SlTimelineRenderer *r = f->renderer;
  const SlTimelineFont *font = &r->small;
  double s = f->scale;
  double top = f->layout->minimap_height + 2 * s;
  double h = font->ascent + font->descent + 4 * s;

  _sl_set_source_rgba (f->cr, f->style->accent, 1);
  cairo_rectangle (f->cr, f->header_width + r->badge_x, top, r->badge_w, h);
  cairo_fill (f->cr);
  _sl_set_source_rgba (f->cr, f->style->on_accent, 1);
  sl_timeline_font_show (f->cr, font, r->badge, f->header_width + r->badge_x + 4 * s,
                         top + 2 * s + font->ascent, r->badge_w);
  f->stats.n_labels++;
}

/* Where the ticks would be: why there are none. */
static void
draw_no_span (SlFrame *f)
{
  const SlTimelineFont *font = &f->renderer->small;
  SlTimelineLayout *l = f->layout;

  _sl_set_source_rgba (f->cr, f->style->fg_dim, 1);
  sl_timeline_font_show (f->cr, font, f->renderer->ruler_note, f->header_width + 6 * f->scale,
                         l->minimap_height + (l->ruler_height + font->ascent - font->descent) / 2,
                         f->body_width - 12 * f->scale);
  f->stats.n_labels++;
}

void
_sl_timeline_ruler_draw_labels (SlFrame *f)
{
  SlTimelineRenderer *r = f->renderer;
  const SlTimelineFont *font = &r->small;
  SlTimelineLayout *l = f->layout;
  double s = f->scale;
  double baseline = l->minimap_height + l->ruler_height - 10 * s - font->descent;

  _sl_set_source_rgba (f->cr, f->style->fg, 1);
  for (guint k = 0; k < r->tick_labels->len; k++)
    {
      const SlRulerTick *tick = &g_array_index (r->tick_labels, SlRulerTick, k);

      /* measured to fit whole: the slack only absorbs rounding */
      if (tick->text != NULL &&
          sl_timeline_font_show (f->cr, font, tick->text, f->header_width + tick->x + 3 * s, baseline,
                                 tick->text_w + 1))
        f->stats.n_labels++;
    }
  if (r->badge != NULL)
    draw_badge (f);
  if (r->ruler_note != NULL)
    draw_no_span (f);
  draw_span (f);
}

const char *
sl_timeline_renderer_get_range_label (SlTimelineRenderer *r)
{
  return r->badge;
}

char **
sl_timeline_renderer_dup_ruler_text (SlTimelineRenderer *r)
{
  GPtrArray *text = g_ptr_array_new ();

  for (guint k = 0; k < r->tick_labels->len; k++)
    if (g_array_index (r->tick_labels, SlRulerTick, k).text != NULL)
      g_ptr_array_add (text, g_strdup (g_array_index (r->tick_labels, SlRulerTick, k).text));
  if (r->ruler_note != NULL)
    g_ptr_array_add (text, g_strdup (r->ruler_note));
  g_ptr_array_add (text, NULL);
  return (char **) g_ptr_array_free (text, FALSE);
}

void
_sl_timeline_ruler_init (SlTimelineRenderer *r)
{
  r->tick_labels = g_array_new (FALSE, FALSE, sizeof (SlRulerTick));
}

void
_sl_timeline_ruler_clear (SlTimelineRenderer *r)
{
  sl_ruler_ticks_clear (r->tick_labels);
  g_array_unref (r->tick_labels);
  g_clear_pointer (&r->badge, g_free);
}
