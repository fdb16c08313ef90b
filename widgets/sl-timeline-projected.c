/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-projected.c: NVTX ranges projected onto a GPU.  The spans are
 * the library's attribution (sl-attribution.h) restricted to the GPU; here
 * they are only laid out in lanes, a lane never drawing two at once. */
#include "sl-timeline-gpu-rows.h"
#include "sl-attribution.h"
#include "sl-lanes.h"

#include <stdlib.h>

/* Lanes per nesting depth, and in all: beyond, spans share the last lane. */
#define MAX_LANES_PER_DEPTH 6
#define MAX_LANES           24

typedef struct {
  gint64  start, end;
  guint32 range;
  guint16 depth;
  guint16 lane;
} Entry;

static int
by_depth_start (const void *a, const void *b)
{
  const Entry *x = a, *y = b;

  if (x->depth != y->depth)
    return x->depth < y->depth ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

static int
by_lane_start (const void *a, const void *b)
{
  const Entry *x = a, *y = b;

  if (x->lane != y->lane)
    return x->lane < y->lane ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* @spans over entries[0, n): durations of 2^32 ns and more go to the
 * long table, as the loader does. */
static void
spans_fill (SlSpans *spans, const Entry *entries, guint n)
{
  guint n_long = 0;

  spans->n = n;
  spans->start = g_new (gint64, MAX (n, 1));
  spans->dur = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    n_long += entries[i].end - entries[i].start >= SL_LONG_DUR;
  spans->n_long = 0;
  spans->long_index = n_long ? g_new (guint32, n_long) : NULL;
  spans->long_dur = n_long ? g_new (gint64, n_long) : NULL;
  for (guint i = 0; i < n; i++)
    {
      gint64 d = entries[i].end - entries[i].start;

      spans->start[i] = entries[i].start;
      spans->dur[i] = d >= SL_LONG_DUR ? SL_LONG_DUR : (guint32) d;
      if (d >= SL_LONG_DUR)
        {
          spans->long_index[spans->n_long] = i;
          spans->long_dur[spans->n_long++] = d;
        }
    }
}

static void
spans_free (SlSpans *spans)
{
  g_free (spans->start);
  g_free (spans->dur);
  g_free (spans->long_index);
  g_free (spans->long_dur);
}

/* The ranges of every thread that launched work onto GPU @gpu. */
static GArray *
collect (const SlProfile *p, guint gpu)
{
  const SlAttribution *attr = sl_attribution_get (p);
  g_autoptr(SlFilter) filter = sl_filter_new ();
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  gint64 *gs, *ge, *ses, *see;
  gboolean owned;

  sl_filter_add_gpu (filter, p->gpus[gpu].device);
  sl_attribution_project (p, filter, &gs, &ge, &ses, &see, &owned);
  for (guint t = 0; t < p->n_threads && t < attr->n_threads; t++)
    for (guint i = 0; i < p->threads[t].nvtx.spans.n; i++)
      {
        guint32 r = attr->range_base[t] + i;
        Entry e = { gs[r], MAX (ge[r], gs[r]), r, p->threads[t].nvtx.depth[i], 0 };

        if (gs[r] != SL_NO_GPU_START)
          g_array_append_val (entries, e);
      }
  if (owned)
    {
      g_free (gs);
      g_free (ge);
      g_free (ses);
      g_free (see);
    }
  return entries;
}

/* Lanes by depth: each depth's spans get lanes of their own below the
 * shallower ones'.  Returns the number of lanes. */
static guint
assign_lanes (Entry *e, guint n)
{
  guint base = 0;

  qsort (e, n, sizeof *e, by_depth_start);
  for (guint i = 0; i < n;)
    {
      guint j = i, used;
      SlSpans tmp = { 0 };
      g_autofree guint16 *lane = NULL;

      while (j < n && e[j].depth == e[i].depth)
        j++;
      spans_fill (&tmp, e + i, j - i);
      lane = g_new (guint16, j - i);
      used = sl_lanes_assign (&tmp, MAX_LANES_PER_DEPTH, lane);
      for (guint k = i; k < j; k++)
        e[k].lane = (guint16) MIN (base + lane[k - i], MAX_LANES - 1);
      spans_free (&tmp);
      base = MIN (base + used, MAX_LANES - 1);
      i = j;
    }
  qsort (e, n, sizeof *e, by_lane_start);
  return n ? e[n - 1].lane + 1u : 0;
}

static gint64
max_dur (const SlSpans *spans, guint first, guint last)
{
  gint64 m = 0;

  for (guint i = first; i < last; i++)
    m = MAX (m, sl_spans_dur (spans, i));
  return m;
}

static void
push_rows (GArray *rows, SlProjected *pr, guint gpu, guint32 group)
{
  for (guint l = 0; l < pr->n_lanes; l++)
    {
      SlTimelineRow row = { 0 };
      SlSegment *seg = &row.segs[0];
      guint first = pr->lane_first[l], last = pr->lane_first[l + 1];

      if (last <= first)
        continue;
      row.kind = SL_ROW_NVTX_PROJECTED;
      row.level = 1;
      row.index = gpu;
      row.depth = l;
      row.parent = group;
      row.n_segs = 1;
      row.n_events = last - first;
      seg->kind = SL_EVENT_NVTX_PROJECTED;
      seg->spans = &pr->spans;
      seg->first = first;
      seg->count = last - first;
      seg->owner = gpu;
      seg->max_dur = max_dur (&pr->spans, first, last);
      g_array_append_val (rows, row);
    }
}

void
_sl_timeline_projected_build (SlTimelineModel *model, GArray *rows, guint gpu, guint32 group)
{
  const SlProfile *p = model->profile;
  SlProjected *pr = &model->projected[gpu];
  g_autoptr(GArray) entries = NULL;
  Entry *e;

  /* a staged load's GPU rows have no calls to attribute yet */
  if (!(p->parts & SL_PART_API) || !(p->parts & SL_PART_NVTX))
    return;
  entries = collect (p, gpu);
  if (entries->len == 0)
    return;
  e = (Entry *) (void *) entries->data;
  pr->n_lanes = assign_lanes (e, entries->len);
  spans_fill (&pr->spans, e, entries->len);
  pr->range = g_new (guint32, entries->len);
  pr->lane_first = g_new0 (guint, pr->n_lanes + 1);
  for (guint i = 0; i < entries->len; i++)
    {
      pr->range[i] = e[i].range;
      pr->lane_first[e[i].lane + 1] = i + 1;
    }
  /* lanes are contiguous and all used, but keep the table monotonic anyway */
  for (guint l = 1; l <= pr->n_lanes; l++)
    pr->lane_first[l] = MAX (pr->lane_first[l], pr->lane_first[l - 1]);
  push_rows (rows, pr, gpu, group);
}

gboolean
sl_timeline_projected_range (const SlTimelineModel *model, guint gpu, guint index,
                             guint32 *thread, guint *local)
{
  const SlProjected *pr;

  if (model->projected == NULL || gpu >= model->profile->n_gpus)
    return FALSE;
  pr = &model->projected[gpu];
  if (index >= pr->spans.n)
    return FALSE;
  *thread = sl_attribution_range_thread (sl_attribution_get (model->profile), pr->range[index], local);
  return *thread < model->profile->n_threads;
}

guint
sl_timeline_projected_lane (const SlTimelineModel *model, guint gpu, guint index)
{
  const SlProjected *pr = &model->projected[gpu];

  for (guint l = 0; l < pr->n_lanes; l++)
    if (index < pr->lane_first[l + 1])
      return l;
  return 0;
}

/* Whether local range @r of @nv is @ancestor or nested in it. */
static gboolean
within (const SlNvtxRanges *nv, guint32 r, guint32 ancestor)
{
  for (guint steps = 0; r != SL_NONE && r < nv->spans.n && steps < 65536; steps++)
    {
      if (r == ancestor)
        return TRUE;
      r = nv->parent[r];
    }
  return FALSE;
}

gint64
sl_timeline_projected_gpu_time (const SlTimelineModel *model, guint gpu, guint index)
{
  const SlProfile *p = model->profile;
  const SlAttribution *attr = sl_attribution_get (p);
  const SlGpu *g = &p->gpus[gpu];
  guint32 thread;
  guint local;
  gint64 sum = 0, s, e;

  if (!sl_timeline_projected_range (model, gpu, index, &thread, &local))
    return 0;
  s = model->projected[gpu].spans.start[index];
  e = sl_spans_end (&model->projected[gpu].spans, index);
  /* the kernels it launched all start inside its projection */
  for (guint k = 0; k < g->n_streams; k++)
    {
      guint32 st = g->streams[k];
      const SlSpans *ks = &p->streams[st].kernels.spans;
      const guint32 *kr = attr->kernel_range + attr->kernel_base[st];

      for (guint i = sl_spans_lower_bound (ks, s); i < ks->n && ks->start[i] <= e; i++)
        {
          guint l2;

          if (kr[i] == SL_NONE || sl_attribution_range_thread (attr, kr[i], &l2) != thread)
            continue;
          if (within (&p->threads[thread].nvtx, l2, local))
            sum += sl_spans_dur (ks, i);
        }
    }
  return sum;
}
