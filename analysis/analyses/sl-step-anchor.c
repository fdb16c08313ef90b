/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-step-anchor.c: steps from a once-per-step anchor (see the header). */
#include "sl-step-anchor.h"
#include "sl-step-grams.h"
#include "sl-stats.h"

#include <stdlib.h>
#include <string.h>

#define MIN_PERIOD        4      /* as sl-step-period.c: kernels per step at least */
#define NAME_BITS         20     /* fewer than 2^20 names (3 fit in a gram's 64-bit key) */
#define MAX_EVALUATED     64     /* anchors whose segments are compared */
#define MIN_SIMILARITY    0.8
#define SIMILARITY_SLACK  0.02
#define MOST_SEGMENTS     0.8    /* a name "in most segments" */

typedef struct {
  const guint *pos;        /* occurrences (into the grams' positions: sl-step-grams.h) */
  guint        count;
  guint        period;     /* median distance between occurrences */
  guint        deviation;  /* largest distance from the period */
  double       similarity;
} Anchor;

static int
compare_uint (const void *a, const void *b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return x < y ? -1 : x > y;
}

static int
compare_int64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/* Whether @c occurrences @pos are evenly spaced and span the sequence: the
 * period @a->period (median distance) at least MIN_PERIOD, every distance in
 * [0.6, 1.6] periods and 80 % within a tenth of it (2 kernels at least), and
 * no more than 1.6 periods before the first or after the last.  @d: scratch.
 * The median by selection, the extremes by a scan: no sort of the distances. */
static gboolean
regular (const guint *pos, guint c, guint n, gint64 *d, Anchor *a)
{
  guint near = 0, tol, lo = G_MAXUINT, hi = 0;

  if (c < 3)
    return FALSE;
  for (guint j = 0; j + 1 < c; j++)
    {
      guint dist = pos[j + 1] - pos[j];
      d[j] = dist;
      lo = MIN (lo, dist);
      hi = MAX (hi, dist);
    }
  a->period = (guint) sl_select_nth (d, c - 1, (c - 2) / 2);
  if (a->period < MIN_PERIOD || lo * 10 < a->period * 6 || hi * 10 > a->period * 16
      || pos[0] * 10 >= a->period * 16 || (n - pos[c - 1]) * 10 > a->period * 16)
    return FALSE;
  tol = MAX (a->period / 10, 2);
  a->deviation = MAX (a->period - lo, hi - a->period);
  for (guint j = 0; j + 1 < c; j++)
    near += pos[j + 1] - pos[j] + tol >= a->period && pos[j + 1] - pos[j] <= a->period + tol;
  return near * 10 >= (c - 1) * 8;
}

/* Whether regular() may keep a gram (a FALSE here is one there): its
 * period, the median distance, lies in [lo, hi], and regular() wants
 * lo >= 0.6 and hi <= 1.6 periods (so 3 hi <= 8 lo), a period of
 * MIN_PERIOD at least, and at most 1.6 periods before the first or after
 * the last occurrence.  From 2^28 kernels on, regular()'s 32-bit products
 * could wrap: then every gram occurring three times may be. */
static gboolean
may_be_regular (guint count, guint first, guint last, guint lo, guint hi, guint n)
{
  if (count < 3)
    return FALSE;
  if (n >= 1u << 28)
    return TRUE;
  return hi >= MIN_PERIOD && (guint64) hi * 3 <= (guint64) lo * 8
         && (guint64) first * 10 < (guint64) hi * 16 && (guint64) (n - last) * 10 <= (guint64) hi * 16;
}

static int
compare_anchor_count (gconstpointer a, gconstpointer b)
{
  guint x = ((const Anchor *) a)->count, y = ((const Anchor *) b)->count;
  return x < y ? -1 : x > y;
}

/* Regular grams, the least deviating one per occurrence count (the same
 * count splits the sequence the same way), fewest occurrences first (at
 * most MAX_EVALUATED).  Their positions point into @grams. */
static GArray *
regular_anchors (const SlStepGrams *grams, guint n)
{
  g_autoptr(GHashTable) by_count = g_hash_table_new (NULL, NULL);
  g_autofree gint64 *d = g_new (gint64, MAX (n, 1));
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Anchor));

  for (guint k = 0; k + 1 < grams->starts->len; k++)
    {
      guint i = g_array_index (grams->starts, guint, k);
      Anchor a = { .pos = grams->pos + i, .count = g_array_index (grams->starts, guint, k + 1) - i };
      gpointer at;

      if (!regular (a.pos, a.count, n, d, &a))
        continue;
      if (!g_hash_table_lookup_extended (by_count, GUINT_TO_POINTER (a.count), NULL, &at))
        {
          g_hash_table_insert (by_count, GUINT_TO_POINTER (a.count), GUINT_TO_POINTER (out->len));
          g_array_append_val (out, a);
        }
      else if (a.deviation < g_array_index (out, Anchor, GPOINTER_TO_UINT (at)).deviation)
        g_array_index (out, Anchor, GPOINTER_TO_UINT (at)) = a;
    }
  g_array_sort (out, compare_anchor_count);
  if (out->len > MAX_EVALUATED)
    g_array_set_size (out, MAX_EVALUATED);
  return out;
}

/* Scratch of segment comparisons, one counter per name. */
typedef struct {
  guint *prev, *cur;       /* counts in the previous and current segment */
  guint *seen;             /* last segment + 1 in which a name was seen */
  guint *segments;         /* segments holding the name */
} Tally;

/* Histogram overlap of the segment [lo, hi) with the previous one (in
 * t->prev, of @prev_len kernels), counting it into t->cur and t->segments. */
static double
segment_overlap (const guint32 *dense, guint lo, guint hi, guint prev_len, guint seg, Tally *t)
{
  guint64 common = 0;

  for (guint i = lo; i < hi; i++)
    t->cur[dense[i]]++;
  for (guint i = lo; i < hi; i++)
    if (t->seen[dense[i]] != seg + 1)
      {
        t->seen[dense[i]] = seg + 1;
        t->segments[dense[i]]++;
        common += MIN (t->prev[dense[i]], t->cur[dense[i]]);
      }
  return (double) common / (double) MAX (MAX (hi - lo, prev_len), 1);
}

/* Mean histogram overlap of consecutive segments between @a's occurrences,
 * or 0 when fewer than @min_presence of their kernels have names found in
 * most segments (blocks of a step: once-per-step work is missing from most). */
static double
anchor_similarity (const guint32 *dense, guint m, const Anchor *a, double min_presence, Tally *t)
{
  guint segs = a->count - 1, total = a->pos[a->count - 1] - a->pos[0];
  guint64 present = 0;
  double sum = 0;

  memset (t->prev, 0, m * sizeof (guint));
  memset (t->cur, 0, m * sizeof (guint));
  memset (t->seen, 0, m * sizeof (guint));
  memset (t->segments, 0, m * sizeof (guint));
  for (guint s = 0; s < segs; s++)
    {
      guint lo = a->pos[s], hi = a->pos[s + 1], prev_len = s > 0 ? lo - a->pos[s - 1] : 0;
      double overlap = segment_overlap (dense, lo, hi, prev_len, s, t);
      if (s > 0)
        {
          sum += overlap;
          for (guint i = a->pos[s - 1]; i < lo; i++)
            t->prev[dense[i]] = 0;
        }
      for (guint i = lo; i < hi; i++)
        t->prev[dense[i]] = t->cur[dense[i]];
      for (guint i = lo; i < hi; i++)
        t->cur[dense[i]] = 0;
    }
  for (guint i = a->pos[0]; i < a->pos[a->count - 1]; i++)
    present += t->segments[dense[i]] >= MOST_SEGMENTS * segs;
  if ((double) present < min_presence * total)
    return 0;
  return sum / (segs - 1);
}

/* The anchor of the steps (see the header), NULL when none passes. */
static const Anchor *
step_anchor (const guint32 *dense, guint m, GArray *anchors, double min_presence)
{
  Tally t = { g_new (guint, m), g_new (guint, m), g_new (guint, m), g_new (guint, m) };
  const Anchor *best = NULL;
  double top = 0;

  for (guint i = 0; i < anchors->len; i++)
    {
      Anchor *a = &g_array_index (anchors, Anchor, i);
      a->similarity = anchor_similarity (dense, m, a, min_presence, &t);
      top = MAX (top, a->similarity);
    }
  for (guint i = 0; i < anchors->len; i++)
    {
      const Anchor *a = &g_array_index (anchors, Anchor, i);
      if (a->similarity >= MIN_SIMILARITY && a->similarity >= top - SIMILARITY_SLACK
          && (best == NULL || a->period < best->period))
        best = a;
    }
  g_free (t.prev);
  g_free (t.cur);
  g_free (t.seen);
  g_free (t.segments);
  return best;
}

/* The position of [lo, hi) ∩ [0, n) with the longest idle time before it
 * (position 0: none), nearest @x on ties; G_MAXUINT when the range is empty. */
guint
sl_step_longest_gap_in (const gint64 *gap_before, guint n, gint64 lo, gint64 hi, gint64 x)
{
  guint best = G_MAXUINT;
  gint64 best_gap = -1;

  for (gint64 i = MAX (lo, 0); i < MIN (hi, (gint64) n); i++)
    {
      gint64 gap = i == 0 ? 0 : gap_before[i];
      if (gap > best_gap || (gap == best_gap && ABS (i - x) < ABS ((gint64) best - x)))
        {
          best = (guint) i;
          best_gap = gap;
        }
    }
  return best;
}

/* How long the idle time at @off from the anchor is across the steps: the
 * lower median over segments of the longest idle time within @tol of it
 * (with 2 segments the shorter, so a stall in one step scores low). */
static gint64
offset_score (const gint64 *gap_before, guint n, const Anchor *a, gint64 off, gint64 tol, gint64 *scratch)
{
  guint segs = a->count - 1;

  for (guint s = 0; s < segs; s++)
    {
      gint64 x = (gint64) a->pos[s] + off;
      guint at = sl_step_longest_gap_in (gap_before, n, x - tol, x + tol + 1, x);
      scratch[s] = at == G_MAXUINT || at == 0 ? 0 : gap_before[at];
    }
  qsort (scratch, segs, sizeof (gint64), compare_int64);
  return scratch[(segs - 1) / 2];
}

/* The offset from the anchor of the step boundaries: of each step's
 * longest idle time's offset, the one whose idle time is long in most
 * steps (offset_score), the median offset on ties.  A stall, long in its
 * own step only, never wins (the median offset alone would take it with
 * 2 segments, the lower of two). */
static guint
boundary_offset (const gint64 *gap_before, guint n, const Anchor *a)
{
  g_autofree guint *off = g_new (guint, a->count);
  g_autofree gint64 *scratch = g_new (gint64, a->count);
  gint64 tol = MAX (a->period / 8, 1), best_score;
  guint k = 0, best;

  for (guint s = 0; s + 1 < a->count; s++)
    off[k++] = sl_step_longest_gap_in (gap_before, n, a->pos[s], a->pos[s + 1], a->pos[s]) - a->pos[s];
  qsort (off, k, sizeof (guint), compare_uint);
  best = off[(k - 1) / 2];
  best_score = offset_score (gap_before, n, a, best, tol, scratch);
  for (guint i = 0; i < k; i++)
    {
      gint64 score = i > 0 && off[i] == off[i - 1] ? -1 : offset_score (gap_before, n, a, off[i], tol, scratch);
      if (score > best_score)
        {
          best = off[i];
          best_score = score;
        }
    }
  return best;
}

/* Cuts within an eighth of a period of each anchor occurrence (and one
 * and two periods before the first and after the last) plus the boundary offset, at
 * the longest idle time there; kept when that idle time is at least half
 * the median one of the cuts between occurrences (no cut beside a partial
 * step's end), and at least half a period after the previous cut. */
static void
place_cuts (const gint64 *gap_before, guint n, const Anchor *a, GArray *out)
{
  gint64 off = boundary_offset (gap_before, n, a), L = a->period, tol = MAX (L / 8, 1);
  guint nw = a->count + 4;
  g_autofree guint *cut = g_new (guint, nw);
  g_autofree gint64 *gap = g_new (gint64, nw);
  g_autofree gint64 *inner = g_new (gint64, nw);
  gint64 threshold;
  guint k = 0;

  for (guint w = 0; w < nw; w++)
    {
      gint64 x = off + (w < 2 ? (gint64) a->pos[0] - (2 - w) * L
                        : w >= a->count + 2 ? (gint64) a->pos[a->count - 1] + (w - a->count - 1) * L
                        : a->pos[w - 2]);
      cut[w] = sl_step_longest_gap_in (gap_before, n, x - tol, x + tol + 1, x);
      gap[w] = cut[w] == G_MAXUINT ? -1 : cut[w] == 0 ? 0 : gap_before[cut[w]];
      if (w >= 2 && w < a->count + 1 && cut[w] != G_MAXUINT)
        inner[k++] = gap[w];
    }
  qsort (inner, k, sizeof (gint64), compare_int64);
  threshold = k > 0 ? inner[(k - 1) / 2] / 2 : 0;
  for (guint w = 0; w < nw; w++)
    if (cut[w] != G_MAXUINT && gap[w] >= threshold
        && (out->len == 0 || (gint64) cut[w] >= (gint64) g_array_index (out, guint, out->len - 1) + L / 2))
      g_array_append_val (out, cut[w]);
}

/* The kernels before the first cut (after the last) are a full step when
 * as many as a full step's, within a fiftieth of a period: 0 (n) is then a
 * boundary too. */
static void
close_ends (guint n, guint period, GArray *cuts)
{
  guint lo = G_MAXUINT, hi = 0, tol = MAX (period / 50, 1), head, tail;

  if (cuts->len < 2)
    return;
  for (guint i = 0; i + 1 < cuts->len; i++)
    {
      guint len = g_array_index (cuts, guint, i + 1) - g_array_index (cuts, guint, i);
      lo = MIN (lo, len);
      hi = MAX (hi, len);
    }
  head = g_array_index (cuts, guint, 0);
  tail = n - g_array_index (cuts, guint, cuts->len - 1);
  if (head > 0 && head + tol >= lo && head <= hi + tol)
    {
      guint zero = 0;
      g_array_prepend_val (cuts, zero);
    }
  if (tail > 0 && tail + tol >= lo && tail <= hi + tol)
    g_array_append_val (cuts, n);
}

gboolean
sl_step_anchor_find (const guint32 *dense, guint m, const gint64 *gap_before, guint n, double min_presence,
                     SlStepAnchor *out)
{
  SlStepGrams grams;
  g_autoptr(GArray) anchors = NULL;
  const Anchor *best;

  memset (out, 0, sizeof *out);
  out->boundaries = g_array_new (FALSE, FALSE, sizeof (guint));
  if (n < 3 * MIN_PERIOD || m >= 1u << NAME_BITS)
    return FALSE;
  sl_step_grams_find (dense, m, n, may_be_regular, &grams);
  anchors = regular_anchors (&grams, n);
  best = step_anchor (dense, m, anchors, min_presence);
  if (best != NULL)
    {
      out->period = best->period;
      out->similarity = best->similarity;
      place_cuts (gap_before, n, best, out->boundaries);
      close_ends (n, best->period, out->boundaries);
      if (out->boundaries->len < 3)
        g_array_set_size (out->boundaries, 0);
    }
  sl_step_grams_clear (&grams);   /* the anchors' positions */
  return out->boundaries->len >= 3;
}

void
sl_step_anchor_clear (SlStepAnchor *anchor)
{
  if (anchor->boundaries != NULL)
    g_array_unref (anchor->boundaries);
  anchor->boundaries = NULL;
}
