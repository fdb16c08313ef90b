/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-iterations-kernels.c: steps of a process from the period of its
 * kernel sequence ("kernels" method), when NVTX does not name them.
 *
 * The sequence is its busiest stream's kernels without NCCL (a stream is a
 * FIFO, so the order is the launch order, whatever runs on side streams);
 * sl-step-period.h finds the period and the step boundaries in it.  Every
 * GPU operation of the process then belongs to the step in which it starts. */
#include "sl-iterations-private.h"
#include "sl-step-period.h"

#include <stdlib.h>

/* The stream of process @pid in the filter with the most kernels, or G_MAXUINT. */
static guint
main_stream (const SlProfile *profile, const SlFilter *filter, guint32 pid)
{
  guint best = G_MAXUINT;

  for (guint s = 0; s < profile->n_streams; s++)
    if (profile->streams[s].pid == pid && sl_filter_match_device (filter, profile->streams[s].device)
        && (best == G_MAXUINT || profile->streams[s].kernels.spans.n > profile->streams[best].kernels.spans.n))
      best = s;
  return best;
}

typedef struct {
  guint32 *name;           /* kernel function */
  gint64  *start;
  gint64  *gap;            /* idle time on the stream before it */
  guint    n;
} Sequence;

static void
sequence_clear (Sequence *q)
{
  g_free (q->name);
  g_free (q->start);
  g_free (q->gap);
}

/* The non-NCCL kernels of stream @s starting in the filter's window. */
static void
kernel_sequence (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl, guint s, Sequence *q)
{
  const SlKernels *k = &profile->streams[s].kernels;
  gint64 last_end = G_MININT64;

  q->name = g_new (guint32, MAX (k->spans.n, 1));
  q->start = g_new (gint64, MAX (k->spans.n, 1));
  q->gap = g_new (gint64, MAX (k->spans.n, 1));
  q->n = 0;
  for (guint i = 0; i < k->spans.n; i++)
    {
      gint64 start = k->spans.start[i];
      if (!sl_filter_match_time (filter, start) || (k->func[i] < profile->n_funcs && is_nccl[k->func[i]]))
        continue;
      q->name[q->n] = k->func[i];
      q->start[q->n] = start;
      q->gap[q->n] = last_end == G_MININT64 ? 0 : MAX (start - last_end, 0);
      last_end = MAX (last_end, sl_spans_end (&k->spans, i));
      q->n++;
    }
}

static int
compare_int64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/* Median, 10th and 90th percentiles of start[i + L] - start[i]: the period in time. */
static void
period_times (SlIterations *self, const Sequence *q, guint L)
{
  guint k = q->n - L;
  g_autofree gint64 *d = g_new (gint64, MAX (k, 1));

  for (guint i = 0; i < k; i++)
    d[i] = q->start[i + L] - q->start[i];
  qsort (d, k, sizeof (gint64), compare_int64);
  self->period_median_ns = k % 2 == 1 ? d[k / 2] : (gint64) (((__int128) d[k / 2 - 1] + d[k / 2]) / 2);
  self->period_p10_ns = d[k / 10];
  self->period_p90_ns = d[MIN (k - 1, k * 9 / 10)];
}

/* Segments: 0 before the first boundary, s in [1, nb) between boundaries
 * s - 1 and s (full steps), nb after the last.  @t: boundary start times
 * (G_MAXINT64 for the end of the sequence). */
static void
assign_ops (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl, guint32 pid,
            const gint64 *t, guint nb, SlIteration *seg, Acc *acc)
{
  const SlSpans *api = &profile->api.spans, *spans;
  guint tag, index, s = 0, n_gpus = MAX (profile->n_gpus, 1);
  SlMerge merge;

  sl_merge_init (&merge);
  sl_iter_add_process_sources (profile, filter, pid, &merge);
  sl_merge_start (&merge);
  while (sl_merge_next (&merge, &tag, &spans, &index))
    {
      gint64 start = spans->start[index];
      guint gpu = MIN (profile->streams[sl_gpu_op_stream (tag)].gpu, n_gpus - 1);
      guint32 a = sl_gpu_op_api (profile, tag)[index];

      while (s < nb && start >= t[s])
        s++;
      sl_iter_acc_op (&seg[s], &acc[s * n_gpus + gpu], sl_gpu_op_type (tag),
                      sl_gpu_op_is_nccl (profile, is_nccl, tag, index), start, sl_spans_end (spans, index));
      if (a != SL_NONE)
        sl_iter_widen (&seg[s].has_cpu, &seg[s].cpu_start_ns, &seg[s].cpu_end_ns, api->start[a], sl_spans_end (api, a));
    }
  sl_merge_clear (&merge);
}

/* Segments with GPU work into @full (between two boundaries) or @partial. */
static void
emit_segments (SlIteration *seg, const Acc *acc, guint nb, guint n_gpus, guint32 pid, GArray *full, GArray *partial)
{
  guint n_full = 0, n_partial = 0;

  for (guint s = 0; s <= nb; s++)
    {
      SlIteration *it = &seg[s];
      gboolean is_full = s > 0 && s < nb;

      if (!it->has_gpu)
        continue;
      sl_iter_add_device_totals (it, &acc[s * n_gpus], n_gpus);
      it->pid = pid;
      it->thread = it->range = SL_NONE;
      it->dur_ns = it->gpu_end_ns - it->gpu_start_ns;
      it->index = is_full ? n_full++ : n_partial++;
      g_array_append_val (is_full ? full : partial, *it);
    }
}

gboolean
sl_iter_kernel_steps (SlIterations *self, const SlProfile *profile, const SlFilter *filter,
                      const guint8 *is_nccl, guint32 pid, GArray *full, GArray *partial)
{
  guint s = main_stream (profile, filter, pid), nb, n_gpus = MAX (profile->n_gpus, 1);
  Sequence q = { 0 };
  SlStepPeriod period;
  g_autofree gint64 *t = NULL;
  g_autofree SlIteration *seg = NULL;
  g_autofree Acc *acc = NULL;

  if (s == G_MAXUINT)
    return FALSE;
  kernel_sequence (profile, filter, is_nccl, s, &q);
  sl_step_period_find (q.name, q.gap, q.n, &period);
  if (period.unit == SL_STEP_UNIT_NONE)
    {
      sl_step_period_clear (&period);
      sequence_clear (&q);
      return FALSE;
    }
  if (self->period_unit == SL_STEP_UNIT_NONE)
    {
      self->period_unit = period.unit;
      self->period_kernels = period.period;
      self->confidence = period.match;
      period_times (self, &q, period.period);
    }
  nb = period.boundaries->len;
  t = g_new (gint64, MAX (nb, 1));
  for (guint i = 0; i < nb; i++)
    {
      guint b = g_array_index (period.boundaries, guint, i);
      t[i] = b < q.n ? q.start[b] : G_MAXINT64;
    }
  seg = g_new0 (SlIteration, nb + 1);
  acc = g_new (Acc, (gsize) (nb + 1) * n_gpus);
  for (guint i = 0; i < (nb + 1) * n_gpus; i++)
    sl_iter_acc_init (&acc[i]);
  assign_ops (profile, filter, is_nccl, pid, t, nb, seg, acc);
  emit_segments (seg, acc, nb, n_gpus, pid, full, partial);
  sl_step_period_clear (&period);
  sequence_clear (&q);
  return TRUE;
}
