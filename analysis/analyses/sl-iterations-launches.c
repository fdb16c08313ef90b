/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-iterations-launches.c: how many GPU operations of a process were
 * launched inside a CPU interval, the test of NVTX step ranges.
 *
 * A launch is counted at its API call.  Each thread's calls are contiguous
 * and sorted by start in the profile's API array, so one pass over the GPU
 * operations counts the operations per call, a prefix sum turns the counts
 * into cumulative ones, and the operations launched in [s, e) by a process
 * are, per thread of it, the difference of two cumulative counts found by
 * binary search: no sorted array of every launch time (a sort of 8 bytes
 * per GPU operation) and no pass per candidate range. */
#include "sl-iterations-private.h"

struct _SlIterLaunches {
  /* API calls [0, a) launched cum[a] operations (modulo 2^32: the
   * difference of two is exact while a process launches < 2^32). */
  guint32 *cum;
  gboolean has_range;      /* the filter's window on launch times */
  gint64   range_start;
  gint64   range_end;
};

/* Calls counted per pass: a few MB of cum[] stay in the cache. */
#define CHUNK_CALLS (1u << 18)

typedef struct {
  const guint32 *api;
  guint          n;
  guint          next;     /* the first operation not counted yet */
} Source;

/* Counts the launching calls of every source into cum[a + 1], by chunks
 * of calls: a stream's launching calls mostly ascend, so each source
 * stops at the chunk's end and the counts of a chunk are written while it
 * is in the cache, instead of every stream sweeping all of cum[] in turn
 * (a cache miss per operation).  Any order counts every operation once. */
static void
count_calls (guint32 *cum, guint n_api, Source *src, guint n_src)
{
  for (guint64 chunk_end = CHUNK_CALLS;; chunk_end += CHUNK_CALLS)
    {
      gboolean last = chunk_end >= n_api;

      for (guint k = 0; k < n_src; k++)
        {
          const guint32 *api = src[k].api;
          guint i = src[k].next, n = src[k].n;
          for (; i < n && (last || api[i] == SL_NONE || api[i] < chunk_end); i++)
            if (api[i] != SL_NONE)
              cum[api[i] + 1]++;
          src[k].next = i;
        }
      if (last)
        return;
    }
}

SlIterLaunches *
sl_iter_launches_new (const SlProfile *profile, const SlFilter *filter)
{
  SlIterLaunches *self = g_new0 (SlIterLaunches, 1);
  g_autoptr(GArray) src = g_array_new (FALSE, FALSE, sizeof (Source));
  guint n_api = profile->api.spans.n;

  /* The window applies to launch times at query time (see sl_iter_launches_in). */
  self->has_range = filter != NULL && filter->has_range;
  if (self->has_range)
    {
      self->range_start = filter->range_start;
      self->range_end = filter->range_end;
    }
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *st = &profile->streams[s];
      Source ops[] = { { st->kernels.api, st->kernels.spans.n, 0 }, { st->memcpy.api, st->memcpy.spans.n, 0 },
                       { st->memset.api, st->memset.spans.n, 0 } };
      if (sl_filter_match_device (filter, st->device))
        g_array_append_vals (src, ops, G_N_ELEMENTS (ops));
    }
  self->cum = g_new0 (guint32, (gsize) n_api + 1);
  count_calls (self->cum, n_api, (Source *) (void *) src->data, src->len);
  for (guint a = 0; a < n_api; a++)
    self->cum[a + 1] += self->cum[a];
  return self;
}

void
sl_iter_launches_free (SlIterLaunches *self)
{
  if (self == NULL)
    return;
  g_free (self->cum);
  g_free (self);
}

guint64
sl_iter_launches_in (const SlIterLaunches *self, const SlProfile *profile, guint32 pid, gint64 s, gint64 e)
{
  guint32 p = sl_profile_find_process (profile, pid);
  guint64 count = 0;

  if (self->has_range)
    {
      s = MAX (s, self->range_start);
      e = MIN (e, self->range_end);
    }
  if (p == SL_NONE || s >= e)
    return 0;
  for (guint i = 0; i < profile->processes[p].n_threads; i++)
    {
      const SlThread *t = &profile->threads[profile->processes[p].threads[i]];
      guint lo = sl_spans_lower_bound_in (&profile->api.spans, t->api_first, t->api_first + t->api_count, s);
      guint hi = sl_spans_lower_bound_in (&profile->api.spans, lo, t->api_first + t->api_count, e);
      count += (guint32) (self->cum[hi] - self->cum[lo]);
    }
  return count;
}

guint64
sl_iter_launches_total (const SlIterLaunches *self, const SlProfile *profile, guint32 pid)
{
  guint32 p = sl_profile_find_process (profile, pid);
  guint64 count = 0;

  if (self->has_range)
    return sl_iter_launches_in (self, profile, pid, self->range_start, self->range_end);
  for (guint i = 0; p != SL_NONE && i < profile->processes[p].n_threads; i++)
    {
      const SlThread *t = &profile->threads[profile->processes[p].threads[i]];
      count += (guint32) (self->cum[t->api_first + t->api_count] - self->cum[t->api_first]);
    }
  return count;
}
