/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-store.h: the bookmarks of one profile, kept in the user's
 * data folder, never inside or beside the profile.
 *
 * One JSON file per profile, $XDG_DATA_HOME/sightline/bookmarks/<id>.json,
 * <id> the profile's content identity (sl-content-id.h), so a renamed or
 * moved copy keeps its bookmarks and another file of the same name does not
 * get them.  Every change is written at once, atomically (a temporary file
 * in the same folder, renamed).  A file that does not parse, or has a newer
 * format version, is renamed <id>.json.corrupt-<YYYYMMDD-HHMMSS> and reported
 * through "problem"; the store then starts empty (nothing is overwritten).
 * With a main loop, a GFileMonitor reloads the file when another window or
 * process (sightline-cli bookmarks add) changes it, and emits "changed".
 *
 * The file format (documented in the README), version 1:
 *   { "format": "sightline-bookmarks", "version": 1,
 *     "profile": { "content_id": "<64 hex>", "start_ns": N,
 *                  "name": "<file name when written, informative>" },
 *     "bookmarks": [ { "id": "...", "name": "...", "note": "...",
 *                      "color": "#rrggbb",
 *                      "start_ns": N, "end_ns": N,          absolute (capture clock)
 *                      "start_rel_ns": N, "end_rel_ns": N   from profile.start_ns
 *                    }, ... ] }          in the user's order
 * Export/Import Bookmarks… use the same format; importing "by relative
 * time" places start_rel_ns/end_rel_ns on the target profile's start.
 *
 * The profile's start is SlProfile.start_ns of a complete load (what the
 * ruler's "+0" is); callers that loaded only part of a profile (the CLI)
 * must pass the start a complete load would have. */
#pragma once

#include <gio/gio.h>

#include "sl-bookmark.h"
#include "sl-bookmark-file.h"
#include "sl-profile.h"

G_BEGIN_DECLS

#define SL_BOOKMARKS_FORMAT_VERSION SL_BOOKMARK_FILE_VERSION

#define SL_TYPE_BOOKMARK_STORE (sl_bookmark_store_get_type ())
G_DECLARE_FINAL_TYPE (SlBookmarkStore, sl_bookmark_store, SL, BOOKMARK_STORE, GObject)

/* The folder of the bookmark files: $XDG_DATA_HOME/sightline/bookmarks
 * (g_get_user_data_dir()).  (transfer full) */
char            *sl_bookmark_store_dir          (void);

/* The store of the profile whose content identity is @content_id and whose
 * start is @profile_start_ns, loading its file when there is one.  Never
 * fails: a file that cannot be read is kept aside and reported by
 * sl_bookmark_store_get_problem().  @profile_name (nullable) is recorded in
 * the file for people reading it. */
SlBookmarkStore *sl_bookmark_store_new          (const char        *content_id,
                                                 gint64             profile_start_ns,
                                                 const char        *profile_name);
/* The same for a loaded profile: its identity from profile->source_fd (or
 * its path), its start from profile->start_ns.  NULL with @error set when
 * the identity cannot be read. */
SlBookmarkStore *sl_bookmark_store_new_for_profile (SlProfile     *profile,
                                                 GError           **error);

const char      *sl_bookmark_store_get_content_id (SlBookmarkStore *self);
gint64           sl_bookmark_store_get_profile_start (SlBookmarkStore *self);
/* The file this store reads and writes.  (transfer none) */
const char      *sl_bookmark_store_get_path     (SlBookmarkStore   *self);
/* (nullable) A sentence for the window, e.g. "The bookmarks file … could not
 * be read (…); it was kept as ….corrupt-20261125-101500.".  Notified as
 * "problem". */
const char      *sl_bookmark_store_get_problem  (SlBookmarkStore   *self);

/* The bookmarks in the user's order: (element-type SlBookmark) (transfer
 * none); valid until the next change. */
GPtrArray       *sl_bookmark_store_get_bookmarks (SlBookmarkStore  *self);
/* (nullable) (transfer none) */
const SlBookmark *sl_bookmark_store_find        (SlBookmarkStore   *self,
                                                 const char        *id);
/* The first bookmark named @name exactly, else the only one whose name
 * contains it (any case); NULL when none or ambiguous.  (transfer none) */
const SlBookmark *sl_bookmark_store_lookup_name (SlBookmarkStore   *self,
                                                 const char        *name);

/* Each change writes the file; on a write error returns FALSE with @error
 * set and leaves the file as it was (the change stays in memory).  Each
 * emits "changed" once. */
gboolean         sl_bookmark_store_add          (SlBookmarkStore   *self,
                                                 const SlBookmark  *bookmark,
                                                 GError           **error);
/* Inserts at @position (-1: at the end): Undo of a delete. */
gboolean         sl_bookmark_store_insert       (SlBookmarkStore   *self,
                                                 int                position,
                                                 const SlBookmark  *bookmark,
                                                 GError           **error);
/* Replaces the bookmark with @bookmark->id (name, note, colour, times). */
gboolean         sl_bookmark_store_update       (SlBookmarkStore   *self,
                                                 const SlBookmark  *bookmark,
                                                 GError           **error);
gboolean         sl_bookmark_store_remove       (SlBookmarkStore   *self,
                                                 const char        *id,
                                                 GError           **error);
/* Moves the bookmark @id to @position in the user's order. */
gboolean         sl_bookmark_store_move         (SlBookmarkStore   *self,
                                                 const char        *id,
                                                 guint              position,
                                                 GError           **error);

/* The profile start recorded in the bookmarks file of @content_id, without
 * building a store: FALSE when there is no such file or it does not parse.
 * (sightline-cli uses it not to load a whole profile only to learn its
 * start: the file was written with the start of a complete load.) */
gboolean         sl_bookmark_store_peek_start   (const char        *content_id,
                                                 gint64            *start_ns);

/* Export: the bookmarks as the file format above, to @path (atomically). */
gboolean         sl_bookmark_store_export       (SlBookmarkStore   *self,
                                                 const char        *path,
                                                 GError           **error);
/* Import from a bookmarks file: by absolute time, or with @by_relative_time
 * by the times relative to its profile's start (for another capture of the
 * same job).  Bookmarks whose id is already here are skipped.  Returns the
 * number added, or -1 with @error set (a file that is not a bookmarks file,
 * or of a newer version, says so). */
int              sl_bookmark_store_import       (SlBookmarkStore   *self,
                                                 const char        *path,
                                                 gboolean           by_relative_time,
                                                 GError           **error);

G_END_DECLS
