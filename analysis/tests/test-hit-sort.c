/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-hit-sort.c: the search's sort of its hits (by start, kind, owner and
 * index), in one pass of buckets for small sets and two (coarse, then fine
 * in cache) for millions, against qsort with the same order: spread
 * times, bursts on one instant, ties, times at both ends of gint64. */
#include <stdlib.h>

#include "sightline.h"

static int
by_order (const void *pa, const void *pb)
{
  const SlNameHit *a = pa, *b = pb;

  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->owner != b->owner)
    return a->owner < b->owner ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

/* @n hits, @runs interleaved sorted runs (as streams come), times from
 * @t0 spread over @span, one in @burst_every on a single instant. */
static SlNameHit *
make_hits (guint n, guint runs, gint64 t0, guint64 span, guint burst_every, GRand *rand)
{
  SlNameHit *v = g_new (SlNameHit, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      guint run = i % runs;
      guint64 at = burst_every && i % burst_every == 0 ? span / 2
                   : (guint64) ((double) (i / runs) / (n / runs + 1) * (double) span)
                     + (guint64) g_rand_int_range (rand, 0, 1000);

      v[i] = (SlNameHit) { (gint64) ((guint64) t0 + MIN (at, span)), run, i, run % 7, (guint32) (i % 3) };
    }
  return v;
}

static void
check (guint n, guint runs, gint64 t0, guint64 span, guint burst_every)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (n ^ runs);
  g_autofree SlNameHit *in = make_hits (n, runs, t0, span, burst_every, rand);
  g_autofree SlNameHit *want = g_memdup2 (in, (gsize) MAX (n, 1) * sizeof *in);
  g_autofree SlNameHit *scratch = g_new (SlNameHit, MAX (n, 1));
  gint64 tmin = G_MAXINT64, tmax = G_MININT64;

  for (guint i = 0; i < n; i++)
    {
      tmin = MIN (tmin, in[i].start);
      tmax = MAX (tmax, in[i].start);
    }
  qsort (want, n, sizeof *want, by_order);
  _sl_name_hits_sort (in, n, tmin, tmax, scratch);
  g_assert_cmpmem (in, (gsize) n * sizeof *in, want, (gsize) n * sizeof *want);
}

static void
test_small (void)
{
  check (0, 1, 0, 1, 0);
  check (1, 1, 5, 1, 0);
  check (1000, 4, 1000, 1000000, 0);
  check (100000, 32, 123456789, 50000000000ull, 0);
  check (100000, 3, 0, 10, 0);              /* a hundred thousand on ten instants */
}

static void
test_millions (void)
{
  /* the two-pass path: 2^20 buckets or more */
  check (2500000, 32, 1700000000000000000, 54000000000ull, 0);
  check (2500000, 40, 0, 54000000000ull, 5);          /* a fifth of them on one instant */
  check (2200000, 8, G_MININT64 + 1, G_MAXUINT64 - 2, 0);   /* all of gint64 */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/hit-sort/small", test_small);
  g_test_add_func ("/analysis/hit-sort/millions", test_millions);
  return g_test_run ();
}
