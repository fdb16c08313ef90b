/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-content-id.h: the identity of a profile's contents, whatever its
 * path: the key of the profile cache, and of bookmarks.
 *
 * The identity is 64 lowercase hex digits, the SHA-256 of:
 *
 *   "sightline-content-id/1\n"
 *   the file size, 8 bytes little-endian
 *   files of up to 1 MiB: every byte; larger files:
 *     bytes [0, 64 KiB)                       the SQLite header (with its file
 *                                             change counter) and schema pages
 *     64 blocks of 4 KiB at offsets           the activity tables, sampled
 *       floor (size * (i + 1) / 65) & ~4095,
 *       i = 0 .. 63
 *     the last 4 KiB                          where appended pages go
 *
 * It reads ~330 KiB whatever the file's size (about a millisecond from the
 * page cache), and neither the path nor the modification time takes part,
 * so a copied or moved profile keeps its identity.  SQLite increments the
 * change counter in the header on every committed write, so a profile
 * rewritten by SQLite gets a new identity; a byte edited by other means
 * outside the sampled blocks does not (the price of not reading gigabytes).
 * The recipe is frozen: identities are stored (bookmarks), so changing it
 * needs a new prefix line. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SL_CONTENT_ID_LEN 64

/* The identity of the file open on @fd (read with pread(): the
 * descriptor's offset is left alone).  Returns (transfer full) the hex
 * string, or NULL with @error set (G_IO_ERROR) when the file cannot be
 * read or changes size while it is read. */
char  *sl_content_id_from_fd   (int          fd,
                                GError     **error);
/* The same for the file at @path.  (transfer full) */
char  *sl_content_id_from_path (const char  *path,
                                GError     **error);

G_END_DECLS
