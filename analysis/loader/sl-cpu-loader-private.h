/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-loader-private.h: the state of one read of the CPU side, shared
 * by its files (stacks, OS runtime, samples and scheduling, assembly). */
#pragma once

#include "sl-cpu-loader.h"
#include "sl-loader-private.h"

G_BEGIN_DECLS

/* One thread's rows as read, before sorting. */
typedef struct {
  guint64  global_tid;
  guint32  name_plus1;     /* its ThreadNames name + 1, 0 when none */
  SlSpans  osrt;
  guint    osrt_cap;
  guint32 *osrt_name;
  guint32 *osrt_stack;
  guint16 *osrt_level;     /* nestingLevel as in the file (clamped) */
  guint    n_samples, samples_cap;
  gint64  *sample_time;
  guint8  *sample_state;
  guint16 *sample_cpu;
  guint32 *sample_stack;
  guint    n_sched, sched_cap;
  gint64  *sched_time;
  guint8  *sched_in;
  guint16 *sched_cpu;
} SlCpuThreadBuilder;

/* Call chain id -> stack: ids are dense from 1 in every export, so a
 * direct array, with a hash map for the ids beyond it. */
typedef struct {
  guint32 *direct;         /* stack + 1, 0: absent */
  gsize    direct_len;
  SlIdMap  sparse;
} SlCpuChainMap;

typedef struct {
  SlLoader      loader;       /* tables, messages */
  sqlite3      *db;
  int           fd;
  GCancellable *cancellable;
  GPtrArray    *threads;      /* SlCpuThreadBuilder* */
  SlIdMap       thread_index; /* globalTid -> index in threads */
  SlCpuThreadBuilder *last_thread;
  /* names, numbered as first met; their text is read at the end */
  SlIdMap       name_index;   /* StringIds id -> name (large ids) */
  guint32      *name_direct;  /* small ids: name + 1, 0 when not met */
  gsize         name_direct_len;
  GArray       *name_ids;     /* gint64: the StringIds id of each name */
  /* deduplicated stacks */
  GArray       *frame_first;  /* guint32, n_stacks + 1 */
  GArray       *frame_symbol; /* guint32 */
  GArray       *frame_module; /* guint32 */
  GArray       *stack_hash;   /* guint32 per stack */
  guint32      *stack_slots;  /* open addressing: stack + 1, 0 empty */
  gsize         stack_mask;
  SlCpuChainMap sample_stacks;  /* COMPOSITE_EVENTS.id -> stack */
  SlCpuChainMap osrt_stacks;    /* OSRT_CALLCHAINS.id -> stack */
  /* rows skipped, per reason */
  guint64       skipped_time;
  guint64       skipped_thread;
  guint64       skipped_chain;
  guint64       dangling_names;
  GPtrArray    *warnings;
} SlCpuBuild;

/* sl-cpu-loader-stacks.c */
/* The name of StringIds id @file_id (SL_NONE for a NULL id). */
guint32  _sl_cpu_build_name        (SlCpuBuild *build, gint64 file_id, gboolean is_null);
/* Reads SAMPLING_CALLCHAINS or OSRT_CALLCHAINS into @map (chain id -> stack). */
gboolean _sl_cpu_read_callchains   (SlCpuBuild *build, const char *table, SlCpuChainMap *map, GError **error);
void     _sl_cpu_chain_map_insert  (SlCpuChainMap *map, gint64 id, guint32 stack);
guint32  _sl_cpu_chain_map_lookup  (const SlCpuChainMap *map, gint64 id);
void     _sl_cpu_chain_map_clear   (SlCpuChainMap *map);
void     _sl_cpu_build_stacks_init (SlCpuBuild *build);
void     _sl_cpu_build_stacks_clear (SlCpuBuild *build);
/* The builder of @global_tid, created when new. */
SlCpuThreadBuilder *_sl_cpu_build_thread (SlCpuBuild *build, guint64 global_tid);
/* FALSE with @error set when the read was cancelled (checked every few
 * thousand rows by the callers). */
gboolean _sl_cpu_build_check       (SlCpuBuild *build, GError **error);
/* TRUE after a clean end of @scan, else sets @error. */
gboolean _sl_cpu_scan_done         (SlCpuBuild *build, SlTableScan *scan, const char *what, GError **error);

/* sl-cpu-loader-osrt.c */
gboolean _sl_cpu_read_osrt         (SlCpuBuild *build, GError **error);
/* sl-cpu-loader-samples.c */
gboolean _sl_cpu_read_samples      (SlCpuBuild *build, GError **error);
gboolean _sl_cpu_read_sched        (SlCpuBuild *build, GError **error);
/* The names of the threads read (ThreadNames), for threads the profile
 * has no other events of: a CPU-sampling-only export names them only there. */
void     _sl_cpu_read_thread_names (SlCpuBuild *build);
/* sl-cpu-loader-assemble.c: the activity from the builders (sorted
 * threads and rows, names read and merged by text). */
SlCpuActivity *_sl_cpu_build_finish (SlCpuBuild *build, SlProfile *profile);
void     _sl_cpu_thread_builder_free (SlCpuThreadBuilder *t);

/* sl-cpu-loader.c: a connection to the file @profile was read from, with
 * the columns of @tables known to @loader; FALSE with @error otherwise. */
/* The descriptor of the file @profile (or the profile it is a subset of)
 * was read from; -1 when none. */
int      _sl_cpu_source_fd         (const SlProfile *profile);
gboolean _sl_cpu_open_source       (SlLoader *loader, SlProfile *profile, sqlite3 **db,
                                    const char *const *tables, guint n_tables, GError **error);

G_END_DECLS
