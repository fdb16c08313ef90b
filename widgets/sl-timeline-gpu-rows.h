/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-gpu-rows.h: the rows on top of each GPU group that are not a
 * stream: the GPU's utilization (kernel busy fraction, all streams as one
 * union) and the NVTX ranges projected onto it (Nsight's "NVTX
 * (projected)": for each range, the first to the last GPU operation it
 * launched on that GPU).  Built with the model, in its worker; plain C. */
#pragma once

#include "sl-timeline-model-private.h"

G_BEGIN_DECLS

/* How many bins a window's column must span before the table answers
 * instead of the kernels (the table interpolates inside a bin). */
#define SL_GPU_UTIL_MIN_BINS_PER_COLUMN 4

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

/* Kernel time (sum of durations) on GPU @gpu launched inside projected
 * span @index's range, nested ranges included. */
gint64   sl_timeline_projected_gpu_time  (const SlTimelineModel *model,
                                          guint                  gpu,
                                          guint                  index);

G_END_DECLS
