/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-iterations-launches.c: how many GPU operations of a process were
 * launched inside a CPU interval, the test of NVTX step ranges.
 *
 * A launch is counted at its API call.  Each thread's calls are contiguous
 * and sorted by start in the profile's API array, so one pass over the GPU
 * operations counts the operations per call, and the operations launched
 * in [s, e) by a process are, per thread of it, the sum of the counts of a
 * slice of calls found by binary search: no sorted array of every launch
 * time (a sort of 8 bytes per GPU operation).  A call launches 0 or 1
 * operation but for graph launches, so a count is a byte (saturating, the
 * rest kept aside), and a sum per block of calls makes a slice's sum a
 * few dozen byte additions: a byte per call, not 4 or 8, which on large
 * profiles spares most of the page faults of a fresh array. */
#include "sl-iterations-private.h"

#define BLOCK_BITS 6       /* calls per block sum: 64 */

struct _SlIterLaunches {
  guint8     *count;       /* per API call, 255 when saturated */
  GHashTable *beyond;      /* call -> operations beyond 255 (graph launches) */
  guint64    *block;       /* per block of calls: operations of the blocks before */
  gboolean    has_range;   /* the filter's window on launch times */
  gint64      range_start;
  gint64      range_end;
};

/* Calls counted per pass: their counts stay in the cache. */
#define CHUNK_CALLS (1u << 20)

typedef struct {
  const guint32 *api;
  guint          n;
  guint          next;     /* the first operation not counted yet */
} Source;

static inline void
count_call (SlIterLaunches *self, guint32 a)
{
  if (G_LIKELY (self->count[a] < 255))
    self->count[a]++;
  else
    g_hash_table_insert (self->beyond, GUINT_TO_POINTER (a),
                         GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (self->beyond, GUINT_TO_POINTER (a))) + 1));
}

/* The operations launched by call @a. */
static inline guint64
call_count (const SlIterLaunches *self, guint a)
{
  guint64 c = self->count[a];

  if (G_UNLIKELY (c == 255))
    c += GPOINTER_TO_UINT (g_hash_table_lookup (self->beyond, GUINT_TO_POINTER (a)));
  return c;
}

/* Counts the launching calls of every source, by chunks of calls: a
 * stream's launching calls mostly ascend, so each source stops at the
 * chunk's end and the counts of a chunk are written while it is in the
 * cache, instead of every stream sweeping all of them in turn (a cache
 * miss per operation).  Any order counts every operation once. */
static void
count_calls (SlIterLaunches *self, guint n_api, Source *src, guint n_src)
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
              count_call (self, api[i]);
          src[k].next = i;
        }
      if (last)
        return;
    }
}

/* self->block[b]: the operations of the calls before block b. */
static void
block_sums (SlIterLaunches *self, guint n_api, guint n_blocks)
{
  GHashTableIter iter;
  gpointer key, value;

  self->block = g_new0 (guint64, n_blocks + 1);
  for (guint b = 0; b + 1 < n_blocks; b++)
    {
      const guint8 *c = self->count + ((gsize) b << BLOCK_BITS);
      guint sum = 0;
      for (guint i = 0; i < 1u << BLOCK_BITS; i++)   /* a fixed length: vectorized */
        sum += c[i];
      self->block[b + 1] = sum;
    }
  for (guint a = (n_blocks - 1) << BLOCK_BITS; a < n_api; a++)
    self->block[n_blocks] += self->count[a];
  g_hash_table_iter_init (&iter, self->beyond);
  while (g_hash_table_iter_next (&iter, &key, &value))
    self->block[(GPOINTER_TO_UINT (key) >> BLOCK_BITS) + 1] += GPOINTER_TO_UINT (value);
  for (guint b = 0; b < n_blocks; b++)
    self->block[b + 1] += self->block[b];
}

SlIterLaunches *
sl_iter_launches_new (const SlProfile *profile, const SlFilter *filter)
{
  SlIterLaunches *self = g_new0 (SlIterLaunches, 1);
  g_autoptr(GArray) src = g_array_new (FALSE, FALSE, sizeof (Source));
  guint n_api = profile->api.spans.n, n_blocks = (n_api >> BLOCK_BITS) + 1;

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
  self->count = g_new0 (guint8, MAX (n_api, 1));
  self->beyond = g_hash_table_new (NULL, NULL);
  count_calls (self, n_api, (Source *) (void *) src->data, src->len);
  block_sums (self, n_api, n_blocks);
  return self;
}

void
sl_iter_launches_free (SlIterLaunches *self)
{
  if (self == NULL)
    return;
  g_free (self->count);
  g_hash_table_unref (self->beyond);
  g_free (self->block);
  g_free (self);
}

/* Operations launched by calls [0, a). */
static guint64
launched_before (const SlIterLaunches *self, guint a)
{
  guint64 sum = self->block[a >> BLOCK_BITS];

  for (guint i = a & ~((1u << BLOCK_BITS) - 1); i < a; i++)
    sum += call_count (self, i);
  return sum;
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
      count += launched_before (self, hi) - launched_before (self, lo);
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
      count += launched_before (self, t->api_first + t->api_count) - launched_before (self, t->api_first);
    }
  return count;
}
