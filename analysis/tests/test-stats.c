/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-stats.c: the statistics, time parsing, filter and interval helpers
 * every analysis builds on, against naive computations. */
#include <math.h>
#include <string.h>

#include "sl-test-util.h"
#include "sl-band-select.h"

static void
test_select_nth (void)
{
  GRand *rand = g_rand_new_with_seed (42);

  for (int round = 0; round < 300; round++)
    {
      guint n = 1 + g_rand_int_range (rand, 0, round < 200 ? 60 : 5000);
      /* few distinct values half of the time: equal durations are common */
      gint32 spread = round % 2 ? 4 : 1000000;
      g_autoptr(GArray) sorted = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autofree gint64 *v = g_new (gint64, n);
      guint k = g_rand_int_range (rand, 0, n);

      for (guint i = 0; i < n; i++)
        {
          v[i] = g_rand_int_range (rand, -spread, spread);
          g_array_append_val (sorted, v[i]);
        }
      SlTestStats ignored;
      sl_test_stats (sorted, &ignored);
      g_assert_cmpint (sl_select_nth (v, n, k), ==, g_array_index (sorted, gint64, k));
    }
  g_rand_free (rand);
}

/* Keys with every kind of distribution: large counts (histogram passes),
 * small counts (collected), huge ranges, negative values, constants, one
 * value, two values, none; medians and percentiles against sorting. */
static void
test_stats_table (void)
{
  enum { N_KEYS = 9 };
  GRand *rand = g_rand_new_with_seed (7);
  SlStatsTable table;
  SlStats stats[N_KEYS];
  GArray *per_key[N_KEYS];
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  static const double ps[] = { 1, 50, 95, 99.9, 100 };
  guint req[N_KEYS][G_N_ELEMENTS (ps)];
  int passes = 0;

  for (guint k = 0; k < N_KEYS; k++)
    per_key[k] = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < 400000; i++)
    {
      guint k = g_rand_int_range (rand, 0, 5);
      gint64 v;
      switch (k)
        {
        case 0: v = g_rand_int_range (rand, 0, 100000); break;                          /* uniform, wide */
        case 1: v = G_GINT64_CONSTANT (5000000000) + g_rand_int_range (rand, 0, 7); break; /* huge, narrow */
        case 2: v = g_rand_int_range (rand, 0, 3) == 0 ? (gint64) g_rand_int (rand) << 16 /* days-long outliers */
                                                       : 1000 + g_rand_int_range (rand, 0, 50); break;
        case 3: v = -g_rand_int_range (rand, 0, 1000000); break;                         /* negative */
        default: v = 777; break;                                                          /* constant */
        }
      g_array_append_val (keys, k);
      g_array_append_val (values, v);
      g_array_append_val (per_key[k], v);
    }
  /* key 5: 1000 values (collected), 6: one, 7: two, 8: none */
  for (guint i = 0; i < 1003; i++)
    {
      guint k = i < 1000 ? 5 : i < 1001 ? 6 : 7;
      gint64 v = i < 1000 ? g_rand_int_range (rand, -50, 50) : (gint64) i * 3;
      g_array_append_val (keys, k);
      g_array_append_val (values, v);
      g_array_append_val (per_key[k], v);
    }

  sl_stats_table_init (&table, N_KEYS, TRUE);
  for (guint k = 0; k < N_KEYS; k++)
    for (gsize p = 0; p < G_N_ELEMENTS (ps); p++)
      req[k][p] = sl_stats_table_request (&table, k, ps[p]);
  while (sl_stats_table_pass (&table))
    {
      passes++;
      for (guint i = 0; i < keys->len; i++)
        sl_stats_table_visit (&table, g_array_index (keys, guint, i), g_array_index (values, gint64, i));
    }
  sl_stats_table_finish (&table, stats);
  /* one statistics pass and a handful of selection passes, not one per value */
  g_assert_cmpint (passes, >=, 2);
  g_assert_cmpint (passes, <=, 8);

  for (guint k = 0; k < N_KEYS; k++)
    {
      SlTestStats want;
      g_autofree char *what = g_strdup_printf ("key %u", k);
      GArray *sorted = per_key[k];
      sl_test_stats (sorted, &want);   /* sorts */
      sl_test_assert_stats (&stats[k], &want, what);
      for (gsize p = 0; p < G_N_ELEMENTS (ps) && sorted->len > 0; p++)
        {
          guint64 n = sorted->len, rank = (guint64) ceil (ps[p] / 100.0 * n - 1e-9);
          rank = CLAMP (rank, 1, n);
          g_assert_cmpint (sl_stats_table_get (&table, req[k][p]), ==, g_array_index (sorted, gint64, rank - 1));
        }
    }
  g_assert_cmpuint (stats[8].count, ==, 0);
  g_assert_cmpfloat (stats[4].stddev, ==, 0.0);
  /* key 1: values 5e9 + [0, 7): a naive sum-of-squares in doubles loses this */
  g_assert_cmpfloat (stats[1].stddev, >, 1.5);
  g_assert_cmpfloat (stats[1].stddev, <, 2.5);
  sl_stats_table_clear (&table);
  for (guint k = 0; k < N_KEYS; k++)
    g_array_unref (per_key[k]);
  g_rand_free (rand);
}

/* The bulk visitors against sorting: per-key arrays, one key at a time,
 * spans with lazily assigned name keys and long durations, a key whose
 * median window holds more values than are ever collected (histogram
 * passes), and even counts whose middles fall into different bins. */
static void
check_table (SlStatsTable *table, GArray **per_key, guint n_keys, const guint (*req)[3],
             const double *ps, const char *how)
{
  g_autofree SlStats *stats = g_new0 (SlStats, n_keys);

  sl_stats_table_finish (table, stats);
  for (guint k = 0; k < n_keys; k++)
    {
      g_autofree char *what = g_strdup_printf ("%s, key %u", how, k);
      g_autoptr(GArray) sorted = g_array_copy (per_key[k]);
      SlTestStats want;

      sl_test_stats (sorted, &want);
      sl_test_assert_stats (&stats[k], &want, what);
      for (guint p = 0; p < 3 && sorted->len > 0; p++)
        {
          guint64 n = sorted->len, rank = (guint64) ceil (ps[p] / 100.0 * n - 1e-9);
          rank = CLAMP (rank, 1, n);
          g_assert_cmpint (sl_stats_table_get (table, req[k][p]), ==, g_array_index (sorted, gint64, rank - 1));
        }
    }
}

/* The log-scale bin by its definition: exact below 64, else 64 bins per
 * power of two e >= 6, bin 64 + 64 (e - 6) + the 6 bits under the top one. */
static guint
naive_log_bin (guint64 off)
{
  guint e = 0;

  if (off < 64)
    return (guint) off;
  while (e < 63 && (off >> (e + 1)) != 0)
    e++;
  return 64 + (e - 6) * 64 + (guint) ((off >> (e - 6)) & 63);
}

static void
test_log_bin (void)
{
  GRand *rand = g_rand_new_with_seed (5);

  for (guint64 v = 0; v < 70000; v++)
    g_assert_cmpuint (_sl_log_bin (v), ==, naive_log_bin (v));
  for (guint e = 0; e < 64; e++)
    for (gint64 d = -70; d <= 70; d++)
      {
        guint64 v = (G_GUINT64_CONSTANT (1) << e) + (guint64) d;
        g_assert_cmpuint (_sl_log_bin (v), ==, naive_log_bin (v));
      }
  for (guint i = 0; i < 200000; i++)
    {
      guint64 v = ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >> (i % 64);
      g_assert_cmpuint (_sl_log_bin (v), ==, naive_log_bin (v));
    }
  g_rand_free (rand);
}

/* Runs of one key through the bulk route (sums in registers, a 32-bit
 * fast path when values and the key's first value fit) against the same
 * values one at a time: the same statistics and medians, bit for bit,
 * whether the first value, some runs or no run leave [0, 2^32). */
static void
test_stats_table_runs (void)
{
  enum { N_KEYS = 4, N = 20000, RUN = 300 };
  GRand *rand = g_rand_new_with_seed (21);
  g_autofree gint64 *values = g_new (gint64, N);
  g_autofree guint32 *keys = g_new (guint32, N);
  SlStatsTable bulk, single;
  SlStats a[N_KEYS], b[N_KEYS];

  for (guint i = 0; i < N; i++)
    {
      guint k = (i / RUN) % N_KEYS;
      gint64 v = g_rand_int_range (rand, 0, G_MAXINT32) * (gint64) 2 + g_rand_boolean (rand);

      if (k == 1 && i % 977 == 0)
        v += G_GINT64_CONSTANT (1) << 33;   /* a few runs leave 32 bits */
      if (k == 2 && i < 2 * N_KEYS * RUN)
        v = G_GINT64_CONSTANT (1) << 40;    /* the first value is large */
      if (k == 3 && i % 501 == 0)
        v = -v;
      keys[i] = k;
      values[i] = v;
    }
  sl_stats_table_init (&bulk, N_KEYS, TRUE);
  sl_stats_table_init (&single, N_KEYS, TRUE);
  while (sl_stats_table_pass (&bulk))
    for (guint i = 0; i < N; i += RUN)
      sl_stats_table_visit_values (&bulk, NULL, keys[i], values + i, MIN (RUN, N - i));
  while (sl_stats_table_pass (&single))
    for (guint i = 0; i < N; i++)
      sl_stats_table_visit (&single, keys[i], values[i]);
  sl_stats_table_finish (&bulk, a);
  sl_stats_table_finish (&single, b);
  for (guint k = 0; k < N_KEYS; k++)
    {
      g_assert_cmpuint (a[k].count, ==, b[k].count);
      g_assert_cmpint (a[k].total, ==, b[k].total);
      g_assert_cmpint (a[k].min, ==, b[k].min);
      g_assert_cmpint (a[k].max, ==, b[k].max);
      g_assert_true (memcmp (&a[k].avg, &b[k].avg, sizeof (double)) == 0);
      g_assert_true (memcmp (&a[k].median, &b[k].median, sizeof (double)) == 0);
      g_assert_true (memcmp (&a[k].stddev, &b[k].stddev, sizeof (double)) == 0);
    }
  sl_stats_table_clear (&bulk);
  sl_stats_table_clear (&single);
  g_rand_free (rand);
}

static void
test_stats_table_bulk (void)
{
  enum { N_KEYS = 6, N = 1500000, CHUNK = 777 };
  static const double ps[] = { 50, 95, 99 };
  GRand *rand = g_rand_new_with_seed (11);
  g_autofree guint32 *keys = g_new (guint32, N);
  g_autofree gint64 *values = g_new (gint64, N);
  GArray *per_key[N_KEYS];
  guint req[N_KEYS][3];
  SlStatsTable table;

  for (guint k = 0; k < N_KEYS; k++)
    per_key[k] = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < N; i++)
    {
      /* key 0 holds most values, in a window narrower than one log bin */
      guint k = i % 4 != 0 ? 0 : 1 + g_rand_int_range (rand, 0, N_KEYS - 1);
      gint64 v;

      switch (k)
        {
        case 0: v = 1000000 + g_rand_int_range (rand, 0, 3000); break;
        case 1: v = g_rand_int_range (rand, 0, 200000); break;
        case 2: v = g_rand_int_range (rand, -5000, 5000); break;        /* negative: no first-pass bins */
        case 3: v = g_rand_boolean (rand) ? 6399 : 6500; break;         /* two values, neighbouring bins */
        case 4: v = (gint64) g_rand_int (rand) << 12; break;            /* very long */
        default: v = 42; break;
        }
      keys[i] = k;
      values[i] = v;
      g_array_append_val (per_key[k], v);
    }
  /* key 3 with an even count, its middles 6399 and 6500: its last value goes to key 5 */
  if (per_key[3]->len % 2 == 1)
    {
      guint last = N;
      while (keys[--last] != 3)
        ;
      for (guint i = per_key[3]->len; i-- > 0;)
        if (g_array_index (per_key[3], gint64, i) == values[last])
          {
            g_array_remove_index (per_key[3], i);
            break;
          }
      keys[last] = 5;
      values[last] = 42;
      g_array_append_val (per_key[5], values[last]);
    }

  /* per-key arrays, in chunks */
  sl_stats_table_init (&table, N_KEYS, TRUE);
  for (guint k = 0; k < N_KEYS; k++)
    for (guint p = 0; p < 3; p++)
      req[k][p] = sl_stats_table_request (&table, k, ps[p]);
  while (sl_stats_table_pass (&table))
    for (gsize i = 0; i < N; i += CHUNK)
      sl_stats_table_visit_values (&table, keys + i, 0, values + i, MIN (CHUNK, N - i));
  check_table (&table, per_key, N_KEYS, (const guint (*)[3]) req, ps, "values");
  sl_stats_table_clear (&table);

  /* one key at a time */
  sl_stats_table_init (&table, N_KEYS, TRUE);
  for (guint k = 0; k < N_KEYS; k++)
    for (guint p = 0; p < 3; p++)
      req[k][p] = sl_stats_table_request (&table, k, ps[p]);
  while (sl_stats_table_pass (&table))
    for (guint k = 0; k < N_KEYS; k++)
      for (guint i = 0; i < per_key[k]->len; i += CHUNK)
        sl_stats_table_visit_values (&table, NULL, k, &g_array_index (per_key[k], gint64, i),
                                     MIN (CHUNK, per_key[k]->len - i));
  check_table (&table, per_key, N_KEYS, (const guint (*)[3]) req, ps, "one key");
  sl_stats_table_clear (&table);

  /* spans: non-negative durations, some of them long, named by string ids */
  {
    enum { N_IDS = 50 };
    SlSpans spans = { 0 };
    g_autofree guint32 *ids = g_new (guint32, N);
    g_autoptr(GArray) long_index = g_array_new (FALSE, FALSE, sizeof (guint32));
    g_autoptr(GArray) long_dur = g_array_new (FALSE, FALSE, sizeof (gint64));
    GArray *per_name[N_KEYS + 1];   /* key 5 under two ids */
    SlNameKeys names;
    g_autofree SlStats *stats = NULL;

    for (guint k = 0; k <= N_KEYS; k++)
      per_name[k] = g_array_new (FALSE, FALSE, sizeof (gint64));
    spans.n = N;
    spans.dur = g_new (guint32, N);
    for (guint i = 0; i < N; i++)
      {
        /* keys 0..5 as string ids 40..45, and ids past the table (the spare slot) */
        gint64 v = values[i] < 0 ? -values[i] : values[i];
        ids[i] = keys[i] == 5 && (i / 4) % 2 ? 1000 + i : 40 + keys[i];
        if (v >= SL_LONG_DUR)
          {
            guint32 at = i;
            g_array_append_val (long_index, at);
            g_array_append_val (long_dur, v);
            spans.dur[i] = SL_LONG_DUR;
          }
        else
          spans.dur[i] = (guint32) v;
      }
    spans.n_long = long_index->len;
    spans.long_index = (guint32 *) long_index->data;
    spans.long_dur = (gint64 *) long_dur->data;

    sl_name_keys_init (&names, N_IDS);
    sl_stats_table_init (&table, 1, TRUE);
    while (sl_stats_table_pass (&table))
      for (guint i = 0; i < N; i += CHUNK)
        sl_stats_table_visit_spans (&table, &spans, i, MIN (i + CHUNK, N), ids, names.key_of,
                                    names.n_ids, &names);
    /* the truth per key in the order names were met */
    for (guint i = 0; i < N; i++)
      {
        guint32 id = MIN (ids[i], names.n_ids - 1);
        gint64 v = sl_spans_dur (&spans, i);
        g_array_append_val (per_name[names.key_of[id]], v);
      }
    g_assert_cmpuint (names.ids->len, ==, N_KEYS + 1);
    stats = g_new0 (SlStats, table.n_keys);
    sl_stats_table_finish (&table, stats);
    for (guint k = 0; k < names.ids->len; k++)
      {
        g_autofree char *what = g_strdup_printf ("spans, key %u", k);
        SlTestStats want;
        sl_test_stats (per_name[k], &want);
        sl_test_assert_stats (&stats[k], &want, what);
      }
    sl_stats_table_clear (&table);
    sl_name_keys_clear (&names);
    g_free (spans.dur);
    for (guint k = 0; k <= N_KEYS; k++)
      g_array_unref (per_name[k]);
  }

  for (guint k = 0; k < N_KEYS; k++)
    g_array_unref (per_key[k]);
  g_rand_free (rand);
}

static void
test_median_even (void)
{
  gint64 v[] = { 10, 1, 4, 7 };
  SlStats s;

  sl_stats_compute (v, 4, &s);
  g_assert_cmpfloat (s.median, ==, 5.5);
  g_assert_cmpint (sl_round_ns (s.median), ==, 6);
  g_assert_cmpfloat (s.avg, ==, 5.5);
  /* sample stddev of 1, 4, 7, 10 = sqrt(15) */
  g_assert_cmpfloat (fabs (s.stddev - sqrt (15.0)), <, 1e-12);
}

/* Issue 10: durations of nearly 2^63 ns.  Their sum does not fit: the total
 * saturates, the mean stays exact (128-bit sums), the standard deviation
 * counts its sum of squares past 2^128, and the same through a table. */
static void
test_stats_huge (void)
{
  const gint64 big = G_MAXINT64 - 4;
  gint64 v[] = { big, 2, big, big, 6 }, w[G_N_ELEMENTS (v)];
  /* mean (3 big + 8) / 5; the deviations are +-(2/5) big, +-(3/5) big */
  double mean = (3.0 * (double) big + 8.0) / 5.0;
  double sd = sqrt ((3 * pow ((double) big - mean, 2) + pow (2 - mean, 2) + pow (6 - mean, 2)) / 4);
  SlStatsTable table;
  SlStats s, t;

  memcpy (w, v, sizeof v);
  sl_stats_compute (w, G_N_ELEMENTS (w), &s);
  g_assert_cmpint (s.total, ==, G_MAXINT64);
  g_assert_cmpint (s.count, ==, 5);
  g_assert_cmpint (s.min, ==, 2);
  g_assert_cmpint (s.max, ==, big);
  g_assert_cmpfloat (fabs (s.avg - mean) / mean, <, 1e-15);
  g_assert_cmpfloat (fabs (s.stddev - sd) / sd, <, 1e-12);
  g_assert_cmpint (sl_round_ns (s.avg), ==, sl_round_ns (mean));
  g_assert_cmpint (sl_round_ns (1e19), ==, G_MAXINT64);
  g_assert_cmpint (sl_round_ns (-1e19), ==, G_MININT64);
  g_assert_cmpint (sl_round_ns (NAN), ==, 0);

  sl_stats_table_init (&table, 1, TRUE);
  while (sl_stats_table_pass (&table))
    for (guint i = 0; i < G_N_ELEMENTS (v); i++)
      sl_stats_table_visit (&table, 0, v[i]);
  sl_stats_table_finish (&table, &t);
  sl_stats_table_clear (&table);
  g_assert_cmpint (t.total, ==, G_MAXINT64);
  g_assert_cmpfloat (t.avg, ==, s.avg);
  g_assert_cmpfloat (t.stddev, ==, s.stddev);
  g_assert_cmpfloat (t.median, ==, (double) big);
}

static void
test_parse_time (void)
{
  static const struct { const char *text; gint64 ns; } good[] = {
    { "0", 0 }, { "12345", 12345 }, { "17ns", 17 }, { "1.5us", 1500 }, { "2µs", 2000 },
    { "39.98s", G_GINT64_CONSTANT (39980000000) }, { "40.5s", G_GINT64_CONSTANT (40500000000) },
    { "0.000000001s", 1 }, { "1.2345678919s", G_GINT64_CONSTANT (1234567891) }, { "3ms", 3000000 },
    { " 7 ms", 7000000 }, { "-2us", -2000 }, { ".5s", 500000000 },
    /* exponent forms are nanoseconds unless a unit follows */
    { "1e9", G_GINT64_CONSTANT (1000000000) }, { "2E9", G_GINT64_CONSTANT (2000000000) },
    { "1.5e9", G_GINT64_CONSTANT (1500000000) }, { "1e-3s", 1000000 }, { "2.5e3us", 2500000 },
  };
  /* a bare fraction has no unit: "2.9" is not silently 2 ns */
  static const char *bad[] = { "", "s", "1.2.3", "12 parsecs", "abc", "1s2", "99999999999999999999",
                               "2.9", "3.3", "1.0", "1.23456e2", "1e-3", "1e", "1e99", "e9" };

  for (gsize i = 0; i < G_N_ELEMENTS (good); i++)
    {
      gint64 ns = -42;
      g_autoptr(GError) error = NULL;
      g_assert_true (sl_parse_time (good[i].text, &ns, &error));
      g_assert_no_error (error);
      g_assert_cmpint (ns, ==, good[i].ns);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      gint64 ns;
      g_autoptr(GError) error = NULL;
      g_assert_false (sl_parse_time (bad[i], &ns, &error));
      g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
    }
}

static void
test_filter_bounds (void)
{
  gint64 start[] = { 10, 20, 20, 30, 40 };
  guint32 dur[] = { 5, 5, 5, 5, 5 };
  SlSpans spans = { 5, start, dur, 0, NULL, NULL };
  g_autoptr(SlFilter) filter = sl_filter_new ();
  guint first, last;

  sl_filter_span_bounds (NULL, &spans, 0, 5, &first, &last);
  g_assert_cmpuint (first, ==, 0);
  g_assert_cmpuint (last, ==, 5);
  /* [20, 40): starts 20, 20, 30 */
  sl_filter_set_range (filter, 20, 40);
  sl_filter_span_bounds (filter, &spans, 0, 5, &first, &last);
  g_assert_cmpuint (first, ==, 1);
  g_assert_cmpuint (last, ==, 4);
  g_assert_true (sl_filter_match_time (filter, 20));
  g_assert_false (sl_filter_match_time (filter, 40));
  /* a sub-slice */
  sl_filter_span_bounds (filter, &spans, 2, 5, &first, &last);
  g_assert_cmpuint (first, ==, 2);
  g_assert_cmpuint (last, ==, 4);
  sl_filter_add_gpu (filter, 3);
  g_assert_true (sl_filter_match_device (filter, 3));
  g_assert_false (sl_filter_match_device (filter, 0));
  g_assert_true (sl_filter_match_pid (filter, 99));
}

/* The merge yields every event once in start order; the union length
 * matches a brute-force count over a small time grid. */
static void
test_merge_union (void)
{
  GRand *rand = g_rand_new_with_seed (3);

  for (int round = 0; round < 50; round++)
    {
      guint n_src = 1 + g_rand_int_range (rand, 0, 6), total = 0;
      gint64 *starts[6];
      guint32 *durs[6];
      SlSpans spans[6];
      SlMerge merge;
      SlUnion u;
      guint tag, index, seen = 0;
      const SlSpans *sp;
      gint64 last = G_MININT64;
      g_autofree guint8 *covered = g_new0 (guint8, 2000);
      gint64 brute = 0;

      for (guint s = 0; s < n_src; s++)
        {
          guint n = g_rand_int_range (rand, 0, 40);
          gint64 t = g_rand_int_range (rand, 0, 100);
          starts[s] = g_new (gint64, MAX (n, 1));
          durs[s] = g_new (guint32, MAX (n, 1));
          for (guint i = 0; i < n; i++)
            {
              t += g_rand_int_range (rand, 0, 30);
              starts[s][i] = t;
              durs[s][i] = g_rand_int_range (rand, 0, 25);
              for (gint64 x = t; x < t + durs[s][i]; x++)
                covered[x] = 1;
            }
          spans[s] = (SlSpans) { n, starts[s], durs[s], 0, NULL, NULL };
          total += n;
        }
      sl_merge_init (&merge);
      for (guint s = 0; s < n_src; s++)
        sl_merge_add (&merge, &spans[s], 0, spans[s].n, s);
      sl_merge_start (&merge);
      sl_union_init (&u);
      while (sl_merge_next (&merge, &tag, &sp, &index))
        {
          g_assert_true (sp == &spans[tag]);
          g_assert_cmpint (sp->start[index], >=, last);
          last = sp->start[index];
          sl_union_add (&u, sp->start[index], sl_spans_end (sp, index));
          seen++;
        }
      sl_merge_clear (&merge);
      g_assert_cmpuint (seen, ==, total);
      for (guint x = 0; x < 2000; x++)
        brute += covered[x];
      g_assert_cmpint (sl_union_total (&u), ==, brute);
      for (guint s = 0; s < n_src; s++)
        {
          g_free (starts[s]);
          g_free (durs[s]);
        }
    }
  g_rand_free (rand);
}

/* sl_merge_next_run yields the events in exactly the order of
 * sl_merge_next (ties included), with few sources (scan) and many (heap). */
static void
test_merge_runs (void)
{
  GRand *rand = g_rand_new_with_seed (5);

  for (int round = 0; round < 200; round++)
    {
      enum { MAX_SRC = 20 };
      guint n_src = 1 + g_rand_int_range (rand, 0, round % 2 ? 6 : MAX_SRC);
      gint64 *starts[MAX_SRC];
      guint32 *durs[MAX_SRC];
      SlSpans spans[MAX_SRC];
      SlMerge one, runs;
      guint tag, index, first, last, pos = 0;
      const SlSpans *sp;
      g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint64));

      for (guint s = 0; s < n_src; s++)
        {
          guint n = g_rand_int_range (rand, 0, 60);
          gint64 t = g_rand_int_range (rand, 0, 20);
          starts[s] = g_new (gint64, MAX (n, 1));
          durs[s] = g_new0 (guint32, MAX (n, 1));
          for (guint i = 0; i < n; i++)
            {
              /* equal starts within and across sources, and long stretches */
              t += g_rand_int_range (rand, 0, 3) == 0 ? 0 : g_rand_int_range (rand, 0, 12);
              starts[s][i] = t;
            }
          spans[s] = (SlSpans) { n, starts[s], durs[s], 0, NULL, NULL };
        }
      sl_merge_init (&one);
      sl_merge_init (&runs);
      for (guint s = 0; s < n_src; s++)
        {
          /* a slice, not always from 0 */
          guint from = spans[s].n > 3 && s % 3 == 0 ? 2 : 0;
          sl_merge_add (&one, &spans[s], from, spans[s].n, 100 + s);
          sl_merge_add (&runs, &spans[s], from, spans[s].n, 100 + s);
        }
      sl_merge_start (&one);
      sl_merge_start (&runs);
      while (sl_merge_next (&one, &tag, &sp, &index))
        {
          guint64 x = ((guint64) tag << 32) | index;
          g_array_append_val (order, x);
        }
      while (sl_merge_next_run (&runs, &tag, &sp, &first, &last))
        {
          g_assert_cmpuint (first, <, last);
          g_assert_true (sp == &spans[tag - 100]);
          for (guint i = first; i < last; i++, pos++)
            {
              g_assert_cmpuint (pos, <, order->len);
              g_assert_cmpuint (g_array_index (order, guint64, pos), ==, ((guint64) tag << 32) | i);
            }
        }
      g_assert_cmpuint (pos, ==, order->len);
      sl_merge_clear (&one);
      sl_merge_clear (&runs);
      for (guint s = 0; s < n_src; s++)
        {
          g_free (starts[s]);
          g_free (durs[s]);
        }
    }
  g_rand_free (rand);
}

static void
test_name_keys (void)
{
  SlNameKeys keys;

  sl_name_keys_init (&keys, 10);
  g_assert_cmpuint (sl_name_keys_get (&keys, 7), ==, 0);
  g_assert_cmpuint (sl_name_keys_get (&keys, 3), ==, 1);
  g_assert_cmpuint (sl_name_keys_get (&keys, 7), ==, 0);
  /* SL_NONE and ids past the table share the spare slot */
  g_assert_cmpuint (sl_name_keys_get (&keys, SL_NONE), ==, 2);
  g_assert_cmpuint (sl_name_keys_get (&keys, 12345), ==, 2);
  g_assert_cmpuint (keys.ids->len, ==, 3);
  sl_name_keys_clear (&keys);
}

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

/* Exact percentiles from a sampled band: whatever the sample, the answer
 * is the sorted values' nearest rank, or FALSE (never a wrong value); a
 * sample of every 16th value finds it; a sample of other values (or
 * none) does not, or keeps everything. */
static void
test_band_select (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (int round = 0; round < 200; round++)
    {
      guint n = g_rand_int_range (rand, 0, round < 100 ? 300 : 40000);
      gint32 spread = round % 3 == 0 ? 3 : 1000000;
      gint64 shift = round % 4 == 1 ? 5000000 : 0;   /* a sample unlike the values */
      double p = round % 2 ? 95.0 : 50.0;
      g_autofree gint64 *v = g_new (gint64, MAX (n, 1));
      SlBandSample sample = { 0 };
      SlBandSelect b;
      gint64 got, want;

      for (guint i = 0; i < n; i++)
        {
          v[i] = g_rand_int_range (rand, -spread, spread);
          if (i % 16 == 0 && round % 5 != 4)
            sl_band_sample_add (&sample, v[i] + shift);
        }
      sl_band_select_init (&b, 1, p, &sample);
      for (guint i = 0; i < n; i++)
        sl_band_key_add (&b.keys[0], v[i]);
      g_assert_cmpuint (b.keys[0].count, ==, n);
      if (sl_band_select_get (&b, 0, &got))
        {
          qsort (v, n, sizeof (gint64), compare_gint64);
          want = n > 0 ? v[sl_percentile_rank (n, p)] : 0;
          g_assert_cmpint (got, ==, want);
        }
      else
        g_assert_cmpint (shift, !=, 0);   /* a fair sample always holds it */
      sl_band_select_clear (&b);
    }
  g_rand_free (rand);
}

/* The same with bands of many values (their percentile is found from a
 * histogram of them, not by quickselect): values clustered, spread, and
 * spread over the whole of gint64; bands reserved from the sample. */
static void
test_band_select_large (void)
{
  GRand *rand = g_rand_new_with_seed (11);

  for (int round = 0; round < 12; round++)
    {
      guint n = g_rand_int_range (rand, 100000, 400000);
      double p = round % 2 ? 95.0 : 50.0;
      g_autofree gint64 *v = g_new (gint64, n);
      SlBandSample sample = { 0 };
      SlBandSelect b;
      gint64 got;

      for (guint i = 0; i < n; i++)
        {
          if (round % 3 == 0)
            v[i] = g_rand_int_range (rand, -3, 3);                        /* a few values */
          else if (round % 3 == 1)
            v[i] = g_rand_int_range (rand, 0, 1000000) * (gint64) 1000;   /* spread */
          else
            v[i] = (gint64) (((guint64) g_rand_int (rand) << 32) | g_rand_int (rand));   /* all of gint64 */
          if (round >= 6 && g_rand_int_range (rand, 0, 50) == 0)
            v[i] = round % 2 ? G_MAXINT64 : G_MININT64;                    /* the extremes too */
          if (i % 16 == 0)
            sl_band_sample_add (&sample, v[i]);
        }
      sl_band_select_init (&b, 1, p, &sample);
      sl_band_select_reserve (&b, 16);
      for (guint i = 0; i < n; i++)
        sl_band_key_add (&b.keys[0], v[i]);
      g_assert_true (sl_band_select_get (&b, 0, &got));   /* a fair sample holds it */
      qsort (v, n, sizeof (gint64), compare_gint64);
      g_assert_cmpint (got, ==, v[sl_percentile_rank (n, p)]);
      sl_band_select_clear (&b);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/stats/select-nth", test_select_nth);
  g_test_add_func ("/analysis/stats/table", test_stats_table);
  g_test_add_func ("/analysis/stats/table-bulk", test_stats_table_bulk);
  g_test_add_func ("/analysis/stats/log-bin", test_log_bin);
  g_test_add_func ("/analysis/stats/table-runs", test_stats_table_runs);
  g_test_add_func ("/analysis/stats/median-even", test_median_even);
  g_test_add_func ("/analysis/stats/huge", test_stats_huge);
  g_test_add_func ("/analysis/filter/parse-time", test_parse_time);
  g_test_add_func ("/analysis/filter/bounds", test_filter_bounds);
  g_test_add_func ("/analysis/intervals/merge-union", test_merge_union);
  g_test_add_func ("/analysis/intervals/merge-runs", test_merge_runs);
  g_test_add_func ("/analysis/stats/name-keys", test_name_keys);
  g_test_add_func ("/analysis/stats/band-select", test_band_select);
  g_test_add_func ("/analysis/stats/band-select-large", test_band_select_large);
  return g_test_run ();
}
