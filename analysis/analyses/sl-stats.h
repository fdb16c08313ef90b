/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-stats.h: duration statistics (count, total, mean, median, min, max,
 * sample standard deviation, percentiles) for many keys at once, in a few
 * linear passes over the caller's arrays.  Sums are exact (64-bit total,
 * 128-bit sum of squares), so the standard deviation does not suffer from
 * cancellation, and medians are exact order statistics. */
#pragma once

#include <glib.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include "sl-json.h"
#include "sl-profile.h"

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

/* Running sums of one key: exact 64-bit total, and the 128-bit sum of
 * squares of (value - ref), ref being the key's first value, so that the
 * squares stay small when values are large but close together.  Sums of
 * absurd durations wrap; the wraps are counted (a branch never taken on
 * real data), so the sums stay exact: see _sl_sum_add(). */
typedef struct {
  guint64  count;
  gint64   total;          /* + total_wraps 2^64 */
  gint64   min;
  gint64   max;
  gint64   ref;
  gint32   total_wraps;    /* fewer than 2^31 while a key has fewer than 2^32 values */
  guint32  sumsq_wraps;
  __int128 sumsq;          /* + sumsq_wraps 2^128 */
} SlStatsAcc;

/* One or two neighbouring order statistics (ranks r0 <= r1 <= r0 + 1, the
 * two middles of a median) being searched by radix selection. */
typedef struct {
  guint    owner;          /* index of the median or request it answers */
  guint8   part;           /* which of the owner's ranks: 0 both, 1 the lower, 2 the upper */
  guint8   mode;           /* 0 done, 1 histogram, 2 collect, 4 log-scale histogram */
  guint    shift;          /* histogram bin width is 1 << shift */
  gint64   lo;             /* the answers are in [lo, lo + width] */
  guint64  width;
  guint64  r0, r1;         /* their ranks among the values inside the window */
  guint64  in_window;
  guint32 *hist;           /* SELECT_BINS + 1 bins, the last for values outside */
  gint64  *buf;
  guint64  buf_n;
  gint64   v0, v1;         /* the answers, once done */
} SlSelect;

/* The hot fields of a key's only selection, copied next to each other so a
 * visit is a handful of loads (see sl_stats_table_visit). */
typedef struct {
  guint8   mode;           /* 0 nothing to do, 1 histogram, 2 collect, 3 several selections,
                            * 4 log-scale histogram */
  guint    shift;
  gint64   lo;
  guint64  width;
  guint32 *hist;
  gint64  *buf;
  guint64  buf_n;
} SlKeySelect;

typedef struct _SlNameKeys SlNameKeys;

/* Values v with v - lo < lim (unsigned) are inside; lim 0 takes nothing. */
typedef struct {
  gint64  lo;
  guint64 lim;
} SlStatsWindow;

typedef struct {
  guint       n_keys;
  SlStatsAcc *acc;
  SlKeySelect *key_sel;    /* per key, during selection passes */
  guint32    *fused;       /* first pass: a log-scale histogram per key (4097 bins, the last
                            * for negative values), so that the selection starts narrow;
                            * NULL with too many keys */
  int         phase;       /* 0 before the first pass, 1 statistics, 2+ selection */
  gboolean    medians;
  GArray     *requests;    /* (key, percentile) asked with sl_stats_table_request() */
  GArray     *sels;        /* SlSelect, grouped by key */
  guint      *sel_first;   /* per key: its selections are sels[sel_first[k] .. sel_first[k + 1]) */
  gint64     *answers;     /* per key two median values, then one per request */
  guint8     *answered;
  /* Selection passes where every key left only collects the values of one
   * window: the bulk visitors append (key, value) pairs of in-window values
   * to one buffer, handed out to the keys after the pass. */
  SlStatsWindow *win;      /* per key, and a last one that takes nothing; NULL otherwise */
  guint32    *gkey;
  gint64     *gval;
  gsize       g_n, g_cap;
  gboolean    is_part;     /* a part's private table (sl-stats-split.c): no keys added */
} SlStatsTable;

#define SL_STATS_FUSED_BINS 4097
/* Two copies of a key's bins, alternated by the bulk visitors (consecutive
 * values in one bin would each wait for the increment before), added
 * together after the first pass. */
#define SL_STATS_FUSED_STRIDE (2 * SL_STATS_FUSED_BINS)

/* Statistics per key in passes over the data, exact and without copying it:
 *
 *   sl_stats_table_init (&t, n_keys, TRUE);
 *   while (sl_stats_table_pass (&t))
 *     for (each value)
 *       sl_stats_table_visit (&t, key, value);
 *   sl_stats_table_finish (&t, stats);
 *
 * The first pass gathers count, total, min, max and the sum of squares; when
 * medians or percentiles are wanted, a few more passes narrow down a value
 * window per order statistic with histograms (radix selection) until the few
 * values left are collected and selected.  Typically three passes in all. */
void   sl_stats_table_init          (SlStatsTable *table, guint n_keys, gboolean medians);
/* The first pass only (count, total, min, max, avg, stddev; median 0): a
 * table that will take no sl_stats_table_request(). */
void   sl_stats_table_init_sums     (SlStatsTable *table, guint n_keys);
void   sl_stats_table_clear         (SlStatsTable *table);
/* Adds keys (new keys start empty); only during the first pass. */
void   sl_stats_table_grow          (SlStatsTable *table, guint n_keys);
/* Asks for the nearest-rank @p-th percentile (0 < p <= 100) of @key, before
 * the end of the first pass; returns a handle for sl_stats_table_get(). */
guint  sl_stats_table_request       (SlStatsTable *table, guint key, double p);
/* Starts the next pass: TRUE when the caller must visit every value again. */
gboolean sl_stats_table_pass        (SlStatsTable *table);
/* Fills @out[n_keys] (medians when asked for at init). */
void   sl_stats_table_finish        (SlStatsTable *table, SlStats *out);
gint64 sl_stats_table_get           (const SlStatsTable *table, guint request);

/* Log-scale bin of an offset: exact below 64, then 64 bins per power of
 * two (1.6 % wide), 3776 bins in all; for wide windows (heavy tails). */
static inline guint
_sl_log_bin (guint64 off)
{
  /* Bin 64 s + (off >> s), s = floor(log2 off) - 6 (0 below 128): the
   * same bins as 64 + 64 s + the 6 bits under the top one, without a
   * branch (a first-pass step per value). */
  int s = 57 - __builtin_clzll (off | 1);

  s = MAX (s, 0);
  return 64 * (guint) s + (guint) (off >> s);
}

/* Branch-free on the value: values outside the window land in the spare
 * histogram bin, or are written past the end of the collected ones. */
static inline void
_sl_window_visit (guint8 mode, guint shift, gint64 lo, guint64 width, guint32 *hist,
                  gint64 *buf, guint64 *buf_n, gint64 v)
{
  guint64 off = (guint64) v - (guint64) lo;
  gboolean in = off <= width;

  if (mode == 1)
    hist[in ? (off >> shift) : 4096]++;
  else if (mode == 2)
    {
      buf[*buf_n] = v;
      *buf_n += in;
    }
  else if (mode == 4)
    hist[in ? _sl_log_bin (off) : 4096]++;
}

static inline void
_sl_select_visit (SlSelect *s, gint64 v)
{
  _sl_window_visit (s->mode, s->shift, s->lo, s->width, s->hist, s->buf, &s->buf_n, v);
}

static inline void
_sl_key_select_visit (SlKeySelect *s, gint64 v)
{
  _sl_window_visit (s->mode, s->shift, s->lo, s->width, s->hist, s->buf, &s->buf_n, v);
}

void _sl_stats_table_visit_many (SlStatsTable *table, guint key, gint64 value);
/* @b's sums into @a's, as if @a had seen @b's values after its own (their
 * references may differ). */
void _sl_stats_acc_merge (SlStatsAcc *a, const SlStatsAcc *b);

/* *@sum += @v, wrapping past ±2^63 (signed overflow is undefined; the
 * builtin wraps) and counting the wraps in *@wraps, so that the exact sum
 * is *@sum + *@wraps 2^64.  Only sums of absurd durations wrap. */
static inline void
_sl_sum_add (gint64 *sum, gint32 *wraps, gint64 v)
{
  if (G_UNLIKELY (__builtin_add_overflow (*sum, v, sum)))
    *wraps += v > 0 ? 1 : -1;
}

/* @v - @ref wrapping, as signed overflow must not: exact while the values
 * lie within 2^63 of each other, as durations always do (else only the
 * standard deviation is wrong); no branch in the first pass. */
static inline gint64
_sl_stats_dev (gint64 v, gint64 ref)
{
  return (gint64) ((guint64) v - (guint64) ref);
}

/* *@sumsq += @d * @d (|d| <= 2^63: the square fits), the same way: the
 * exact sum is *@sumsq + *@wraps 2^128.  Only values spread over more than
 * 2^63 / sqrt (n) ns wrap it. */
static inline void
_sl_sumsq_add (__int128 *sumsq, guint32 *wraps, gint64 d)
{
  if (G_UNLIKELY (__builtin_add_overflow (*sumsq, (__int128) d * d, sumsq)))
    (*wraps)++;
}

/* One value into a key's sums (and its log-scale bins when @fused). */
static inline void
_sl_stats_acc_add (SlStatsAcc *a, guint32 *fused, guint key, gint64 value)
{
  gint64 d;

  if (a->count++ == 0)
    a->min = a->max = a->ref = value;
  else if (value < a->min)
    a->min = value;
  else if (value > a->max)
    a->max = value;
  _sl_sum_add (&a->total, &a->total_wraps, value);
  d = _sl_stats_dev (value, a->ref);
  _sl_sumsq_add (&a->sumsq, &a->sumsq_wraps, d);
  if (fused != NULL)
    fused[(gsize) key * SL_STATS_FUSED_STRIDE + (value >= 0 ? _sl_log_bin ((guint64) value) : 4096)]++;
}

/* One value of key @k into the global collect buffer (see
 * plan_global_collect in sl-stats.c): stored always, kept when inside the
 * key's window.  Returns the new count. */
static inline gsize
_sl_window_keep (const SlStatsWindow *win, guint32 *gkey, gint64 *gval, gsize g, gsize cap,
                 guint k, gint64 v)
{
  gkey[g] = k;
  gval[g] = v;
  g += (guint64) v - (guint64) win[k].lo < win[k].lim;
  if (G_UNLIKELY (g > cap))
    g = cap;             /* more values than the first pass saw: misuse */
  return g;
}

/* The exact sum that a wrapped @sum and its @wraps stand for (see _sl_sum_add). */
static inline __int128
_sl_stats_exact_sum (gint64 sum, gint32 wraps)
{
  return (__int128) sum + (__int128) wraps * ((__int128) 1 << 64);
}

/* Always inlined: it is the step of the callers' hot loops, and a call per
 * value costs more than the step itself.  A pass that only collects goes to
 * the one buffer, so that a part's private table (sl-stats-split.c) needs
 * no per-key buffers of its own. */
G_ALWAYS_INLINE static inline void
sl_stats_table_visit (SlStatsTable *table, guint key, gint64 value)
{
  if (table->phase == 1)
    _sl_stats_acc_add (&table->acc[key], table->fused, key, value);
  else if (table->win != NULL)
    table->g_n = _sl_window_keep (table->win, table->gkey, table->gval, table->g_n, table->g_cap,
                                  MIN (key, table->n_keys), value);
  else if (G_LIKELY (table->key_sel[key].mode != 3))
    _sl_key_select_visit (&table->key_sel[key], value);
  else
    _sl_stats_table_visit_many (table, key, value);
}

/* Bulk visits, the fast way to feed a pass (same results as visiting each
 * value with sl_stats_table_visit):
 * the durations of spans[first, last), span i under key key_of[ids[i]]
 * (ids >= @n_ids count as n_ids - 1, the spare slot of SlNameKeys).  With
 * @keys (whose key_of is @key_of), an id without a key gets one in the first
 * pass and the table grows; without, keys must all be assigned. */
void   sl_stats_table_visit_spans   (SlStatsTable *table, const SlSpans *spans, guint first, guint last,
                                     const guint32 *ids, const guint32 *key_of, guint n_ids,
                                     SlNameKeys *keys);
/* values[0, n), value i under key keys[i], or all under @key when @keys is NULL. */
void   sl_stats_table_visit_values  (SlStatsTable *table, const guint32 *keys, guint key,
                                     const gint64 *values, gsize n);

/* Dense keys for string ids: the first distinct id seen gets key 0, and so on.
 * A direct array over the string table, so a lookup is one load. */
struct _SlNameKeys {
  guint32 *key_of;         /* per string id, G_MAXUINT32 when unseen */
  guint    n_ids;
  GArray  *ids;            /* guint32: the string id of each key */
};

void   sl_name_keys_init            (SlNameKeys *keys, guint n_string_ids);
void   sl_name_keys_clear           (SlNameKeys *keys);
/* Gives every id of @ids[0, n) a key (those without one yet, in id order). */
void   sl_name_keys_add_ids         (SlNameKeys *keys, const guint32 *ids, gsize n);

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

/* The key of @id, G_MAXUINT32 when it has none; changes nothing. */
static inline guint
sl_name_keys_lookup (const SlNameKeys *keys, guint32 id)
{
  return keys->key_of[MIN (id, keys->n_ids - 1)];
}

/* ---- statistics per name: the rows of the kernels, api, nvtx, launch tables ---- */

/* One name's statistics, as the "kernels" and "api" tables show them. */
typedef struct {
  char    *name;
  guint32  name_id;        /* string id in the profile */
  SlStats  stats;
  double   time_pct;       /* share of the table's total */
} SlNameRow;

/* The keys with values (stats[k].count > 0), ranked by @weight (nullable:
 * stats[k].total) descending, then by name.  Returns (transfer full) the
 * ranked keys; *@n_names is their number. */
guint     *sl_name_keys_rank     (const SlStrings *strings, const SlNameKeys *keys,
                                  const SlStats *stats, const gint64 *weight, guint *n_names);
/* The rows of a table whose passes are done (its keys are those of @keys),
 * ranked (see sl_name_keys_rank), the first @top (0: all), names copied.
 * *@total and *@count sum over every name, not only the kept ones.  Clears
 * @table and @keys. */
SlNameRow *sl_name_rows_finish   (SlStatsTable *table, SlNameKeys *keys, const SlStrings *strings,
                                  guint top, guint *n_rows, guint *n_names, gint64 *total, guint64 *count);
void       sl_name_rows_free     (SlNameRow *rows, guint n_rows);
/* How many of @n_names ranked rows to keep: the first @top, 0 keeps all. */
static inline guint
sl_rank_keep (guint n_names, guint top)
{
  return top > 0 ? MIN (top, n_names) : n_names;
}
/* Sums the count and total of the keys @order[0, n). */
void       sl_stats_sum_keys     (const SlStats *stats, const guint *order, guint n,
                                  gint64 *total, guint64 *count);
/* The order of ranked tables: the larger @a_weight first, then by name. */
static inline int
sl_rank_compare (gint64 a_weight, const char *a_name, gint64 b_weight, const char *b_name)
{
  if (a_weight != b_weight)
    return a_weight > b_weight ? -1 : 1;
  return strcmp (a_name, b_name);
}
/* Frees @rows (nullable), @n structs of @stride bytes, and the string at
 * @name_offset of each. */
void       sl_named_rows_free    (gpointer rows, guint n, gsize stride, gsize name_offset);
/* {"total_ns": @total, @member: [{"name", "instances", "total_ns", ...}]} */
JsonNode  *sl_name_rows_to_json  (const char *member, const SlNameRow *rows, guint n_rows, gint64 total);
/* Adds "name" and the statistics members (see sl_stats_add_json_members)
 * of a row of those tables to an open object. */
void       sl_name_stats_add_json_members (JsonBuilder *builder, const char *name, const SlStats *stats,
                                           gint64 grand_total);

/* The k-th smallest (0-based) of v[0, n); reorders v. */
gint64 sl_select_nth                (gint64 *v, gsize n, gsize k);
/* The 0-based rank of the nearest-rank @p-th percentile of @n values, as
 * sl_stats_table_request() answers it. */
guint64 sl_percentile_rank          (guint64 n, double p);

/* Statistics of one array of values (reorders it). */
void   sl_stats_compute             (gint64 *values, gsize n, SlStats *out);

/* Rounded to integer nanoseconds, as the JSON contracts want. */
gint64 sl_round_ns                  (double value);

/* Adds "instances", "total_ns", "avg_ns", "med_ns", "min_ns", "max_ns",
 * "stddev_ns" and "time_pct" (share of @grand_total) to an open object. */
void   sl_stats_add_json_members    (JsonBuilder *builder, const SlStats *stats, gint64 grand_total);

/* The member names under which sl_stats_add_json_named() writes each
 * statistic (in this order), NULL to leave one out.  Averages, medians and
 * standard deviations are rounded to integer nanoseconds. */
typedef struct {
  const char *count;
  const char *total;
  const char *avg;
  const char *median;
  const char *min;
  const char *max;
  const char *stddev;
} SlStatsJsonNames;

void   sl_stats_add_json_named      (JsonBuilder *builder, const SlStats *stats,
                                     const SlStatsJsonNames *names);
double sl_percent                   (gint64 part, gint64 whole);

G_END_DECLS
