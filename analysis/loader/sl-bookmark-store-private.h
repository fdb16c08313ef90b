/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-store-private.h: what the store's files share. */
#pragma once

#include "sl-bookmark-store.h"

G_BEGIN_DECLS

/* The index of the bookmark @id in the user's order, or -1. */
int       _sl_bookmark_store_index   (SlBookmarkStore *self, const char *id);
/* After a change in memory: writes the file and emits "changed" (also
 * when the write fails: the change holds in memory). */
gboolean  _sl_bookmark_store_changed (SlBookmarkStore *self, GError **error);
/* The profile's file name the store records, nullable. */
const char *_sl_bookmark_store_profile_name (SlBookmarkStore *self);

G_END_DECLS
