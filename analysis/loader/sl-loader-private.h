/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-loader-private.h: the loader's state and the functions its files share. */
#pragma once

#include <sqlite3.h>

#include "sl-profile-private.h"
#include "sl-profile-loader.h"
#include "sl-idmap.h"
#include "sl-table-scan.h"
#include "sl-recovery.h"

G_BEGIN_DECLS

/* One GPU row being built: its three event arrays and their capacities. */
typedef struct {
  SlStream stream;
  guint32 *kernel_corr;    /* correlationIds while loading; see SlKernels */
  guint    kernel_cap;
  guint    memcpy_cap;
  guint    memset_cap;
} SlStreamBuilder;

/* One CPU thread being built. */
typedef struct {
  guint64    global_tid;
  SlApiCalls api;
  guint      api_cap;
  SlNvtxRanges nvtx;
  guint      nvtx_cap;
  SlNvtxRanges startend;
  guint      startend_cap;
  SlNvtxMarks marks;
  guint      marks_cap;
  guint32    name;
} SlThreadBuilder;

typedef struct {
  /* fixed for the whole load */
  const char     *display_path;  /* the user's file, for messages */
  char           *db_path;       /* the SQLite file actually read */
  SlRecovery     *recovery;      /* a private recovered copy (-wal, hot journal), or NULL */
  GCancellable   *cancellable;
  SlProgressFunc  progress;
  gpointer        progress_data;
  GHashTable     *tables;        /* table name -> GHashTable of column names */
  SlProfile      *profile;

  /* StringIds id -> profile string id: a direct array when ids are dense,
   * a hash map otherwise (sliced fixtures keep only referenced ids). */
  guint32        *string_direct;
  gsize           string_direct_len;
  SlIdMap         string_sparse;

  /* progress: rows done over rows expected, shared by the workers */
  gint64          rows_total;
  gint64          rows_done;     /* atomic */
  GMutex          progress_lock;

  /* GPU worker */
  GPtrArray      *stream_builders;  /* SlStreamBuilder* */
  SlIdMap         stream_index;     /* hash of (pid, device, context, stream) -> builder */
  SlIdMap         func_index;       /* (short, demangled) -> func */
  GArray         *funcs;            /* SlKernelFunc */
  guint           sync_cap;

  /* CPU worker */
  GPtrArray      *thread_builders;  /* SlThreadBuilder* */
  SlIdMap         thread_index;     /* globalTid -> builder */
  GArray         *domains;          /* SlNvtxDomain */
  SlIdMap         thread_name_override; /* globalTid -> string id, from NVTX eventType 39 */
  GHashTable     *process_names;    /* pid -> char* from PROCESSES, interned when used */

  /* skipped-row counters, per reason (atomics: both workers add) */
  gint            skipped_bad_time;
  gint            skipped_bad_string;
  gint            skipped_nvtx_unpaired;
} SlLoader;

/* sl-loader.c: progress, warnings and timing, shared by both workers. */
/* With SL_LOADER_TIMING set, prints how long each phase took (stderr). */
void         _sl_loader_phase          (SlLoader *loader, const char *phase, gint64 since_us);
void         _sl_loader_warn           (SlLoader *loader, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Adds @rows to the progress; FALSE with @error set when cancelled. */
gboolean     _sl_loader_tick           (SlLoader *loader, gint64 rows, GError **error);

/* sl-file-check.c: the checks before SQLite sees the file, each mistake
 * with its own message; @display is the name the user knows. */
gboolean     _sl_file_check            (const char *path, const char *display, GError **error);

/* sl-database.c: read-only connections and table scans, and what their
 * failures mean for the user. */
sqlite3     *_sl_loader_open_db        (SlLoader *loader, GError **error);
gboolean     _sl_loader_step_error     (SlLoader *loader, sqlite3 *db, int rc, const char *what, GError **error);

/* One activity table as the loader reads it. */
typedef struct {
  const char        *table;
  const char *const *columns;
  guint              n_columns;
  const char        *what;       /* translated, for messages: "the kernels" */
} SlTableRead;

SlTableScan *_sl_loader_open_scan      (SlLoader *loader, sqlite3 *db, const SlTableRead *read, GError **error);
/* Frees @scan; TRUE at a clean end, else sets @error (unless a tick
 * already set it, for cancellation). */
gboolean     _sl_loader_finish_scan    (SlLoader *loader, SlTableScan *scan, const char *what, GError **error);

/* sl-schema.c: tables and columns, Nsight detection, metadata, GPUs. */
/* Lists tables and columns and checks the file is an Nsight export. */
gboolean     _sl_schema_read           (SlLoader *loader, sqlite3 *db, GError **error);
/* Only @table's columns, for a lookup outside a load (kernel details). */
void         _sl_schema_read_table     (SlLoader *loader, sqlite3 *db, const char *table);
gboolean     _sl_loader_has_table      (SlLoader *loader, const char *table);
gboolean     _sl_loader_has_column     (SlLoader *loader, const char *table, const char *column);
/* "col" if it exists in @table, else "NULL": keeps SELECTs valid across versions. */
const char  *_sl_loader_column_or_null (SlLoader *loader, const char *table, const char *column);
/* The rows the load will read, estimated for the progress bar. */
gint64       _sl_schema_estimate_rows  (SlLoader *loader, sqlite3 *db);
/* nsys version, schema version and session start into the profile. */
void         _sl_schema_read_meta      (SlLoader *loader, sqlite3 *db);
/* The GPUs the target-info tables describe, into the profile. */
void         _sl_schema_read_gpus      (SlLoader *loader, sqlite3 *db);

/* sl-string-table.c: StringIds, mapped to the profile's string ids. */
gboolean     _sl_string_table_read     (SlLoader *loader, sqlite3 *db, GError **error);
/* The profile's id of StringIds id @file_id, or SL_NONE. */
guint32      _sl_loader_map_string     (SlLoader *loader, sqlite3_int64 file_id);

/* sl-load-gpu.c: kernels, memcpy, memset, synchronization. */
gboolean     _sl_load_gpu              (SlLoader *loader, sqlite3 *db, GError **error);
void         _sl_stream_builder_free   (gpointer builder);
/* sl-load-cpu.c: CUDA API calls, NVTX, thread names. */
gboolean     _sl_load_cpu              (SlLoader *loader, sqlite3 *db, GError **error);
void         _sl_thread_builder_free   (gpointer builder);

/* sl-assemble.c: the final model from the builders. */
void         _sl_profile_assemble      (SlLoader *loader);
void         _sl_streams_finish        (SlLoader *loader);
void         _sl_threads_finish        (SlLoader *loader);

/* sl-nsys-rep.c */
gboolean     _sl_is_nsys_rep_path      (const char *path);
char        *_sl_nsys_rep_convert      (const char *path, GCancellable *cancellable, GError **error);

/* Timestamps beyond ±2^62 ns (146 years) can only be damage; rejecting
 * them keeps every later difference of two times within gint64. */
#define SL_MAX_ABS_TIME (G_GINT64_CONSTANT (1) << 62)

/* The duration of [start, end]; FALSE when end is before start or either
 * time is absurd. */
static inline gboolean
_sl_duration (gint64 start, gint64 end, gint64 *dur)
{
  if (end < start || start < -SL_MAX_ABS_TIME || end > SL_MAX_ABS_TIME)
    return FALSE;
  *dur = end - start;
  return TRUE;
}

#define SL_TICK_ROWS 65536

/* Per-row bookkeeping of every table: progress and cancellation every
 * SL_TICK_ROWS rows.  FALSE when cancelled (@error set): stop reading. */
static inline gboolean
_sl_loader_count_row (SlLoader *loader, gint64 *rows, GError **error)
{
  return G_LIKELY (++*rows % SL_TICK_ROWS != 0) || _sl_loader_tick (loader, SL_TICK_ROWS, error);
}

/* The row's duration; FALSE, and the row counted as skipped, when its end
 * is missing, before its start, or absurd. */
static inline gboolean
_sl_loader_row_span (SlLoader *loader, gint64 start, gint64 end, gboolean end_is_null, gint64 *dur)
{
  if (G_LIKELY (!end_is_null && _sl_duration (start, end, dur)))
    return TRUE;
  g_atomic_int_inc (&loader->skipped_bad_time);
  return FALSE;
}

/* TRUE when column @column of the row is NULL (see _sl_table_scan_next). */
static inline gboolean
_sl_is_null (guint64 nulls, guint column)
{
  return (nulls >> column) & 1;
}

/* One row of an SlTableRead: @v and @nulls as _sl_table_scan_next() fills
 * them; @data is the reader's own state. */
typedef void (*SlRowFunc) (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data);

#define SL_READ_MAX_COLUMNS 16

/* Calls @row for every row of @read's table, with progress and
 * cancellation; a table the file lacks has nothing to read (TRUE).  Inline
 * so that @row, a constant at every call, is inlined into the loop: this
 * is the loader's hot path. */
static inline gboolean
_sl_loader_read_rows (SlLoader *loader, sqlite3 *db, const SlTableRead *read,
                      SlRowFunc row, gpointer data, GError **error)
{
  gint64 v[SL_READ_MAX_COLUMNS];
  guint64 nulls;
  gint64 rows = 0;
  SlTableScan *scan;

  g_return_val_if_fail (read->n_columns <= SL_READ_MAX_COLUMNS, FALSE);
  if (!_sl_loader_has_table (loader, read->table))
    return TRUE;
  scan = _sl_loader_open_scan (loader, db, read, error);
  if (scan == NULL)
    return FALSE;
  while (_sl_table_scan_next (scan, v, &nulls) && _sl_loader_count_row (loader, &rows, error))
    row (loader, scan, v, nulls, data);
  return _sl_loader_finish_scan (loader, scan, read->what, error);
}

G_END_DECLS
