/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-gpu-rows.c: a GPU's utilization row, built as a cumulative
 * busy table and sampled per pixel column. */
#include "sl-timeline-gpu-rows.h"
#include "sl-gpu-busy.h"
#include "sl-intervals.h"
#include "sl-int.h"

#include <math.h>
#include <string.h>

/* A table fine enough that a column of a full-width view spans many bins;
 * a power of two at least SL_TIMELINE_BUSY_BINS, so that the minimap's
 * bins are whole groups of these. */
static guint
util_bins (const SlGpu *gpu)
{
  guint n = SL_TIMELINE_BUSY_BINS;

  while (n < (1u << 18) && (guint64) n < 2 * gpu->n_kernels)
    n *= 2;
  return n;
}

static void
build_util (SlTimelineModel *model, guint g)
{
  const SlProfile *p = model->profile;
  SlGpuUtil *u = &model->util[g];
  g_autofree float *frac = NULL;
  double acc = 0;

  u->n_bins = util_bins (&p->gpus[g]);
  u->t0 = p->start_ns;
  u->bin_ns = (double) MAX (p->end_ns - p->start_ns, 1) / u->n_bins;
  frac = g_new (float, u->n_bins);
  sl_gpu_busy_bins (p, p->gpus[g].device, FALSE, u->t0, u->bin_ns, u->n_bins, frac);
  u->cum = g_new (double, u->n_bins + 1);
  for (guint i = 0; i < u->n_bins; i++)
    {
      u->cum[i] = acc;
      acc += frac[i] * u->bin_ns;
    }
  u->cum[u->n_bins] = acc;
}

void
_sl_timeline_gpu_rows_build (SlTimelineModel *model, GArray *rows, guint gpu, guint32 group)
{
  SlTimelineRow row = { 0 };

  if (model->profile->gpus[gpu].n_kernels == 0)
    return;
  if (model->util[gpu].cum == NULL)
    build_util (model, gpu);
  row.kind = SL_ROW_GPU_UTIL;
  row.level = 1;
  row.index = gpu;
  row.parent = group;
  g_array_append_val (rows, row);
  _sl_timeline_projected_push_rows (model, rows, gpu, group);
}

void
_sl_timeline_util_copy (SlTimelineModel *model, const SlTimelineModel *previous)
{
  for (guint g = 0; g < model->profile->n_gpus; g++)
    {
      const SlGpuUtil *from = &previous->util[g];

      if (from->cum == NULL)
        continue;
      model->util[g] = *from;
      model->util[g].cum = g_memdup2 (from->cum, (from->n_bins + 1) * sizeof (double));
    }
}

void
_sl_timeline_gpu_rows_clear (SlTimelineModel *model)
{
  for (guint g = 0; model->util && g < model->profile->n_gpus; g++)
    g_free (model->util[g].cum);
  for (guint g = 0; model->projected && g < model->profile->n_gpus; g++)
    {
      SlProjected *pr = &model->projected[g];

      g_free (pr->spans.start);
      g_free (pr->spans.dur);
      g_free (pr->spans.long_index);
      g_free (pr->spans.long_dur);
      g_free (pr->range);
      g_free (pr->lane_first);
    }
  g_clear_pointer (&model->util, g_free);
  g_clear_pointer (&model->projected, g_free);
}

/* Busy ns before time @t, interpolated inside its bin. */
static double
cum_at (const SlGpuUtil *u, double t)
{
  double x = (t - (double) u->t0) / u->bin_ns;
  guint i;

  if (x <= 0)
    return 0;
  if (x >= u->n_bins)
    return u->cum[u->n_bins];
  i = (guint) x;
  return u->cum[i] + (u->cum[i + 1] - u->cum[i]) * (x - i);
}

/* Adds [s, e) to the columns it covers, as fractions of each column. */
static void
add_interval (gint64 s, gint64 e, double t0, double px_ns, guint n, float *out)
{
  double a = ((double) s - t0) / px_ns, b = ((double) e - t0) / px_ns;
  gint64 first = sl_int64_from_double (floor (a)), last = sl_int64_from_double (floor (b));

  for (gint64 i = MAX (first, 0); i <= last && i < (gint64) n; i++)
    {
      double lo = MAX (a, (double) i), hi = MIN (b, (double) (i + 1));
      if (hi > lo)
        out[i] += (float) (hi - lo);
    }
}

/* The GPU's kernels that may reach into [from, to): per stream, from the
 * first that can still be running at @from (its longest kernel bounds it). */
static void
add_window_sources (SlMerge *merge, const SlTimelineModel *model, guint gpu, gint64 from, gint64 to)
{
  const SlProfile *p = model->profile;

  for (guint r = 0; r < model->n_rows; r++)
    {
      const SlTimelineRow *row = &model->rows[r];

      if (row->kind != SL_ROW_STREAM || p->streams[row->index].gpu != gpu)
        continue;
      for (guint k = 0; k < row->n_segs; k++)
        if (row->segs[k].kind == SL_EVENT_KERNEL)
          {
            const SlSegment *seg = &row->segs[k];
            guint lo = sl_spans_lower_bound (seg->spans, sl_sat_sub (from, seg->max_dur));
            guint hi = sl_spans_lower_bound (seg->spans, to);

            sl_merge_add (merge, seg->spans, lo, hi, row->index);
          }
    }
}

void
sl_timeline_gpu_util_exact (const SlTimelineModel *model, guint gpu, double t0, double px_ns,
                            guint n, float *out)
{
  SlMerge merge;
  SlUnion u;
  guint tag, index;
  const SlSpans *spans;

  memset (out, 0, n * sizeof (float));
  if (px_ns <= 0 || n == 0)
    return;
  sl_merge_init (&merge);
  add_window_sources (&merge, model, gpu, sl_int64_from_double (floor (t0)),
                      sl_int64_from_double (ceil (t0 + n * px_ns)));
  sl_merge_start (&merge);
  sl_union_init (&u);
  /* each disjoint interval of the union counts once, overlaps do not add up */
  while (sl_merge_next (&merge, &tag, &spans, &index))
    {
      gint64 os = u.cur_start, oe = u.cur_end;
      gboolean was_open = u.open;

      if (sl_union_add (&u, spans->start[index], sl_spans_end (spans, index)) && was_open)
        add_interval (os, oe, t0, px_ns, n, out);
    }
  if (u.open)
    add_interval (u.cur_start, u.cur_end, t0, px_ns, n, out);
  sl_merge_clear (&merge);
  for (guint i = 0; i < n; i++)
    out[i] = MIN (out[i], 1.0f);
}

gboolean
sl_timeline_gpu_util_columns (const SlTimelineModel *model, guint gpu, double t0, double px_ns,
                              guint n, float *out)
{
  const SlGpuUtil *u;

  if (model->util == NULL || gpu >= model->profile->n_gpus || model->util[gpu].cum == NULL)
    return FALSE;
  u = &model->util[gpu];
  if (px_ns < SL_GPU_UTIL_MIN_BINS_PER_COLUMN * u->bin_ns)
    {
      sl_timeline_gpu_util_exact (model, gpu, t0, px_ns, n, out);
      return TRUE;
    }
  for (guint i = 0; i < n; i++)
    {
      double a = t0 + i * px_ns;
      out[i] = (float) CLAMP ((cum_at (u, a + px_ns) - cum_at (u, a)) / px_ns, 0.0, 1.0);
    }
  return TRUE;
}
