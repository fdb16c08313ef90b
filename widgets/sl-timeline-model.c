/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-model.c: rows, colours and the events behind them. */
#include "sl-timeline-model-private.h"
#include "sl-timeline-colors.h"
#include "sl-timeline-lod.h"
#include "sl-categories.h"
#include "sl-gpu-busy.h"
#include "sl-timeline-model-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

static gint64
segment_max_dur (const SlSpans *spans, guint first, guint count)
{
  guint32 m = 0;

  for (guint i = first; i < first + count; i++)
    if (spans->dur[i] != SL_LONG_DUR && spans->dur[i] > m)
      m = spans->dur[i];
  gint64 max = m;
  for (guint k = 0; k < spans->n_long; k++)
    if (spans->long_index[k] >= first && spans->long_index[k] < first + count)
      max = MAX (max, spans->long_dur[k]);
  return max;
}

static void
add_segment (SlTimelineRow *row, SlEventKind kind, const SlSpans *spans,
             guint first, guint count, guint32 owner)
{
  SlSegment *seg;

  if (count == 0)
    return;
  g_assert (row->n_segs < G_N_ELEMENTS (row->segs));
  seg = &row->segs[row->n_segs++];
  seg->kind = kind;
  seg->spans = spans;
  seg->first = first;
  seg->count = count;
  seg->owner = owner;
  seg->max_dur = segment_max_dur (spans, first, count);
  row->n_events += count;
}

static SlTimelineRow *
push_row (GArray *rows, SlRowKind kind, guint8 level, guint32 index, guint32 parent)
{
  SlTimelineRow row = { 0 };

  row.kind = kind;
  row.level = level;
  row.index = index;
  row.parent = parent;
  g_array_append_val (rows, row);
  return &g_array_index (rows, SlTimelineRow, rows->len - 1);
}

SlTimelineRow *
_sl_timeline_model_push_row (GArray *rows, SlRowKind kind, guint8 level, guint32 index, guint32 parent)
{
  return push_row (rows, kind, level, index, parent);
}

void
_sl_timeline_model_add_segment (SlTimelineRow *row, SlEventKind kind, const SlSpans *spans,
                                guint first, guint count, guint32 owner)
{
  add_segment (row, kind, spans, first, count, owner);
}

static gboolean
thread_has_events (const SlThread *thread)
{
  return thread->api_count > 0 || thread->nvtx.spans.n > 0 ||
         thread->nvtx_startend.spans.n > 0 || thread->marks.n > 0;
}

/* @previous draws the same GPU work: every stream's kernels are the same arrays. */
static gboolean
same_gpus (const SlTimelineModel *self, const SlTimelineModel *previous)
{
  const SlProfile *p = self->profile, *q = previous->profile;

  if (p->n_streams != q->n_streams || p->n_gpus != q->n_gpus)
    return FALSE;
  for (guint s = 0; s < p->n_streams; s++)
    if (p->streams[s].kernels.spans.start != q->streams[s].kernels.spans.start ||
        p->streams[s].kernels.spans.n != q->streams[s].kernels.spans.n)
      return FALSE;
  return TRUE;
}

static void
build_gpu_rows (SlTimelineModel *self, const SlTimelineModel *previous, GArray *rows)
{
  SlProfile *p = self->profile;

  self->util = g_new0 (SlGpuUtil, MAX (p->n_gpus, 1));
  self->projected = g_new0 (SlProjected, MAX (p->n_gpus, 1));
  /* what @previous built of the same work is copied, not built again: the
   * CPU stage's model is of the very same profile (1 M projected spans
   * cost 75 ms at 1 M kernels), a staged load's complete profile has the
   * GPU-only one's kernels */
  if (previous != NULL && previous->profile == p && previous->projected != NULL)
    _sl_timeline_projected_copy (self, previous);
  else
    _sl_timeline_projected_build_all (self);
  if (previous != NULL && previous->util != NULL && same_gpus (self, previous))
    _sl_timeline_util_copy (self, previous);
  for (guint g = 0; g < p->n_gpus; g++)
    {
      const SlGpu *gpu = &p->gpus[g];
      guint32 group;

      if (gpu->n_streams == 0 && !_sl_timeline_model_gpu_has_metrics (self, g))
        continue;
      group = rows->len;
      push_row (rows, SL_ROW_GPU, 0, g, SL_NONE);
      _sl_timeline_gpu_rows_build (self, rows, g, group);
      for (guint k = 0; k < gpu->n_streams; k++)
        {
          guint32 s = gpu->streams[k];
          SlStream *stream = &p->streams[s];
          SlTimelineRow *row = push_row (rows, SL_ROW_STREAM, 1, s, group);

          add_segment (row, SL_EVENT_KERNEL, &stream->kernels.spans, 0, stream->kernels.spans.n, s);
          add_segment (row, SL_EVENT_MEMCPY, &stream->memcpy.spans, 0, stream->memcpy.spans.n, s);
          add_segment (row, SL_EVENT_MEMSET, &stream->memset.spans, 0, stream->memset.spans.n, s);
        }
      _sl_timeline_model_add_metric_rows (self, rows, g, group);
    }
  _sl_timeline_model_add_metric_devices (self, rows);
}

/* One row per lane of a thread's start/end ranges (their "depth"), so that
 * ranges that overlap in time are drawn one above the other. */
static void
build_lane_rows (GArray *rows, const SlNvtxRanges *ranges, guint32 t, guint32 tgroup)
{
  for (guint lane = 0; lane < ranges->n_depths; lane++)
    {
      guint first = ranges->depth_first[lane];
      guint last = ranges->depth_first[lane + 1];
      SlTimelineRow *row;

      if (last <= first)
        continue;
      row = push_row (rows, SL_ROW_NVTX_STARTEND, 2, t, tgroup);
      row->depth = lane;
      add_segment (row, SL_EVENT_NVTX_STARTEND, &ranges->spans, first, last - first, t);
    }
}

/* A thread's group row and its tracks: API calls, one row per NVTX depth,
 * one per lane of start/end ranges, marks. */
static void
build_thread_rows (SlTimelineModel *self, GArray *rows, guint32 t, guint32 group)
{
  SlProfile *p = self->profile;
  SlThread *thread = &p->threads[t];
  guint32 tgroup = rows->len;

  push_row (rows, SL_ROW_THREAD, 1, t, group);
  if (thread->api_count > 0)
    add_segment (push_row (rows, SL_ROW_API, 2, t, tgroup), SL_EVENT_API,
                 &p->api.spans, thread->api_first, thread->api_count, t);
  /* its OS runtime calls and CPU samples right under its CUDA calls */
  if (self->cpu != NULL)
    _sl_timeline_model_add_cpu_tracks (self, rows, sl_cpu_activity_find_thread (self->cpu, thread->global_tid), tgroup);
  for (guint d = 0; d < thread->nvtx.n_depths; d++)
    {
      guint first = thread->nvtx.depth_first[d];
      guint last = thread->nvtx.depth_first[d + 1];
      SlTimelineRow *row;

      if (last <= first)
        continue;
      row = push_row (rows, SL_ROW_NVTX, 2, t, tgroup);
      row->depth = d;
      add_segment (row, SL_EVENT_NVTX, &thread->nvtx.spans, first, last - first, t);
    }
  build_lane_rows (rows, &thread->nvtx_startend, t, tgroup);
  if (thread->marks.n > 0)
    push_row (rows, SL_ROW_MARKS, 2, t, tgroup)->n_events = thread->marks.n;
}

static void
build_process_rows (SlTimelineModel *self, GArray *rows)
{
  SlProfile *p = self->profile;

  for (guint pi = 0; pi < p->n_processes; pi++)
    {
      const SlProcess *process = &p->processes[pi];
      guint32 group = SL_NONE;

      for (guint k = 0; k < process->n_threads; k++)
        {
          guint32 t = process->threads[k];

          if (!thread_has_events (&p->threads[t]))
            continue;
          if (group == SL_NONE)
            {
              group = rows->len;
              push_row (rows, SL_ROW_PROCESS, 0, pi, SL_NONE);
            }
          build_thread_rows (self, rows, t, group);
        }
      _sl_timeline_model_add_cpu_threads (self, rows, process->pid, group);
    }
  _sl_timeline_model_add_cpu_processes (self, rows);
}

guint8
sl_timeline_model_event_color (const SlTimelineModel *self,
                               SlEventKind            kind,
                               const SlSpans         *spans,
                               guint32                owner,
                               guint                  index)
{
  const SlProfile *p = self->profile;

  switch (kind)
    {
    case SL_EVENT_KERNEL:
      {
        guint32 f = p->streams[owner].kernels.func[index];
        return f < p->n_funcs ? self->func_color[f] : SL_COLOR_OTHER;
      }
    case SL_EVENT_MEMCPY:
      return sl_timeline_colors_for_memcpy (p->streams[owner].memcpy.kind[index]);
    case SL_EVENT_MEMSET:
      return SL_COLOR_MEMSET;
    case SL_EVENT_API:
      {
        guint32 name = p->api.name[index];
        return name < self->n_api_color && self->api_color[name] ? self->api_color[name]
                                                                  : SL_COLOR_API_OTHER;
      }
    case SL_EVENT_NVTX:
      return sl_timeline_colors_for_nvtx (sl_nvtx_ranges_color (&p->threads[owner].nvtx, index),
                                          p->threads[owner].nvtx.name[index]);
    case SL_EVENT_NVTX_STARTEND:
      return sl_timeline_colors_for_nvtx (sl_nvtx_ranges_color (&p->threads[owner].nvtx_startend, index),
                                          p->threads[owner].nvtx_startend.name[index]);
    case SL_EVENT_MARK:
      return SL_COLOR_MARK;
    case SL_EVENT_NVTX_PROJECTED:
      {
        guint32 t;
        guint i;

        if (!sl_timeline_projected_range (self, owner, index, &t, &i))
          return SL_COLOR_NONE;
        return sl_timeline_colors_for_nvtx (sl_nvtx_ranges_color (&p->threads[t].nvtx, i),
                                            p->threads[t].nvtx.name[i]);
      }
    case SL_EVENT_OSRT:
      return _sl_timeline_model_osrt_color (self, owner, index);
    case SL_EVENT_SAMPLE:
    case SL_EVENT_METRIC:
    case SL_EVENT_NONE:
    default:
      return SL_COLOR_NONE;
    }
}

static void
build_colors (SlTimelineModel *self)
{
  SlProfile *p = self->profile;

  const SlCategories *rules = sl_categories_get_default ();
  g_autofree guint16 *cats = sl_categories_classify_funcs (rules, p);
  guint n_cats = sl_categories_get_n_categories (rules);
  g_autofree guint8 *cat_color = g_new0 (guint8, n_cats + 1);

  /* The same categories as the analyses, so colours agree in every view. */
  for (guint c = 0; c < n_cats; c++)
    cat_color[c] = sl_timeline_colors_for_category (sl_categories_get_name (rules, c));
  self->func_color = g_new0 (guint8, MAX (p->n_funcs, 1));
  for (guint f = 0; f < p->n_funcs; f++)
    self->func_color[f] = cats && cats[f] < n_cats ? cat_color[cats[f]] : SL_COLOR_OTHER;

  /* API names are few distinct strings; colour each once. */
  self->n_api_color = sl_strings_count (p->strings);
  self->api_color = g_new0 (guint8, MAX (self->n_api_color, 1));
  for (guint i = 0; i < p->api.spans.n; i++)
    {
      guint32 name = p->api.name[i];
      if (name < self->n_api_color && self->api_color[name] == 0)
        self->api_color[name] = sl_timeline_colors_for_api (sl_strings_get (p->strings, name));
    }
}

/* Bytes per event of the model's arrays (start, dur and the per-kind columns). */
static gsize
event_size (SlEventKind kind)
{
  switch (kind)
    {
    case SL_EVENT_KERNEL:
      return 8 + 4 + 4 * 4;           /* func, corr, api, rowid */
    case SL_EVENT_MEMCPY:
    case SL_EVENT_MEMSET:
      return 8 + 4 + 1 + 8 + 4 + 4;   /* kind, bytes, corr, api */
    case SL_EVENT_API:
      return 8 + 4 + 4 + 4;           /* name, corr */
    case SL_EVENT_NVTX:
    case SL_EVENT_NVTX_STARTEND:
      return 8 + 4 + 4 + 4 + 2 + 2 + 4; /* name, color, domain, depth, parent */
    case SL_EVENT_OSRT:
      return 8 + 4 + 4 + 4 + 2;       /* name, stack, depth */
    case SL_EVENT_MARK:
    case SL_EVENT_NONE:
    default:
      return 8 + 4;
    }
}

/* The row's level-of-detail pyramid over the whole run, fed every event. */
static void
build_pyramid (const SlTimelineModel *self, SlTimelineRow *row)
{
  SlLodBuilder builder;

  _sl_timeline_lod_begin (&builder, &row->lod, self->start_ns, MAX (self->end_ns - self->start_ns, 1),
                          row->n_events);
  for (guint k = 0; k < row->n_segs; k++)
    {
      const SlSegment *seg = &row->segs[k];

      for (guint i = seg->first; i < seg->first + seg->count; i++)
        _sl_timeline_lod_add (&builder, seg->spans->start[i], sl_spans_dur (seg->spans, i),
                              sl_timeline_model_event_color (self, seg->kind, seg->spans, seg->owner, i));
    }
  _sl_timeline_lod_end (&builder);
}

static gboolean
same_events (const SlTimelineRow *a, const SlTimelineRow *b)
{
  if (a->kind != b->kind || a->index != b->index || a->n_segs != b->n_segs)
    return FALSE;
  for (guint k = 0; k < a->n_segs; k++)
    if (a->segs[k].kind != b->segs[k].kind || a->segs[k].spans->start != b->segs[k].spans->start ||
        a->segs[k].spans->dur != b->segs[k].spans->dur || a->segs[k].first != b->segs[k].first ||
        a->segs[k].count != b->segs[k].count)
      return FALSE;
  return TRUE;
}

/* The pyramid of a row of @previous that draws @row's events in the same
 * colours, NULL if none.  A pyramid holds its own origin, so one built
 * over the GPU profile's time range serves the complete profile's. */
static const SlLod *
reusable_pyramid (const SlTimelineModel *self, const SlTimelineModel *previous, const SlTimelineRow *row)
{
  const SlProfile *p = self->profile;

  if (previous == NULL || (row->kind != SL_ROW_STREAM && previous->profile != p) ||
      previous->profile->n_funcs != p->n_funcs ||
      memcmp (previous->func_color, self->func_color, MAX (p->n_funcs, 1)) != 0)
    return NULL;
  for (guint r = 0; r < previous->n_rows; r++)
    if (previous->rows[r].lod.n_levels > 0 && same_events (&previous->rows[r], row))
      return &previous->rows[r].lod;
  return NULL;
}

/* Pyramids for the rows with many events, copied from @previous where it has them. */
static gboolean
build_pyramids (SlTimelineModel *self, const SlTimelineModel *previous, GCancellable *cancellable)
{
  for (guint r = 0; r < self->n_rows; r++)
    {
      SlTimelineRow *row = &self->rows[r];
      const SlLod *reuse;

      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      for (guint k = 0; k < row->n_segs; k++)
        self->event_bytes += (gsize) row->segs[k].count * event_size (row->segs[k].kind);
      if (row->n_events < SL_LOD_MIN_EVENTS || row->n_segs == 0)
        continue;
      reuse = reusable_pyramid (self, previous, row);
      if (reuse != NULL)
        _sl_timeline_lod_copy (&row->lod, reuse);
      else
        build_pyramid (self, row);
      for (guint l = 0; l < row->lod.n_levels; l++)
        self->lod_bytes += 2 * (gsize) row->lod.n[l];
    }
  return TRUE;
}

/* The GPUs' utilization by the definition of `sightline-cli gaps` (the
 * union of a device's kernels; copies are not compute), averaged over the
 * GPUs with activity. */
static void
build_busy (SlTimelineModel *self)
{
  const SlProfile *p = self->profile;
  g_autofree float *dev = g_new0 (float, SL_TIMELINE_BUSY_BINS);
  guint n_active = 0;

  self->busy = g_new0 (float, SL_TIMELINE_BUSY_BINS);
  self->busy_t0 = p->start_ns;
  self->busy_bin_ns = (double) MAX (p->end_ns - p->start_ns, 1) / SL_TIMELINE_BUSY_BINS;
  for (guint g = 0; g < p->n_gpus; g++)
    {
      if (p->gpus[g].n_streams == 0)
        continue;
      n_active++;
      sl_gpu_busy_bins (p, p->gpus[g].device, FALSE, p->start_ns, self->busy_bin_ns, SL_TIMELINE_BUSY_BINS, dev);
      for (guint i = 0; i < SL_TIMELINE_BUSY_BINS; i++)
        self->busy[i] += dev[i];
    }
  if (n_active > 1)
    for (guint i = 0; i < SL_TIMELINE_BUSY_BINS; i++)
      self->busy[i] /= n_active;
}

static void
copy_busy (SlTimelineModel *self, const SlTimelineModel *previous)
{
  self->busy = g_memdup2 (previous->busy, SL_TIMELINE_BUSY_BINS * sizeof (float));
  self->busy_t0 = previous->busy_t0;
  self->busy_bin_ns = previous->busy_bin_ns;
}

SlTimelineModel *
sl_timeline_model_new (SlProfile    *profile,
                       GCancellable *cancellable)
{
  return sl_timeline_model_new_from (profile, NULL, cancellable);
}

SlTimelineModel *
sl_timeline_model_new_from (SlProfile             *profile,
                            const SlTimelineModel *previous,
                            GCancellable          *cancellable)
{
  return sl_timeline_model_new_full (profile, previous, NULL, NULL, cancellable);
}

SlTimelineModel *
sl_timeline_model_new_full (SlProfile             *profile,
                            const SlTimelineModel *previous,
                            SlCpuActivity         *cpu,
                            SlGpuMetrics          *metrics,
                            GCancellable          *cancellable)
{
  g_autoptr(SlTimelineModel) self = NULL;
  GArray *rows;

  g_return_val_if_fail (profile != NULL, NULL);

  self = g_atomic_rc_box_new0 (SlTimelineModel);
  self->profile = sl_profile_ref (profile);
  self->cpu = cpu ? sl_cpu_activity_ref (cpu) : NULL;
  self->metrics = metrics ? sl_gpu_metrics_ref (metrics) : NULL;
  build_colors (self);
  _sl_timeline_model_build_osrt_colors (self);
  _sl_timeline_model_set_extent (self);

  rows = g_array_new (FALSE, TRUE, sizeof (SlTimelineRow));
  build_gpu_rows (self, previous, rows);
  build_process_rows (self, rows);
  self->n_rows = rows->len;
  self->rows = (SlTimelineRow *) (void *) g_array_free (rows, FALSE);
  if (!build_pyramids (self, previous, cancellable) || g_cancellable_is_cancelled (cancellable))
    return NULL;
  if (previous != NULL && same_gpus (self, previous))
    copy_busy (self, previous);
  else
    build_busy (self);
  return g_steal_pointer (&self);
}

SlTimelineModel *
sl_timeline_model_ref (SlTimelineModel *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
model_clear (gpointer data)
{
  SlTimelineModel *self = data;

  for (guint r = 0; r < self->n_rows; r++)
    _sl_timeline_lod_clear (&self->rows[r].lod);
  g_free (self->rows);
  g_free (self->func_color);
  g_free (self->api_color);
  g_free (self->busy);
  _sl_timeline_gpu_rows_clear (self);
  g_free (self->osrt_color);
  g_clear_pointer (&self->cpu, sl_cpu_activity_unref);
  g_clear_pointer (&self->metrics, sl_gpu_metrics_unref);
  sl_profile_unref (self->profile);
}

void
sl_timeline_model_unref (SlTimelineModel *self)
{
  if (self != NULL)
    g_atomic_rc_box_release_full (self, model_clear);
}

guint
sl_timeline_model_group_end (const SlTimelineModel *self,
                             guint                  row)
{
  guint end = row + 1;

  while (end < self->n_rows && self->rows[end].level > self->rows[row].level)
    end++;
  return end;
}

static const SlSpans *
event_spans (const SlProfile *p, const SlEventRef *ev)
{
  switch (ev->kind)
    {
    case SL_EVENT_KERNEL:
      return ev->owner < p->n_streams ? &p->streams[ev->owner].kernels.spans : NULL;
    case SL_EVENT_MEMCPY:
      return ev->owner < p->n_streams ? &p->streams[ev->owner].memcpy.spans : NULL;
    case SL_EVENT_MEMSET:
      return ev->owner < p->n_streams ? &p->streams[ev->owner].memset.spans : NULL;
    case SL_EVENT_API:
      return &p->api.spans;
    case SL_EVENT_NVTX:
      return ev->owner < p->n_threads ? &p->threads[ev->owner].nvtx.spans : NULL;
    case SL_EVENT_NVTX_STARTEND:
      return ev->owner < p->n_threads ? &p->threads[ev->owner].nvtx_startend.spans : NULL;
    case SL_EVENT_MARK:
    case SL_EVENT_NONE:
    default:
      return NULL;
    }
}

gboolean
sl_timeline_model_event_span (const SlTimelineModel *self,
                              const SlEventRef      *ev,
                              gint64                *start,
                              gint64                *end)
{
  const SlProfile *p = self->profile;
  const SlSpans *spans;

  if (ev->kind == SL_EVENT_OSRT || ev->kind == SL_EVENT_SAMPLE || ev->kind == SL_EVENT_METRIC)
    return _sl_timeline_model_cpu_event_span (self, ev, start, end);
  if (ev->kind == SL_EVENT_MARK)
    {
      if (ev->owner >= p->n_threads || ev->index >= p->threads[ev->owner].marks.n)
        return FALSE;
      *start = *end = p->threads[ev->owner].marks.time[ev->index];
      return TRUE;
    }
  if (ev->kind == SL_EVENT_NVTX_PROJECTED)
    spans = self->projected && ev->owner < p->n_gpus ? &self->projected[ev->owner].spans : NULL;
  else
    spans = event_spans (p, ev);
  if (spans == NULL || ev->index >= spans->n)
    return FALSE;
  *start = spans->start[ev->index];
  *end = sl_spans_end (spans, ev->index);
  return TRUE;
}

const char *
sl_timeline_model_event_name (const SlTimelineModel *self,
                              const SlEventRef      *ev)
{
  const SlProfile *p = self->profile;
  gint64 s, e;

  if (!sl_timeline_model_event_span (self, ev, &s, &e))
    return "";
  switch (ev->kind)
    {
    case SL_EVENT_KERNEL:
      return sl_profile_kernel_name (p, p->streams[ev->owner].kernels.func[ev->index], FALSE);
    case SL_EVENT_MEMCPY:
      return sl_memcpy_kind_name (p->streams[ev->owner].memcpy.kind[ev->index]);
    case SL_EVENT_MEMSET:
      return _("Memset");
    case SL_EVENT_API:
      return sl_strings_get (p->strings, p->api.name[ev->index]);
    case SL_EVENT_NVTX:
      return sl_strings_get (p->strings, p->threads[ev->owner].nvtx.name[ev->index]);
    case SL_EVENT_NVTX_STARTEND:
      return sl_strings_get (p->strings, p->threads[ev->owner].nvtx_startend.name[ev->index]);
    case SL_EVENT_MARK:
      return sl_strings_get (p->strings, p->threads[ev->owner].marks.name[ev->index]);
    case SL_EVENT_NVTX_PROJECTED:
      {
        guint32 t;
        guint i;

        if (!sl_timeline_projected_range (self, ev->owner, ev->index, &t, &i))
          return "";
        return sl_strings_get (p->strings, p->threads[t].nvtx.name[i]);
      }
    case SL_EVENT_OSRT:
    case SL_EVENT_SAMPLE:
    case SL_EVENT_METRIC:
      return _sl_timeline_model_cpu_event_name (self, ev);
    case SL_EVENT_NONE:
    default:
      return "";
    }
}

guint
sl_timeline_model_event_row (const SlTimelineModel *self,
                             const SlEventRef      *ev)
{
  SlRowKind kind;
  guint32 index = ev->owner;
  guint depth = 0;

  switch (ev->kind)
    {
    case SL_EVENT_KERNEL:
    case SL_EVENT_MEMCPY:
    case SL_EVENT_MEMSET:
      kind = SL_ROW_STREAM;
      break;
    case SL_EVENT_API:
      kind = SL_ROW_API;
      index = sl_profile_api_thread (self->profile, ev->index);
      break;
    case SL_EVENT_NVTX:
      kind = SL_ROW_NVTX;
      if (ev->owner < self->profile->n_threads && ev->index < self->profile->threads[ev->owner].nvtx.spans.n)
        depth = sl_nvtx_ranges_depth (&self->profile->threads[ev->owner].nvtx, ev->index);
      break;
    case SL_EVENT_NVTX_STARTEND:
      kind = SL_ROW_NVTX_STARTEND;
      if (ev->owner < self->profile->n_threads &&
          ev->index < self->profile->threads[ev->owner].nvtx_startend.spans.n)
        depth = sl_nvtx_ranges_depth (&self->profile->threads[ev->owner].nvtx_startend, ev->index);
      break;
    case SL_EVENT_MARK:
      kind = SL_ROW_MARKS;
      break;
    case SL_EVENT_NVTX_PROJECTED:
      kind = SL_ROW_NVTX_PROJECTED;
      if (self->projected == NULL || ev->owner >= self->profile->n_gpus)
        return SL_NONE;
      depth = sl_timeline_projected_lane (self, ev->owner, ev->index);
      break;
    case SL_EVENT_OSRT:
    case SL_EVENT_SAMPLE:
    case SL_EVENT_METRIC:
      return _sl_timeline_model_cpu_event_row (self, ev);
    case SL_EVENT_NONE:
    default:
      return SL_NONE;
    }
  for (guint r = 0; r < self->n_rows; r++)
    if (self->rows[r].kind == kind && self->rows[r].index == index &&
        ((kind != SL_ROW_NVTX && kind != SL_ROW_NVTX_STARTEND && kind != SL_ROW_NVTX_PROJECTED) ||
         self->rows[r].depth == depth))
      return r;
  return SL_NONE;
}

/* GPU work starts after its launch, usually within milliseconds: the
 * operations launched by @api on one stream are among the 20000 that start
 * first after the call.  Appends them to @out (SlEventRef). */
static void
find_in_ops (const SlSpans *spans, const guint32 *api_of, guint32 api, gint64 from,
             SlEventKind kind, guint32 stream, GArray *out)
{
  guint i = sl_spans_lower_bound (spans, from);
  guint limit = MIN (spans->n, i + 20000);

  for (; i < limit; i++)
    if (api_of[i] == api)
      {
        SlEventRef ev = { kind, stream, i };
        g_array_append_val (out, ev);
      }
}

static gint
compare_by_start (gconstpointer a, gconstpointer b, gpointer data)
{
  const SlTimelineModel *self = data;
  gint64 sa = 0, sb = 0, e;

  sl_timeline_model_event_span (self, a, &sa, &e);
  sl_timeline_model_event_span (self, b, &sb, &e);
  return sa < sb ? -1 : sa > sb;
}

guint
sl_timeline_model_find_all_launched (const SlTimelineModel *self,
                                     guint                  api,
                                     GArray                *out)
{
  const SlProfile *p = self->profile;
  guint before = out->len;
  gint64 t;

  if (api >= p->api.spans.n)
    return 0;
  t = p->api.spans.start[api];
  for (guint s = 0; s < p->n_streams; s++)
    {
      const SlStream *st = &p->streams[s];

      if (st->kernels.api != NULL)
        find_in_ops (&st->kernels.spans, st->kernels.api, api, t, SL_EVENT_KERNEL, s, out);
      if (st->memcpy.api != NULL)
        find_in_ops (&st->memcpy.spans, st->memcpy.api, api, t, SL_EVENT_MEMCPY, s, out);
      if (st->memset.api != NULL)
        find_in_ops (&st->memset.spans, st->memset.api, api, t, SL_EVENT_MEMSET, s, out);
    }
  /* streams were visited in order: sort what this call found by start */
  g_qsort_with_data ((SlEventRef *) (void *) out->data + before, out->len - before,
                     sizeof (SlEventRef), compare_by_start, (gpointer) self);
  return out->len - before;
}

gboolean
sl_timeline_model_find_launched (const SlTimelineModel *self,
                                 guint                  api,
                                 SlEventRef            *out)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (SlEventRef));

  if (sl_timeline_model_find_all_launched (self, api, all) == 0)
    return FALSE;
  *out = g_array_index (all, SlEventRef, 0);
  return TRUE;
}
