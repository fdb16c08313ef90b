/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export.h: the exports users share (HTML report, CSV, Perfetto trace),
 * one code path for the app's Export dialog and `sightline-cli export`.
 *
 * Every writer streams: it walks the profile once and writes as it goes,
 * so memory stays flat whatever the profile's size.  Writers run in a
 * worker thread (SlProfile is immutable), report progress through
 * @progress (called from that thread) and stop at once, with
 * G_IO_ERROR_CANCELLED, when @cancellable is cancelled.
 *
 * Privacy: nothing of the capture's environment (META_DATA_CAPTURE,
 * TARGET_INFO_SYSTEM_ENV, process command lines and environment) reaches
 * an export unless options->include_environment; every export records the
 * choice ("environment included": true/false). */
#pragma once

#include <gio/gio.h>

#include "sl-bookmark.h"
#include "sl-categories.h"
#include "sl-cpu-activity.h"
#include "sl-filter.h"
#include "sl-kernel-summary.h"   /* SlNameStyle */
#include "sl-launch-config.h"
#include "sl-profile.h"

G_BEGIN_DECLS

typedef enum {
  SL_EXPORT_HTML,
  SL_EXPORT_CSV,
  SL_EXPORT_PERFETTO,
} SlExportFormat;

typedef struct {
  SlExportFormat      format;
  const SlFilter     *filter;          /* GPUs, processes, time range; NULL: everything */
  SlNameStyle         names;           /* kernel names: short or demangled */
  const SlCategories *categories;      /* NULL: the default rules */
  GPtrArray          *bookmarks;       /* (element-type SlBookmark) (nullable): those
                                          overlapping the scope are exported */
  const char         *scope_label;     /* (nullable) shown in the report's header, e.g.
                                          "bookmark “step 412”" or "selection" */
  gboolean            include_environment;
  char              **environment;     /* (nullable) "SOURCE: NAME=value" lines read by
                                          the caller (sl-capture-env.h, loader room),
                                          used only with include_environment */
  const SlCpuActivity *cpu;            /* (nullable) the CPU side, for the gaps' causes */
  const SlLaunchReader *launch;        /* (nullable) kernels' launch configurations (CSV
                                          columns grid..dynamic_smem, Perfetto args), read
                                          by the caller's loader: sl_launch_table_reader();
                                          NULL: those columns stay empty */
} SlExportOptions;

/* Called from the worker: @fraction in [0, 1]. */
typedef void (*SlExportProgress) (double fraction, gpointer user_data);

/* The format a destination's name asks for: ".html"/".htm" HTML, ".csv" or a
 * directory CSV, ".json"/".json.gz" Perfetto; FALSE when none. */
gboolean sl_export_format_from_path (const char *path, SlExportFormat *out);
const char *sl_export_format_name   (SlExportFormat format);  /* "html", "csv", "perfetto" */
gboolean sl_export_format_parse     (const char *name, SlExportFormat *out);

/* Writes the export of @profile to @path without ever leaving a partial
 * file: into a temporary file in @path's folder, renamed onto @path at the
 * end; on error or cancel the temporary file is removed and @path is
 * untouched.  CSV to a directory (an existing one, or @path ending in "/")
 * writes kernels.csv and the summary tables (kernels, api, nvtx, memcpy,
 * categories, iterations, gaps: <table>-summary.csv) into it, each file
 * atomically.  A @path ending in ".gz" is gzip-compressed.  An error names
 * the path and the reason ("… is in a read-only folder"). */
gboolean sl_export_to_path          (SlProfile              *profile,
                                     const SlExportOptions  *options,
                                     const char             *path,
                                     SlExportProgress        progress,
                                     gpointer                progress_data,
                                     GCancellable           *cancellable,
                                     GError                **error);

/* The writers, each to a stream (sl_export_to_path() wraps them). */
gboolean sl_export_html_write        (SlProfile *profile, const SlExportOptions *options,
                                      GOutputStream *out, SlExportProgress progress,
                                      gpointer progress_data, GCancellable *cancellable,
                                      GError **error);
gboolean sl_export_csv_kernels_write (SlProfile *profile, const SlExportOptions *options,
                                      GOutputStream *out, SlExportProgress progress,
                                      gpointer progress_data, GCancellable *cancellable,
                                      GError **error);
gboolean sl_export_perfetto_write    (SlProfile *profile, const SlExportOptions *options,
                                      GOutputStream *out, SlExportProgress progress,
                                      gpointer progress_data, GCancellable *cancellable,
                                      GError **error);

G_END_DECLS
