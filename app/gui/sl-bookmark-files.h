/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-files.h: File -> Export Bookmarks… and Import Bookmarks…
 * (GtkFileChooserNative, kept here so the port to GtkFileDialog is one
 * file). */
#pragma once

#include <gtk/gtk.h>

#include "sl-bookmark-store.h"

G_BEGIN_DECLS

/* Called when done: @message (nullable: cancelled) says what happened, an
 * error when @failed. */
typedef void (*SlBookmarkFilesDone) (const char *message,
                                     gboolean    failed,
                                     gpointer    user_data);

void sl_bookmark_files_export (GtkWindow           *parent,
                               SlBookmarkStore     *store,
                               const char          *profile_name,
                               SlBookmarkFilesDone  done,
                               gpointer             user_data);
/* Asks for a file and whether to place its bookmarks by absolute time or
 * by time relative to the profile's start. */
void sl_bookmark_files_import (GtkWindow           *parent,
                               SlBookmarkStore     *store,
                               SlBookmarkFilesDone  done,
                               gpointer             user_data);

G_END_DECLS
