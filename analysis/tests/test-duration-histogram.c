/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-duration-histogram.c: the histogram's edge cases, against values
 * counted and ranked by hand here (the real profiles are in
 * test-scope-summary.py, against SQL). */
#include "sightline.h"

static void
check_counts (const SlDurationHistogram *h, const gint64 *v, gsize n)
{
  guint64 total = 0;

  for (guint b = 0; b < h->n_bins; b++)
    {
      guint64 want = 0;
      for (gsize i = 0; i < n; i++)
        want += v[i] >= h->edges[b] && v[i] < h->edges[b + 1];
      g_assert_cmpuint (h->counts[b], ==, want);
      g_assert_cmpint (h->edges[b], <, h->edges[b + 1]);
      total += want;
    }
  g_assert_cmpuint (total, ==, n);
}

static void
test_empty (void)
{
  g_autoptr(SlDurationHistogram) h = sl_duration_histogram_new (NULL, 0, 40);

  g_assert_cmpuint (h->n, ==, 0);
  g_assert_cmpuint (h->n_bins, ==, 0);
  g_assert_cmpint (h->p50_ns, ==, 0);
  g_assert_cmpuint (sl_duration_histogram_bin_of (h, 5), ==, G_MAXUINT);
}

static void
test_one_value (void)
{
  const gint64 v[] = { 7, 7, 7 };
  g_autoptr(SlDurationHistogram) h = sl_duration_histogram_new (v, G_N_ELEMENTS (v), 40);

  /* one nanosecond wide, holding all three */
  g_assert_cmpuint (h->n_bins, ==, 1);
  g_assert_cmpint (h->edges[0], ==, 7);
  g_assert_cmpint (h->edges[1], ==, 8);
  g_assert_cmpint (h->p99_ns, ==, 7);
  check_counts (h, v, G_N_ELEMENTS (v));
}

static void
test_spread (void)
{
  /* 0 and 1 ns, then powers of ten: zero durations have a bin too */
  const gint64 v[] = { 0, 1, 10, 100, 1000, 10000, 100000, 1000000, 1000000, 5 };
  g_autoptr(SlDurationHistogram) h = sl_duration_histogram_new (v, G_N_ELEMENTS (v), 12);

  g_assert_cmpuint (h->n_bins, <=, 12);
  g_assert_cmpint (h->edges[0], ==, 0);
  g_assert_cmpint (h->edges[h->n_bins], ==, 1000001);
  check_counts (h, v, G_N_ELEMENTS (v));
  /* nearest rank over the sorted 0 1 5 10 100 1000 10000 100000 1e6 1e6:
   * p50 the 5th, p90 the 9th, p99 the 10th */
  g_assert_cmpint (h->p50_ns, ==, 100);
  g_assert_cmpint (h->p90_ns, ==, 1000000);
  g_assert_cmpint (h->p99_ns, ==, 1000000);
  g_assert_cmpuint (sl_duration_histogram_bin_of (h, -1), ==, G_MAXUINT);
  g_assert_cmpuint (sl_duration_histogram_bin_of (h, 1000001), ==, G_MAXUINT);
  g_assert_cmpuint (sl_duration_histogram_bin_of (h, 1000000), ==, h->n_bins - 1);
}

static void
test_narrow (void)
{
  /* a span of 3 ns cannot have 40 distinct integer edges */
  const gint64 v[] = { 1000, 1001, 1002, 1002 };
  g_autoptr(SlDurationHistogram) h = sl_duration_histogram_new (v, G_N_ELEMENTS (v), 40);

  g_assert_cmpuint (h->n_bins, <=, 3);
  check_counts (h, v, G_N_ELEMENTS (v));
  g_assert_cmpint (h->p50_ns, ==, 1001);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/duration-histogram/empty", test_empty);
  g_test_add_func ("/analysis/duration-histogram/one-value", test_one_value);
  g_test_add_func ("/analysis/duration-histogram/spread", test_spread);
  g_test_add_func ("/analysis/duration-histogram/narrow", test_narrow);
  return g_test_run ();
}
