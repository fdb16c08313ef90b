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

/* For each API call of a thread (sorted by start), the innermost push/pop
 * range containing its start.  One pointer per depth moves forward only, so
 * this is linear in calls x depth of the answer plus ranges. */
static void
attribute_thread (const SlProfile *profile, const SlThread *thread, guint base, guint32 *api_range)
{
  const SlNvtxRanges *r = &thread->nvtx;
  const gint64 *api_start = profile->api.spans.start;
  g_autofree guint *ptr = NULL;

  if (r->spans.n == 0 || r->n_depths == 0)
    {
      for (guint i = 0; i < thread->api_count; i++)
        api_range[thread->api_first + i] = SL_NONE;
      return;
    }

  ptr = g_new (guint, r->n_depths);
  for (guint d = 0; d < r->n_depths; d++)
    ptr[d] = r->depth_first[d];

  for (guint i = thread->api_first; i < thread->api_first + thread->api_count; i++)
    {
      gint64 t = api_start[i];
      guint32 best = SL_NONE;

      for (guint d = 0; d < r->n_depths; d++)
        {
          guint row_end = r->depth_first[d + 1];
          guint p = ptr[d];

          if (p >= row_end)
            break;
          while (p + 1 < row_end && r->spans.start[p + 1] <= t)
            p++;
          ptr[d] = p;
          if (r->spans.start[p] > t || t >= sl_spans_end (&r->spans, p)
              || (d > 0 && r->parent[p] != best))
            break;
          best = p;
        }
      api_range[i] = best == SL_NONE ? SL_NONE : base + best;
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

static void
project_ops (const SlAttribution *attr, const SlSpans *spans, const guint32 *api,
             gint64 *gpu_start, gint64 *gpu_end)
{
  for (guint i = 0; i < spans->n; i++)
    {
      guint32 a = api[i], r;
      if (a == SL_NONE)
        continue;
      r = attr->api_range[a];
      if (r == SL_NONE)
        continue;
      widen (gpu_start, gpu_end, r, spans->start[i], sl_spans_end (spans, i));
    }
}

/* Projections of push/pop ranges: each GPU op widens its innermost range,
 * then children widen their parents (deeper rows come later in each thread's
 * array, so a reverse walk sees children first). */
static void
project_pushpop (const SlProfile *profile, const SlAttribution *attr, const SlFilter *filter,
                 gint64 *gpu_start, gint64 *gpu_end)
{
  for (guint i = 0; i < attr->n_ranges; i++)
    {
      gpu_start[i] = SL_NO_GPU_START;
      gpu_end[i] = SL_NO_GPU_END;
    }
  if (attr->n_ranges == 0)
    return;

  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];
      const SlSpans *k = &stream->kernels.spans;
      const guint32 *kernel_range = attr->kernel_range + attr->kernel_base[s];

      if (!sl_filter_match_device (filter, stream->device))
        continue;
      /* kernels: their range is cached; copies: through their API call */
      for (guint i = 0; i < k->n; i++)
        if (kernel_range[i] != SL_NONE)
          widen (gpu_start, gpu_end, kernel_range[i], k->start[i], sl_spans_end (k, i));
      project_ops (attr, &stream->memcpy.spans, stream->memcpy.api, gpu_start, gpu_end);
      project_ops (attr, &stream->memset.spans, stream->memset.api, gpu_start, gpu_end);
    }

  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;
      guint base = attr->range_base[t];

      for (guint i = r->spans.n; i-- > 0;)
        if (r->parent[i] != SL_NONE && gpu_start[base + i] != SL_NO_GPU_START)
          widen (gpu_start, gpu_end, base + r->parent[i], gpu_start[base + i], gpu_end[base + i]);
    }
}

static void
add_api_ops (const SlSpans *spans, const guint32 *api, gint64 *api_s, gint64 *api_e)
{
  for (guint i = 0; i < spans->n; i++)
    if (api[i] != SL_NONE)
      widen (api_s, api_e, api[i], spans->start[i], sl_spans_end (spans, i));
}

/* Start/end ranges are rare and may overlap, so they take the plain way:
 * the GPU extent of every API call, then a scan of the calls inside each. */
static void
project_startend (const SlProfile *profile, const SlAttribution *attr, const SlFilter *filter,
                  gint64 *se_start, gint64 *se_end)
{
  g_autofree gint64 *api_s = NULL;
  g_autofree gint64 *api_e = NULL;
  guint n_api = profile->api.spans.n;

  for (guint i = 0; i < attr->n_se_ranges; i++)
    {
      se_start[i] = SL_NO_GPU_START;
      se_end[i] = SL_NO_GPU_END;
    }
  if (attr->n_se_ranges == 0 || n_api == 0)
    return;

  api_s = g_new (gint64, n_api);
  api_e = g_new (gint64, n_api);
  for (guint i = 0; i < n_api; i++)
    {
      api_s[i] = SL_NO_GPU_START;
      api_e[i] = SL_NO_GPU_END;
    }
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];
      if (!sl_filter_match_device (filter, stream->device))
        continue;
      add_api_ops (&stream->kernels.spans, stream->kernels.api, api_s, api_e);
      add_api_ops (&stream->memcpy.spans, stream->memcpy.api, api_s, api_e);
      add_api_ops (&stream->memset.spans, stream->memset.api, api_s, api_e);
    }

  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlThread *thread = &profile->threads[t];
      const SlNvtxRanges *r = &thread->nvtx_startend;
      guint lo_all = thread->api_first, hi_all = thread->api_first + thread->api_count;

      for (guint i = 0; i < r->spans.n; i++)
        {
          guint g = attr->se_base[t] + i;
          guint a = sl_spans_lower_bound_in (&profile->api.spans, lo_all, hi_all, r->spans.start[i]);
          gint64 end = sl_spans_end (&r->spans, i);

          for (; a < hi_all && profile->api.spans.start[a] < end; a++)
            if (api_s[a] != SL_NO_GPU_START)
              widen (se_start, se_end, g, api_s[a], api_e[a]);
        }
    }
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
  for (guint t = 0; t < profile->n_threads; t++)
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

  /* Each kernel's range, read sequentially by the tree and the search. */
  attr->kernel_base = g_new (guint, profile->n_streams + 1);
  attr->kernel_base[0] = 0;
  for (guint s = 0; s < profile->n_streams; s++)
    attr->kernel_base[s + 1] = attr->kernel_base[s] + profile->streams[s].kernels.spans.n;
  attr->kernel_range = g_new (guint32, MAX (attr->kernel_base[profile->n_streams], 1));
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlKernels *k = &profile->streams[s].kernels;
      guint32 *out = attr->kernel_range + attr->kernel_base[s];
      for (guint i = 0; i < k->spans.n; i++)
        out[i] = k->api[i] == SL_NONE ? SL_NONE : attr->api_range[k->api[i]];
    }

  attr->gpu_start = g_new (gint64, MAX (attr->n_ranges, 1));
  attr->gpu_end = g_new (gint64, MAX (attr->n_ranges, 1));
  project_pushpop (profile, attr, NULL, attr->gpu_start, attr->gpu_end);
  attr->se_gpu_start = g_new (gint64, MAX (attr->n_se_ranges, 1));
  attr->se_gpu_end = g_new (gint64, MAX (attr->n_se_ranges, 1));
  project_startend (profile, attr, NULL, attr->se_gpu_start, attr->se_gpu_end);
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
  project_pushpop (profile, attr, filter, *gpu_start, *gpu_end);
  project_startend (profile, attr, filter, *se_gpu_start, *se_gpu_end);
  *owned = TRUE;
}
