/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-dialog-private.h: what the dialog's files share.
 * sl-export-dialog.c holds the choices; sl-export-dialog-run.c turns them
 * into an export and runs it (overwrite question, worker, result). */
#pragma once

#include "sl-export-dialog.h"
#include "sl-export-job.h"

G_BEGIN_DECLS

struct _SlExportDialog {
  GtkWindow     parent_instance;

  GtkWidget    *format_html, *format_csv, *format_perfetto;
  GtkWidget    *scope_whole, *scope_visible, *scope_selection, *scope_bookmark;
  GtkWidget    *bookmark_dropdown;
  GtkWidget    *gpu_box, *process_box;
  GtkWidget    *names_short, *names_demangled;
  GtkWidget    *env_check, *env_warning;
  GtkWidget    *path_entry, *choose_folder_button;
  GtkWidget    *progress_bar, *status_label;
  GtkWidget    *cancel_button, *export_button;

  SlSession    *session;
  GPtrArray    *bookmarks;      /* (element-type SlBookmark) (nullable) */
  gboolean      syncing;        /* the format and the path's extension follow each other */

  /* the run */
  GCancellable *cancellable;    /* while an export runs */
  char         *running_path;   /* its destination */
  GtkWidget    *question;       /* "Replace …?", while asked */
  const char   *state;          /* static: "idle", "confirming", "running", "done", "failed", "cancelled" */
  double        fraction;
  char         *last_path;      /* of the last export that succeeded */
  char         *error;          /* of the last that failed */
};

/* sl-export-dialog.c */
SlExportFormat   _sl_export_dialog_get_format  (SlExportDialog *self);
const char      *_sl_export_dialog_scope_name  (SlExportDialog *self);
/* (transfer full): the export the choices ask for; NULL with @error (a
 * message for the user) when they make no sense. */
SlExportRequest *_sl_export_dialog_request     (SlExportDialog *self,
                                                GError        **error);
void             _sl_export_dialog_notify_state (SlExportDialog *self);
void             _sl_export_dialog_set_running  (SlExportDialog *self,
                                                 gboolean        running);
/* Emits "exported". */
void             _sl_export_dialog_exported     (SlExportDialog *self,
                                                 const char     *path);

/* sl-export-dialog-run.c */
void             _sl_export_dialog_run          (SlExportDialog *self);
void             _sl_export_dialog_cancel       (SlExportDialog *self);
void             _sl_export_dialog_choose       (SlExportDialog *self,
                                                 gboolean        folder);
void             _sl_export_dialog_show_status  (SlExportDialog *self,
                                                 const char     *state,
                                                 const char     *text);
void             _sl_export_dialog_run_dispose  (SlExportDialog *self);
void             _sl_export_dialog_hide         (SlExportDialog *self);

G_END_DECLS
