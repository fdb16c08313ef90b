/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-activity.h: the CPU side beyond CUDA API and NVTX: OS runtime
 * calls (OSRT_API), CPU samples with their call stacks (COMPOSITE_EVENTS +
 * SAMPLING_CALLCHAINS) and scheduling (SCHED_EVENTS).
 *
 * Read from the export on demand, after the profile itself (these tables
 * can be large and only the timeline and `gaps --stacks` want them), with
 * sl_cpu_activity_load() (analysis/loader/sl-cpu-loader.h).  Immutable once built: any
 * thread may read it.  Times are capture-clock ns, as in SlProfile. */
#pragma once

#include <gio/gio.h>

#include "sl-profile.h"

G_BEGIN_DECLS

/* ENUM_SAMPLING_THREAD_STATE, as stored in COMPOSITE_EVENTS.threadState. */
typedef enum {
  SL_THREAD_STATE_UNKNOWN         = 0,
  SL_THREAD_STATE_RUNNING         = 1,
  SL_THREAD_STATE_INTERRUPTIBLE   = 2,
  SL_THREAD_STATE_UNINTERRUPTIBLE = 3,
  SL_THREAD_STATE_STOPPED         = 4,
  SL_THREAD_STATE_TERMINATED      = 5,
  SL_THREAD_STATE_UNSCHEDULED     = 6,
  SL_THREAD_STATE_WAITING         = 7,
  SL_THREAD_STATE_OS_RUNTIME      = 8,
  SL_THREAD_STATE_INITIALIZED     = 9,
  SL_THREAD_STATE_TRANSITION      = 10,
  SL_THREAD_STATE_COUNT           = 11,
} SlThreadState;

/* OS runtime calls of one thread, sorted by (depth, start) like NVTX
 * ranges: depth_first[d] .. depth_first[d+1] is the sorted row of depth d.
 * depth is the call's nestingLevel made dense (0 = outermost). */
typedef struct {
  SlSpans  spans;
  guint32 *name;           /* index into SlCpuActivity.names (pthread_cond_wait, ioctl ...) */
  guint32 *stack;          /* index into the stacks (OSRT_CALLCHAINS), SL_NONE when none */
  guint16 *depth;
  guint    n_depths;
  guint   *depth_first;    /* n_depths + 1 entries */
} SlOsrtCalls;

/* CPU samples of one thread, sorted by time. */
typedef struct {
  guint    n;
  gint64  *time;
  guint8  *state;          /* SlThreadState */
  guint16 *cpu;
  guint32 *stack;          /* index into the stacks (SAMPLING_CALLCHAINS), SL_NONE when none */
} SlCpuSamples;

/* Context switches of one thread (SCHED_EVENTS), sorted by time. */
typedef struct {
  guint    n;
  gint64  *time;
  guint8  *sched_in;       /* 1: scheduled in at time[i], 0: out */
  guint16 *cpu;
} SlSchedEvents;

typedef struct {
  guint64       global_tid;
  guint32       pid;
  guint32       tid;
  guint32       thread;    /* index into SlProfile.threads, SL_NONE when it has no CUDA/NVTX events */
  guint32       name;      /* index into names: its ThreadNames name, SL_NONE when unknown */
  SlOsrtCalls   osrt;
  SlCpuSamples  samples;
  SlSchedEvents sched;
} SlCpuThread;

typedef struct _SlCpuActivity SlCpuActivity;

struct _SlCpuActivity {
  guint        n_threads;  /* threads with any OSRT call, sample or switch, sorted by (pid, tid) */
  SlCpuThread *threads;
  /* Call stacks, shared by samples and OSRT calls (identical stacks are
   * stored once): stack s has frames frame_first[s] .. frame_first[s+1],
   * leaf frame first. */
  guint        n_stacks;
  guint32     *frame_first;   /* n_stacks + 1 entries */
  guint32     *frame_symbol;  /* index into names: the function ("0x7f12…" when unresolved) */
  guint32     *frame_module;  /* index into names: the library or executable, SL_NONE when unknown */
  guint        n_names;
  char       **names;
  guint64      n_osrt;        /* totals over all threads */
  guint64      n_samples;
  guint64      n_sched;
  GPtrArray   *warnings;      /* char*, human-readable: rows skipped, tables damaged */
  /*< private >*/
  gint         ref_count;
  gpointer     priv;
};

SlCpuActivity *sl_cpu_activity_ref          (SlCpuActivity *activity);
void           sl_cpu_activity_unref        (SlCpuActivity *activity);

/* Never NULL: "" for SL_NONE or a bad index. */
const char    *sl_cpu_activity_name         (const SlCpuActivity *activity,
                                             guint32              id);
/* Index into activity->threads of @global_tid, SL_NONE when absent. */
guint32        sl_cpu_activity_find_thread  (const SlCpuActivity *activity,
                                             guint64              global_tid);
/* Frames of stack @stack: *n_frames set, returns the index of its leaf in
 * frame_symbol/frame_module (frames follow, leaf first). */
guint32        sl_cpu_activity_stack_frames (const SlCpuActivity *activity,
                                             guint32              stack,
                                             guint               *n_frames);
/* "Running", "Waiting", ... (translated). */
const char    *sl_thread_state_name         (guint8 state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCpuActivity, sl_cpu_activity_unref)

G_END_DECLS
