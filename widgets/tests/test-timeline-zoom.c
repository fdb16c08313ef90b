/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-timeline-zoom.c: wheel and touchpad deltas to zoom factors, and the
 * zoom they make anchored at the pointer, without a display.  Expected
 * values are worked out by hand in the comments. */
#include "sl-timeline-layout.h"
#include "sl-timeline-zoom.h"
#include "sl-profile-private.h"

#include <math.h>

static void
test_notches (void)
{
  /* one notch down doubles the span, one up halves it */
  g_assert_cmpfloat_with_epsilon (sl_timeline_zoom_factor (1, TRUE), 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_timeline_zoom_factor (-1, TRUE), 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_timeline_zoom_factor (0, TRUE), 1.0, 1e-12);
  /* 1 s to 10 us is a factor of 1e5: 2^16 = 65536 is short of it, 2^17 = 131072 past it */
  g_assert_cmpfloat (1e9 * sl_timeline_zoom_factor (-16, TRUE), >, 1e4);
  g_assert_cmpfloat (1e9 * sl_timeline_zoom_factor (-17, TRUE), <, 1e4);
}

static void
test_smooth (void)
{
  /* half a notch of a high-resolution wheel: sqrt 2 */
  g_assert_cmpfloat_with_epsilon (sl_timeline_zoom_factor (0.5, TRUE), sqrt (2.0), 1e-12);
  /* a touchpad's 50 px are one notch, 25 px half of one */
  g_assert_cmpfloat_with_epsilon (sl_timeline_zoom_factor (50, FALSE), 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_timeline_zoom_factor (-25, FALSE), 1 / sqrt (2.0), 1e-12);
  /* proportional: many small deltas zoom as much as their sum */
  {
    double product = 1;

    for (int i = 0; i < 40; i++)
      product *= sl_timeline_zoom_factor (2.5, FALSE);
    g_assert_cmpfloat_with_epsilon (product, sl_timeline_zoom_factor (100, FALSE), 1e-9);
    g_assert_cmpfloat_with_epsilon (product, 4.0, 1e-9);
  }
  /* a runaway burst stays finite and positive */
  g_assert_true (isfinite (sl_timeline_zoom_factor (1e9, FALSE)));
  g_assert_cmpfloat (sl_timeline_zoom_factor (-1e9, FALSE), >, 0);
}

/* A 1 s capture 1000 px wide: 1 ms/px fitted.  Three notches in at x = 250
 * make 125 us/px and keep the time under x = 250 (250 ms) where it was. */
static void
test_anchor (void)
{
  SlProfile *p = _sl_profile_new ("zoom");
  SlTimelineModel *m;
  SlTimelineLayout *l;
  double before;

  p->start_ns = 0;
  p->end_ns = 1000000000;
  _sl_profile_adopt_own (p);
  m = sl_timeline_model_new (p, NULL);
  l = sl_timeline_layout_new (m);
  sl_timeline_layout_set_size (l, l->header_width + 1000, 400);
  g_assert_cmpfloat_with_epsilon (l->px_ns, 1e6, 1e-6);
  before = sl_timeline_layout_x_to_time (l, 250);
  for (int i = 0; i < 3; i++)
    sl_timeline_layout_zoom_at (l, 250, sl_timeline_zoom_factor (-1, TRUE));
  g_assert_cmpfloat_with_epsilon (l->px_ns, 125000, 1e-6);
  g_assert_cmpfloat_with_epsilon (sl_timeline_layout_x_to_time (l, 250), before, 1e-3);
  g_assert_cmpfloat_with_epsilon (before, 250e6, 1e-3);
  sl_timeline_layout_free (l);
  sl_timeline_model_unref (m);
  sl_profile_unref (p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/timeline-zoom/notches", test_notches);
  g_test_add_func ("/widgets/timeline-zoom/smooth", test_smooth);
  g_test_add_func ("/widgets/timeline-zoom/anchor", test_anchor);
  return g_test_run ();
}
