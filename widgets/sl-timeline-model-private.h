/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-model-private.h: the parts of the model that its GPU rows
 * (sl-timeline-gpu-rows.c, sl-timeline-projected.c) build and that the
 * model itself reads: the utilization tables and the projected spans. */
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

/* Adds GPU @gpu's utilization row and projected rows under group row
 * @group to @rows (SlTimelineRow), and fills model->util[gpu] and
 * model->projected[gpu] (allocated by the caller, zeroed). */
void     _sl_timeline_gpu_rows_build     (SlTimelineModel *model,
                                          GArray          *rows,
                                          guint            gpu,
                                          guint32          group);
void     _sl_timeline_gpu_rows_clear     (SlTimelineModel *model);
/* The projected spans of every GPU into model->projected (allocated,
 * zeroed): one walk over the GPU work (sl-timeline-projected.c). */
void     _sl_timeline_projected_build_all (SlTimelineModel *model);
/* GPU @gpu's projected rows, under group row @group. */
void     _sl_timeline_projected_push_rows (SlTimelineModel *model,
                                           GArray          *rows,
                                           guint            gpu,
                                           guint32          group);

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

G_END_DECLS
