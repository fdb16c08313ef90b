/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-band-select.c: exact percentiles from a sampled band (see the header). */
#include "sl-band-select.h"
#include "sl-stats.h"

#include <math.h>

#define MIN_SAMPLE 64   /* fewer sampled values: the key keeps every value */

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
    *lo = sl_select_nth (v, n, (gsize) a);
  /* sl_select_nth leaves v[a + 1, n) the values above the a-th: the b-th
   * is among them, in a twentieth of the sample */
  if (b < (gint64) n - 1)
    *hi = a > 0 ? sl_select_nth (v + a + 1, n - a - 1, (gsize) (b - a - 1)) : sl_select_nth (v, n, (gsize) b);
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
  *out = sl_select_nth (k->band, k->n_band, rank - k->below);
  return TRUE;
}

void
_sl_band_grow (gint64 **v, gsize *cap)
{
  *cap = sl_band_cap_after (*cap);
  *v = g_renew (gint64, *v, *cap);
}
