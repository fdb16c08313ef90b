/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-row-key.c: rows named by device, process, thread, stream and depth. */
#include "sl-row-key.h"
#include "sl-cpu-activity.h"
#include "sl-gpu-metrics.h"

static char *
thread_key (const SlProfile *p, const char *what, guint32 thread, guint depth)
{
  const SlThread *t = &p->threads[thread];

  return g_strdup_printf ("%s/%u/%u/%u", what, t->pid, t->tid, depth);
}

static char *
cpu_thread_key (const SlTimelineModel *model, const char *what, guint32 cpu_thread, guint depth)
{
  const SlCpuThread *t = &model->cpu->threads[cpu_thread];

  return g_strdup_printf ("%s/%u/%u/%u", what, t->pid, t->tid, depth);
}

/* The rows of the CPU side, the GPU counters and the per-GPU rows: by
 * what they show (a device, a thread, a metric), as the others. */
static char *
extra_row_key (const SlTimelineModel *model, const SlTimelineRow *row)
{
  const SlProfile *p = model->profile;

  switch ((int) row->kind)
    {
    case SL_ROW_GPU_UTIL:
      return g_strdup_printf ("gpu-util/%u", p->gpus[row->index].device);
    case SL_ROW_NVTX_PROJECTED:
      return g_strdup_printf ("nvtx-projected/%u/%u", p->gpus[row->index].device, row->depth);
    case SL_ROW_OSRT:
      return cpu_thread_key (model, "osrt", row->index, row->depth);
    case SL_ROW_SAMPLES:
      return cpu_thread_key (model, "samples", row->index, 0);
    case SL_ROW_CPU_THREAD:
      return cpu_thread_key (model, "cpu-thread", row->index, 0);
    case SL_ROW_CPU_PROCESS:
      return g_strdup_printf ("cpu-process/%u", row->index);
    case SL_ROW_METRIC:
      {
        const SlMetricSeries *m = &model->metrics->series[row->index];
        return g_strdup_printf ("metric/%u/%u", m->device, m->metric_id);
      }
    case SL_ROW_METRIC_DEVICE:
      return g_strdup_printf ("metric-device/%u", row->index);
    default:
      /* a kind added after this file: its number and index, stable as
       * long as the model builds its rows the same way */
      return g_strdup_printf ("kind%d/%u/%u", (int) row->kind, row->index, row->depth);
    }
}

char *
sl_row_key (const SlTimelineModel *model,
            guint                  r)
{
  const SlProfile *p;
  const SlTimelineRow *row;

  g_return_val_if_fail (model != NULL && r < model->n_rows, NULL);
  p = model->profile;
  row = &model->rows[r];
  switch ((int) row->kind)
    {
    case SL_ROW_GPU:
      return g_strdup_printf ("gpu/%u", p->gpus[row->index].device);
    case SL_ROW_PROCESS:
      return g_strdup_printf ("process/%u", p->processes[row->index].pid);
    case SL_ROW_THREAD:
      return thread_key (p, "thread", row->index, 0);
    case SL_ROW_STREAM:
      {
        const SlStream *st = &p->streams[row->index];
        return g_strdup_printf ("stream/%u/%u/%u/%u", st->device, st->pid, st->context, st->stream);
      }
    case SL_ROW_API:
      return thread_key (p, "api", row->index, 0);
    case SL_ROW_NVTX:
      return thread_key (p, "nvtx", row->index, row->depth);
    case SL_ROW_NVTX_STARTEND:
      return thread_key (p, "nvtx-se", row->index, row->depth);
    case SL_ROW_MARKS:
      return thread_key (p, "marks", row->index, 0);
    default:
      return extra_row_key (model, row);
    }
}
