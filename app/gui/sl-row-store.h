/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-row-store.h: each profile's row layout (hidden, pinned, moved rows),
 * kept in $XDG_STATE_HOME/sightline/rows/<content id>.json: keyed by the
 * profile's contents (sl-content-id.h, as bookmarks), never beside it. */
#pragma once

#include <gio/gio.h>

#include "sl-row-layout.h"

G_BEGIN_DECLS

/* Computes @profile_path's content id and reads its layout in a worker. */
void         sl_row_store_load_async  (const char          *profile_path,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             data);
/* (transfer full) (nullable): the saved layout, NULL when none was saved
 * (or it is unreadable) and no @error; @content_id gets the id (transfer
 * full) unless the file could not be read (@error set). */
SlRowLayout *sl_row_store_load_finish (GAsyncResult        *result,
                                       char               **content_id,
                                       GError             **error);
/* Saves @rows for @content_id off the main thread, in call order; a
 * default layout removes the file. */
void         sl_row_store_save        (const char          *content_id,
                                       const SlRowLayout   *rows);

G_END_DECLS
