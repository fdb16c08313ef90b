/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-attribution.c: API call -> NVTX range attribution and GPU projections,
 * computed once per profile and cached. */
#include "sl-attribution.h"

#include <string.h>

static void
attribution_free (SlAttribution *attr)
{
  if (attr == NULL)
    return;
  g_free (attr->range_base);
  g_free (attr->api_range);
  g_free (attr->gpu_start);
  g_free (attr->gpu_end);
  g_free (attr->se_base);
  g_free (attr->se_gpu_start);
  g_free (attr->se_gpu_end);
  g_free (attr->api_max_dur);
  g_free (attr->kernel_base);
  g_free (attr->kernel_range);
  g_free (attr);
}

guint32
sl_nvtx_innermost_at (const SlNvtxRanges *r, gint64 t)
{
  guint32 best = SL_NONE;

  for (guint d = 0; d < r->n_depths; d++)
    {
      guint lo = r->depth_first[d], hi = r->depth_first[d + 1], p;

      /* last range of this depth starting at or before t */
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          if (r->spans.start[mid] <= t)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo == r->depth_first[d])
        break;
      p = lo - 1;
      if (t >= sl_spans_end (&r->spans, p) || (d > 0 && r->parent[p] != best))
        break;
      best = p;
    }
  return best;
}

/* Range @p of depth row [.., row_end) owns the calls starting in
 * [start, *end): from its start to its end or the next range's start in
 * the row, whichever is first ("the last range starting at or before the
 * call", as sl_nvtx_innermost_at()).  FALSE when it owns none. */
static gboolean
owned_window (const SlNvtxRanges *r, guint p, guint row_end, gint64 *end)
{
  *end = sl_spans_end (&r->spans, p);
  if (p + 1 < row_end)
    *end = MIN (*end, r->spans.start[p + 1]);
  return *end > r->spans.start[p];
}

/* For each API call of a thread (sorted by start), the innermost push/pop
 * range containing its start: the range of depth d whose window holds the
 * call, when the call's range so far is that range's parent (the chain of
 * sl_nvtx_innermost_at(), which stops at the first depth that fails).
 * Depth by depth, each range paints the calls of its window, one slice of
 * the sorted calls: tight loops over calls instead of a walk down the
 * depths per call. */
static void
attribute_thread (const SlProfile *profile, const SlThread *thread, guint base, guint32 *api_range)
{
  const SlNvtxRanges *r = &thread->nvtx;
  const gint64 *api_start = profile->api.spans.start;
  guint first = thread->api_first, last = thread->api_first + thread->api_count;

  for (guint i = first; i < last; i++)
    api_range[i] = SL_NONE;
  for (guint d = 0; d < r->n_depths; d++)
    {
      guint row_end = r->depth_first[d + 1], c = first;
      for (guint p = r->depth_first[d]; p < row_end; p++)
        {
          guint32 parent = d == 0 ? SL_NONE : r->parent[p];
          gint64 end;
          /* a call's chain is at depth d - 1: a parent elsewhere never matches it */
          if ((d > 0 && (parent == SL_NONE || parent < r->depth_first[d - 1] || parent >= r->depth_first[d]))
              || !owned_window (r, p, row_end, &end))
            continue;
          while (c < last && api_start[c] < r->spans.start[p])
            c++;
          for (; c < last && api_start[c] < end; c++)
            if (d == 0 || api_range[c] == base + parent)
              api_range[c] = base + p;
        }
    }
}

static inline void
widen (gint64 *start, gint64 *end, guint32 at, gint64 s, gint64 e)
{
  if (s < start[at])
    start[at] = s;
  if (e > end[at])
    end[at] = e;
}

/* Start/end ranges are rare and may overlap.  Each covers a slice of its
 * thread's API calls; the slices' ends cut the API calls into segments, a
 * range covers whole segments, and the GPU extent of each segment (of the
 * operations launched by its calls) gives the ranges'.  So the operations
 * are walked once, with a few segments, not an extent per API call (16
 * bytes each: 160 MB and its page faults on 10 M calls). */
typedef struct {
  guint  *cut;             /* n_cuts ascending API indexes */
  guint   n_cuts;
  gint64 *start;           /* per segment [cut[m], cut[m + 1]): the GPU extent */
  gint64 *end;
  guint   last;            /* the segment found last (operations mostly ascend) */
} Segments;

/* The segment holding API call @a, or G_MAXUINT outside [cut[0], cut[n - 1]). */
static inline guint
segment_of (Segments *sg, guint a)
{
  guint lo = 0, hi = sg->n_cuts;

  if (sg->n_cuts < 2 || a < sg->cut[0] || a >= sg->cut[sg->n_cuts - 1])
    return G_MAXUINT;
  if (a >= sg->cut[sg->last] && a < sg->cut[sg->last + 1])
    return sg->last;
  while (lo < hi)          /* the first cut > a */
    {
      guint mid = lo + (hi - lo) / 2;
      if (sg->cut[mid] <= a)
        lo = mid + 1;
      else
        hi = mid;
    }
  sg->last = lo - 1;
  return lo - 1;
}

/* Copies widen their call's range and, with @sg, its segment. */
static void
project_ops (const SlAttribution *attr, const SlSpans *spans, const guint32 *api,
             gint64 *gpu_start, gint64 *gpu_end, Segments *sg)
{
  for (guint i = 0; i < spans->n; i++)
    {
      guint32 a = api[i];
      guint m;
      if (a == SL_NONE)
        continue;
      if (attr->api_range[a] != SL_NONE)
        widen (gpu_start, gpu_end, attr->api_range[a], spans->start[i], sl_spans_end (spans, i));
      m = sg != NULL ? segment_of (sg, a) : G_MAXUINT;
      if (m != G_MAXUINT)
        widen (sg->start, sg->end, m, spans->start[i], sl_spans_end (spans, i));
    }
}

static int
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* The slice [*lo, *hi) of API calls of thread @t inside start/end range @i. */
static void
range_calls (const SlProfile *profile, guint t, guint i, guint *lo, guint *hi)
{
  const SlThread *thread = &profile->threads[t];
  const SlNvtxRanges *r = &thread->nvtx_startend;
  guint end = thread->api_first + thread->api_count;

  *lo = sl_spans_lower_bound_in (&profile->api.spans, thread->api_first, end, r->spans.start[i]);
  *hi = sl_spans_lower_bound_in (&profile->api.spans, *lo, end, sl_spans_end (&r->spans, i));
}

/* The segments' cuts: the ends of every range's slice, sorted, unique. */
static void
segment_cuts (const SlProfile *profile, Segments *sg)
{
  GArray *cuts = g_array_new (FALSE, FALSE, sizeof (guint));
  guint k = 0;

  for (guint t = 0; t < profile->n_threads; t++)
    for (guint i = 0; i < profile->threads[t].nvtx_startend.spans.n; i++)
      {
        guint ends[2];
        range_calls (profile, t, i, &ends[0], &ends[1]);
        if (ends[0] < ends[1])
          g_array_append_vals (cuts, ends, 2);
      }
  g_array_sort (cuts, compare_uint);
  for (guint i = 0; i < cuts->len; i++)
    if (k == 0 || g_array_index (cuts, guint, i) != g_array_index (cuts, guint, k - 1))
      g_array_index (cuts, guint, k++) = g_array_index (cuts, guint, i);
  sg->n_cuts = k;
  sg->cut = (guint *) (void *) g_array_free (cuts, FALSE);
}

/* Ranges whose projections are widened per pass of project_kernels(). */
#define CHUNK_RANGES (1u << 16)

/* Kernels widen their ranges (cached in kernel_range) and, with @sg, the
 * segments of their calls.  By chunks of range ids: a stream's kernels
 * mostly go to ascending ranges, so the projections of a chunk are
 * widened while in the cache, instead of every stream sweeping all of
 * them (a cache miss per kernel).  Any order widens the same. */
static void
project_kernels (const SlProfile *profile, const SlAttribution *attr, const SlFilter *filter,
                 gint64 *gpu_start, gint64 *gpu_end, Segments *sg)
{
  g_autofree guint *next = g_new0 (guint, MAX (profile->n_streams, 1));

  for (guint64 chunk_end = CHUNK_RANGES;; chunk_end += CHUNK_RANGES)
    {
      gboolean last = chunk_end >= attr->n_ranges;
      for (guint s = 0; s < profile->n_streams; s++)
        {
          const SlKernels *k = &profile->streams[s].kernels;
          const guint32 *kernel_range = attr->kernel_range + attr->kernel_base[s];
          guint i = next[s];
          if (!sl_filter_match_device (filter, profile->streams[s].device))
            continue;
          for (; i < k->spans.n && (last || kernel_range[i] == SL_NONE || kernel_range[i] < chunk_end); i++)
            {
              gint64 start = k->spans.start[i], end = sl_spans_end (&k->spans, i);
              guint m = sg != NULL && k->api[i] != SL_NONE ? segment_of (sg, k->api[i]) : G_MAXUINT;
              if (kernel_range[i] != SL_NONE)
                widen (gpu_start, gpu_end, kernel_range[i], start, end);
              if (m != G_MAXUINT)
                widen (sg->start, sg->end, m, start, end);
            }
          next[s] = i;
        }
      if (last)
        return;
    }
}

/* The segments of the start/end ranges' calls (see Segments), with no
 * extent yet; NULL when there are none. */
static Segments *
segments_new (const SlProfile *profile, const SlAttribution *attr)
{
  Segments *sg;

  if (attr->n_se_ranges == 0)
    return NULL;
  sg = g_new0 (Segments, 1);
  segment_cuts (profile, sg);
  sg->start = g_new (gint64, MAX (sg->n_cuts, 1));
  sg->end = g_new (gint64, MAX (sg->n_cuts, 1));
  for (guint m = 0; m < sg->n_cuts; m++)
    {
      sg->start[m] = SL_NO_GPU_START;
      sg->end[m] = SL_NO_GPU_END;
    }
  return sg;
}

static void
segments_free (Segments *sg)
{
  g_free (sg->cut);
  g_free (sg->start);
  g_free (sg->end);
  g_free (sg);
}

/* Each start/end range: the extent of the segments it covers. */
static void
project_startend (const SlProfile *profile, const SlAttribution *attr, Segments *sg, gint64 *se_start, gint64 *se_end)
{
  for (guint i = 0; i < attr->n_se_ranges; i++)
    {
      se_start[i] = SL_NO_GPU_START;
      se_end[i] = SL_NO_GPU_END;
    }
  for (guint t = 0; t < profile->n_threads && sg != NULL; t++)
    for (guint i = 0; i < profile->threads[t].nvtx_startend.spans.n; i++)
      {
        guint lo, hi, g = attr->se_base[t] + i;
        range_calls (profile, t, i, &lo, &hi);
        for (guint m = lo < hi ? segment_of (sg, lo) : G_MAXUINT; m != G_MAXUINT && sg->cut[m] < hi; m++)
          if (sg->start[m] != SL_NO_GPU_START)
            widen (se_start, se_end, g, sg->start[m], sg->end[m]);
      }
}

/* Projections of push/pop ranges: each GPU op widens its innermost range
 * (kernels: cached in kernel_range; copies: through their API call), then
 * children widen their parents (deeper rows come later in each thread's
 * array, so a reverse walk sees children first).  Start/end ranges from
 * the same walk of the operations (project_startend). */
static void
project (const SlProfile *profile, const SlAttribution *attr, const SlFilter *filter,
         gint64 *gpu_start, gint64 *gpu_end, gint64 *se_start, gint64 *se_end)
{
  Segments *sg = segments_new (profile, attr);

  if (sg != NULL && sg->n_cuts < 2)
    g_clear_pointer (&sg, segments_free);
  for (guint i = 0; i < attr->n_ranges; i++)
    {
      gpu_start[i] = SL_NO_GPU_START;
      gpu_end[i] = SL_NO_GPU_END;
    }
  project_kernels (profile, attr, filter, gpu_start, gpu_end, sg);
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];
      if (!sl_filter_match_device (filter, stream->device))
        continue;
      project_ops (attr, &stream->memcpy.spans, stream->memcpy.api, gpu_start, gpu_end, sg);
      project_ops (attr, &stream->memset.spans, stream->memset.api, gpu_start, gpu_end, sg);
    }
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;
      guint base = attr->range_base[t];

      for (guint i = r->spans.n; i-- > 0;)
        if (r->parent[i] != SL_NONE && gpu_start[base + i] != SL_NO_GPU_START)
          widen (gpu_start, gpu_end, base + r->parent[i], gpu_start[base + i], gpu_end[base + i]);
    }
  project_startend (profile, attr, sg, se_start, se_end);
  if (sg != NULL)
    segments_free (sg);
}

/* Calls whose ranges are read per pass of kernel_ranges(): 1 MB of api_range. */
#define CHUNK_CALLS (1u << 18)

/* Each kernel's range (its launching call's), read sequentially by the
 * tree and the search.  By chunks of calls: a stream's launching calls
 * mostly ascend, so each stream stops at the chunk's end and api_range is
 * read a chunk at a time while in the cache, instead of every stream
 * sweeping all of it (a cache miss per kernel).  Any order fills every
 * kernel once. */
static void
kernel_ranges_of (const SlProfile *profile, SlAttribution *attr, guint s_first, guint s_end)
{
  g_autofree guint *next = g_new0 (guint, MAX (profile->n_streams, 1));
  guint n_api = profile->api.spans.n;

  for (guint64 chunk_end = CHUNK_CALLS;; chunk_end += CHUNK_CALLS)
    {
      gboolean last = chunk_end >= n_api;
      for (guint s = s_first; s < s_end; s++)
        {
          const SlKernels *k = &profile->streams[s].kernels;
          guint32 *out = attr->kernel_range + attr->kernel_base[s];
          guint i = next[s];
          for (; i < k->spans.n && (last || k->api[i] == SL_NONE || k->api[i] < chunk_end); i++)
            out[i] = k->api[i] == SL_NONE ? SL_NONE : attr->api_range[k->api[i]];
          next[s] = i;
        }
      if (last)
        return;
    }
}

/* Thread @t's calls attributed, and its longest call. */
static void
attribute_one (const SlProfile *profile, SlAttribution *attr, guint t)
{
  const SlThread *thread = &profile->threads[t];
  gint64 longest = 0;

  attribute_thread (profile, thread, attr->range_base[t], attr->api_range);
  for (guint i = thread->api_first; i < thread->api_first + thread->api_count; i++)
    {
      gint64 d = sl_spans_dur (&profile->api.spans, i);
      if (d > longest)
        longest = d;
    }
  attr->api_max_dur[t] = longest;
}

/* Work shared by two threads, taken an item at a time. */
typedef struct {
  const SlProfile *profile;
  SlAttribution   *attr;
  guint            next;      /* atomic */
  guint            half;      /* atomic: the next half of the streams */
} TwoWork;

/* Threads are independent (each writes its calls' slice of api_range):
 * taken one at a time by whichever worker is free. */
static gpointer
attribute_threads (gpointer data)
{
  TwoWork *w = data;
  guint t;

  while ((t = (guint) g_atomic_int_add (&w->next, 1)) < w->profile->n_threads)
    attribute_one (w->profile, w->attr, t);
  return NULL;
}

static void
kernel_base (const SlProfile *profile, SlAttribution *attr)
{
  attr->kernel_base = g_new (guint, profile->n_streams + 1);
  attr->kernel_base[0] = 0;
  for (guint s = 0; s < profile->n_streams; s++)
    attr->kernel_base[s + 1] = attr->kernel_base[s] + profile->streams[s].kernels.spans.n;
  attr->kernel_range = g_new (guint32, MAX (attr->kernel_base[profile->n_streams], 1));
}

/* Streams are independent (each writes its kernels' slice of
 * kernel_range): two halves of the kernels' streams, taken one at a time
 * by whichever worker is free. */
static gpointer
kernel_ranges (gpointer data)
{
  TwoWork *w = data;
  const SlProfile *profile = w->profile;
  guint half, mid = 0, total = w->attr->kernel_base[profile->n_streams];

  while (mid < profile->n_streams && w->attr->kernel_base[mid + 1] <= total / 2)
    mid++;
  while ((half = (guint) g_atomic_int_add (&w->half, 1)) < 2)
    kernel_ranges_of (profile, w->attr, half == 0 ? 0 : mid, half == 0 ? mid : profile->n_streams);
  return NULL;
}

/* Runs @step on this thread and, when there are two cores and @n items
 * make it worth a thread, on a second one: each step takes work until
 * none is left, so one alone does it all. */
static void
in_two (const SlProfile *profile, SlAttribution *attr, guint64 n, GThreadFunc step)
{
  TwoWork w = { profile, attr, 0, 0 };
  GThread *helper = NULL;

  if (n >= 100000 && g_get_num_processors () > 1)
    helper = g_thread_new ("sl-attribution", step, &w);
  step (&w);
  if (helper != NULL)
    g_thread_join (helper);
}

static SlAttribution *
attribution_compute (const SlProfile *profile)
{
  SlAttribution *attr = g_new0 (SlAttribution, 1);
  guint n_api = profile->api.spans.n;

  attr->n_threads = profile->n_threads;
  attr->range_base = g_new (guint, profile->n_threads + 1);
  attr->se_base = g_new (guint, profile->n_threads + 1);
  attr->api_max_dur = g_new0 (gint64, MAX (profile->n_threads, 1));
  for (guint t = 0; t < profile->n_threads; t++)
    {
      attr->range_base[t] = attr->n_ranges;
      attr->se_base[t] = attr->n_se_ranges;
      attr->n_ranges += profile->threads[t].nvtx.spans.n;
      attr->n_se_ranges += profile->threads[t].nvtx_startend.spans.n;
    }
  attr->range_base[profile->n_threads] = attr->n_ranges;
  attr->se_base[profile->n_threads] = attr->n_se_ranges;

  attr->api_range = g_new (guint32, MAX (n_api, 1));
  in_two (profile, attr, n_api, attribute_threads);
  kernel_base (profile, attr);
  in_two (profile, attr, attr->kernel_base[profile->n_streams], kernel_ranges);

  attr->gpu_start = g_new (gint64, MAX (attr->n_ranges, 1));
  attr->gpu_end = g_new (gint64, MAX (attr->n_ranges, 1));
  attr->se_gpu_start = g_new (gint64, MAX (attr->n_se_ranges, 1));
  attr->se_gpu_end = g_new (gint64, MAX (attr->n_se_ranges, 1));
  project (profile, attr, NULL, attr->gpu_start, attr->gpu_end, attr->se_gpu_start, attr->se_gpu_end);
  return attr;
}

static gpointer
attribution_build (const SlProfile *profile)
{
  return attribution_compute (profile);
}

const SlAttribution *
sl_attribution_get (const SlProfile *profile)
{
  g_return_val_if_fail (profile != NULL, NULL);
  /* Computed once per profile and freed with it. */
  return sl_profile_get_derived (profile, "sl-attribution", attribution_build,
                                 (GDestroyNotify) attribution_free);
}

guint32
sl_attribution_range_thread (const SlAttribution *attr, guint32 range, guint *local)
{
  guint lo = 0, hi = attr->n_threads;

  g_return_val_if_fail (range < attr->n_ranges, SL_NONE);
  /* The first thread whose ranges end after @range. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (attr->range_base[mid + 1] <= range)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (local != NULL)
    *local = range - attr->range_base[lo];
  return lo;
}

void
sl_attribution_project (const SlProfile *profile, const SlFilter *filter,
                        gint64 **gpu_start, gint64 **gpu_end,
                        gint64 **se_gpu_start, gint64 **se_gpu_end, gboolean *owned)
{
  const SlAttribution *attr = sl_attribution_get (profile);

  if (filter == NULL || filter->gpus->len == 0)
    {
      *gpu_start = attr->gpu_start;
      *gpu_end = attr->gpu_end;
      *se_gpu_start = attr->se_gpu_start;
      *se_gpu_end = attr->se_gpu_end;
      *owned = FALSE;
      return;
    }
  *gpu_start = g_new (gint64, MAX (attr->n_ranges, 1));
  *gpu_end = g_new (gint64, MAX (attr->n_ranges, 1));
  *se_gpu_start = g_new (gint64, MAX (attr->n_se_ranges, 1));
  *se_gpu_end = g_new (gint64, MAX (attr->n_se_ranges, 1));
  project (profile, attr, filter, *gpu_start, *gpu_end, *se_gpu_start, *se_gpu_end);
  *owned = TRUE;
}
