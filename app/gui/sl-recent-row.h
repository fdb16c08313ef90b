/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-recent-row.h: one recently opened profile on the welcome page. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_RECENT_ROW (sl_recent_row_get_type ())
G_DECLARE_FINAL_TYPE (SlRecentRow, sl_recent_row, SL, RECENT_ROW, GtkListBoxRow)

GtkWidget  *sl_recent_row_new     (GtkRecentInfo *info);
/* The profile's URI. */
const char *sl_recent_row_get_uri (SlRecentRow   *self);

G_END_DECLS
