/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-step-period.c: the repeating unit of a kernel sequence (see the header). */
#include "sl-step-period.h"
#include "sl-step-anchor.h"

#include <stdlib.h>
#include <string.h>

#define MIN_PERIOD      4      /* a step launches at least this many kernels on its main stream */
#define MAX_CANDIDATES  32
#define MAX_LAG         16384  /* longest period looked for, in kernels */
#define SAMPLES         2048   /* positions compared per lag in the first look */
#define MIN_MATCH       0.8
#define MATCH_SLACK     0.02
/* Anchored steps (sl-step-anchor.h): the share of kernels whose names must
 * be in most steps, when no exact period exists, and when one does (a
 * shorter anchored step then replaces it only if no kind of kernel is
 * missing from most of them: a few more kernels in some steps make an
 * exact period of several steps, but once-per-step work such as an
 * optimizer after several micro-batches must keep the longer one). */
#define ANCHOR_PRESENCE        0.95
#define ANCHOR_PRESENCE_EXACT  0.999
/* An exact period is a step only when this share of its kernels have names
 * found in at least MOST_REPEATS of its repeats: a step holds every kind
 * of its work, a block of one (a layer's ops) lacks the others (the
 * backward's kernels in a forward block, the optimizer's in most blocks). */
#define STEP_PRESENCE          0.99
#define MOST_REPEATS           0.8

/* Dense ids 0..m-1 for @seq (into @dense), in order of first appearance;
 * returns m.  The ids are kernel function ids, a small range: a direct
 * array over it (a load per value), a hash table past it. */
static guint
densify (const guint32 *seq, guint n, guint32 *dense)
{
  g_autoptr(GHashTable) ids = NULL;
  g_autofree guint32 *id_of = NULL;
  guint32 top = 0, m = 0;

  for (guint i = 0; i < n; i++)
    top = MAX (top, seq[i]);
  if (n > 0 && (guint64) top < (guint64) 4 * n + 4096)
    {
      id_of = g_new (guint32, (gsize) top + 1);
      memset (id_of, 0xff, ((gsize) top + 1) * sizeof (guint32));
      for (guint i = 0; i < n; i++)
        {
          if (id_of[seq[i]] == G_MAXUINT32)
            id_of[seq[i]] = m++;
          dense[i] = id_of[seq[i]];
        }
      return m;
    }
  ids = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < n; i++)
    {
      gpointer v;
      if (!g_hash_table_lookup_extended (ids, GUINT_TO_POINTER (seq[i]), NULL, &v))
        {
          v = GUINT_TO_POINTER (g_hash_table_size (ids));
          g_hash_table_insert (ids, GUINT_TO_POINTER (seq[i]), v);
        }
      dense[i] = GPOINTER_TO_UINT (v);
    }
  return g_hash_table_size (ids);
}

static int
compare_int64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/* Share of sampled positions i (at most SAMPLES, evenly spread) with
 * dense[i] == dense[i + L]: a cheap first look at every lag. */
static double
sampled_match (const guint32 *dense, guint n, guint L)
{
  guint span = n - L, k = MIN (span, SAMPLES), same = 0;

  for (guint s = 0; s < k; s++)
    {
      guint i = (guint) ((guint64) s * span / k);
      same += dense[i] == dense[i + L];
    }
  return (double) same / (double) k;
}

/* sampled_match() when the lag has SAMPLES samples (n - L >= SAMPLES), or
 * -1 as soon as it cannot reach @need: then it is neither a candidate nor
 * the best lag (see candidate_periods), and a lag without a period stops
 * after a fifth of its samples.  SAMPLES is a power of two, so the sample
 * positions take a shift, not a 64-bit division. */
static double
sampled_match_full (const guint32 *dense, guint n, guint L, double need)
{
  guint64 span = n - L;
  guint same = 0;

  G_STATIC_ASSERT ((SAMPLES & (SAMPLES - 1)) == 0 && SAMPLES % 64 == 0);
  for (guint64 s = 0; s < SAMPLES;)
    {
      for (guint64 end = s + 64; s < end; s++)
        {
          guint i = (guint) ((s * span) / SAMPLES);
          same += dense[i] == dense[i + L];
        }
      /* the most it can still reach, computed as its final value would be */
      if ((double) (same + (SAMPLES - s)) / (double) SAMPLES < need)
        return -1;
    }
  return (double) same / (double) SAMPLES;
}

/* Lags whose sampled match is within 2 * MATCH_SLACK of the best one (at
 * most MAX_CANDIDATES, the smallest), among [MIN_PERIOD, min (n / 2, MAX_LAG)]. */
static GArray *
candidate_periods (const guint32 *dense, guint n)
{
  guint hi = MIN (n / 2, MAX_LAG);
  g_autofree double *m = g_new0 (double, hi + 1);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));
  double top = 0;

  /* A lag below MIN_MATCH - MATCH_SLACK, or 2 * MATCH_SLACK below the best
   * so far, is no candidate whatever the others: its count may stop early. */
  for (guint L = MIN_PERIOD; L <= hi; L++)
    {
      double need = MAX (MIN_MATCH - MATCH_SLACK, top - 2 * MATCH_SLACK);
      m[L] = n - L >= SAMPLES ? sampled_match_full (dense, n, L, need) : sampled_match (dense, n, L);
      top = MAX (top, m[L]);
    }
  for (guint L = MIN_PERIOD; L <= hi && out->len < MAX_CANDIDATES; L++)
    if (m[L] >= MIN_MATCH - MATCH_SLACK && m[L] >= top - 2 * MATCH_SLACK)
      g_array_append_val (out, L);
  return out;
}

/* Share of i with dense[i] == dense[i + L].  Blocks of a fixed length
 * let the compiler vectorize the count (5x on long sequences). */
static double
match_at (const guint32 *dense, guint n, guint L)
{
  guint64 same = 0;
  guint k = n - L, i = 0;

  for (; i + 64 <= k; i += 64)
    {
      const guint32 *a = dense + i, *b = dense + i + L;
      guint block = 0;
      for (guint j = 0; j < 64; j++)
        block += a[j] == b[j];
      same += block;
    }
  for (; i < k; i++)
    same += dense[i] == dense[i + L];
  return (double) same / (double) (n - L);
}

/* The smallest candidate whose match is within MATCH_SLACK of the best
 * (at least MIN_MATCH); 0 when none. */
static guint
best_period (const guint32 *dense, guint n, GArray *cands, double *match)
{
  g_autofree double *m = g_new (double, MAX (cands->len, 1));
  double top = 0;
  guint best = 0;

  for (guint c = 0; c < cands->len; c++)
    {
      m[c] = match_at (dense, n, g_array_index (cands, guint, c));
      top = MAX (top, m[c]);
    }
  *match = 0;
  for (guint c = 0; c < cands->len; c++)
    {
      guint L = g_array_index (cands, guint, c);
      if (m[c] >= MIN_MATCH && m[c] >= top - MATCH_SLACK && (best == 0 || L < best))
        {
          best = L;
          *match = m[c];
        }
    }
  return best;
}

/* Block periods: a step boundary where kernels that occur in fewer than
 * half the repeats cluster (within one period of each other), moved to the
 * longest idle time within half a period of the cluster's start.  FALSE
 * when there is no such kernel (each repeat is then a step). */
static gboolean
rare_boundaries (const guint32 *dense, const gint64 *gap_before, guint n, const guint *count,
                 SlStepPeriod *out)
{
  guint L = out->period, last_rare = G_MAXUINT;
  gboolean any = FALSE;

  if (out->repeats < 4)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      if (count[dense[i]] * 2 > out->repeats)
        continue;
      if (last_rare == G_MAXUINT || i - last_rare >= L)
        {
          gint64 lo = MAX ((gint64) i - L / 2, 1);      /* first on ties: nearest lo */
          guint b = sl_step_longest_gap_in (gap_before, n, lo, (gint64) i + L / 2 + 1, lo);
          if (b == G_MAXUINT)
            b = i;
          g_array_append_val (out->boundaries, b);
        }
      last_rare = i;
      any = TRUE;
    }
  return any;
}

/* The phase of a step period: the position j of [0, L) before which the
 * median idle time over the repeats is the longest. */
static guint
step_phase (const gint64 *gap_before, guint n, guint L)
{
  g_autofree gint64 *vals = g_new (gint64, n / L + 2);
  gint64 best_median = -1;
  guint best = 0;

  for (guint j = 0; j < L; j++)
    {
      guint k = 0;
      for (guint i = j; i < n; i += L)
        if (i > 0)
          vals[k++] = gap_before[i];
      if (k == 0)
        continue;
      qsort (vals, k, sizeof (gint64), compare_int64);
      if (vals[(k - 1) / 2] > best_median)
        {
          best_median = vals[(k - 1) / 2];
          best = j;
        }
    }
  return best;
}

/* Where the name pair (dense[j], dense[j + 1]) occurs nearest @p within
 * [p - tol, p + tol]; @p when it does not. */
static guint
reanchor (const guint32 *dense, guint n, guint j, guint p, guint tol)
{
  for (guint d = 0; d <= tol; d++)
    {
      if (p + d + 1 < n && dense[p + d] == dense[j] && dense[p + d + 1] == dense[j + 1])
        return p + d;
      if (d > 0 && p >= d && p - d > j && dense[p - d] == dense[j] && dense[p - d + 1] == dense[j + 1])
        return p - d;
    }
  return p;
}

/* Step boundaries from phase @j every @L kernels, each re-anchored on the
 * phase's kernel pair within L / 8 (steps whose kernel count drifts a little
 * stay aligned).  The sequence ends with a full step when the last boundary
 * is within L / 50 of one period before its end: n is then the last boundary. */
static void
step_boundaries (const guint32 *dense, guint n, guint L, guint j, GArray *out)
{
  guint tol = MAX (L / 8, 1), tol_end = MAX (L / 50, 1), b = j;

  g_array_append_val (out, b);
  for (;;)
    {
      guint p = b + L;
      if (p + tol_end >= n)
        {
          if (p <= n + tol_end)
            g_array_append_val (out, n);
          return;
        }
      b = reanchor (dense, n, j, p, tol);
      g_array_append_val (out, b);
    }
}

/* Steps from a once-per-step anchor, when there is no exact period, or in
 * place of an exact step period no more than 10 % shorter (a multiple of
 * the anchored steps, or the same period whose repeats drift by a block of
 * kernels the positional boundaries cannot follow), or of a block that
 * lacks names (no boundaries yet) by at least two of its repeats.  Blocks
 * of rare kernels' boundaries stay as they are. */
static void
prefer_anchored_steps (const guint32 *dense, guint m, const gint64 *gap_before, guint n, SlStepPeriod *out)
{
  gboolean block = out->unit == SL_STEP_UNIT_BLOCK;
  SlStepAnchor a;

  if (block && out->boundaries->len > 0)
    return;
  if (sl_step_anchor_find (dense, m, gap_before, n,
                           out->period == 0 || block ? ANCHOR_PRESENCE : ANCHOR_PRESENCE_EXACT, &a)
      && (out->period == 0 || (block ? a.period >= 2 * out->period : a.period * 10 <= out->period * 11)))
    {
      out->unit = SL_STEP_UNIT_STEP;
      out->period = a.period;
      out->match = a.similarity;
      out->repeats = n / a.period;
      g_array_unref (out->boundaries);
      out->boundaries = g_steal_pointer (&a.boundaries);
    }
  sl_step_anchor_clear (&a);
}

/* Whether STEP_PRESENCE of the kernels in the full repeats of @L have
 * names found in at least MOST_REPEATS of them (see STEP_PRESENCE). */
static gboolean
repeats_hold_all_names (const guint32 *dense, guint m, guint n, guint L)
{
  g_autofree guint *seen = g_new0 (guint, m);      /* last repeat + 1 holding the name */
  g_autofree guint *repeats = g_new0 (guint, m);   /* repeats holding the name */
  guint full = n / L;
  guint64 present = 0;

  for (guint i = 0; i < full * L; i++)
    if (seen[dense[i]] != i / L + 1)
      {
        seen[dense[i]] = i / L + 1;
        repeats[dense[i]]++;
      }
  for (guint i = 0; i < full * L; i++)
    present += repeats[dense[i]] >= MOST_REPEATS * full;
  return (double) present >= STEP_PRESENCE * (double) (full * L);
}

/* The exact period of @dense (positional matches).  A block that lacks
 * names gets no boundaries here (prefer_anchored_steps looks for its step). */
static void
exact_period (const guint32 *dense, guint m, const gint64 *gap_before, guint n, const guint *count,
              SlStepPeriod *out)
{
  g_autoptr(GArray) cands = candidate_periods (dense, n);

  out->period = best_period (dense, n, cands, &out->match);
  if (out->period == 0)
    return;
  out->repeats = n / out->period;
  if (rare_boundaries (dense, gap_before, n, count, out) || !repeats_hold_all_names (dense, m, n, out->period))
    out->unit = SL_STEP_UNIT_BLOCK;
  else
    {
      out->unit = SL_STEP_UNIT_STEP;
      step_boundaries (dense, n, out->period, step_phase (gap_before, n, out->period), out->boundaries);
    }
}

void
sl_step_period_find (const guint32 *seq, const gint64 *gap_before, guint n, SlStepPeriod *out)
{
  g_autofree guint32 *dense = NULL;
  g_autofree guint *count = NULL;
  guint m;

  memset (out, 0, sizeof *out);
  out->boundaries = g_array_new (FALSE, FALSE, sizeof (guint));
  if (n < 2 * MIN_PERIOD)
    return;
  dense = g_new (guint32, n);
  m = densify (seq, n, dense);
  count = g_new0 (guint, m);
  for (guint i = 0; i < n; i++)
    count[dense[i]]++;
  exact_period (dense, m, gap_before, n, count, out);
  prefer_anchored_steps (dense, m, gap_before, n, out);
}

void
sl_step_period_clear (SlStepPeriod *period)
{
  if (period->boundaries != NULL)
    g_array_unref (period->boundaries);
  period->boundaries = NULL;
}
