/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-stats.h: duration statistics (count, total, mean, median, min, max,
 * sample standard deviation) for many keys at once, in two linear passes.
 *
 * Pass 1 calls sl_stats_table_add() for every value; when medians or
 * percentiles are wanted, pass 2 calls sl_stats_table_put() for the same
 * values again (any order), after sl_stats_table_begin_values().  Sums are
 * exact (64-bit total, 128-bit sum of squares), so the standard deviation
 * does not suffer from cancellation. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 count;
  gint64  total;
  gint64  min;             /* 0 when count == 0 */
  gint64  max;
  double  avg;
  double  median;          /* mean of the two middle values for even counts */
  double  stddev;          /* sample standard deviation, 0 when count < 2 */
} SlStats;

typedef struct {
  guint      n_keys;
  guint64   *count;
  gint64    *total;
  gint64    *min;
  gint64    *max;
  __int128  *sumsq;
  /* second pass */
  gint64    *values;       /* bucketed by key: values[offset[k] .. offset[k] + count[k]) */
  guint64   *offset;
  guint64   *fill;
} SlStatsTable;

void   sl_stats_table_init          (SlStatsTable *table, guint n_keys);
void   sl_stats_table_clear         (SlStatsTable *table);
/* Adds keys (new keys start empty); only before begin_values. */
void   sl_stats_table_grow          (SlStatsTable *table, guint n_keys);
void   sl_stats_table_begin_values  (SlStatsTable *table);
/* Fills @out[n_keys].  Medians only when the values were put. */
void   sl_stats_table_finish        (SlStatsTable *table, SlStats *out);
/* After the second pass: the value at nearest rank ceil(p/100 * n) of key
 * @key (p in (0, 100]); reorders that key's values. */
gint64 sl_stats_table_percentile    (SlStatsTable *table, guint key, double p);

static inline void
sl_stats_table_add (SlStatsTable *table, guint key, gint64 value)
{
  if (table->count[key]++ == 0)
    table->min[key] = table->max[key] = value;
  else if (value < table->min[key])
    table->min[key] = value;
  else if (value > table->max[key])
    table->max[key] = value;
  table->total[key] += value;
  table->sumsq[key] += (__int128) value * value;
}

static inline void
sl_stats_table_put (SlStatsTable *table, guint key, gint64 value)
{
  table->values[table->fill[key]++] = value;
}

/* Dense keys for string ids: the first distinct id seen gets key 0, and so on.
 * A direct array over the string table, so a lookup is one load. */
typedef struct {
  guint32 *key_of;         /* per string id, G_MAXUINT32 when unseen */
  guint    n_ids;
  GArray  *ids;            /* guint32: the string id of each key */
} SlNameKeys;

void   sl_name_keys_init            (SlNameKeys *keys, guint n_string_ids);
void   sl_name_keys_clear           (SlNameKeys *keys);

static inline guint
sl_name_keys_get (SlNameKeys *keys, guint32 id)
{
  guint32 k;

  if (G_UNLIKELY (id >= keys->n_ids))
    id = keys->n_ids - 1;      /* the spare slot: SL_NONE and out-of-table ids */
  k = keys->key_of[id];
  if (G_UNLIKELY (k == G_MAXUINT32))
    {
      k = keys->key_of[id] = keys->ids->len;
      g_array_append_val (keys->ids, id);
    }
  return k;
}

/* The k-th smallest (0-based) of v[0, n); reorders v. */
gint64 sl_select_nth                (gint64 *v, gsize n, gsize k);

/* Statistics of one array of values (reorders it). */
void   sl_stats_compute             (gint64 *values, gsize n, SlStats *out);

/* Rounded to integer nanoseconds, as the JSON contracts want. */
gint64 sl_round_ns                  (double value);

/* Adds "instances", "total_ns", "avg_ns", "med_ns", "min_ns", "max_ns",
 * "stddev_ns" and "time_pct" (share of @grand_total) to an open object. */
void   sl_stats_add_json_members    (JsonBuilder *builder, const SlStats *stats, gint64 grand_total);
double sl_percent                   (gint64 part, gint64 whole);
/* Adds a string value, repairing invalid UTF-8 (profile strings are untrusted). */
void   sl_json_add_string           (JsonBuilder *builder, const char *value);

G_END_DECLS
