/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-toast.h: "Exported to …" with Open and Show in Folder, a bar
 * under the header bar for a while after an export. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_EXPORT_TOAST (sl_export_toast_get_type ())
G_DECLARE_FINAL_TYPE (SlExportToast, sl_export_toast, SL, EXPORT_TOAST, GtkWidget)

GtkWidget  *sl_export_toast_new  (void);
/* Shows that @path (a file, or a folder of CSV files) was written. */
void        sl_export_toast_show (SlExportToast *self,
                                  const char    *path);
void        sl_export_toast_hide (SlExportToast *self);

G_END_DECLS
