/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-stats.c: per-key duration statistics with exact sums and medians. */
#include "sl-stats.h"

#include <math.h>
#include <string.h>

void
sl_stats_table_init (SlStatsTable *table, guint n_keys)
{
  memset (table, 0, sizeof *table);
  sl_stats_table_grow (table, n_keys);
}

void
sl_stats_table_grow (SlStatsTable *table, guint n_keys)
{
  guint old = table->n_keys;

  if (n_keys <= old)
    return;
  table->count = g_renew (guint64, table->count, n_keys);
  table->total = g_renew (gint64, table->total, n_keys);
  table->min = g_renew (gint64, table->min, n_keys);
  table->max = g_renew (gint64, table->max, n_keys);
  table->sumsq = g_renew (__int128, table->sumsq, n_keys);
  memset (table->count + old, 0, (n_keys - old) * sizeof (guint64));
  memset (table->total + old, 0, (n_keys - old) * sizeof (gint64));
  memset (table->min + old, 0, (n_keys - old) * sizeof (gint64));
  memset (table->max + old, 0, (n_keys - old) * sizeof (gint64));
  memset (table->sumsq + old, 0, (n_keys - old) * sizeof (__int128));
  table->n_keys = n_keys;
}

void
sl_stats_table_clear (SlStatsTable *table)
{
  g_free (table->count);
  g_free (table->total);
  g_free (table->min);
  g_free (table->max);
  g_free (table->sumsq);
  g_free (table->values);
  g_free (table->offset);
  g_free (table->fill);
  memset (table, 0, sizeof *table);
}

void
sl_stats_table_begin_values (SlStatsTable *table)
{
  guint64 sum = 0;

  table->offset = g_new (guint64, table->n_keys + 1);
  table->fill = g_new (guint64, table->n_keys + 1);
  for (guint k = 0; k < table->n_keys; k++)
    {
      table->offset[k] = table->fill[k] = sum;
      sum += table->count[k];
    }
  table->offset[table->n_keys] = table->fill[table->n_keys] = sum;
  table->values = g_new (gint64, MAX (sum, 1));
}

static inline void
swap64 (gint64 *a, gint64 *b)
{
  gint64 t = *a;
  *a = *b;
  *b = t;
}

static void
insertion_sort (gint64 *v, gsize n)
{
  for (gsize i = 1; i < n; i++)
    {
      gint64 x = v[i];
      gsize j = i;
      while (j > 0 && v[j - 1] > x)
        {
          v[j] = v[j - 1];
          j--;
        }
      v[j] = x;
    }
}

/* Quickselect with median-of-three pivots and a Hoare partition: equal values
 * (very common: kernels of identical duration) split evenly, so it stays linear. */
gint64
sl_select_nth (gint64 *v, gsize n, gsize k)
{
  gsize lo = 0, hi = n;   /* the answer is in v[lo, hi) */

  g_return_val_if_fail (k < n, 0);
  while (hi - lo > 16)
    {
      gsize mid = lo + (hi - lo) / 2;
      gint64 pivot;
      gsize i, j;

      if (v[mid] < v[lo])
        swap64 (&v[mid], &v[lo]);
      if (v[hi - 1] < v[lo])
        swap64 (&v[hi - 1], &v[lo]);
      if (v[hi - 1] < v[mid])
        swap64 (&v[hi - 1], &v[mid]);
      pivot = v[mid];

      i = lo;
      j = hi - 1;
      for (;;)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i >= j)
            break;
          swap64 (&v[i], &v[j]);
          i++;
          j--;
        }
      /* v[lo, j] <= pivot <= v[j + 1, hi) */
      if (k <= j)
        hi = j + 1;
      else
        lo = j + 1;
    }
  insertion_sort (v + lo, hi - lo);
  return v[k];
}

static double
median_of (gint64 *v, gsize n)
{
  gint64 a, b;

  if (n == 0)
    return 0;
  a = sl_select_nth (v, n, (n - 1) / 2);
  if (n % 2 == 1)
    return (double) a;
  /* The upper middle is the smallest value right of the lower one. */
  b = v[n / 2];
  for (gsize i = n / 2 + 1; i < n; i++)
    if (v[i] < b)
      b = v[i];
  return ((double) a + (double) b) / 2.0;
}

static void
finish_one (guint64 count, gint64 total, gint64 min, gint64 max, __int128 sumsq, SlStats *out)
{
  memset (out, 0, sizeof *out);
  out->count = count;
  out->total = total;
  if (count == 0)
    return;
  out->min = min;
  out->max = max;
  out->avg = (double) total / (double) count;
  if (count > 1)
    {
      /* n * sum(x^2) - (sum x)^2 is exact in 128 bits, and >= 0. */
      __int128 num = (__int128) count * sumsq - (__int128) total * total;
      out->stddev = num <= 0 ? 0 : sqrt ((double) num / ((double) count * (double) (count - 1)));
    }
}

void
sl_stats_table_finish (SlStatsTable *table, SlStats *out)
{
  for (guint k = 0; k < table->n_keys; k++)
    {
      finish_one (table->count[k], table->total[k], table->min[k], table->max[k], table->sumsq[k], &out[k]);
      if (table->values != NULL)
        out[k].median = median_of (table->values + table->offset[k], table->count[k]);
    }
}

gint64
sl_stats_table_percentile (SlStatsTable *table, guint key, double p)
{
  guint64 n = table->count[key];
  guint64 rank;

  g_return_val_if_fail (table->values != NULL, 0);
  if (n == 0)
    return 0;
  rank = (guint64) ceil (p / 100.0 * (double) n - 1e-9);
  rank = CLAMP (rank, 1, n);
  return sl_select_nth (table->values + table->offset[key], n, rank - 1);
}

void
sl_stats_compute (gint64 *values, gsize n, SlStats *out)
{
  gint64 total = 0, min = 0, max = 0;
  __int128 sumsq = 0;

  for (gsize i = 0; i < n; i++)
    {
      gint64 v = values[i];
      if (i == 0 || v < min)
        min = v;
      if (i == 0 || v > max)
        max = v;
      total += v;
      sumsq += (__int128) v * v;
    }
  finish_one (n, total, min, max, sumsq, out);
  out->median = median_of (values, n);
}

gint64
sl_round_ns (double value)
{
  return (gint64) llround (value);
}

double
sl_percent (gint64 part, gint64 whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
}

void
sl_stats_add_json_members (JsonBuilder *b, const SlStats *s, gint64 grand_total)
{
  json_builder_set_member_name (b, "instances");
  json_builder_add_int_value (b, (gint64) s->count);
  json_builder_set_member_name (b, "total_ns");
  json_builder_add_int_value (b, s->total);
  json_builder_set_member_name (b, "avg_ns");
  json_builder_add_int_value (b, sl_round_ns (s->avg));
  json_builder_set_member_name (b, "med_ns");
  json_builder_add_int_value (b, sl_round_ns (s->median));
  json_builder_set_member_name (b, "min_ns");
  json_builder_add_int_value (b, s->min);
  json_builder_set_member_name (b, "max_ns");
  json_builder_add_int_value (b, s->max);
  json_builder_set_member_name (b, "stddev_ns");
  json_builder_add_int_value (b, sl_round_ns (s->stddev));
  json_builder_set_member_name (b, "time_pct");
  json_builder_add_double_value (b, sl_percent (s->total, grand_total));
}

void
sl_name_keys_init (SlNameKeys *keys, guint n_string_ids)
{
  /* One spare slot at the end stands for SL_NONE ("no name"). */
  keys->n_ids = n_string_ids + 1;
  keys->key_of = g_new (guint32, keys->n_ids);
  memset (keys->key_of, 0xff, keys->n_ids * sizeof (guint32));
  keys->ids = g_array_new (FALSE, FALSE, sizeof (guint32));
}

void
sl_name_keys_clear (SlNameKeys *keys)
{
  g_clear_pointer (&keys->key_of, g_free);
  g_clear_pointer (&keys->ids, g_array_unref);
  keys->n_ids = 0;
}

void
sl_json_add_string (JsonBuilder *b, const char *value)
{
  if (value == NULL)
    json_builder_add_null_value (b);
  else if (g_utf8_validate (value, -1, NULL))
    json_builder_add_string_value (b, value);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (value, -1);
      json_builder_add_string_value (b, valid);
    }
}
