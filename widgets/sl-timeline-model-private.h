/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-model-private.h: what the model's files share while they
 * build the rows (sl-timeline-model.c: GPU streams, CUDA API and NVTX;
 * sl-timeline-cpu-rows.c: the CPU side and the GPU counters). */
#pragma once

#include "sl-timeline-model.h"

G_BEGIN_DECLS

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
