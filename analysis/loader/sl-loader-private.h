/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-loader-private.h: the loader's state and the functions its files share. */
#pragma once

#include <sqlite3.h>

#include "sl-profile-private.h"
#include "sl-profile-loader.h"
#include "sl-grow.h"
#include "sl-idmap.h"
#include "sl-table-scan.h"
#include "sl-source.h"

G_BEGIN_DECLS

/* One GPU row being built: its three event arrays and their capacities. */
typedef struct {
  SlStream stream;
  guint32 *kernel_corr;    /* correlationIds while loading; see SlKernels */
  guint    kernel_cap;
  guint64  kernel_first_row; /* the part's row of its first kernel, for growth */
  guint    memcpy_cap;
  guint    memset_cap;
} SlStreamBuilder;

/* A kernel row's names as ids in the file, and their function. */
typedef struct {
  gint64  short_id;
  gint64  demangled_id;
  guint32 func;
} SlFuncSlot;

#define SL_CHUNK_CACHE 256

/* The GPU rows one job read (a part of a table): merged in file order
 * when the GPU tables are all in.  Kernel functions are numbered per chunk
 * and renumbered by the merge. */
typedef struct {
  GPtrArray *stream_builders;  /* SlStreamBuilder* */
  SlIdMap    stream_index;     /* hash of (pid, device, context, stream) -> builder */
  SlIdMap    func_index;       /* (short, demangled) -> func */
  GArray    *funcs;            /* SlKernelFunc */
  /* Rows of a few streams and kernels interleave: small direct-mapped
   * caches in front of the hashes, the loader's hottest lookups. */
  SlStreamBuilder *stream_cache[SL_CHUNK_CACHE];
  SlFuncSlot       func_cache[SL_CHUNK_CACHE];
} SlGpuChunk;

/* One CPU thread being built. */
typedef struct {
  guint64    global_tid;
  SlApiCalls api;
  guint      api_cap;
  guint64    api_first_row;  /* the part's row of its first call, for growth */
  SlNvtxRanges nvtx;
  guint      nvtx_cap;
  guint64    nvtx_first_row;
  SlNvtxRanges startend;
  guint      startend_cap;
  guint64    startend_first_row;
  SlNvtxMarks marks;
  guint      marks_cap;
  guint32    name;
} SlThreadBuilder;

/* The CPU threads one job read, merged in file order like SlGpuChunk. */
typedef struct {
  GPtrArray *thread_builders;  /* SlThreadBuilder* */
  SlIdMap    thread_index;     /* globalTid -> builder */
} SlCpuChunk;

typedef enum {
  SL_GROUP_GPU,
  SL_GROUP_CPU,
  SL_N_GROUPS,
} SlJobGroup;

typedef struct _SlLoader SlLoader;
typedef struct _SlJob SlJob;

/* Reads the rows of one part of a table into @job's chunk. */
typedef gboolean (*SlJobReadFunc) (SlLoader *loader, SlJob *job, SlTableScan *scan, GError **error);

/* One activity table as the loader reads it. */
typedef struct {
  const char        *table;
  const char *const *columns;
  guint              n_columns;
  const char        *what;       /* translated on use, for messages: N_("the kernels") */
  SlJobGroup         group;
  SlJobReadFunc      read;
  gboolean           splittable; /* rows are independent: parts may be read in parallel */
} SlTableRead;

struct _SlJob {
  const SlTableRead *read;
  SlScanPlan        *plan;       /* shared by the parts of one table */
  guint              part;
  guint              n_parts;
  gpointer           chunk;      /* SlGpuChunk* or SlCpuChunk* */
  gint64             rows;       /* rows read, for the progress */
  gint64             table_rows; /* the table's estimated rows (0: unknown) */
  /* The rows whose arrays this part's chunk ends up holding, for
   * _sl_grow_capacity(): the first part's arrays are adopted by the merge
   * and receive the later parts, so they are sized for the whole table. */
  gint64             rows_expected;
};

struct _SlLoader {
  /* fixed for the whole load */
  const char     *display_path;  /* the user's file, for messages */
  SlSource       *source;        /* the file actually read, opened once */
  char           *recovered;     /* a warning when it is a recovered copy (sl-recovery.c) */
  SlParts         parts;         /* what to load */
  GCancellable   *cancellable;
  SlProgressFunc  progress;
  gpointer        progress_data;
  SlGpuReadyFunc  gpu_ready;     /* nullable: staged load */
  gpointer        gpu_ready_data;
  guint           threads;        /* SlLoadOptions.threads */
  GHashTable     *tables;        /* table name -> GHashTable of column names */
  SlProfile      *profile;

  /* StringIds id -> profile string id: a direct array when ids are dense,
   * a hash map otherwise (sliced fixtures keep only referenced ids). */
  guint32        *string_direct;
  gsize           string_direct_len;
  SlIdMap         string_sparse;
  SlStrings      *gpu_strings;   /* staged load: the strings before NVTX adds any */

  /* progress: rows done over rows expected, shared by the workers */
  gint64          rows_total;
  gint64          rows_done;     /* atomic */
  GMutex          progress_lock;

  /* the jobs, in file order; their chunks are merged into the first */
  GPtrArray      *jobs;          /* SlJob* */
  GPtrArray      *gpu_chunks;    /* SlGpuChunk*, [0] holds the merged rows */
  GPtrArray      *cpu_chunks;    /* SlCpuChunk* */
  guint           sync_cap;
  GArray         *domains;       /* SlNvtxDomain, NVTX job only */
  SlIdMap         thread_name_override; /* globalTid -> string id, from NVTX eventType 39 */
  GHashTable     *process_names; /* pid -> char* from PROCESSES, interned when used */
  SlArena        *gpu_arena;     /* the streams' data, shared with a staged GPU profile */
  gboolean        assembled;     /* the profile's arrays are in its arenas */
  guint           n_workers;     /* threads reading the tables (sl-load-jobs.c) */
  gboolean        gpu_adopted;   /* GPU names and streams are in gpu_arena */

  /* skipped-row counters, per reason (atomics: every worker adds) */
  gint            skipped_bad_time;
  gint            skipped_absurd_time;   /* beyond ±2^62 ns, or far longer than the capture */
  gint            skipped_bad_string;
  gint            skipped_nvtx_unpaired;

  /* Plausibility: the capture's duration (ANALYSIS_DETAILS, 0 when unknown)
   * and the longest event it can hold (G_MAXINT64 without a capture). */
  gint64          capture_ns;
  guint64         max_event_ns;
};

/* sl-loader.c: progress, warnings and timing, shared by both workers. */
/* With SL_LOADER_TIMING set, prints how long each phase took (stderr). */
void         _sl_loader_phase          (SlLoader *loader, const char *phase, gint64 since_us);
void         _sl_loader_warn           (SlLoader *loader, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Adds @rows to the progress; FALSE with @error set when cancelled. */
gboolean     _sl_loader_tick           (SlLoader *loader, gint64 rows, GError **error);

/* sl-database.c: read-only connections (through the source's descriptor)
 * and what their failures mean for the user. */
sqlite3     *_sl_loader_open_db        (SlLoader *loader, GError **error);
gboolean     _sl_loader_step_error     (SlLoader *loader, sqlite3 *db, int rc, const char *what, GError **error);
/* TRUE after a clean end of @scan, else sets @error (unless a tick already
 * set it, for cancellation). */
gboolean     _sl_loader_scan_done      (SlLoader *loader, SlTableScan *scan, const char *what, GError **error);

/* sl-launch-table.c, sl-kernel-details.c: the launch configuration's
 * columns (in SlLaunchConfig's order), and a connection to a loaded
 * profile's own file (its descriptor) with the kernel table's columns
 * known, for reads outside a load. */
#define SL_LAUNCH_N_COLUMNS 9
extern const char *const _sl_launch_columns[SL_LAUNCH_N_COLUMNS];
gboolean     _sl_kernel_table_open     (const SlProfile *profile, SlLoader *loader, sqlite3 **db,
                                        GError **error);
void         _sl_kernel_table_close    (SlLoader *loader, sqlite3 *db);

/* sl-schema.c: tables and columns, Nsight detection, metadata, GPUs. */
/* Lists tables and columns and checks the file is an Nsight export. */
gboolean     _sl_schema_read           (SlLoader *loader, sqlite3 *db, GError **error);
/* Only @table's columns, for a lookup outside a load (kernel details). */
void         _sl_schema_read_table     (SlLoader *loader, sqlite3 *db, const char *table);
gboolean     _sl_loader_has_table      (SlLoader *loader, const char *table);
gboolean     _sl_loader_has_column     (SlLoader *loader, const char *table, const char *column);
/* "col" if it exists in @table, else "NULL": keeps SELECTs valid across versions. */
const char  *_sl_loader_column_or_null (SlLoader *loader, const char *table, const char *column);
/* The rows of @table, estimated for the progress bar. */
gint64       _sl_schema_estimate_rows  (SlLoader *loader, sqlite3 *db, const char *table);
/* nsys version, schema version and session start into the profile. */
void         _sl_schema_read_meta      (SlLoader *loader, sqlite3 *db);
/* The GPUs the target-info tables describe, into the profile. */
void         _sl_schema_read_gpus      (SlLoader *loader, sqlite3 *db);

/* sl-string-table.c: StringIds, mapped to the profile's string ids. */
gboolean     _sl_string_table_read     (SlLoader *loader, sqlite3 *db, GError **error);
/* The profile's id of StringIds id @file_id, or SL_NONE. */
guint32      _sl_loader_map_string     (SlLoader *loader, sqlite3_int64 file_id);

/* sl-load-jobs.c: the tables a load reads, as jobs for the workers. */
/* Plans a job per part of every table of the loader's parts, in file
 * order; the big tables are split into @n_workers parts. */
gboolean     _sl_load_jobs_plan        (SlLoader *loader, sqlite3 *db, guint n_workers, GError **error);
/* Runs the jobs on @n_workers threads (the caller's among them); the last
 * job of a group finishes the group (_sl_gpu_finish, _sl_cpu_finish). */
gboolean     _sl_load_jobs_run         (SlLoader *loader, guint n_workers, GError **error);
void         _sl_load_jobs_clear       (SlLoader *loader);

/* sl-load-gpu.c: kernels, memcpy, memset, synchronization. */
extern const SlTableRead _sl_kernel_read, _sl_memcpy_read, _sl_memset_read, _sl_sync_read;
SlGpuChunk  *_sl_gpu_chunk_new         (void);
void         _sl_gpu_chunk_free        (gpointer chunk);
/* Appends @from's rows after @into's, renumbering its kernel functions. */
void         _sl_gpu_chunk_merge       (SlGpuChunk *into, SlGpuChunk *from);
/* sl-load-cpu.c: CUDA API calls, NVTX, thread and process names. */
extern const SlTableRead _sl_api_read, _sl_nvtx_read;
SlCpuChunk  *_sl_cpu_chunk_new         (void);
void         _sl_cpu_chunk_free        (gpointer chunk);
/* Every thread of @from gets a builder in @into (empty until merged). */
void         _sl_cpu_chunk_add_threads (SlCpuChunk *into, SlCpuChunk *from);
/* @chunk's builder of @global_tid, or NULL. */
SlThreadBuilder *_sl_cpu_chunk_find    (SlCpuChunk *chunk, guint64 global_tid);
/* Appends @from's calls, ranges and marks after @into's. */
void         _sl_thread_builder_merge  (SlThreadBuilder *into, SlThreadBuilder *from);
void         _sl_load_thread_names     (SlLoader *loader, sqlite3 *db);
void         _sl_load_process_names    (SlLoader *loader, sqlite3 *db);

/* sl-gpu-profile.c: a staged load's profile of the GPU rows, handed to
 * the gpu_ready callback as soon as the GPU tables are in. */
void         _sl_loader_hand_out_gpu   (SlLoader *loader);

/* sl-assemble.c: the final model from the builders. */
/* Once the GPU tables are in: merged, sorted streams and GPUs in the
 * profile (and, for a staged load, the GPU profile handed out). */
void         _sl_gpu_finish            (SlLoader *loader);
/* Once the CPU tables are in: threads with their calls and NVTX ranges. */
void         _sl_cpu_finish            (SlLoader *loader, sqlite3 *db);
void         _sl_profile_assemble      (SlLoader *loader);
/* The processes of the profile's threads and streams, named from
 * @process_names (pid -> name). */
void         _sl_assemble_processes    (SlProfile *profile, GHashTable *process_names);
/* start_ns and end_ns over every loaded event. */
void         _sl_assemble_time_range   (SlProfile *profile);

/* sl-nsys-rep.c */
gboolean     _sl_is_nsys_rep_path      (const char *path);
char        *_sl_nsys_rep_convert      (const char *path, GCancellable *cancellable, GError **error);

/* Timestamps beyond ±2^62 ns (146 years) can only be damage; keeping every
 * time in [-2^62, 2^62) keeps every difference of two times within gint64. */
#define SL_MAX_ABS_TIME (G_GINT64_CONSTANT (1) << 62)

/* TRUE when @t is in [-2^62, 2^62): the bias maps that range onto
 * [0, 2^63), so bit 63 of the biased time is the whole test. */
static inline gboolean
_sl_time_is_sane (gint64 t)
{
  return (((guint64) t + (guint64) SL_MAX_ABS_TIME) >> 63) == 0;
}

/* The duration of [start, end]; FALSE when end is before start, either time
 * is absurd or the event is longer than @max_dur (at most G_MAXINT64).  Two
 * compares: an end before the start makes a negative duration, which reads
 * as more than @max_dur unsigned. */
static inline gboolean
_sl_duration (gint64 start, gint64 end, guint64 max_dur, gint64 *dur)
{
  if ((((guint64) start + (guint64) SL_MAX_ABS_TIME) | ((guint64) end + (guint64) SL_MAX_ABS_TIME)) >> 63)
    return FALSE;
  *dur = end - start;   /* both in [-2^62, 2^62): fits */
  return (guint64) *dur <= max_dur;
}

#define SL_TICK_ROWS 65536

/* Per-row bookkeeping of every table: progress and cancellation every
 * SL_TICK_ROWS rows.  FALSE when cancelled (@error set): stop reading. */
static inline gboolean
_sl_loader_count_row (SlLoader *loader, gint64 *rows, GError **error)
{
  return G_LIKELY (++*rows % SL_TICK_ROWS != 0) || _sl_loader_tick (loader, SL_TICK_ROWS, error);
}

/* Counts a row _sl_duration() refused under its reason. */
static inline void
_sl_loader_skip_time (SlLoader *loader, gint64 start, gint64 end, gboolean is_null)
{
  if (is_null || end < start)
    g_atomic_int_inc (&loader->skipped_bad_time);
  else
    g_atomic_int_inc (&loader->skipped_absurd_time);
}

/* The row's duration; FALSE, and the row counted as skipped, when its start
 * or end is missing (@is_null), its end is before its start, or its times
 * are absurd (see _sl_duration). */
static inline gboolean
_sl_loader_row_span (SlLoader *loader, gint64 start, gint64 end, gboolean is_null, gint64 *dur)
{
  if (G_LIKELY (!is_null && _sl_duration (start, end, loader->max_event_ns, dur)))
    return TRUE;
  _sl_loader_skip_time (loader, start, end, is_null);
  return FALSE;
}

/* TRUE when column @column of the row is NULL (see _sl_table_scan_next). */
static inline gboolean
_sl_is_null (guint64 nulls, guint column)
{
  return (nulls >> column) & 1;
}

/* TRUE when column @a or column @b of the row is NULL. */
static inline gboolean
_sl_either_null (guint64 nulls, guint a, guint b)
{
  return ((nulls >> a) | (nulls >> b)) & 1;
}

/* One row of an SlTableRead: @v and @nulls as _sl_table_scan_next() fills
 * them; @data is the reader's own state. */
typedef void (*SlRowFunc) (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data);

#define SL_READ_MAX_COLUMNS 16

/* Calls @row for every row of @scan, with progress and cancellation.
 * Inline so that @row, a constant at every call, is inlined into the
 * loop: this is the loader's hot path. */
static inline gboolean
_sl_loader_read_rows (SlLoader *loader, SlTableScan *scan, const SlTableRead *read,
                      SlRowFunc row, gpointer data, GError **error)
{
  gint64 v[SL_READ_MAX_COLUMNS];
  guint64 nulls;
  gint64 rows = 0;

  g_return_val_if_fail (read->n_columns <= SL_READ_MAX_COLUMNS, FALSE);
  while (_sl_table_scan_next (scan, v, &nulls) && _sl_loader_count_row (loader, &rows, error))
    row (loader, scan, v, nulls, data);
  return _sl_loader_scan_done (loader, scan, read->what, error);
}

G_END_DECLS
