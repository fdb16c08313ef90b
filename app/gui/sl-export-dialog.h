/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-dialog.h: File > Export…, the choices of one export (format,
 * scope, GPUs, processes, names, environment, destination) and its run,
 * with progress and Cancel. */
#pragma once

#include <gtk/gtk.h>

#include "sl-session.h"

G_BEGIN_DECLS

#define SL_TYPE_EXPORT_DIALOG (sl_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SlExportDialog, sl_export_dialog, SL, EXPORT_DIALOG, GtkWindow)

/* A dialog for @parent's profile; it hides on close and keeps the choices
 * for the next time.  Emits "exported" (the path written) on success. */
SlExportDialog *sl_export_dialog_new           (GtkWindow      *parent,
                                                SlSession      *session);
/* @session (nullable): the profile exported; its ranges are the scopes. */
void            sl_export_dialog_set_session   (SlExportDialog *self,
                                                SlSession      *session);
/* The window's bookmarks (element-type SlBookmark) (nullable): offered as
 * scopes, and exported with the report. */
void            sl_export_dialog_set_bookmarks (SlExportDialog *self,
                                                GPtrArray      *bookmarks);
/* Shows the dialog with the profile's GPUs, processes and ranges. */
void            sl_export_dialog_present       (SlExportDialog *self);

G_END_DECLS
