/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-duration-histogram.c: log-scale bins and nearest-rank percentiles. */
#include "sl-duration-histogram.h"

#include <math.h>
#include <string.h>

#include "sl-kernel-summary.h"
#include "sl-stats.h"

/* Edges equal in log scale between max (min, 1) and max + 1, as integers:
 * a bin whose rounded edges coincide with its neighbour's is dropped, so
 * short spans get fewer, one-nanosecond-wide bins instead of empty ones. */
static void
make_edges (SlDurationHistogram *h, guint max_bins)
{
  double lo = log ((double) MAX (h->min_ns, 1));
  double hi = log ((double) h->max_ns + 1.0);
  guint n = 0;

  h->edges = g_new (gint64, max_bins + 1);
  h->edges[n++] = h->min_ns;
  for (guint i = 1; i < max_bins; i++)
    {
      gint64 e = (gint64) ceil (exp (lo + (hi - lo) * i / max_bins));
      if (e > h->edges[n - 1] && e <= h->max_ns)
        h->edges[n++] = e;
    }
  h->edges[n] = h->max_ns + 1;
  h->n_bins = n;
}

static void
set_percentiles (SlDurationHistogram *h, const gint64 *values, gsize n)
{
  g_autofree gint64 *copy = g_memdup2 (values, n * sizeof *values);

  h->p50_ns = sl_select_nth (copy, n, sl_percentile_rank (n, 50));
  h->p90_ns = sl_select_nth (copy, n, sl_percentile_rank (n, 90));
  h->p99_ns = sl_select_nth (copy, n, sl_percentile_rank (n, 99));
}

SlDurationHistogram *
sl_duration_histogram_new (const gint64 *values, gsize n, guint max_bins)
{
  SlDurationHistogram *h = g_new0 (SlDurationHistogram, 1);

  g_return_val_if_fail (max_bins > 0, h);
  h->n = n;
  if (n == 0)
    {
      h->edges = g_new0 (gint64, 1);
      h->counts = g_new0 (guint64, 1);
      return h;
    }
  h->min_ns = h->max_ns = values[0];
  for (gsize i = 1; i < n; i++)
    {
      h->min_ns = MIN (h->min_ns, values[i]);
      h->max_ns = MAX (h->max_ns, values[i]);
    }
  make_edges (h, max_bins);
  h->counts = g_new0 (guint64, h->n_bins);
  for (gsize i = 0; i < n; i++)
    h->counts[sl_duration_histogram_bin_of (h, values[i])]++;
  set_percentiles (h, values, n);
  return h;
}

void
sl_duration_histogram_free (SlDurationHistogram *h)
{
  if (h == NULL)
    return;
  g_free (h->edges);
  g_free (h->counts);
  g_free (h);
}

guint
sl_duration_histogram_bin_of (const SlDurationHistogram *h, gint64 value)
{
  guint lo = 0, hi;

  g_return_val_if_fail (h != NULL, G_MAXUINT);
  hi = h->n_bins;
  if (hi == 0 || value < h->edges[0] || value >= h->edges[hi])
    return G_MAXUINT;
  /* the last edge <= value */
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (h->edges[mid] <= value)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* Per kernel function: 1 when @name names it in @style. */
static guint8 *
func_mask (const SlProfile *profile, const char *name, SlNameStyle style, gboolean *any)
{
  guint8 *mask = g_new0 (guint8, MAX (profile->n_funcs, 1));

  *any = FALSE;
  for (guint32 f = 0; f < profile->n_funcs; f++)
    {
      const char *s = sl_strings_get (profile->strings, sl_kernel_func_name_id (profile, f, style));
      mask[f] = s != NULL && strcmp (s, name) == 0;
      *any |= mask[f];
    }
  return mask;
}

GArray *
sl_kernel_instances_named (const SlProfile *profile, const SlFilter *filter, const char *name)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (SlKernelInstance));
  g_autofree guint8 *mask = NULL;
  gboolean any;

  g_return_val_if_fail (profile != NULL && name != NULL, out);
  /* the name as `kernels` lists it (short names), else as --demangled does */
  mask = func_mask (profile, name, SL_NAMES_SHORT, &any);
  if (!any)
    {
      g_free (mask);
      mask = func_mask (profile, name, SL_NAMES_DEMANGLED, &any);
    }
  for (guint s = 0; any && s < profile->n_streams; s++)
    {
      const SlKernels *k = &profile->streams[s].kernels;
      guint first, last;

      if (!sl_filter_match_stream (filter, &profile->streams[s]))
        continue;
      sl_filter_span_bounds (filter, &k->spans, 0, k->spans.n, &first, &last);
      for (guint i = first; i < last; i++)
        if (k->func[i] < profile->n_funcs && mask[k->func[i]])
          {
            SlKernelInstance in = { s, i, sl_spans_dur (&k->spans, i) };
            g_array_append_val (out, in);
          }
    }
  return out;
}

gint64 *
sl_kernel_instances_durations (GArray *instances)
{
  gint64 *d = g_new (gint64, MAX (instances->len, 1));

  for (guint i = 0; i < instances->len; i++)
    d[i] = g_array_index (instances, SlKernelInstance, i).dur_ns;
  return d;
}
