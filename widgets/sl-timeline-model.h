/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-model.h: what the timeline draws from, built once per profile.
 *
 * The rows (GPU groups with their streams, processes with their threads and
 * the threads' API, NVTX and mark tracks), the colour of every kernel
 * function, and a level-of-detail pyramid per large track.  Building it walks
 * every event once, so do it in the loading worker; afterwards it is
 * immutable and may be read from any thread.  Plain C, no GTK. */
#pragma once

#include <gio/gio.h>

#include "sl-profile.h"
#include "sl-cpu-activity.h"
#include "sl-gpu-metrics.h"
#include "sl-timeline-lod.h"

G_BEGIN_DECLS

typedef enum {
  SL_EVENT_NONE,
  SL_EVENT_KERNEL,
  SL_EVENT_MEMCPY,
  SL_EVENT_MEMSET,
  SL_EVENT_API,           /* index is global into profile->api */
  SL_EVENT_NVTX,          /* push/pop range: index into thread->nvtx */
  SL_EVENT_NVTX_STARTEND, /* index into thread->nvtx_startend */
  SL_EVENT_MARK,          /* index into thread->marks */
  SL_EVENT_NVTX_PROJECTED, /* owner = gpu index, index into model->projected[gpu] */
  SL_EVENT_OSRT,          /* OS runtime call: owner = index into cpu->threads, index into its osrt */
  SL_EVENT_SAMPLE,        /* CPU sample: owner = index into cpu->threads, index into its samples */
  SL_EVENT_METRIC,        /* GPU metric sample: owner = index into metrics->series */
} SlEventKind;

/* One event of the profile, wherever it lives. */
typedef struct {
  SlEventKind kind;
  guint32     owner;      /* stream index for GPU operations, thread index otherwise */
  guint       index;
} SlEventRef;

typedef enum {
  SL_ROW_GPU,             /* group: index = gpu */
  SL_ROW_PROCESS,         /* group: index = process */
  SL_ROW_THREAD,          /* group: index = thread */
  SL_ROW_STREAM,          /* track: index = stream */
  SL_ROW_API,             /* track: index = thread */
  SL_ROW_NVTX,            /* track: index = thread, depth */
  SL_ROW_NVTX_STARTEND,   /* track: index = thread, depth = lane */
  SL_ROW_MARKS,           /* track: index = thread */
  SL_ROW_GPU_UTIL,        /* track: index = gpu, no events (sl-timeline-gpu-rows.h) */
  SL_ROW_NVTX_PROJECTED,  /* track: index = gpu, depth = lane */
  SL_ROW_OSRT,            /* track: index = cpu thread (model->cpu->threads), depth */
  SL_ROW_SAMPLES,         /* track: index = cpu thread */
  SL_ROW_METRIC,          /* track: index = metric series (model->metrics->series) */
  SL_ROW_CPU_PROCESS,     /* group: index = pid of a process with CPU activity only */
  SL_ROW_CPU_THREAD,      /* group: index = cpu thread without CUDA or NVTX events */
  SL_ROW_METRIC_DEVICE,   /* group: index = device id of metrics of a GPU the profile lacks */
} SlRowKind;

/* A contiguous slice of one span array drawn on a track. */
typedef struct {
  SlEventKind    kind;
  const SlSpans *spans;
  guint          first;
  guint          count;
  guint32        owner;
  gint64         max_dur;   /* longest event of the slice, bounds culling */
} SlSegment;

typedef struct {
  SlRowKind kind;
  guint8    level;        /* indentation: 0 group, 1 sub-group or track, 2 track */
  guint16   depth;        /* NVTX nesting depth, or lane of start/end ranges */
  guint32   index;        /* gpu, process, thread or stream index */
  guint32   parent;       /* row index of the enclosing group, SL_NONE at top */
  guint32   n_events;     /* events drawn on a track (0 for groups) */
  guint     n_segs;
  SlSegment segs[3];
  SlLod     lod;          /* n_levels == 0: always drawn from the events */
} SlTimelineRow;

typedef struct _SlTimelineModel SlTimelineModel;
typedef struct _SlGpuUtil SlGpuUtil;
typedef struct _SlProjected SlProjected;

struct _SlTimelineModel {
  SlProfile     *profile;
  guint          n_rows;
  SlTimelineRow *rows;
  guint8        *func_color;   /* palette index per kernel function */
  guint8        *api_color;    /* palette index per string id used as API name, 0 unused */
  guint          n_api_color;
  gsize          lod_bytes;    /* memory of all pyramids */
  gsize          event_bytes;  /* memory of the event arrays drawn */
  /* the GPUs' mean utilization (0..1) in SL_TIMELINE_BUSY_BINS bins of
   * busy_bin_ns from busy_t0 (the start of the GPU rows' profile): the
   * minimap's heights, built with the model because they walk every kernel */
  float         *busy;
  gint64         busy_t0;
  double         busy_bin_ns;
  /* per GPU (n_gpus, zeroed where a GPU has no rows): sl-timeline-gpu-rows.h */
  SlGpuUtil     *util;
  SlProjected   *projected;
  /* the CPU side and the GPU counters (both nullable), read after the
   * profile: sl_timeline_model_new_full() */
  SlCpuActivity *cpu;
  SlGpuMetrics  *metrics;
  /* the time drawn: the profile's, widened to the CPU side and counters
   * (a file of CPU samples only has no profile time at all) */
  gint64         start_ns, end_ns;
  guint8        *osrt_color;   /* palette index per cpu->names id used as an OSRT name */
};

#define SL_TIMELINE_BUSY_BINS 8192

/* Tracks with fewer events than this are always drawn from the events. */
#define SL_LOD_MIN_EVENTS 4096

/* (transfer full): builds rows, colours and pyramids.  Thread-safe; may be
 * cancelled (returns NULL then).  Reference counted (an atomic rc box). */
SlTimelineModel *sl_timeline_model_new      (SlProfile    *profile,
                                             GCancellable *cancellable);
/* sl_timeline_model_new() for a profile that holds more of the file shown
 * by @previous (nullable): a staged load's complete profile after its GPU
 * rows.  Rows that draw the very same events (the GPU streams: the two
 * profiles share their arrays) copy their pyramids instead of building
 * them again, and so does the GPUs' utilization. */
SlTimelineModel *sl_timeline_model_new_from (SlProfile             *profile,
                                             const SlTimelineModel *previous,
                                             GCancellable          *cancellable);
/* sl_timeline_model_new_from() with the CPU side and GPU counters of the
 * file (each nullable, referenced): OS runtime and CPU sample rows per
 * thread, counter rows per GPU.  With @previous of the very same profile
 * every track it has copies its pyramid. */
SlTimelineModel *sl_timeline_model_new_full (SlProfile             *profile,
                                             const SlTimelineModel *previous,
                                             SlCpuActivity         *cpu,
                                             SlGpuMetrics          *metrics,
                                             GCancellable          *cancellable);
SlTimelineModel *sl_timeline_model_ref      (SlTimelineModel *model);
void             sl_timeline_model_unref    (SlTimelineModel *model);

/* Palette index of one event. */
guint8           sl_timeline_model_event_color (const SlTimelineModel *model,
                                                SlEventKind            kind,
                                                const SlSpans         *spans,
                                                guint32                owner,
                                                guint                  index);
/* Start and end (ns) of an event; FALSE for SL_EVENT_NONE or a bad index. */
gboolean         sl_timeline_model_event_span  (const SlTimelineModel *model,
                                                const SlEventRef      *event,
                                                gint64                *start,
                                                gint64                *end);
/* Display name of an event (never NULL). */
const char      *sl_timeline_model_event_name  (const SlTimelineModel *model,
                                                const SlEventRef      *event);
/* The row after group @row and all the rows nested in it (@row + 1 for a track). */
guint            sl_timeline_model_group_end   (const SlTimelineModel *model,
                                                guint                  row);
/* Row index that shows @event, SL_NONE if none. */
guint            sl_timeline_model_event_row   (const SlTimelineModel *model,
                                                const SlEventRef      *event);
/* Every GPU operation launched by API call @api (global index), appended to
 * @out (SlEventRef) by start time: one for a kernel launch or a copy, all
 * the kernels of a graph for a cudaGraphLaunch (they share its
 * correlationId).  Returns how many were appended. */
guint            sl_timeline_model_find_all_launched (const SlTimelineModel *model,
                                                      guint                  api,
                                                      GArray                *out);
/* First GPU operation launched by API call @api (global index): FALSE if none. */
gboolean         sl_timeline_model_find_launched (const SlTimelineModel *model,
                                                  guint                  api,
                                                  SlEventRef            *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTimelineModel, sl_timeline_model_unref)

G_END_DECLS
