/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-file.h: the bookmarks file format (see sl-bookmark-store.h
 * for the schema): parsing, writing, and the atomic write to disk.  The
 * store, Export and Import and sightline-cli all go through it. */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "sl-bookmark.h"

G_BEGIN_DECLS

#define SL_BOOKMARKS_FORMAT_NAME "sightline-bookmarks"
/* The version this program writes and the newest it reads. */
#define SL_BOOKMARK_FILE_VERSION 1

/* The contents of one bookmarks file. */
typedef struct {
  char      *content_id;   /* the profile's identity, nullable (absent) */
  gint64     start_ns;     /* the profile's start the relative times are from */
  char      *name;         /* the profile's file name, nullable */
  GPtrArray *bookmarks;    /* SlBookmark *, absolute times, in order */
  GArray    *relative;     /* SlTimeRange per bookmark: start_rel_ns, end_rel_ns */
} SlBookmarkFile;

SlBookmarkFile *sl_bookmark_file_new    (const char *content_id, gint64 start_ns, const char *name);
void            sl_bookmark_file_free   (SlBookmarkFile *file);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlBookmarkFile, sl_bookmark_file_free)

/* Parses @data.  NULL with @error set: G_IO_ERROR_INVALID_DATA when it is
 * not a bookmarks file (not JSON, another format, a malformed bookmark),
 * G_IO_ERROR_NOT_SUPPORTED when its version is newer than this program's. */
SlBookmarkFile *sl_bookmark_file_parse  (const char *data, gsize length, GError **error);

/* The file of @bookmarks (SlBookmark *) of the profile @content_id starting
 * at @start_ns, relative times computed from it: pretty JSON.  (transfer full) */
char           *sl_bookmark_file_to_data (const char *content_id, gint64 start_ns,
                                          const char *name, GPtrArray *bookmarks,
                                          gsize *length);

/* One bookmark object of the file format, relative times from @start_ns
 * (what sightline-cli bookmarks --json prints).  (transfer full) */
JsonNode       *sl_bookmark_file_bookmark_to_json (const SlBookmark *bookmark, gint64 start_ns);

/* Writes @data to @path atomically: a temporary file in the same folder,
 * flushed, renamed over @path.  On failure nothing is left behind and the
 * old @path is untouched. */
gboolean        sl_bookmark_file_write  (const char *path, const char *data, gsize length,
                                         GError **error);

G_END_DECLS
