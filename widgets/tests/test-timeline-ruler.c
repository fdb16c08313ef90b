/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-timeline-ruler.c: the ruler's ticks over many zoom levels, offsets
 * and widths, without a display: one unit per view, labels never overlap,
 * never run past the edge, keep out of the range badge.  The checks parse
 * the label text back rather than trusting the formatter. */
#include "sl-timeline-ruler.h"

#include <math.h>
#include <string.h>

/* A monospace stand-in for the font: 7 px a character. */
static double
measure (const char *text, gpointer data)
{
  return 7.0 * g_utf8_strlen (text, -1);
}

static const char *
unit_of (const char *text)
{
  const char *space = strrchr (text, ' ');

  g_assert_nonnull (space);
  return space + 1;
}

/* The label's value in ns, read back from its text and unit. */
static double
value_of (const char *text)
{
  const char *u = unit_of (text);
  double v = g_ascii_strtod (text, NULL);

  if (g_str_equal (u, "s"))
    return v * 1e9;
  if (g_str_equal (u, "ms"))
    return v * 1e6;
  if (g_str_equal (u, "µs"))
    return v * 1e3;
  g_assert_cmpstr (u, ==, "ns");
  return v;
}

static void
check_view (SlRulerSpec *spec, GArray *ticks)
{
  gint64 step = sl_ruler_ticks (spec, ticks);
  const char *unit = NULL;
  double last_end = -G_MAXDOUBLE;
  guint labelled = 0;

  g_assert_cmpint (step, >, 0);
  for (guint i = 0; i < ticks->len; i++)
    {
      SlRulerTick *t = &g_array_index (ticks, SlRulerTick, i);
      double x0 = t->x + spec->pad_px, x1 = x0 + measure (t->text ? t->text : "", NULL);

      g_assert_cmpfloat (t->x, >=, -1e-6);
      g_assert_cmpfloat (t->x, <, spec->width);
      if (i > 0)
        g_assert_cmpint (t->t - g_array_index (ticks, SlRulerTick, i - 1).t, ==, step);
      if (t->text == NULL)
        continue;
      labelled++;
      /* one unit for the whole ruler */
      if (unit == NULL)
        unit = unit_of (t->text);
      g_assert_cmpstr (unit_of (t->text), ==, unit);
      /* whole, apart, clear of the badge */
      g_assert_cmpfloat (x1, <=, spec->width);
      g_assert_cmpfloat (x0, >=, last_end + spec->gap_px - 1e-6);
      g_assert_false (spec->keep_x1 > spec->keep_x0 && x0 < spec->keep_x1 && x1 > spec->keep_x0);
      last_end = x1;
      /* the text says the tick's time, to the step's precision */
      g_assert_cmpfloat (fabs (value_of (t->text) - (double) (t->t - (spec->relative ? spec->origin : 0))),
                         <=, step / 2.0 + 1e-9 * fabs ((double) t->t));
    }
  /* a ruler wider than a label and its gap shows at least one (badge aside) */
  if (spec->width >= 400 && spec->keep_x1 <= spec->keep_x0)
    g_assert_cmpuint (labelled, >=, 1);
  sl_ruler_ticks_clear (ticks);
}

static void
test_zoom_levels (void)
{
  g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (SlRulerTick));
  static const int widths[] = { 180, 375, 600, 1180, 2400 };
  static const double offsets[] = { 0, 0.37, 1, 49.5, 1e3, 16.3e9 };
  guint views = 0;

  for (double px_ns = 0.01; px_ns < 1e9; px_ns *= 1.37)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      for (guint o = 0; o < G_N_ELEMENTS (offsets); o++)
        for (int relative = 0; relative <= 1; relative++)
          {
            SlRulerSpec spec = {
              .t0 = 1000 + offsets[o] * MAX (px_ns * widths[w], 1), .px_ns = px_ns, .width = widths[w],
              .origin = 1000, .relative = relative, .min_px = 110, .pad_px = 3, .gap_px = 12,
              .measure = measure,
            };

            if (spec.t0 + px_ns * widths[w] > 4e18)
              continue;   /* times are gint64 ns: views past 2^62 are not real */
            check_view (&spec, ticks);
            /* a badge in the middle of the ruler */
            spec.keep_x0 = widths[w] * 0.4;
            spec.keep_x1 = widths[w] * 0.4 + 60;
            check_view (&spec, ticks);
            views += 2;
          }
  g_assert_cmpuint (views, >, 1000);
}

/* The reported case: 0..120 ms shown used to read "50 ms | 0.10 s". */
static void
test_no_mixed_units (void)
{
  g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (SlRulerTick));
  SlRulerSpec spec = { .t0 = 0, .px_ns = 120e6 / 600, .width = 600, .relative = TRUE,
                       .min_px = 110, .pad_px = 3, .gap_px = 12, .measure = measure };

  sl_ruler_ticks (&spec, ticks);
  g_assert_cmpuint (ticks->len, >=, 3);
  for (guint i = 0; i < ticks->len; i++)
    {
      const char *text = g_array_index (ticks, SlRulerTick, i).text;
      if (text != NULL)
        g_assert_cmpstr (unit_of (text), ==, "s");
    }
  sl_ruler_ticks_clear (ticks);
}

static void
test_badge (void)
{
  /* centred over the span, pushed inside the ruler at its edges */
  g_assert_cmpfloat (sl_ruler_badge_x (100, 300, 50, 1000), ==, 175);
  g_assert_cmpfloat (sl_ruler_badge_x (-500, 10, 50, 1000), ==, 0);
  g_assert_cmpfloat (sl_ruler_badge_x (990, 5000, 50, 1000), ==, 950);
  /* a range over the whole view (after Z): the badge in the middle */
  g_assert_cmpfloat (sl_ruler_badge_x (-3, 1003, 50, 1000), ==, 475);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/timeline-ruler/zoom-levels", test_zoom_levels);
  g_test_add_func ("/widgets/timeline-ruler/no-mixed-units", test_no_mixed_units);
  g_test_add_func ("/widgets/timeline-ruler/badge", test_badge);
  return g_test_run ();
}
