/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-private.h: what the writers of sl-export.h share: a buffered
 * sink that checks for cancel and reports progress as it flushes, the
 * escaping of profile strings for CSV and JSON, and NVTX paths. */
#pragma once

#include "sl-export.h"
#include "sl-attribution.h"

G_BEGIN_DECLS

/* Text is gathered in @buf and written to @out in blocks of about
 * SL_EXPORT_BLOCK bytes: a write per event would cost more than the event. */
#define SL_EXPORT_BLOCK (256 * 1024)

typedef struct {
  GOutputStream    *out;
  GString          *buf;
  GCancellable     *cancellable;
  SlExportProgress  progress;
  gpointer          progress_data;
  guint64           total;      /* events the writer will visit (progress) */
  guint64           done;
  GError           *error;      /* the first failure; later writes are skipped */
} SlExportSink;

void     sl_export_sink_init   (SlExportSink *sink, GOutputStream *out, guint64 total,
                                SlExportProgress progress, gpointer progress_data,
                                GCancellable *cancellable);
/* Writes what is buffered; FALSE once the sink has failed or was cancelled. */
gboolean sl_export_sink_flush  (SlExportSink *sink);
/* Flushes, frees, and moves the sink's error (if any) to @error. */
gboolean sl_export_sink_finish (SlExportSink *sink, GError **error);

/* Counts @n events done; flushes when the buffer is full.  FALSE: stop. */
static inline gboolean
sl_export_sink_step (SlExportSink *sink, guint n)
{
  sink->done += n;
  if (G_LIKELY (sink->buf->len < SL_EXPORT_BLOCK))
    return TRUE;
  return sl_export_sink_flush (sink);
}

/* A CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF;
 * invalid UTF-8 made valid; a text starting with = + - @ (or a tab or CR,
 * which spreadsheets also strip before evaluating) gets a ' in front so
 * that no spreadsheet runs it as a formula. */
void     sl_export_csv_text    (GString *buf, const char *text);
/* A JSON string literal with its quotes: valid UTF-8, control characters,
 * U+2028/U+2029, "<", ">" and "&" escaped so that it is safe inside a
 * <script> too (the HTML report uses it through _sl_html_json_string). */
void     sl_export_json_text   (GString *buf, const char *text);
/* @text (NULL: "") with invalid UTF-8 repaired: @text itself when valid,
 * else a copy stored in *@repaired for the caller to free.  Every writer's
 * UTF-8 repair. */
const char *sl_export_valid_utf8 (const char *text, char **repaired);
/* A decimal integer, without printf's cost (it is called for every field). */
void     sl_export_append_i64  (GString *buf, gint64 value);
/* @ns as microseconds with the nanoseconds kept as three decimals, exact. */
void     sl_export_json_us     (GString *buf, gint64 ns);

/* Profile strings escaped once each: millions of events share a few
 * thousand names, and escaping (validating UTF-8, scanning for quotes) costs
 * more than the rest of an event.  Keys are small dense indexes (a kernel
 * function, a range) or any 32-bit id. */
typedef void (*SlEscapeFunc) (GString *buf, const char *text);
typedef struct _SlCellCache SlCellCache;
SlCellCache *sl_cell_cache_new  (SlEscapeFunc escape);
/* Appends @text escaped to @buf, escaping it only the first time @key is seen. */
void         sl_cell_cache_append (SlCellCache *cache, GString *buf, guint32 key, const char *text);
void         sl_cell_cache_free (SlCellCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCellCache, sl_cell_cache_free)

/* NVTX paths of kernels ("outer > inner"), each range's built once. */
typedef struct _SlNvtxPaths SlNvtxPaths;
SlNvtxPaths *sl_nvtx_paths_new  (const SlProfile *profile);
/* The path of the push/pop range with global id @range ("" for SL_NONE);
 * (transfer none), lives as long as @paths. */
const char  *sl_nvtx_paths_get  (SlNvtxPaths *paths, guint32 range);
/* The innermost range of kernel @i of stream @stream, or SL_NONE. */
guint32      sl_nvtx_paths_kernel_range (SlNvtxPaths *paths, guint32 stream, guint i);
void         sl_nvtx_paths_free (SlNvtxPaths *paths);

/* The summary tables of a CSV directory export, by name ("kernels", "api",
 * "nvtx", "memcpy", "categories", "iterations", "gaps"): the rows of the
 * command's --json output, one column per key.  NULL-terminated. */
const char * const *sl_export_csv_tables (void);
gboolean     sl_export_csv_table_write (SlProfile *profile, const SlExportOptions *options,
                                        const char *table, GOutputStream *out,
                                        GCancellable *cancellable, GError **error);
/* "environment included" and, when it is, the environment lines. */
gboolean     sl_export_csv_info_write  (const SlExportOptions *options, GOutputStream *out,
                                        GCancellable *cancellable, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlNvtxPaths, sl_nvtx_paths_free)

/* Another writer (the comparison report) through sl_export_to_path()'s
 * machinery: a temporary file in @path's folder renamed at the end (none
 * left on error or cancel), gzip for ".gz", devices and pipes written in
 * place, the same error messages. */
typedef gboolean (*SlExportWriteFunc) (gconstpointer data, GOutputStream *out,
                                       GCancellable *cancellable, GError **error);
gboolean     sl_export_write_to_path (const char *path, SlExportWriteFunc write, gconstpointer data,
                                      GCancellable *cancellable, GError **error);

/* The launch configurations of an export (options->launch), opened once
 * by the writer in its thread. */
typedef struct {
  const SlLaunchReader *reader;
  gpointer              cursor;   /* NULL: none to give */
} SlExportLaunch;

/* FALSE with @error set when reading them failed. */
gboolean     sl_export_launch_open  (SlExportLaunch *launch, SlProfile *profile,
                                     const SlExportOptions *options, GCancellable *cancellable,
                                     GError **error);
void         sl_export_launch_close (SlExportLaunch *launch);
/* Kernel @index of stream @stream's (asked in the writers' walk order), or NULL. */
static inline const SlLaunchConfig *
sl_export_launch_get (SlExportLaunch *launch, guint32 stream, guint index)
{
  return launch->cursor != NULL ? launch->reader->get (launch->cursor, stream, index) : NULL;
}
/* The CSV cells "grid,block,registers,static_smem,dynamic_smem," (grid and
 * block as XxYxZ; empty when unknown). */
void         sl_export_launch_csv   (GString *buf, const SlLaunchConfig *config);
/* Perfetto args members ,"grid":[x,y,z],"block":[..],"registers":n,
 * "static shared memory":n,"dynamic shared memory":n; unknown ones left out. */
void         sl_export_launch_json  (GString *buf, const SlLaunchConfig *config);

G_END_DECLS
