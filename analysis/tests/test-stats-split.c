/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-stats-split.c: statistics passes visited in two parts at once
 * (sl-stats-split.c) and the merge of two keys' sums, against sorting. */
#include <math.h>
#include <string.h>

#include "sl-test-util.h"
#include "sl-stats-split.h"

enum { N_IDS = 24, N_RANGES = 3 };

static const double percentiles[] = { 50, 95, 99 };

/* Spans named by string ids, cut into ranges as streams would be. */
typedef struct {
  SlSpans     spans;
  guint32    *ids;
  guint       first[N_RANGES], last[N_RANGES];
  guint64     total;
  SlNameKeys  names;
  guint       most_parts[3];    /* per phase (1, 2, later): the most parts a pass was visited in */
} Fixture;

static void
visit_part (SlStatsTable *table, guint part, guint n_parts, gpointer data)
{
  Fixture *f = data;
  guint64 before = 0;

  f->most_parts[MIN (table->phase, 3) - 1] = MAX (f->most_parts[MIN (table->phase, 3) - 1], n_parts);
  for (guint r = 0; r < N_RANGES; r++)
    {
      guint first = f->first[r], last = f->last[r];

      if (sl_stats_part_clip (before, f->total, part, n_parts, &first, &last))
        sl_stats_table_visit_spans (table, &f->spans, first, last, f->ids, f->names.key_of, f->names.n_ids,
                                    NULL);
      before += f->last[r] - f->first[r];
    }
}

/* A duration of id @id: each id its own distribution, some near 2^32 (the
 * squares of the first pass's small sums at their largest), one constant,
 * one in two values; with @long_ones also a few of 2^32 ns or more. */
static gint64
duration_of (GRand *rand, guint id, gboolean long_ones)
{
  switch (id % 6)
    {
    case 0: return g_rand_int_range (rand, 1000, 200000);
    case 1: return G_GINT64_CONSTANT (4294967000) + g_rand_int_range (rand, 0, 200);
    case 2: return 777;
    case 3: return g_rand_boolean (rand) ? 6399 : 6500;
    case 4: return long_ones && g_rand_int_range (rand, 0, 1000) == 0 ? (gint64) g_rand_int (rand) << 20
                                                                     : g_rand_int_range (rand, 0, 50);
    default: return (gint64) g_rand_int (rand) >> g_rand_int_range (rand, 0, 31);
    }
}

/* @n spans, the names alternating at random (as a stream's kernels do),
 * their truth per key in @per_key (keys given to every id up front, by
 * sl_name_keys_add_ids in id order). */
static void
fixture_init (Fixture *f, guint n, gboolean long_ones, guint32 seed, GArray **per_key)
{
  GRand *rand = g_rand_new_with_seed (seed);
  GArray *long_index = g_array_new (FALSE, FALSE, sizeof (guint32));
  GArray *long_dur = g_array_new (FALSE, FALSE, sizeof (gint64));

  memset (f, 0, sizeof *f);
  f->spans.n = n;
  f->spans.dur = g_new (guint32, n);
  f->ids = g_new (guint32, n);
  for (guint i = 0; i < n; i++)
    {
      guint id = g_rand_int_range (rand, 0, N_IDS);
      gint64 v = duration_of (rand, id, long_ones);

      f->ids[i] = id;
      if (v >= SL_LONG_DUR)
        {
          g_array_append_val (long_index, i);
          g_array_append_val (long_dur, v);
          f->spans.dur[i] = SL_LONG_DUR;
        }
      else
        f->spans.dur[i] = (guint32) v;
    }
  f->spans.n_long = long_index->len;
  f->spans.long_index = (guint32 *) g_array_free (long_index, FALSE);
  f->spans.long_dur = (gint64 *) g_array_free (long_dur, FALSE);
  /* ranges of unequal lengths, so that a part's share starts inside one */
  f->first[0] = 0;
  f->last[0] = f->first[1] = n / 7;
  f->last[1] = f->first[2] = n / 2 + 13;
  f->last[2] = n;
  f->total = n;

  sl_name_keys_init (&f->names, N_IDS);
  sl_name_keys_add_ids (&f->names, f->ids, n);
  g_assert_cmpuint (f->names.ids->len, ==, N_IDS);
  for (guint k = 0; k < N_IDS; k++)
    per_key[k] = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < n; i++)
    {
      gint64 v = sl_spans_dur (&f->spans, i);
      g_array_append_val (per_key[f->names.key_of[f->ids[i]]], v);
    }
  g_rand_free (rand);
}

static void
fixture_clear (Fixture *f)
{
  g_free (f->spans.dur);
  g_free (f->spans.long_index);
  g_free (f->spans.long_dur);
  g_free (f->ids);
  sl_name_keys_clear (&f->names);
}

static void
check_split (guint n, gboolean long_ones, gboolean medians, gboolean requests)
{
  Fixture f;
  GArray *per_key[N_IDS];
  guint req[N_IDS][G_N_ELEMENTS (percentiles)];
  SlStatsTable table;
  SlStats stats[N_IDS];

  fixture_init (&f, n, long_ones, 3 + n + long_ones, per_key);
  if (medians)
    sl_stats_table_init (&table, N_IDS, TRUE);
  else
    sl_stats_table_init_sums (&table, N_IDS);
  for (guint k = 0; k < N_IDS && requests; k++)
    for (guint p = 0; p < G_N_ELEMENTS (percentiles); p++)
      req[k][p] = sl_stats_table_request (&table, k, percentiles[p]);
  while (sl_stats_table_pass (&table))
    sl_stats_table_visit_split (&table, f.total, visit_part, &f);
  sl_stats_table_finish (&table, stats);

  for (guint k = 0; k < N_IDS; k++)
    {
      g_autofree char *what = g_strdup_printf ("%u spans%s, key %u", n, long_ones ? " (some long)" : "", k);
      GArray *sorted = per_key[k];
      SlTestStats want;

      sl_test_stats (sorted, &want);   /* sorts */
      if (!medians)
        want.median = 0;
      sl_test_assert_stats (&stats[k], &want, what);
      for (guint p = 0; p < G_N_ELEMENTS (percentiles) && requests && sorted->len > 0; p++)
        {
          guint64 rank = CLAMP ((guint64) ceil (percentiles[p] / 100.0 * sorted->len - 1e-9), 1, sorted->len);
          g_assert_cmpint (sl_stats_table_get (&table, req[k][p]), ==, g_array_index (sorted, gint64, rank - 1));
        }
      g_array_unref (sorted);
    }
  /* on two cores, large passes go in two parts: the sums, and the
   * collection of the median windows (when each key has one window: a
   * percentile asked besides the median makes several) */
  if (sl_analysis_threads () > 1 && n >= 1000000)
    {
      g_assert_cmpuint (f.most_parts[0], ==, 2);
      if (medians && !requests)   /* after a histogram pass or not */
        g_assert_cmpuint (MAX (f.most_parts[1], f.most_parts[2]), ==, 2);
    }
  if (n < 1000)
    g_assert_cmpuint (f.most_parts[0], ==, 1);
  sl_stats_table_clear (&table);
  fixture_clear (&f);
}

static void
test_split_small (void)
{
  check_split (500, FALSE, TRUE, TRUE);
}

static void
test_split_large (void)
{
  check_split (1200000, FALSE, TRUE, FALSE);
  check_split (1200000, FALSE, TRUE, TRUE);
  check_split (1200000, FALSE, FALSE, FALSE);
}

static void
test_split_long (void)
{
  check_split (1100000, TRUE, TRUE, FALSE);
  check_split (1100000, TRUE, TRUE, TRUE);
}

/* Sums over @v[0, n) through a one-key table's first pass. */
static SlStatsAcc
acc_of (const gint64 *v, gsize n)
{
  SlStatsTable table;
  SlStatsAcc acc;

  sl_stats_table_init_sums (&table, 1);
  sl_stats_table_pass (&table);
  sl_stats_table_visit_values (&table, NULL, 0, v, n);
  acc = table.acc[0];
  sl_stats_table_clear (&table);
  return acc;
}

static void
assert_merge (const gint64 *v, gsize n, gsize cut, const char *what)
{
  SlStatsAcc a = acc_of (v, cut), b = acc_of (v + cut, n - cut);
  SlStatsTable table;
  SlStats got, want;
  g_autofree gint64 *copy = g_memdup2 (v, n * sizeof (gint64));

  _sl_stats_acc_merge (&a, &b);
  sl_stats_table_init_sums (&table, 1);
  table.acc[0] = a;
  sl_stats_table_finish (&table, &got);
  sl_stats_table_clear (&table);
  sl_stats_compute (copy, n, &want);
  g_test_message ("%s: stddev %.17g, want %.17g", what, got.stddev, want.stddev);
  g_assert_cmpuint (got.count, ==, want.count);
  g_assert_cmpint (got.total, ==, want.total);
  g_assert_cmpint (got.min, ==, want.min);
  g_assert_cmpint (got.max, ==, want.max);
  g_assert_cmpfloat (got.avg, ==, want.avg);
  if (want.stddev == 0)
    g_assert_cmpfloat (got.stddev, ==, 0);
  else
    g_assert_cmpfloat (fabs (got.stddev - want.stddev) / want.stddev, <, 1e-12);
}

/* Two keys' sums with different references (each key's first value) merge
 * into exactly the sums of all the values: negative values, values far
 * from the references, sums of squares past 2^128, one side empty. */
static void
test_acc_merge (void)
{
  const gint64 big = G_MAXINT64 - 4;
  gint64 huge[] = { big, 2, big, big, 6 };
  gint64 mixed[] = { 5000000000, -3, 17, 5000000007, 1, -900000, 42, 42, 5000000001 };
  gint64 close[] = { 1000000, 1000001, 1000003, 999999, 1000002, 1000000 };
  GRand *rand = g_rand_new_with_seed (5);
  g_autofree gint64 *wide = g_new (gint64, 10000);

  for (gsize cut = 0; cut <= G_N_ELEMENTS (huge); cut++)
    assert_merge (huge, G_N_ELEMENTS (huge), cut, "huge");
  for (gsize cut = 0; cut <= G_N_ELEMENTS (mixed); cut++)
    assert_merge (mixed, G_N_ELEMENTS (mixed), cut, "mixed");
  for (gsize cut = 0; cut <= G_N_ELEMENTS (close); cut++)
    assert_merge (close, G_N_ELEMENTS (close), cut, "close");
  for (guint i = 0; i < 10000; i++)
    wide[i] = ((gint64) g_rand_int (rand) << 20) - ((gint64) 1 << 50);
  assert_merge (wide, 10000, 1, "wide, one first");
  assert_merge (wide, 10000, 6000, "wide");
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/stats-split/small", test_split_small);
  g_test_add_func ("/analysis/stats-split/large", test_split_large);
  g_test_add_func ("/analysis/stats-split/long", test_split_long);
  g_test_add_func ("/analysis/stats-split/acc-merge", test_acc_merge);
  return g_test_run ();
}
