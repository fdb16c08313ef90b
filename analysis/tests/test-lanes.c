/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lanes.c: NVTX start/end ranges laid out in lanes that never overlap,
 * as few as the ranges' deepest overlap, on a generated profile whose
 * overlap is planted (--async-ranges).  (No real profile here has start/end
 * ranges.) */
#include "sl-test-util.h"

/* Every lane (the ranges of one depth) sorted by start with no two
 * overlapping; returns the number of ranges seen. */
static guint
check_lanes (const SlNvtxRanges *r)
{
  guint seen = 0;

  g_assert_cmpuint (r->depth_first[0], ==, 0);
  g_assert_cmpuint (r->depth_first[r->n_depths], ==, r->spans.n);
  for (guint d = 0; d < r->n_depths; d++)
    for (guint i = r->depth_first[d]; i < r->depth_first[d + 1]; i++)
      {
        g_assert_cmpuint (sl_nvtx_ranges_depth (r, i), ==, d);
        g_assert_cmpuint (r->parent[i], ==, SL_NONE);
        if (i > r->depth_first[d])
          g_assert_cmpint (sl_spans_end (&r->spans, i - 1), <=, r->spans.start[i]);
        seen++;
      }
  return seen;
}

/* Spans from (start, end) pairs, sorted by start by the caller. */
static SlSpans
spans_of (const gint64 (*se)[2], guint n)
{
  SlSpans s = { n, g_new (gint64, MAX (n, 1)), g_new (guint32, MAX (n, 1)), 0, NULL, NULL };

  for (guint i = 0; i < n; i++)
    {
      s.start[i] = se[i][0];
      s.dur[i] = (guint32) (se[i][1] - se[i][0]);
    }
  return s;
}

/* The end of a span for lanes: one of zero duration holds 1 ns. */
static gint64
lane_end (const SlSpans *s, guint i)
{
  return MAX (sl_spans_end (s, i), s->start[i] + 1);
}

/* The most spans open at one instant, the naive way: at each start, count
 * the spans open there (a span [s, e) is open at t when s <= t < e). */
static guint
max_overlap (const SlSpans *s)
{
  guint best = s->n > 0;

  for (guint i = 0; i < s->n; i++)
    {
      guint open = 0;

      for (guint j = 0; j < s->n; j++)
        if (s->start[j] <= s->start[i] && lane_end (s, j) > s->start[i])
          open++;
      best = MAX (best, open);
    }
  return best;
}

/* No two spans of a lane overlap (pairwise). */
static void
assert_no_overlap (const SlSpans *s, const guint16 *lane, guint n_lanes)
{
  for (guint i = 0; i < s->n; i++)
    {
      g_assert_cmpuint (lane[i], <, n_lanes);
      for (guint j = i + 1; j < s->n; j++)
        if (lane[i] == lane[j])
          g_assert_true (lane_end (s, i) <= s->start[j] || lane_end (s, j) <= s->start[i]);
    }
}

static guint
assign (const gint64 (*se)[2], guint n, guint max_lanes, guint16 *lane)
{
  SlSpans s = spans_of (se, n);
  guint n_lanes = sl_lanes_assign (&s, max_lanes, lane);

  if (max_lanes >= n)
    assert_no_overlap (&s, lane, n_lanes);
  g_free (s.start);
  g_free (s.dur);
  return n_lanes;
}

static void
test_planted (void)
{
  static const gint64 disjoint[][2] = { { 0, 10 }, { 10, 20 }, { 25, 30 } };
  static const gint64 stair[][2] = { { 0, 100 }, { 10, 105 }, { 20, 110 }, { 30, 115 }, { 200, 210 } };
  /* three lanes; at 25 and 27 lanes 0 and 1 are free: the lowest is taken */
  static const gint64 reuse[][2] = { { 0, 10 }, { 1, 20 }, { 2, 30 }, { 25, 26 }, { 27, 28 } };
  /* instants hold 1 ns: they need lanes of their own where they coincide */
  static const gint64 zero[][2] = { { 5, 5 }, { 5, 5 }, { 5, 9 } };
  guint16 lane[8];

  g_assert_cmpuint (assign (NULL, 0, 16, lane), ==, 0);
  g_assert_cmpuint (assign (disjoint, 3, 16, lane), ==, 1);
  g_assert_cmpuint (assign (stair, 5, 16, lane), ==, 4);
  g_assert_cmpuint (lane[3], ==, 3);
  g_assert_cmpuint (lane[4], ==, 0);
  g_assert_cmpuint (assign (reuse, 5, 16, lane), ==, 3);
  g_assert_cmpuint (lane[2], ==, 2);
  g_assert_cmpuint (lane[3], ==, 0);
  g_assert_cmpuint (lane[4], ==, 0);
  g_assert_cmpuint (assign (zero, 3, 16, lane), ==, 3);
  /* over the cap, the last lane takes the rest */
  g_assert_cmpuint (assign (stair, 5, 2, lane), ==, 2);
  g_assert_cmpuint (lane[2], ==, 1);
  g_assert_cmpuint (lane[3], ==, 1);
}

/* Random spans: the lane count is the deepest overlap, computed naively. */
static void
test_random (void)
{
  GRand *rand = g_rand_new_with_seed (9);

  for (guint round = 0; round < 300; round++)
    {
      guint n = g_rand_int_range (rand, 1, 60);
      gint64 (*se)[2] = g_malloc (n * sizeof *se);
      g_autofree guint16 *lane = g_new (guint16, n);
      gint64 t = 0;

      for (guint i = 0; i < n; i++)
        {
          t += g_rand_int_range (rand, 0, 20);
          se[i][0] = t;
          se[i][1] = t + g_rand_int_range (rand, 0, round % 2 ? 30 : 200);
        }
      SlSpans s = spans_of ((const gint64 (*)[2]) se, n);
      guint n_lanes = sl_lanes_assign (&s, 1024, lane);
      g_assert_cmpuint (n_lanes, ==, max_overlap (&s));
      assert_no_overlap (&s, lane, n_lanes);
      g_free (s.start);
      g_free (s.dur);
      g_free (se);
    }
  g_rand_free (rand);
}

static void
test_generated (void)
{
  const SlTestFixture *f = sl_test_fixture ("lanes", "--kernels 600 --iterations 3 --async-ranges 4 --seed 5");
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  JsonObject *planted = json_object_get_object_member (f->truth, "async_ranges");
  guint pid = json_object_get_int_member (planted, "pid"), tid = json_object_get_int_member (planted, "tid");
  gboolean found = FALSE;

  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlThread *th = &profile->threads[t];

      if (th->nvtx_startend.spans.n == 0)
        continue;
      g_assert_cmpuint (check_lanes (&th->nvtx_startend), ==, th->nvtx_startend.spans.n);
      if (th->pid != pid || th->tid != tid)
        continue;
      found = TRUE;
      /* the planted ranges and the iterations' batch ranges */
      g_assert_cmpuint (th->nvtx_startend.spans.n, ==,
                        json_object_get_int_member (planted, "ranges") + 3);
      g_assert_cmpuint (th->nvtx_startend.n_depths, ==, json_object_get_int_member (planted, "lanes"));
    }
  g_assert_true (found);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/lanes/planted", test_planted);
  g_test_add_func ("/analysis/lanes/random", test_random);
  g_test_add_func ("/analysis/lanes/generated", test_generated);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
