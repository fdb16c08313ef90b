/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-job.h: one export (sl_export_to_path) run in a worker thread,
 * its progress brought back to the main thread. */
#pragma once

#include <gio/gio.h>

#include "sl-export.h"

G_BEGIN_DECLS

/* What the job exports: owned by the job (freed with it). */
typedef struct {
  SlExportFormat  format;
  SlFilter       *filter;               /* nullable */
  SlNameStyle     names;
  GPtrArray      *bookmarks;            /* (element-type SlBookmark) (nullable) */
  char           *scope_label;          /* nullable */
  gboolean        include_environment;
  char          **environment;          /* nullable; read in the worker when NULL and included */
} SlExportRequest;

SlExportRequest *sl_export_request_new  (void);
void             sl_export_request_free (SlExportRequest *request);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlExportRequest, sl_export_request_free)

/* Called in the main thread, at most once per main-loop iteration. */
typedef void (*SlExportJobProgress) (double fraction, gpointer user_data);

/* Runs the export of @profile to @path in a worker; @callback gets the
 * result (sl_export_job_finish) in the main thread.  Takes @request;
 * @progress_data is a GObject the job keeps alive until it is done. */
void     sl_export_job_run    (SlProfile           *profile,
                               SlExportRequest     *request,
                               const char          *path,
                               GCancellable        *cancellable,
                               SlExportJobProgress  progress,
                               gpointer             progress_data,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data);
gboolean sl_export_job_finish (GAsyncResult        *result,
                               GError             **error);

G_END_DECLS
