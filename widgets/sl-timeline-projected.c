/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-projected.c: NVTX ranges projected onto a GPU.  The spans are
 * the library's attribution (sl-attribution.h) restricted to the GPU; here
 * they are only laid out in lanes, a lane never drawing two at once. */
#include "sl-timeline-gpu-rows.h"
#include "sl-attribution.h"
#include "sl-lanes.h"
#include "sl-radix.h"

#include <stdlib.h>
#include <string.h>

/* Lanes per nesting depth, and in all: beyond, spans share the last lane. */
#define MAX_LANES_PER_DEPTH 6
#define MAX_LANES           24

typedef struct {
  gint64  start, end;
  guint32 range;
  guint16 depth;
  guint16 lane;
} Entry;

/* Stable bucket sort of @e by @key (depth or lane, below @n_keys): linear,
 * where qsort through a comparator cost most of the model's build. */
static void
bucket_by (Entry *e, guint n, guint n_keys, gboolean by_lane)
{
  g_autofree guint *first = g_new0 (guint, n_keys + 1);
  g_autofree Entry *out = g_new (Entry, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    first[(by_lane ? e[i].lane : e[i].depth) + 1]++;
  for (guint k = 1; k <= n_keys; k++)
    first[k] += first[k - 1];
  for (guint i = 0; i < n; i++)
    out[first[by_lane ? e[i].lane : e[i].depth]++] = e[i];
  memcpy (e, out, n * sizeof *e);
}

/* By depth, then start: a stable bucket pass by depth, then each depth
 * by start with the library's radix sort (the spans come in the order
 * the GPU work touched them; qsort cost 60 ms at 1 M kernels). */
static void
sort_by_depth_start (Entry *e, guint n)
{
  guint n_depths = 0;
  g_autofree SlKeyIndex *keys = g_new (SlKeyIndex, MAX (n, 1));
  g_autofree Entry *tmp = g_new (Entry, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    n_depths = MAX (n_depths, e[i].depth + 1u);
  bucket_by (e, n, n_depths, FALSE);
  for (guint i = 0; i < n;)
    {
      guint j = i;

      for (; j < n && e[j].depth == e[i].depth; j++)
        {
          keys[j - i].key = _sl_time_key (e[j].start);
          keys[j - i].index = j;
        }
      _sl_radix_sort (keys, j - i);
      for (guint k = i; k < j; k++)
        tmp[k] = e[keys[k - i].index];
      i = j;
    }
  memcpy (e, tmp, n * sizeof *e);
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

/* One GPU's projection, sparse: the extent of only the ranges that
 * launched work onto it (and their ancestors), so that eight GPUs cost one
 * walk over the GPU work and the touched ranges, not eight over every
 * range (sl_attribution_project with a filter: 18 ms a GPU at 1 M
 * kernels).  start/end are per global range id, SL_NO_GPU_* when
 * untouched; touched lists the ids set, to reset them for the next GPU. */
typedef struct {
  gint64  *start;
  gint64  *end;
  GArray  *touched;   /* guint32 */
} Scratch;

static void
touch (Scratch *sc, guint32 r, gint64 s, gint64 e)
{
  if (sc->start[r] == SL_NO_GPU_START)
    {
      g_array_append_val (sc->touched, r);
      sc->start[r] = s;
      sc->end[r] = e;
      return;
    }
  sc->start[r] = MIN (sc->start[r], s);
  sc->end[r] = MAX (sc->end[r], e);
}

static void
touch_copies (Scratch *sc, const SlAttribution *attr, const SlCopies *c)
{
  for (guint i = 0; i < c->spans.n; i++)
    if (c->api[i] != SL_NONE && attr->api_range[c->api[i]] != SL_NONE)
      touch (sc, attr->api_range[c->api[i]], c->spans.start[i], sl_spans_end (&c->spans, i));
}

static void
touch_gpu_work (Scratch *sc, const SlProfile *p, const SlAttribution *attr, guint gpu)
{
  for (guint k = 0; k < p->gpus[gpu].n_streams; k++)
    {
      guint32 s = p->gpus[gpu].streams[k];
      const SlStream *st = &p->streams[s];
      const guint32 *kernel_range = attr->kernel_range + attr->kernel_base[s];

      for (guint i = 0; i < st->kernels.spans.n; i++)
        if (kernel_range[i] != SL_NONE)
          touch (sc, kernel_range[i], st->kernels.spans.start[i], sl_spans_end (&st->kernels.spans, i));
      touch_copies (sc, attr, &st->memcpy);
      touch_copies (sc, attr, &st->memset);
    }
}

/* Widens every touched range's ancestors: a walk up stops at an ancestor
 * that already covers the child, as it covers what is above it too once
 * its own walk (it is in the list) is done. */
static void
widen_ancestors (Scratch *sc, const SlProfile *p, const SlAttribution *attr)
{
  for (guint k = 0; k < sc->touched->len; k++)
    {
      guint32 r = g_array_index (sc->touched, guint32, k);
      guint local;
      guint32 t = sl_attribution_range_thread (attr, r, &local);
      const SlNvtxRanges *nv = &p->threads[t].nvtx;
      gint64 s = sc->start[r], e = sc->end[r];

      for (guint32 up = nv->parent[local]; up != SL_NONE; up = nv->parent[up])
        {
          guint32 g = attr->range_base[t] + up;

          if (sc->start[g] <= s && sc->end[g] >= e)
            break;
          touch (sc, g, s, e);
        }
    }
}

/* The ranges that launched work onto GPU @gpu, with their spans there;
 * leaves @sc clean again. */
static GArray *
collect (const SlProfile *p, guint gpu, Scratch *sc)
{
  const SlAttribution *attr = sl_attribution_get (p);
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (Entry));

  touch_gpu_work (sc, p, attr, gpu);
  widen_ancestors (sc, p, attr);
  for (guint k = 0; k < sc->touched->len; k++)
    {
      guint32 r = g_array_index (sc->touched, guint32, k);
      guint local;
      guint32 t = sl_attribution_range_thread (attr, r, &local);
      Entry e = { sc->start[r], MAX (sc->end[r], sc->start[r]), r,
                  sl_nvtx_ranges_depth (&p->threads[t].nvtx, local), 0 };

      g_array_append_val (entries, e);
      sc->start[r] = SL_NO_GPU_START;
      sc->end[r] = SL_NO_GPU_END;
    }
  g_array_set_size (sc->touched, 0);
  return entries;
}

/* Lanes by depth: each depth's spans get lanes of their own below the
 * shallower ones'.  Returns the number of lanes. */
static guint
assign_lanes (Entry *e, guint n)
{
  guint base = 0;

  sort_by_depth_start (e, n);
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
  /* lanes of one depth follow the shallower ones', so a stable bucket
   * pass by lane keeps each lane's spans in start order */
  bucket_by (e, n, MAX_LANES, TRUE);
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

static void
fill_gpu (SlProjected *pr, GArray *entries)
{
  Entry *e = (Entry *) (void *) entries->data;

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
}

static gboolean
has_ranges (const SlProfile *p)
{
  for (guint t = 0; t < p->n_threads; t++)
    if (p->threads[t].nvtx.spans.n > 0)
      return TRUE;
  return FALSE;
}

void
_sl_timeline_projected_build_all (SlTimelineModel *model)
{
  const SlProfile *p = model->profile;
  const SlAttribution *attr;
  Scratch sc;

  /* a staged load's GPU rows have no calls to attribute yet */
  if (!(p->parts & SL_PART_API) || !(p->parts & SL_PART_NVTX) || !has_ranges (p))
    return;
  attr = sl_attribution_get (p);
  if (attr->n_ranges == 0)
    return;
  sc.start = g_new (gint64, attr->n_ranges);
  sc.end = g_new (gint64, attr->n_ranges);
  sc.touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint r = 0; r < attr->n_ranges; r++)
    {
      sc.start[r] = SL_NO_GPU_START;
      sc.end[r] = SL_NO_GPU_END;
    }
  for (guint g = 0; g < p->n_gpus; g++)
    {
      g_autoptr(GArray) entries = collect (p, g, &sc);

      if (entries->len > 0)
        fill_gpu (&model->projected[g], entries);
    }
  g_free (sc.start);
  g_free (sc.end);
  g_array_unref (sc.touched);
}

static gpointer
dup_array (gconstpointer data, guint n, gsize size)
{
  return data != NULL ? g_memdup2 (data, MAX (n, 1) * size) : NULL;
}

void
_sl_timeline_projected_copy (SlTimelineModel *model, const SlTimelineModel *previous)
{
  for (guint g = 0; g < model->profile->n_gpus; g++)
    {
      const SlProjected *from = &previous->projected[g];
      SlProjected *to = &model->projected[g];

      if (from->spans.n == 0)
        continue;
      *to = *from;
      to->spans.start = dup_array (from->spans.start, from->spans.n, sizeof (gint64));
      to->spans.dur = dup_array (from->spans.dur, from->spans.n, sizeof (guint32));
      to->spans.long_index = dup_array (from->spans.long_index, from->spans.n_long, sizeof (guint32));
      to->spans.long_dur = dup_array (from->spans.long_dur, from->spans.n_long, sizeof (gint64));
      to->range = dup_array (from->range, from->spans.n, sizeof (guint32));
      to->lane_first = dup_array (from->lane_first, from->n_lanes + 1, sizeof (guint));
    }
}

void
_sl_timeline_projected_push_rows (SlTimelineModel *model, GArray *rows, guint gpu, guint32 group)
{
  SlProjected *pr = &model->projected[gpu];

  if (pr->spans.n > 0)
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
