/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-band-select.c: exact percentiles from a sampled band (see the header). */
#include "sl-band-select.h"
#include "sl-stats.h"

#include <math.h>

#define MIN_SAMPLE 64   /* fewer sampled values: the key keeps every value */
#define NTH_BINS   4096
#define NTH_MIN    8192 /* fewer values: sl_select_nth() at once */

/* The bin of 4096 between @min and @min + (4095 << @shift) that @v is in. */
static inline guint
nth_bin (gint64 v, gint64 min, guint shift)
{
  return (guint) (((guint64) v - (guint64) min) >> shift);
}

/* The @k-th smallest (0-based) of @v[0, n), which is left as it is, all
 * of them in [@lo, @hi] (G_MININT64 and G_MAXINT64 when not known).  A
 * histogram of the values (4096 bins from their minimum to their maximum)
 * tells the bin of the k-th; its values, a few thousandths of them when
 * they are spread, are copied out and selected.  Three reads of @v, each
 * without a branch that depends on a value, instead of quickselect's
 * partitions, whose branch per value is as good as random. */
static gint64
band_nth (const gint64 *v, gsize n, gsize k, gint64 lo, gint64 hi)
{
  g_autofree guint32 *hist = NULL;
  g_autofree gint64 *bin = NULL;
  gint64 min = lo, max = hi;
  guint shift = 0, b = 0;
  gsize below = 0, m = 0;

  if (n < NTH_MIN || n >= G_MAXUINT32)
    return sl_select_nth ((gint64 *) v, n, k);
  if (lo == G_MININT64 || hi == G_MAXINT64)
    {
      min = max = v[0];
      for (gsize i = 1; i < n; i++)
        {
          min = MIN (min, v[i]);
          max = MAX (max, v[i]);
        }
    }
  while ((((guint64) max - (guint64) min) >> shift) >= NTH_BINS)
    shift++;
  hist = g_new0 (guint32, NTH_BINS);
  for (gsize i = 0; i < n; i++)
    hist[nth_bin (v[i], min, shift)]++;
  for (; below + hist[b] <= k; b++)
    below += hist[b];
  bin = g_new (gint64, hist[b]);
  for (gsize i = 0; i < n; i++)
    if (nth_bin (v[i], min, shift) == b)
      bin[m++] = v[i];
  return sl_select_nth (bin, m, k - below);
}

/* The band of a key from its @n sampled values @v: a margin of three
 * standard errors of the sample quantile plus 1 % of the values on each
 * side of the percentile's position, open-ended past the sample's ends.
 * Returns how many sampled values the band holds. */
static gsize
band_of (gint64 *v, guint n, double p, gint64 *lo, gint64 *hi)
{
  double q = p / 100.0 * n, margin = 3.0 * sqrt ((double) n) + 0.01 * n + 2;
  gint64 a = (gint64) floor (q - margin), b = (gint64) ceil (q + margin);

  *lo = G_MININT64;
  *hi = G_MAXINT64;
  if (n < MIN_SAMPLE)
    return n;
  a = MAX (a, 0);
  if (a > 0)
    *lo = band_nth (v, n, (gsize) a, G_MININT64, G_MAXINT64);
  if (b < (gint64) n - 1)
    *hi = band_nth (v, n, (gsize) b, G_MININT64, G_MAXINT64);
  return (gsize) (MIN (b, (gint64) n - 1) - a + 1);
}

void
sl_band_select_init (SlBandSelect *b, guint n_keys, double p, SlBandSample *samples)
{
  b->n_keys = n_keys;
  b->p = p;
  b->keys = g_new0 (SlBandKey, MAX (n_keys, 1));
  for (guint k = 0; k < n_keys; k++)
    {
      b->keys[k].sampled = band_of (samples[k].v, samples[k].n, p, &b->keys[k].lo, &b->keys[k].hi);
      g_clear_pointer (&samples[k].v, g_free);
    }
}

void
sl_band_select_clear (SlBandSelect *b)
{
  for (guint k = 0; k < b->n_keys; k++)
    g_free (b->keys[k].band);
  g_clear_pointer (&b->keys, g_free);
  b->n_keys = 0;
}

void
sl_band_select_reserve (SlBandSelect *b, double scale)
{
  for (guint k = 0; k < b->n_keys; k++)
    {
      SlBandKey *key = &b->keys[k];
      gsize want = (gsize) (key->sampled * scale) + 256;

      if (key->cap < want)
        {
          key->band = g_renew (gint64, key->band, want);
          key->cap = want;
        }
    }
}

gboolean
sl_band_select_get (SlBandSelect *b, guint key, gint64 *out)
{
  const SlBandKey *k = &b->keys[key];
  guint64 rank;

  *out = 0;
  if (k->count == 0)
    return TRUE;
  rank = sl_percentile_rank (k->count, b->p);
  if (rank < k->below || rank - k->below >= k->n_band)
    return FALSE;
  *out = band_nth (k->band, k->n_band, rank - k->below, k->lo, k->hi);
  return TRUE;
}

void
_sl_band_grow (gint64 **v, gsize *cap)
{
  *cap = sl_band_cap_after (*cap);
  *v = g_renew (gint64, *v, *cap);
}
