/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-model-private.h: what the model's files share while they
 * build the rows (sl-timeline-model.c: GPU streams, CUDA API and NVTX;
 * sl-timeline-gpu-rows.c, sl-timeline-projected.c: utilization tables and
 * projected spans; sl-timeline-cpu-rows.c: the CPU side and the GPU
 * counters). */
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
/* Copies of what @previous built, into model->util / model->projected
 * (allocated, zeroed): the utilization tables of the same kernels, the
 * projected spans of the same profile. */
void     _sl_timeline_util_copy          (SlTimelineModel       *model,
                                          const SlTimelineModel *previous);
void     _sl_timeline_projected_copy     (SlTimelineModel       *model,
                                          const SlTimelineModel *previous);
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

/* sl-timeline-model.c */
SlTimelineRow *_sl_timeline_model_push_row    (GArray        *rows,
                                               SlRowKind      kind,
                                               guint8         level,
                                               guint32        index,
                                               guint32        parent);
void           _sl_timeline_model_add_segment (SlTimelineRow *row,
                                               SlEventKind    kind,
                                               const SlSpans *spans,
                                               guint          first,
                                               guint          count,
                                               guint32        owner);

/* sl-timeline-cpu-rows.c */
void           _sl_timeline_model_build_osrt_colors (SlTimelineModel *model);
/* Sets model->start_ns, end_ns. */
void           _sl_timeline_model_set_extent        (SlTimelineModel *model);
/* The OS runtime and CPU sample tracks of cpu thread @cpu_thread (SL_NONE: none). */
void           _sl_timeline_model_add_cpu_tracks    (SlTimelineModel *model,
                                                     GArray          *rows,
                                                     guint32          cpu_thread,
                                                     guint32          thread_group);
/* The threads of process @pid that only the CPU side knows: a group each,
 * under @process_group (SL_NONE: a new SL_ROW_CPU_PROCESS group when needed). */
void           _sl_timeline_model_add_cpu_threads   (SlTimelineModel *model,
                                                     GArray          *rows,
                                                     guint32          pid,
                                                     guint32          process_group);
/* The processes that only the CPU side knows, after the profile's. */
void           _sl_timeline_model_add_cpu_processes (SlTimelineModel *model,
                                                     GArray          *rows);
gboolean       _sl_timeline_model_gpu_has_metrics   (const SlTimelineModel *model,
                                                     guint32                gpu);
/* GPU @gpu's counter rows, at the end of its group @group. */
void           _sl_timeline_model_add_metric_rows   (SlTimelineModel *model,
                                                     GArray          *rows,
                                                     guint32          gpu,
                                                     guint32          group);
/* Counters of devices the profile does not know: a group per device. */
void           _sl_timeline_model_add_metric_devices (SlTimelineModel *model,
                                                      GArray          *rows);
/* Span, name and row of SL_EVENT_OSRT, _SAMPLE and _METRIC. */
gboolean       _sl_timeline_model_cpu_event_span    (const SlTimelineModel *model,
                                                     const SlEventRef      *event,
                                                     gint64                *start,
                                                     gint64                *end);
const char    *_sl_timeline_model_cpu_event_name    (const SlTimelineModel *model,
                                                     const SlEventRef      *event);
guint          _sl_timeline_model_cpu_event_row     (const SlTimelineModel *model,
                                                     const SlEventRef      *event);
guint8         _sl_timeline_model_osrt_color        (const SlTimelineModel *model,
                                                     guint32                cpu_thread,
                                                     guint                  index);

G_END_DECLS
