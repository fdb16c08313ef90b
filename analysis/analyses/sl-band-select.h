/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-band-select.h: one exact percentile of each of many keys' values in
 * one pass over them, when a sample of the values tells about where it
 * lies.
 *
 * SlStatsTable finds order statistics in two or more passes (sums and
 * histograms, then the values of a narrow window); a pass can cost most of
 * an analysis when each value is dear to read (a kernel's queue delay reads
 * its launching call).  Here a sample gives each key a band of values around
 * its percentile; the pass counts the values below the band and keeps those
 * inside it, and the percentile is exact whenever its rank falls inside the
 * band (checked): the caller then selects it among the band's values.  When
 * it does not (a sample unlike the values), the caller takes the slow way. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One key: its band and what the pass found. */
typedef struct {
  gint64   lo;             /* the band is [lo, hi] */
  gint64   hi;
  guint64  count;          /* values seen */
  __int128 total;          /* their sum, exact (see sl_sat_from_i128) */
  guint64  below;          /* values < lo */
  gint64  *band;           /* the values in [lo, hi] */
  gsize    n_band;
  gsize    cap;
  gsize    sampled;        /* sampled values inside the band */
} SlBandKey;

typedef struct {
  guint      n_keys;
  double     p;            /* the percentile (0 < p <= 100) */
  SlBandKey *keys;
} SlBandSelect;

/* Sampled values of one key. */
typedef struct {
  gint64 *v;
  gsize   n;
  gsize   cap;
} SlBandSample;

void     _sl_band_grow        (gint64 **v, gsize *cap);

/* The capacity a full band of @cap values grows to. */
static inline gsize
sl_band_cap_after (gsize cap)
{
  return MAX (2 * cap, 256);
}

static inline void
sl_band_sample_add (SlBandSample *s, gint64 v)
{
  if (G_UNLIKELY (s->n == s->cap))
    _sl_band_grow (&s->v, &s->cap);
  s->v[s->n++] = v;
}

/* Bands for the @p-th percentile of @n_keys keys from @samples[key]
 * (few values: the key keeps every value), then freed. */
void     sl_band_select_init  (SlBandSelect *b, guint n_keys, double p, SlBandSample *samples);
void     sl_band_select_clear (SlBandSelect *b);
/* Room in each key's band for @scale times the sampled values inside it
 * (and some): what the pass will keep there when the sample is one value
 * in @scale, so that the bands need not grow (each growth copies). */
void     sl_band_select_reserve (SlBandSelect *b, double scale);

static inline void
sl_band_key_add (SlBandKey *k, gint64 v)
{
  k->count++;
  k->total += v;
  if (v < k->lo)
    k->below++;
  else if (v <= k->hi)
    {
      if (G_UNLIKELY (k->n_band == k->cap))
        _sl_band_grow (&k->band, &k->cap);
      k->band[k->n_band++] = v;
    }
}

/* The percentile of @key into *@out (0 without values); FALSE when its rank
 * is outside the band (the pass could not find it). */
gboolean sl_band_select_get   (SlBandSelect *b, guint key, gint64 *out);

G_END_DECLS
