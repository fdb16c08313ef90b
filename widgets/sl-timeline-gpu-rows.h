/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-gpu-rows.h: the rows on top of each GPU group that are not a
 * stream: the GPU's utilization (kernel busy fraction, all streams as one
 * union) and the NVTX ranges projected onto it (Nsight's "NVTX
 * (projected)": for each range, the first to the last GPU operation it
 * launched on that GPU).  Built with the model, in its worker; plain C. */
#pragma once

#include "sl-timeline-model.h"

G_BEGIN_DECLS

/* A GPU's busy time as a cumulative table: cum[i] is the busy ns before
 * t0 + i * bin_ns (n_bins + 1 entries).  Any window's busy time is then
 * two look-ups, whatever the number of kernels; a window narrower than a
 * few bins is measured from the kernels themselves instead. */
struct _SlGpuUtil {
  guint   n_bins;
  gint64  t0;
  double  bin_ns;
  double *cum;
};

/* The projected ranges of one GPU: spans (GPU start to GPU end) laid out
 * in lanes, lane_first[l] .. lane_first[l + 1] - 1 sorted by start; range[i]
 * is the span's push/pop range (global id of sl-attribution.h). */
struct _SlProjected {
  SlSpans  spans;
  guint32 *range;
  guint    n_lanes;
  guint   *lane_first;
};

/* How many bins a window's column must span before the table answers
 * instead of the kernels (the table interpolates inside a bin). */
#define SL_GPU_UTIL_MIN_BINS_PER_COLUMN 4

/* Adds GPU @gpu's utilization row and projected rows under group row
 * @group to @rows (SlTimelineRow), and fills model->util[gpu] and
 * model->projected[gpu] (allocated by the caller, zeroed). */
void     _sl_timeline_gpu_rows_build     (SlTimelineModel *model,
                                          GArray          *rows,
                                          guint            gpu,
                                          guint32          group);
void     _sl_timeline_gpu_rows_clear     (SlTimelineModel *model);
/* The projected rows alone (sl-timeline-projected.c). */
void     _sl_timeline_projected_build    (SlTimelineModel *model,
                                          GArray          *rows,
                                          guint            gpu,
                                          guint32          group);

/* The busy fraction (0..1) of GPU @gpu in each of @n columns of @px_ns
 * from @t0: the union of its kernels on all streams.  FALSE when the GPU
 * has no utilization row. */
gboolean sl_timeline_gpu_util_columns    (const SlTimelineModel *model,
                                          guint                  gpu,
                                          double                 t0,
                                          double                 px_ns,
                                          guint                  n,
                                          float                 *out);
/* The same from the kernels alone (no table): exact, for narrow windows
 * and for tests. */
void     sl_timeline_gpu_util_exact      (const SlTimelineModel *model,
                                          guint                  gpu,
                                          double                 t0,
                                          double                 px_ns,
                                          guint                  n,
                                          float                 *out);

/* The push/pop range (thread, index in its nvtx) of projected span @index
 * of GPU @gpu: FALSE when there is none. */
gboolean sl_timeline_projected_range     (const SlTimelineModel *model,
                                          guint                  gpu,
                                          guint                  index,
                                          guint32               *thread,
                                          guint                 *local);
/* The lane (row depth) of projected span @index of GPU @gpu. */
guint    sl_timeline_projected_lane      (const SlTimelineModel *model,
                                          guint                  gpu,
                                          guint                  index);
/* Kernel time (sum of durations) on GPU @gpu launched inside projected
 * span @index's range, nested ranges included. */
gint64   sl_timeline_projected_gpu_time  (const SlTimelineModel *model,
                                          guint                  gpu,
                                          guint                  index);

G_END_DECLS
