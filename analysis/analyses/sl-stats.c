/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-stats.c: per-key duration statistics with exact sums and medians. */
#include "sl-stats.h"
#include "sl-int.h"

#include <math.h>
#include <string.h>

#define SELECT_BINS    4096     /* histogram bins per selection (16 KiB); see _sl_select_visit */
#define SELECT_COLLECT (1 << 20) /* at most this many values left: collect them (a pass over
                                  * everything costs more than selecting among these) */
#define FUSED_MAX_KEYS 256      /* log-scale histograms in the first pass up to this many keys */
#define FUSED_BINS     SL_STATS_FUSED_BINS
#define FUSED_STRIDE   SL_STATS_FUSED_STRIDE

typedef struct {
  guint  key;
  double p;
} Request;

/* The sum of squares of @b's values about @a's reference rather than @b's:
 * sum (x - ra)^2 = S2 + 2 d S1 + n d^2 with d = rb - ra and S1 = sum (x - rb).
 * Exact modulo 2^128, as the table keeps it; the wraps past 2^128 (sums of
 * absurd spreads, which the long double standard deviation uses) from a
 * long double estimate of the whole. */
static void
sumsq_merge (SlStatsAcc *a, const SlStatsAcc *b)
{
  __int128 s1 = _sl_stats_exact_sum (b->total, b->total_wraps) - (__int128) b->count * b->ref;
  gint64 d = _sl_stats_dev (b->ref, a->ref);
  unsigned __int128 ud = (unsigned __int128) (__int128) d;
  unsigned __int128 shift = 2 * ud * (unsigned __int128) s1 + (unsigned __int128) b->count * ud * ud;
  __int128 sum = (__int128) ((unsigned __int128) a->sumsq + (unsigned __int128) b->sumsq + shift);
  long double whole = (long double) a->sumsq + (long double) a->sumsq_wraps * 0x1p128L
                      + (long double) b->sumsq + (long double) b->sumsq_wraps * 0x1p128L
                      + 2.0L * (long double) d * (long double) s1
                      + (long double) b->count * (long double) d * (long double) d;
  long double wraps = roundl ((whole - (long double) sum) / 0x1p128L);

  a->sumsq = sum;
  a->sumsq_wraps = wraps > 0 ? (guint32) MIN (wraps, (long double) G_MAXUINT32) : 0;
}

/* @b's sums into @a's, as if @a had seen @b's values after its own. */
void
_sl_stats_acc_merge (SlStatsAcc *a, const SlStatsAcc *b)
{
  if (b->count == 0)
    return;
  if (a->count == 0)
    {
      *a = *b;
      return;
    }
  sumsq_merge (a, b);
  a->count += b->count;
  a->min = MIN (a->min, b->min);
  a->max = MAX (a->max, b->max);
  _sl_sum_add (&a->total, &a->total_wraps, b->total);
  a->total_wraps += b->total_wraps;
}

void
sl_stats_table_init (SlStatsTable *table, guint n_keys, gboolean medians)
{
  memset (table, 0, sizeof *table);
  table->medians = medians;
  table->requests = g_array_new (FALSE, FALSE, sizeof (Request));
  table->sels = g_array_new (FALSE, TRUE, sizeof (SlSelect));
  sl_stats_table_grow (table, n_keys);
}

/* No medians and no requests: the first pass's per-key log-scale
 * histograms (4097 bins a key, one increment a value) would be wasted. */
void
sl_stats_table_init_sums (SlStatsTable *table, guint n_keys)
{
  sl_stats_table_init (table, MAX (n_keys, 1), FALSE);
  g_clear_pointer (&table->fused, g_free);   /* grow keeps it NULL */
}

void
sl_stats_table_grow (SlStatsTable *table, guint n_keys)
{
  guint old = table->n_keys;

  g_return_if_fail (table->phase <= 1);
  g_return_if_fail (!table->is_part || n_keys <= old);
  if (n_keys <= old)
    return;
  table->acc = g_renew (SlStatsAcc, table->acc, n_keys);
  memset (table->acc + old, 0, (n_keys - old) * sizeof (SlStatsAcc));
  if (n_keys <= FUSED_MAX_KEYS && (old == 0 || table->fused != NULL))
    {
      table->fused = g_renew (guint32, table->fused, (gsize) n_keys * FUSED_STRIDE);
      memset (table->fused + (gsize) old * FUSED_STRIDE, 0, (gsize) (n_keys - old) * FUSED_STRIDE * sizeof (guint32));
    }
  else
    g_clear_pointer (&table->fused, g_free);   /* values seen so far were not binned: drop it */
  table->n_keys = n_keys;
}

static void
select_free_buffers (SlSelect *s)
{
  g_clear_pointer (&s->hist, g_free);
  g_clear_pointer (&s->buf, g_free);
  s->buf_n = 0;
}

void
sl_stats_table_clear (SlStatsTable *table)
{
  if (table->sels != NULL)
    {
      for (guint s = 0; s < table->sels->len; s++)
        select_free_buffers (&g_array_index (table->sels, SlSelect, s));
      g_array_unref (table->sels);
    }
  g_free (table->sel_first);
  g_free (table->key_sel);
  g_free (table->win);
  g_free (table->gkey);
  g_free (table->gval);
  g_free (table->fused);
  g_free (table->answers);
  g_free (table->answered);
  g_free (table->acc);
  if (table->requests != NULL)
    g_array_unref (table->requests);
  memset (table, 0, sizeof *table);
}

guint
sl_stats_table_request (SlStatsTable *table, guint key, double p)
{
  Request r = { key, p };

  g_return_val_if_fail (table->phase <= 1, 0);
  g_array_append_val (table->requests, r);
  return table->requests->len - 1;
}

/* Picks how the next pass narrows a selection: collect the few values left,
 * or a histogram whose bins cover the window (width 1 once it is small). */
static void
select_plan (SlSelect *s)
{
  select_free_buffers (s);
  if (s->in_window <= SELECT_COLLECT)
    {
      s->mode = 2;
      s->buf = g_new (gint64, s->in_window + 1);
      return;
    }
  s->shift = 0;
  while ((s->width >> s->shift) >= SELECT_BINS)
    s->shift++;
  /* a window much wider than the bins: log-scale bins first, so that a
   * heavy tail does not leave nearly everything in the first bin */
  s->mode = s->shift >= 12 ? 4 : 1;
  s->hist = g_new0 (guint32, SELECT_BINS + 1);
}

/* First offset of log-scale bin @b (see _sl_log_bin). */
static guint64
log_bin_start (guint b)
{
  guint e;

  if (b < 64)
    return b;
  e = (b - 64) / 64 + 6;
  return (G_GUINT64_CONSTANT (1) << e) + ((guint64) ((b - 64) % 64) << (e - 6));
}

static guint
bin_of_rank (const guint32 *hist, guint64 rank, guint64 *below)
{
  guint b = 0;

  *below = 0;
  while (*below + hist[b] <= rank)
    *below += hist[b++];
  return b;
}

/* Narrows @s to bin @b whose first value has rank @below. */
static void
select_narrow (SlSelect *s, guint b, guint64 below, guint64 count)
{
  guint64 start, bin_width;

  if (s->mode == 4)
    {
      start = log_bin_start (b);
      bin_width = log_bin_start (b + 1) - start - 1;
    }
  else
    {
      start = (guint64) b << s->shift;
      bin_width = (G_GUINT64_CONSTANT (1) << s->shift) - 1;
    }
  s->lo = (gint64) ((guint64) s->lo + start);
  s->width = MIN (bin_width, s->width - start);
  s->r0 -= below;
  s->r1 -= below;
  s->in_window = count;
}

/* After a pass.  Returns a second selection (through @split) when the two
 * ranks fell into different bins and must now be searched apart. */
static void
select_step (SlSelect *s, SlSelect *split, gboolean *did_split)
{
  *did_split = FALSE;
  if (s->mode == 2)
    {
      s->v0 = sl_select_nth (s->buf, s->buf_n, s->r0);
      s->v1 = s->v0;
      if (s->r1 != s->r0)
        {
          /* the upper middle is the smallest value right of the lower one */
          s->v1 = s->buf[s->r1];
          for (guint64 i = s->r1 + 1; i < s->buf_n; i++)
            if (s->buf[i] < s->v1)
              s->v1 = s->buf[i];
        }
      s->mode = 0;
    }
  else if (s->mode == 1 || s->mode == 4)
    {
      guint64 below0, below1;
      guint b0 = bin_of_rank (s->hist, s->r0, &below0);
      guint b1 = bin_of_rank (s->hist, s->r1, &below1);

      if (s->mode == 1 && s->shift == 0)
        {
          s->v0 = (gint64) ((guint64) s->lo + b0);
          s->v1 = (gint64) ((guint64) s->lo + b1);
          s->mode = 0;
        }
      else if (b0 == b1)
        {
          select_narrow (s, b0, below0, s->hist[b0]);
          select_plan (s);
        }
      else
        {
          /* the lower middle ends bin b0, the upper one starts bin b1 */
          *split = *s;
          split->hist = NULL;
          split->buf = NULL;
          split->part = s->part == 0 ? 2 : s->part;
          split->r0 = split->r1 = s->r1;
          select_narrow (split, b1, below1, s->hist[b1]);
          s->part = s->part == 0 ? 1 : s->part;
          s->r1 = s->r0;
          select_narrow (s, b0, below0, s->hist[b0]);
          select_plan (s);
          select_plan (split);
          *did_split = TRUE;
        }
    }
  if (s->mode == 0)
    select_free_buffers (s);
}

/* Ranks 0 and n - 1 are the min and the max, known after the first pass. */
static gboolean
rank_is_direct (const SlStatsAcc *a, guint64 rank)
{
  return a->count == 0 || rank == 0 || rank == a->count - 1 || a->min == a->max;
}

static gint64
direct_value (const SlStatsAcc *a, guint64 rank)
{
  return a->count == 0 ? 0 : rank == 0 ? a->min : a->max;
}

static guint64
percentile_rank (guint64 n, double p)
{
  guint64 rank = (guint64) ceil (p / 100.0 * (double) n - 1e-9);
  return CLAMP (rank, 1, MAX (n, 1)) - 1;
}

guint64
sl_percentile_rank (guint64 n, double p)
{
  return percentile_rank (n, p);
}

/* answers[]: 2 per key (median middles), then 1 per request. */
static void
answer (SlStatsTable *table, guint owner, guint8 part, gint64 v0, gint64 v1)
{
  guint slot = owner < table->n_keys ? 2 * owner : 2 * table->n_keys + (owner - table->n_keys);

  if (owner < table->n_keys)
    {
      if (part == 0 || part == 1)
        table->answers[slot] = v0;
      if (part == 0)
        table->answers[slot + 1] = v1;
      if (part == 2)
        table->answers[slot + 1] = v0;
    }
  else
    table->answers[slot] = v0;
}

static void
push_selection (SlStatsTable *table, guint owner, guint8 part, gint64 lo, gint64 hi,
                guint64 r0, guint64 r1, guint64 count)
{
  SlSelect s = { 0 };

  if (lo == hi)
    {
      answer (table, owner, part, lo, lo);
      return;
    }
  s.owner = owner;
  s.part = part;
  s.lo = lo;
  s.width = (guint64) hi - (guint64) lo;
  s.r0 = r0;
  s.r1 = r1;
  s.in_window = count;
  g_array_append_val (table->sels, s);
}

/* A selection for ranks r0 <= r1 of @key: from [min, max], or straight from
 * the bins of the first pass's log-scale histogram when there is one. */
static void
add_selection (SlStatsTable *table, guint key, guint owner, guint64 r0, guint64 r1)
{
  const SlStatsAcc *a = &table->acc[key];
  const guint32 *h = table->fused != NULL ? table->fused + (gsize) key * FUSED_STRIDE : NULL;
  guint64 below0, below1;
  guint b0, b1;

  if (h == NULL || h[FUSED_BINS - 1] > 0)   /* none, or negative values */
    {
      push_selection (table, owner, 0, a->min, a->max, r0, r1, a->count);
      return;
    }
  b0 = bin_of_rank (h, r0, &below0);
  b1 = bin_of_rank (h, r1, &below1);
  if (b0 == b1)
    push_selection (table, owner, 0, MAX (a->min, (gint64) log_bin_start (b0)),
                    MIN (a->max, (gint64) (log_bin_start (b0 + 1) - 1)), r0 - below0, r1 - below0, h[b0]);
  else
    {
      /* the two middles in different bins: one window over both bins and
       * those between (empty: the ranks are neighbours), so that a key keeps
       * a single selection */
      guint64 count = 0;

      for (guint b = b0; b <= b1; b++)
        count += h[b];
      push_selection (table, owner, 0, MAX (a->min, (gint64) log_bin_start (b0)),
                      MIN (a->max, (gint64) (log_bin_start (b1 + 1) - 1)), r0 - below0, r1 - below0, count);
    }
}

static int
compare_sel_key (gconstpointer a, gconstpointer b, gpointer data)
{
  const SlStatsTable *table = data;
  const SlSelect *x = a, *y = b;
  guint kx = x->owner < table->n_keys ? x->owner : g_array_index (table->requests, Request, x->owner - table->n_keys).key;
  guint ky = y->owner < table->n_keys ? y->owner : g_array_index (table->requests, Request, y->owner - table->n_keys).key;

  return kx < ky ? -1 : kx > ky ? 1 : 0;
}

void
_sl_stats_table_visit_many (SlStatsTable *table, guint key, gint64 value)
{
  for (guint s = table->sel_first[key]; s < table->sel_first[key + 1]; s++)
    _sl_select_visit (&g_array_index (table->sels, SlSelect, s), value);
}

/* After a pass: the collected counts go back from the per-key copies. */
static void
sync_back (SlStatsTable *table)
{
  for (guint k = 0; k < table->n_keys && table->key_sel != NULL; k++)
    if (table->key_sel[k].mode == 2)
      g_array_index (table->sels, SlSelect, table->sel_first[k]).buf_n = table->key_sel[k].buf_n;
}

/* When every key left collects one window of values (the usual last pass),
 * the bulk visitors write in-window values to one buffer, a store and an
 * add per value with the counter in a register. */
static void
plan_global_collect (SlStatsTable *table)
{
  gsize cap = 0;
  gboolean any = FALSE;

  g_clear_pointer (&table->win, g_free);
  g_clear_pointer (&table->gkey, g_free);
  g_clear_pointer (&table->gval, g_free);
  table->g_n = table->g_cap = 0;
  for (guint k = 0; k < table->n_keys; k++)
    {
      const SlKeySelect *ks = &table->key_sel[k];
      if (ks->mode == 2 && ks->width != G_MAXUINT64)
        {
          cap += g_array_index (table->sels, SlSelect, table->sel_first[k]).in_window;
          any = TRUE;
        }
      else if (ks->mode != 0)
        return;
    }
  if (!any)
    return;
  table->win = g_new0 (SlStatsWindow, table->n_keys + 1);
  for (guint k = 0; k < table->n_keys; k++)
    if (table->key_sel[k].mode == 2)
      {
        table->win[k].lo = table->key_sel[k].lo;
        table->win[k].lim = table->key_sel[k].width + 1;
      }
  table->g_cap = cap;
  table->gkey = g_new (guint32, cap + 1);
  table->gval = g_new (gint64, cap + 1);
}

/* After a pass: the globally collected values go to their keys' buffers. */
static void
hand_out_global (SlStatsTable *table)
{
  for (gsize j = 0; j < table->g_n; j++)
    {
      guint k = table->gkey[j];
      SlKeySelect *ks = &table->key_sel[k];
      const SlSelect *sel = &g_array_index (table->sels, SlSelect, table->sel_first[k]);

      if (ks->buf_n < sel->in_window)
        ks->buf[ks->buf_n++] = table->gval[j];
    }
  table->g_n = 0;
}

static guint
grow_for (SlStatsTable *table, guint key)
{
  if (key >= table->n_keys)
    sl_stats_table_grow (table, MAX (table->n_keys * 2, key + 1));
  return key;
}

/* First pass over spans: an id without a key gets one (with @keys) and the
 * table grows. */
static void acc_add_values (SlStatsTable *table, guint key, const gint64 *values, gsize n);

#define ACC_RUN 256   /* values of a run of one name summed at a time */

/* Whether the names of [first, last) come in runs (of the first 64, half
 * the neighbours equal): CUDA calls do, most being one launch function;
 * kernels of a stream mostly alternate. */
static gboolean
names_in_runs (const guint32 *ids, guint first, guint last)
{
  guint equal = 0, end = MIN (last, first + 64);

  for (guint i = first; i + 1 < end; i++)
    equal += ids[i + 1] == ids[i];
  return equal * 2 >= end - first;
}

/* First pass over spans whose names come in runs: a run of one name at a
 * time through acc_add_values(), whose sums stay in registers, instead of a
 * read-modify-write of the key's sums per value, each waiting for the one
 * before: the same sums, in the same order. */
static void
acc_add_span_runs (SlStatsTable *table, const SlSpans *spans, guint first, guint last,
                   const guint32 *ids, const guint32 *key_of, guint n_ids, SlNameKeys *keys)
{
  const guint32 *dur = spans->dur;
  gint64 run[ACC_RUN];

  for (guint i = first; i < last;)
    {
      guint32 id = MIN (ids[i], n_ids - 1), raw = ids[i];
      guint k = key_of[id], n = 0;

      if (G_UNLIKELY (k == G_MAXUINT32))
        {
          if (keys == NULL)
            {
              i++;
              continue;
            }
          k = grow_for (table, sl_name_keys_get (keys, id));
        }
      for (; i < last && ids[i] == raw && n < ACC_RUN; i++)
        run[n++] = G_LIKELY (dur[i] != SL_LONG_DUR) ? (gint64) dur[i] : _sl_spans_long_dur (spans, i);
      acc_add_values (table, k, run, n);
    }
}

/* First pass over spans, a value at a time. */
static void
acc_add_spans_each (SlStatsTable *table, const SlSpans *spans, guint first, guint last,
                    const guint32 *ids, const guint32 *key_of, guint n_ids, SlNameKeys *keys)
{
  const guint32 *dur = spans->dur;

  for (guint i = first; i < last; i++)
    {
      guint32 id = MIN (ids[i], n_ids - 1);
      guint k = key_of[id];
      gint64 v = G_LIKELY (dur[i] != SL_LONG_DUR) ? (gint64) dur[i] : _sl_spans_long_dur (spans, i);

      if (G_UNLIKELY (k == G_MAXUINT32))
        {
          if (keys == NULL)
            continue;
          k = grow_for (table, sl_name_keys_get (keys, id));
        }
      _sl_stats_acc_add (&table->acc[k], table->fused, k, v);
    }
}

#define SMALL_MAX_KEYS 4096   /* sums of acc_add_spans_small() for this many keys at most */

/* A key's sums in acc_add_spans_small(): about 0, every value being below
 * 2^32 (so its square fits 64 bits), fewer than 2^31 of them (so the sums
 * do not wrap). */
typedef struct {
  guint32  count;
  guint32  min;
  guint32  max;
  guint64  total;
  unsigned __int128 sumsq;
} SmallAcc;

/* @s's sums into @a's (see sl_stats_acc_merge). */
static void
small_acc_merge (SlStatsAcc *a, const SmallAcc *s)
{
  SlStatsAcc b = { .count = s->count, .total = (gint64) s->total, .min = s->min, .max = s->max, .ref = 0,
                   .sumsq = (__int128) s->sumsq };

  if (s->count > 0)
    _sl_stats_acc_merge (a, &b);
}

/* First pass over spans whose names alternate (the kernels of a stream),
 * none of them 2^32 ns or longer: the sums need neither overflow tests nor
 * 128-bit squares, nor a reference value (the first value of a key is no
 * special case), so a value costs a few adds to its key's sums, in a table
 * of their own that nothing else writes. */
static void
acc_add_spans_small (SlStatsTable *table, const SlSpans *spans, guint first, guint last,
                     const guint32 *ids, const guint32 *key_of, guint n_ids, SlNameKeys *keys)
{
  const guint32 *dur = spans->dur;
  guint32 *fused = table->fused;
  guint n_keys = table->n_keys;
  SmallAcc *acc = g_new (SmallAcc, n_keys + 1);

  for (guint k = 0; k <= n_keys; k++)
    acc[k] = (SmallAcc) { .min = G_MAXUINT32 };
  for (guint i = first; i < last; i++)
    {
      guint32 id = MIN (ids[i], n_ids - 1);
      guint k = key_of[id];
      guint64 v = dur[i];
      SmallAcc *a;

      if (G_UNLIKELY (k == G_MAXUINT32))
        {
          if (keys == NULL)
            continue;
          /* a new name: the rest the ordinary way */
          for (guint j = 0; j < n_keys; j++)
            small_acc_merge (&table->acc[j], &acc[j]);
          g_free (acc);
          acc_add_spans_each (table, spans, i, last, ids, key_of, n_ids, keys);
          return;
        }
      a = &acc[k];
      a->count++;
      a->min = MIN (a->min, (guint32) v);
      a->max = MAX (a->max, (guint32) v);
      a->total += v;
      a->sumsq += v * v;
      if (fused != NULL)
        fused[(gsize) k * FUSED_STRIDE + (i & 1) * FUSED_BINS + _sl_log_bin (v)]++;
    }
  for (guint k = 0; k < n_keys; k++)
    small_acc_merge (&table->acc[k], &acc[k]);
  g_free (acc);
}

static void
acc_add_spans (SlStatsTable *table, const SlSpans *spans, guint first, guint last,
               const guint32 *ids, const guint32 *key_of, guint n_ids, SlNameKeys *keys)
{
  if (names_in_runs (ids, first, last))
    {
      acc_add_span_runs (table, spans, first, last, ids, key_of, n_ids, keys);
      return;
    }
  if (spans->n_long == 0 && last - first < G_MAXINT32 && table->n_keys <= SMALL_MAX_KEYS)
    {
      acc_add_spans_small (table, spans, first, last, ids, key_of, n_ids, keys);
      return;
    }
  acc_add_spans_each (table, spans, first, last, ids, key_of, n_ids, keys);
}

static void
collect_spans (SlStatsTable *table, const SlSpans *spans, guint first, guint last,
               const guint32 *ids, const guint32 *key_of, guint n_ids)
{
  const guint32 *dur = spans->dur;
  const SlStatsWindow *win = table->win;
  guint32 *gkey = table->gkey;
  gint64 *gval = table->gval;
  gsize n = table->g_n, cap = table->g_cap;
  guint n_keys = table->n_keys;

  /* Stores always, kept or not (see _sl_window_keep): a window is a
   * median's bin, which can hold a third of a key's values, and a branch
   * on it would be mispredicted as often as taken. */
  for (guint i = first; i < last; i++)
    {
      guint k = key_of[MIN (ids[i], n_ids - 1)];
      gint64 v = G_LIKELY (dur[i] != SL_LONG_DUR) ? (gint64) dur[i] : _sl_spans_long_dur (spans, i);

      k = MIN (k, n_keys);   /* no key: the window that takes nothing */
      n = _sl_window_keep (win, gkey, gval, n, cap, k, v);
    }
  table->g_n = n;
}

void
sl_stats_table_visit_spans (SlStatsTable *table, const SlSpans *spans, guint first, guint last,
                            const guint32 *ids, const guint32 *key_of, guint n_ids, SlNameKeys *keys)
{
  g_return_if_fail (n_ids > 0);
  g_return_if_fail (!table->is_part || keys == NULL);
  if (table->phase == 1)
    acc_add_spans (table, spans, first, last, ids, key_of, n_ids, keys);
  else if (table->win != NULL)
    collect_spans (table, spans, first, last, ids, key_of, n_ids);
  else
    for (guint i = first; i < last; i++)
      {
        guint k = key_of[MIN (ids[i], n_ids - 1)];
        if (k < table->n_keys)
          sl_stats_table_visit (table, k, sl_spans_dur (spans, i));
      }
}

/* The first pass's log-scale bins of a key's values, in a loop of their own:
 * interleaved with the sums, the increments held up the sums' loop. */
static void
acc_bin_values (guint32 *h, const gint64 *values, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      gint64 v = values[i];
      h[(i & 1) * FUSED_BINS + (v >= 0 ? _sl_log_bin ((guint64) v) : FUSED_BINS - 1)]++;
    }
}

/* acc_add_values() for values and a reference in [0, 2^32), as durations
 * nearly always are: then |v - ref| < 2^32, its square fits 64 bits, and
 * fewer than 2^31 values sum without a wrap, so a value costs a 64-bit
 * multiply and no overflow tests (a quarter fewer instructions).  FALSE,
 * and nothing changed, when a value is outside. */
static gboolean
acc_add_small (SlStatsAcc *a, guint32 *h, gint64 ref, const gint64 *values, gsize n)
{
  guint64 total = 0, high = 0, min = G_MAXUINT64, max = 0;
  unsigned __int128 sumsq = 0;

  if ((guint64) ref >> 32 != 0 || n >= G_MAXINT32)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      guint64 v = (guint64) values[i], d = v - (guint64) ref;
      high |= v;
      min = MIN (min, v);
      max = MAX (max, v);
      total += v;
      sumsq += d * d;
    }
  if (high >> 32 != 0)
    return FALSE;
  a->ref = ref;
  a->min = a->count > 0 ? MIN (a->min, (gint64) min) : (gint64) min;
  a->max = a->count > 0 ? MAX (a->max, (gint64) max) : (gint64) max;
  a->count += n;
  _sl_sum_add (&a->total, &a->total_wraps, (gint64) total);
  if (__builtin_add_overflow (a->sumsq, (__int128) sumsq, &a->sumsq))
    a->sumsq_wraps++;
  if (h != NULL)
    acc_bin_values (h, values, n);
  return TRUE;
}

/* First pass, all values under one key: the sums stay in registers. */
static void
acc_add_values (SlStatsTable *table, guint key, const gint64 *values, gsize n)
{
  SlStatsAcc *a = &table->acc[key];
  guint32 *h = table->fused != NULL ? table->fused + (gsize) key * FUSED_STRIDE : NULL;
  gint64 total = 0, ref, min, max;
  __int128 sumsq = 0;
  gint32 total_wraps = 0;
  guint32 sumsq_wraps = 0;

  if (n == 0)
    return;
  ref = a->count > 0 ? a->ref : values[0];
  min = a->count > 0 ? a->min : values[0];
  max = a->count > 0 ? a->max : values[0];
  if (acc_add_small (a, h, ref, values, n))
    return;
  for (gsize i = 0; i < n; i++)
    {
      gint64 v = values[i], d = _sl_stats_dev (v, ref);
      min = MIN (min, v);
      max = MAX (max, v);
      _sl_sum_add (&total, &total_wraps, v);
      _sl_sumsq_add (&sumsq, &sumsq_wraps, d);
    }
  if (h != NULL)
    acc_bin_values (h, values, n);
  a->ref = ref;
  a->min = min;
  a->max = max;
  a->count += n;
  _sl_sum_add (&a->total, &a->total_wraps, total);
  a->total_wraps += total_wraps;
  if (__builtin_add_overflow (a->sumsq, sumsq, &a->sumsq))
    sumsq_wraps++;
  a->sumsq_wraps += sumsq_wraps;
}

static void
collect_values (SlStatsTable *table, const guint32 *keys, guint key, const gint64 *values, gsize n)
{
  const SlStatsWindow *win = table->win;
  guint32 *gkey = table->gkey;
  gint64 *gval = table->gval;
  gsize g = table->g_n, cap = table->g_cap;

  for (gsize i = 0; i < n; i++)
    g = _sl_window_keep (win, gkey, gval, g, cap, keys != NULL ? keys[i] : key, values[i]);
  table->g_n = g;
}

void
sl_stats_table_visit_values (SlStatsTable *table, const guint32 *keys, guint key,
                             const gint64 *values, gsize n)
{
  if (table->phase == 1 && keys == NULL)
    acc_add_values (table, key, values, n);
  else if (table->phase == 1)
    {
      for (gsize i = 0; i < n; i++)
        _sl_stats_acc_add (&table->acc[keys[i]], table->fused, keys[i], values[i]);
    }
  else if (table->win != NULL)
    collect_values (table, keys, key, values, n);
  else
    for (gsize i = 0; i < n; i++)
      sl_stats_table_visit (table, keys != NULL ? keys[i] : key, values[i]);
}

/* Groups the active selections by key (CSR) for the next pass. */
static void
index_selections (SlStatsTable *table)
{
  guint k = 0;

  g_array_sort_with_data (table->sels, compare_sel_key, table);
  g_free (table->sel_first);
  table->sel_first = g_new0 (guint, table->n_keys + 1);
  for (guint s = 0; s < table->sels->len; s++)
    {
      const SlSelect *sel = &g_array_index (table->sels, SlSelect, s);
      guint key = sel->owner < table->n_keys ? sel->owner
                  : g_array_index (table->requests, Request, sel->owner - table->n_keys).key;
      while (k <= key)
        table->sel_first[k++] = s;
    }
  while (k <= table->n_keys)
    table->sel_first[k++] = table->sels->len;

  if (table->key_sel == NULL)
    table->key_sel = g_new0 (SlKeySelect, MAX (table->n_keys, 1));
  for (k = 0; k < table->n_keys; k++)
    {
      guint n = table->sel_first[k + 1] - table->sel_first[k];
      SlKeySelect *ks = &table->key_sel[k];

      memset (ks, 0, sizeof *ks);
      if (n == 1)
        {
          const SlSelect *sel = &g_array_index (table->sels, SlSelect, table->sel_first[k]);
          ks->mode = sel->mode;
          ks->shift = sel->shift;
          ks->lo = sel->lo;
          ks->width = sel->width;
          ks->hist = sel->hist;
          ks->buf = sel->buf;
          ks->buf_n = sel->buf_n;
        }
      else if (n > 1)
        ks->mode = 3;
    }
  plan_global_collect (table);
}

/* The second copy of each key's first-pass bins into the first. */
static void
fold_fused (SlStatsTable *table)
{
  for (guint k = 0; k < table->n_keys && table->fused != NULL; k++)
    {
      guint32 *h = table->fused + (gsize) k * FUSED_STRIDE;
      for (guint b = 0; b < FUSED_BINS; b++)
        h[b] += h[FUSED_BINS + b];
    }
}

static void
build_selections (SlStatsTable *table)
{
  fold_fused (table);
  table->answers = g_new0 (gint64, 2 * table->n_keys + table->requests->len + 1);
  for (guint k = 0; k < table->n_keys && table->medians; k++)
    {
      const SlStatsAcc *a = &table->acc[k];
      guint64 r0, r1;

      if (a->count == 0)
        continue;
      r0 = (a->count - 1) / 2;
      r1 = a->count / 2;
      if (rank_is_direct (a, r0) && rank_is_direct (a, r1))
        answer (table, k, 0, direct_value (a, r0), direct_value (a, r1));
      else
        add_selection (table, k, k, r0, r1);
    }
  for (guint r = 0; r < table->requests->len; r++)
    {
      const Request *req = &g_array_index (table->requests, Request, r);
      const SlStatsAcc *a = &table->acc[req->key];
      guint64 rank = percentile_rank (a->count, req->p);

      if (rank_is_direct (a, rank))
        answer (table, table->n_keys + r, 0, direct_value (a, rank), 0);
      else
        add_selection (table, req->key, table->n_keys + r, rank, rank);
    }
  for (guint s = 0; s < table->sels->len; s++)
    select_plan (&g_array_index (table->sels, SlSelect, s));
  g_clear_pointer (&table->fused, g_free);
  index_selections (table);
}

gboolean
sl_stats_table_pass (SlStatsTable *table)
{
  guint active = 0;

  if (table->phase == 0)
    {
      table->phase = 1;
      return TRUE;
    }
  if (table->phase == 1)
    build_selections (table);
  else
    {
      guint n = table->sels->len;
      hand_out_global (table);
      sync_back (table);
      for (guint s = 0; s < n; s++)
        {
          SlSelect split;
          gboolean did_split;

          select_step (&g_array_index (table->sels, SlSelect, s), &split, &did_split);
          if (did_split)
            g_array_append_val (table->sels, split);
        }
      /* record the finished ones, keep the others */
      for (guint s = 0; s < table->sels->len;)
        {
          SlSelect *sel = &g_array_index (table->sels, SlSelect, s);
          if (sel->mode == 0)
            {
              answer (table, sel->owner, sel->part, sel->v0, sel->v1);
              select_free_buffers (sel);
              g_array_remove_index_fast (table->sels, s);
            }
          else
            s++;
        }
      index_selections (table);
    }
  table->phase++;
  active = table->sels->len;
  return active > 0;
}

gint64
sl_stats_table_get (const SlStatsTable *table, guint request)
{
  g_return_val_if_fail (request < table->requests->len, 0);
  if (table->answers == NULL)
    return 0;
  return table->answers[2 * table->n_keys + request];
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

/* @sumsq + @wraps 2^128 is the sum of (x - ref)^2.  The sample variance is
 * (n S2 - S1^2) / (n (n - 1)) with S1 = sum (x - ref); exact in 128 bits
 * while n * (max - min) < 2^62, in long double beyond (durations of days). */
static void
finish_one (guint64 count, __int128 total, gint64 min, gint64 max, gint64 ref, __int128 sumsq, guint32 wraps,
            SlStats *out)
{
  memset (out, 0, sizeof *out);
  out->count = count;
  out->total = sl_sat_from_i128 (total);   /* the average below stays exact */
  if (count == 0)
    return;
  out->min = min;
  out->max = max;
  out->avg = (double) total / (double) count;
  if (count > 1)
    {
      __int128 s1 = (__int128) total - (__int128) count * ref;
      double spread = (double) count * ((double) max - (double) min);

      if (spread < 4.0e18)
        {
          __int128 num = (__int128) count * sumsq - s1 * s1;
          out->stddev = num <= 0 ? 0 : sqrt ((double) num / ((double) count * (double) (count - 1)));
        }
      else
        {
          long double n = (long double) count, ls1 = (long double) s1;
          long double s2 = (long double) sumsq + (long double) wraps * 0x1p128L;
          long double num = n * s2 - ls1 * ls1;
          out->stddev = num <= 0 ? 0 : (double) sqrtl (num / (n * (n - 1)));
        }
    }
}

void
sl_stats_table_finish (SlStatsTable *table, SlStats *out)
{
  for (guint k = 0; k < table->n_keys; k++)
    {
      const SlStatsAcc *a = &table->acc[k];

      finish_one (a->count, _sl_stats_exact_sum (a->total, a->total_wraps), a->min, a->max, a->ref, a->sumsq,
                  a->sumsq_wraps, &out[k]);
      if (table->medians && a->count > 0 && table->answers != NULL)
        out[k].median = ((double) table->answers[2 * k] + (double) table->answers[2 * k + 1]) / 2.0;
    }
}

void
sl_stats_compute (gint64 *values, gsize n, SlStats *out)
{
  gint64 total = 0, min = 0, max = 0, ref = n > 0 ? values[0] : 0;
  __int128 sumsq = 0;
  gint32 total_wraps = 0;
  guint32 sumsq_wraps = 0;

  for (gsize i = 0; i < n; i++)
    {
      gint64 v = values[i], d = _sl_stats_dev (v, ref);
      if (i == 0 || v < min)
        min = v;
      if (i == 0 || v > max)
        max = v;
      _sl_sum_add (&total, &total_wraps, v);
      _sl_sumsq_add (&sumsq, &sumsq_wraps, d);
    }
  finish_one (n, _sl_stats_exact_sum (total, total_wraps), min, max, ref, sumsq, sumsq_wraps, out);
  out->median = median_of (values, n);
}

gint64
sl_round_ns (double value)
{
  /* llround's result is unspecified beyond the gint64 range, where the
   * mean of absurd durations can be */
  if (!(value > -9.2233720368547758e18 && value < 9.2233720368547758e18))
    return value > 0 ? G_MAXINT64 : value < 0 ? G_MININT64 : 0;
  return (gint64) llround (value);
}

double
sl_percent (gint64 part, gint64 whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
}

void
sl_stats_add_json_named (JsonBuilder *b, const SlStats *s, const SlStatsJsonNames *names)
{
  if (names->count != NULL)
    sl_json_member_int (b, names->count, (gint64) s->count);
  if (names->total != NULL)
    sl_json_member_int (b, names->total, s->total);
  if (names->avg != NULL)
    sl_json_member_int (b, names->avg, sl_round_ns (s->avg));
  if (names->median != NULL)
    sl_json_member_int (b, names->median, sl_round_ns (s->median));
  if (names->min != NULL)
    sl_json_member_int (b, names->min, s->min);
  if (names->max != NULL)
    sl_json_member_int (b, names->max, s->max);
  if (names->stddev != NULL)
    sl_json_member_int (b, names->stddev, sl_round_ns (s->stddev));
}

void
sl_stats_add_json_members (JsonBuilder *b, const SlStats *s, gint64 grand_total)
{
  static const SlStatsJsonNames names = {
    "instances", "total_ns", "avg_ns", "med_ns", "min_ns", "max_ns", "stddev_ns",
  };

  sl_stats_add_json_named (b, s, &names);
  sl_json_member_double (b, "time_pct", sl_percent (s->total, grand_total));
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
sl_name_keys_add_ids (SlNameKeys *keys, const guint32 *ids, gsize n)
{
  g_autofree guint8 *seen = g_new0 (guint8, keys->n_ids);

  /* a store per id and no branch (names alternate: a test against the
   * neighbour would be mispredicted), then the ids seen in id order */
  for (gsize i = 0; i < n; i++)
    seen[MIN (ids[i], keys->n_ids - 1)] = 1;
  for (guint32 id = 0; id < keys->n_ids; id++)
    if (seen[id])
      sl_name_keys_get (keys, id);
}

void
sl_name_keys_clear (SlNameKeys *keys)
{
  g_clear_pointer (&keys->key_of, g_free);
  g_clear_pointer (&keys->ids, g_array_unref);
  keys->n_ids = 0;
}

typedef struct {
  const SlStrings *strings;
  const SlNameKeys *keys;
  const gint64 *weight;
} RankData;

static int
compare_ranked (gconstpointer a, gconstpointer b, gpointer data)
{
  const RankData *d = data;
  guint x = *(const guint *) a, y = *(const guint *) b;

  return sl_rank_compare (d->weight[x], sl_strings_get (d->strings, g_array_index (d->keys->ids, guint32, x)),
                          d->weight[y], sl_strings_get (d->strings, g_array_index (d->keys->ids, guint32, y)));
}

guint *
sl_name_keys_rank (const SlStrings *strings, const SlNameKeys *keys, const SlStats *stats,
                   const gint64 *weight, guint *n_names)
{
  guint n_keys = keys->ids->len, n = 0;
  guint *order = g_new (guint, MAX (n_keys, 1));
  g_autofree gint64 *totals = NULL;
  RankData d = { strings, keys, weight };

  if (weight == NULL)
    {
      totals = g_new (gint64, MAX (n_keys, 1));
      for (guint k = 0; k < n_keys; k++)
        totals[k] = stats[k].total;
      d.weight = totals;
    }
  for (guint k = 0; k < n_keys; k++)
    if (stats[k].count > 0)
      order[n++] = k;
  g_qsort_with_data (order, n, sizeof (guint), compare_ranked, &d);
  *n_names = n;
  return order;
}

void
sl_stats_sum_keys (const SlStats *stats, const guint *order, guint n, gint64 *total, guint64 *count)
{
  *total = 0;
  *count = 0;
  for (guint r = 0; r < n; r++)
    {
      *total = sl_sat_add (*total, stats[order[r]].total);
      *count += stats[order[r]].count;
    }
}

static SlNameRow *
name_rows_new (const SlStrings *strings, const SlNameKeys *keys, const SlStats *stats,
              guint top, guint *n_rows, guint *n_names, gint64 *total, guint64 *count)
{
  g_autofree guint *order = sl_name_keys_rank (strings, keys, stats, NULL, n_names);
  guint n = sl_rank_keep (*n_names, top);
  SlNameRow *rows = g_new0 (SlNameRow, MAX (n, 1));

  sl_stats_sum_keys (stats, order, *n_names, total, count);
  for (guint r = 0; r < n; r++)
    {
      rows[r].name_id = g_array_index (keys->ids, guint32, order[r]);
      rows[r].name = g_strdup (sl_strings_get (strings, rows[r].name_id));
      rows[r].stats = stats[order[r]];
      rows[r].time_pct = sl_percent (rows[r].stats.total, *total);
    }
  *n_rows = n;
  return rows;
}

SlNameRow *
sl_name_rows_finish (SlStatsTable *table, SlNameKeys *keys, const SlStrings *strings, guint top,
                     guint *n_rows, guint *n_names, gint64 *total, guint64 *count)
{
  g_autofree SlStats *stats = g_new0 (SlStats, MAX (table->n_keys, 1));
  SlNameRow *rows;

  sl_stats_table_finish (table, stats);
  rows = name_rows_new (strings, keys, stats, top, n_rows, n_names, total, count);
  sl_stats_table_clear (table);
  sl_name_keys_clear (keys);
  return rows;
}

void
sl_named_rows_free (gpointer rows, guint n, gsize stride, gsize name_offset)
{
  for (guint r = 0; r < n && rows != NULL; r++)
    g_free (*(char **) ((char *) rows + r * stride + name_offset));
  g_free (rows);
}

void
sl_name_rows_free (SlNameRow *rows, guint n_rows)
{
  sl_named_rows_free (rows, n_rows, sizeof (SlNameRow), G_STRUCT_OFFSET (SlNameRow, name));
}

void
sl_name_stats_add_json_members (JsonBuilder *b, const char *name, const SlStats *stats, gint64 grand_total)
{
  sl_json_member_string (b, "name", name);
  sl_stats_add_json_members (b, stats, grand_total);
}

/* @data: the total time, for the row's share */
static void
add_name_row_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlNameRow *row = item;

  json_builder_begin_object (b);
  sl_name_stats_add_json_members (b, row->name, &row->stats, *(const gint64 *) data);
  json_builder_end_object (b);
}

JsonNode *
sl_name_rows_to_json (const char *member, const SlNameRow *rows, guint n_rows, gint64 total)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_int (b, "total_ns", total);
  sl_json_member_array (b, member, rows, n_rows, sizeof (SlNameRow), add_name_row_json, &total);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
