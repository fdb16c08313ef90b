/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-bookmark-range.h: --bookmark NAME, the range of a bookmark of the
 * profile, used exactly as --range START END would be. */
#pragma once

#include <glib.h>
#include "sl-cli-options.h"

G_BEGIN_DECLS

/* Sets @common's filter range to [start, end) of the bookmark named
 * --bookmark in the bookmarks of the first of @profiles (SlProfile *), as
 * sl_bookmark_store_lookup_name() finds it.  Nothing to do without
 * --bookmark.  An unknown or ambiguous name prints one line listing the
 * profile's bookmarks and returns FALSE (exit SL_CLI_USAGE). */
gboolean  sl_cli_resolve_bookmark (const char *command, SlCliCommon *common, GPtrArray *profiles);

/* "“a”, “b”" of the bookmarks of @store, or "none".  (transfer full) */
char     *sl_cli_bookmark_names   (SlBookmarkStore *store);

G_END_DECLS
