/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-cpu-rows.c: the timeline model's rows of the CPU side (OS
 * runtime calls, CPU samples) and of the GPU counters, and their events. */
#include "sl-timeline-model-private.h"
#include "sl-timeline-colors.h"
#include "sl-timeline-rows.h"
#include "sl-capture-extent.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* Calls in which the thread waits (blocked, not working) share the
 * CUDA sync colour: "is it waiting?" is the question OS runtime rows answer. */
static gboolean
osrt_is_wait (const char *name)
{
  static const char * const waits[] = { "wait", "poll", "select", "sleep", "sem_", "futex",
                                        "pthread_join", "pthread_mutex_lock", "pthread_rwlock",
                                        "accept", "recv", "sigsuspend", "pause" };

  for (guint k = 0; k < G_N_ELEMENTS (waits); k++)
    if (strstr (name, waits[k]) != NULL)
      return TRUE;
  return FALSE;
}

void
_sl_timeline_model_build_osrt_colors (SlTimelineModel *self)
{
  const SlCpuActivity *cpu = self->cpu;

  if (cpu == NULL)
    return;
  self->osrt_color = g_new0 (guint8, MAX (cpu->n_names, 1));
  for (guint t = 0; t < cpu->n_threads; t++)
    {
      const SlOsrtCalls *osrt = &cpu->threads[t].osrt;

      for (guint i = 0; i < osrt->spans.n; i++)
        {
          guint32 name = osrt->name[i];

          if (name >= cpu->n_names || self->osrt_color[name] != 0)
            continue;
          self->osrt_color[name] = osrt_is_wait (sl_cpu_activity_name (cpu, name))
                                   ? SL_COLOR_API_SYNC : sl_timeline_colors_for_nvtx (0, name);
        }
    }
}

guint8
_sl_timeline_model_osrt_color (const SlTimelineModel *self,
                               guint32                ct,
                               guint                  index)
{
  guint32 name = self->cpu->threads[ct].osrt.name[index];

  return name < self->cpu->n_names && self->osrt_color[name] ? self->osrt_color[name]
                                                              : SL_COLOR_API_OTHER;
}

void
_sl_timeline_model_add_cpu_tracks (SlTimelineModel *self,
                                   GArray          *rows,
                                   guint32          ct,
                                   guint32          tgroup)
{
  const SlCpuThread *th;

  if (self->cpu == NULL || ct >= self->cpu->n_threads)
    return;
  th = &self->cpu->threads[ct];
  for (guint d = 0; d < th->osrt.n_depths; d++)
    {
      guint first = th->osrt.depth_first[d], last = th->osrt.depth_first[d + 1];
      SlTimelineRow *row;

      if (last <= first)
        continue;
      row = _sl_timeline_model_push_row (rows, SL_ROW_OSRT, 2, ct, tgroup);
      row->depth = d;
      _sl_timeline_model_add_segment (row, SL_EVENT_OSRT, &th->osrt.spans, first, last - first, ct);
    }
  if (th->samples.n > 0)
    _sl_timeline_model_push_row (rows, SL_ROW_SAMPLES, 2, ct, tgroup)->n_events = th->samples.n;
}

/* A thread the profile has no row for (no CUDA or NVTX events) that has
 * something to draw. */
static gboolean
cpu_only (const SlCpuThread *th)
{
  return th->thread == SL_NONE && (th->osrt.spans.n > 0 || th->samples.n > 0);
}

/* The first cpu thread of @pid (threads are sorted by pid, tid). */
static guint
first_of_pid (const SlCpuActivity *cpu, guint32 pid)
{
  guint lo = 0, hi = cpu->n_threads;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (cpu->threads[mid].pid < pid)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
_sl_timeline_model_add_cpu_threads (SlTimelineModel *self,
                                    GArray          *rows,
                                    guint32          pid,
                                    guint32          group)
{
  const SlCpuActivity *cpu = self->cpu;

  if (cpu == NULL)
    return;
  for (guint ct = first_of_pid (cpu, pid); ct < cpu->n_threads && cpu->threads[ct].pid == pid; ct++)
    if (cpu_only (&cpu->threads[ct]))
      {
        guint32 tgroup;

        if (group == SL_NONE)
          {
            group = rows->len;
            _sl_timeline_model_push_row (rows, SL_ROW_CPU_PROCESS, 0, pid, SL_NONE);
          }
        tgroup = rows->len;

        _sl_timeline_model_push_row (rows, SL_ROW_CPU_THREAD, 1, ct, group);
        _sl_timeline_model_add_cpu_tracks (self, rows, ct, tgroup);
      }
}

void
_sl_timeline_model_add_cpu_processes (SlTimelineModel *self,
                                      GArray          *rows)
{
  const SlCpuActivity *cpu = self->cpu;

  if (cpu == NULL)
    return;
  for (guint ct = 0; ct < cpu->n_threads; ct++)
    {
      guint32 pid = cpu->threads[ct].pid;

      if (ct > 0 && cpu->threads[ct - 1].pid == pid)
        continue;
      if (sl_profile_find_process (self->profile, pid) != SL_NONE)
        continue;   /* its threads went with the profile's process */
      _sl_timeline_model_add_cpu_threads (self, rows, pid, SL_NONE);
    }
}

void
_sl_timeline_model_set_extent (SlTimelineModel *self)
{
  sl_capture_extent (self->profile, self->cpu, self->metrics, &self->start_ns, &self->end_ns);
}

gboolean
_sl_timeline_model_gpu_has_metrics (const SlTimelineModel *self,
                                    guint32                gpu)
{
  if (self->metrics == NULL)
    return FALSE;
  for (guint s = 0; s < self->metrics->n_series; s++)
    if (self->metrics->series[s].gpu == gpu && self->metrics->series[s].n > 0)
      return TRUE;
  return FALSE;
}

void
_sl_timeline_model_add_metric_rows (SlTimelineModel *self,
                                    GArray          *rows,
                                    guint32          gpu,
                                    guint32          group)
{
  if (self->metrics == NULL)
    return;
  for (guint s = 0; s < self->metrics->n_series; s++)
    if (self->metrics->series[s].gpu == gpu && self->metrics->series[s].n > 0)
      _sl_timeline_model_push_row (rows, SL_ROW_METRIC, 1, s, group)->n_events = self->metrics->series[s].n;
}

void
_sl_timeline_model_add_metric_devices (SlTimelineModel *self,
                                       GArray          *rows)
{
  const SlGpuMetrics *m = self->metrics;
  guint32 group = SL_NONE, device = G_MAXUINT32;

  if (m == NULL)
    return;
  /* series are sorted by device: one group per run of a device */
  for (guint s = 0; s < m->n_series; s++)
    {
      if (m->series[s].gpu != SL_NONE || m->series[s].n == 0)
        continue;
      if (group == SL_NONE || m->series[s].device != device)
        {
          device = m->series[s].device;
          group = rows->len;
          _sl_timeline_model_push_row (rows, SL_ROW_METRIC_DEVICE, 0, device, SL_NONE);
        }
      _sl_timeline_model_push_row (rows, SL_ROW_METRIC, 1, s, group)->n_events = m->series[s].n;
    }
}

gboolean
_sl_timeline_model_cpu_event_span (const SlTimelineModel *self,
                                   const SlEventRef      *ev,
                                   gint64                *start,
                                   gint64                *end)
{
  if (ev->kind == SL_EVENT_METRIC)
    {
      const SlMetricSeries *ser;

      if (self->metrics == NULL || ev->owner >= self->metrics->n_series)
        return FALSE;
      ser = &self->metrics->series[ev->owner];
      if (ev->index >= ser->n)
        return FALSE;
      /* a counter's value holds until the next sample */
      *start = ser->time[ev->index];
      *end = ev->index + 1 < ser->n ? ser->time[ev->index + 1] : *start;
      return TRUE;
    }
  if (self->cpu == NULL || ev->owner >= self->cpu->n_threads)
    return FALSE;
  if (ev->kind == SL_EVENT_OSRT)
    {
      const SlSpans *spans = &self->cpu->threads[ev->owner].osrt.spans;

      if (ev->index >= spans->n)
        return FALSE;
      *start = spans->start[ev->index];
      *end = sl_spans_end (spans, ev->index);
      return TRUE;
    }
  if (ev->kind == SL_EVENT_SAMPLE && ev->index < self->cpu->threads[ev->owner].samples.n)
    {
      *start = *end = self->cpu->threads[ev->owner].samples.time[ev->index];
      return TRUE;
    }
  return FALSE;
}

const char *
_sl_timeline_model_cpu_event_name (const SlTimelineModel *self,
                                   const SlEventRef      *ev)
{
  const SlCpuThread *th;

  if (ev->kind == SL_EVENT_METRIC)
    return self->metrics->series[ev->owner].name;
  th = &self->cpu->threads[ev->owner];
  if (ev->kind == SL_EVENT_OSRT)
    return sl_cpu_activity_name (self->cpu, th->osrt.name[ev->index]);
  /* a sample is named by the function it caught running: its leaf frame */
  if (th->samples.stack[ev->index] != SL_NONE)
    {
      guint n = 0;
      guint32 leaf = sl_cpu_activity_stack_frames (self->cpu, th->samples.stack[ev->index], &n);

      if (n > 0)
        return sl_cpu_activity_name (self->cpu, self->cpu->frame_symbol[leaf]);
    }
  return sl_thread_state_name (th->samples.state[ev->index]);
}

guint
_sl_timeline_model_cpu_event_row (const SlTimelineModel *self,
                                  const SlEventRef      *ev)
{
  SlRowKind kind = ev->kind == SL_EVENT_OSRT ? SL_ROW_OSRT
                   : ev->kind == SL_EVENT_SAMPLE ? SL_ROW_SAMPLES : SL_ROW_METRIC;
  guint depth = 0;
  gint64 s, e;

  if (!_sl_timeline_model_cpu_event_span (self, ev, &s, &e))
    return SL_NONE;
  if (kind == SL_ROW_OSRT)
    depth = self->cpu->threads[ev->owner].osrt.depth[ev->index];
  for (guint r = 0; r < self->n_rows; r++)
    if (self->rows[r].kind == kind && self->rows[r].index == ev->owner &&
        (kind != SL_ROW_OSRT || self->rows[r].depth == depth))
      return r;
  return SL_NONE;
}

static char *
metric_title (const SlMetricSeries *ser)
{
  if (ser->unit != NULL && *ser->unit)
    /* Translators: a GPU counter row: its name and unit, "SM Active (Throughput %)" */
    return g_strdup_printf (_("%s (%s)"), ser->name, ser->unit);
  return g_strdup (ser->name);
}

/* A thread only the CPU side knows, by its ThreadNames name when it has one. */
static char *
cpu_thread_title (const SlCpuActivity *cpu, const SlCpuThread *th)
{
  if (th->name != SL_NONE)
    return g_strdup_printf (_("%s · tid %u"), sl_cpu_activity_name (cpu, th->name), th->tid);
  return g_strdup_printf (_("Thread · tid %u"), th->tid);
}

/* Such a process, by the name of its main thread (tid == pid), which is
 * the program's. */
static char *
cpu_process_title (const SlCpuActivity *cpu, guint32 pid)
{
  for (guint i = 0; i < cpu->n_threads; i++)
    if (cpu->threads[i].pid == pid && cpu->threads[i].tid == pid && cpu->threads[i].name != SL_NONE)
      return g_strdup_printf (_("%s · pid %u"), sl_cpu_activity_name (cpu, cpu->threads[i].name), pid);
  return g_strdup_printf (_("Process · pid %u"), pid);
}

char *
sl_timeline_cpu_row_title (const SlTimelineModel *model,
                           guint                  r)
{
  const SlTimelineRow *row = &model->rows[r];

  switch (row->kind)
    {
    case SL_ROW_OSRT:
      if (row->depth == 0)
        return g_strdup (_("OS runtime"));
      return g_strdup_printf (_("OS runtime · level %u"), row->depth + 1);
    case SL_ROW_SAMPLES:
      return g_strdup (_("CPU samples"));
    case SL_ROW_METRIC:
      return metric_title (&model->metrics->series[row->index]);
    case SL_ROW_CPU_PROCESS:
      return cpu_process_title (model->cpu, row->index);
    case SL_ROW_CPU_THREAD:
      return cpu_thread_title (model->cpu, &model->cpu->threads[row->index]);
    case SL_ROW_METRIC_DEVICE:
      return g_strdup_printf (_("GPU %u"), row->index);
    default:
      return g_strdup ("");
    }
}
