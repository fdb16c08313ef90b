/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-fd-vfs.h: SQLite reading a profile through the loader's one open
 * descriptor (sl-source.h) instead of opening the path again.
 *
 * A read-only VFS: it never creates, locks or writes anything, and tells
 * SQLite that no journal or WAL file exists, so nothing appears beside the
 * profile (WAL and hot journals are applied on a private copy first, see
 * sl-recovery).  Loader only. */
#pragma once

#include <sqlite3.h>
#include <glib.h>

G_BEGIN_DECLS

/* Opens a read-only connection to the database in @fd (kept open by the
 * caller for the connection's life).  Returns the SQLite result code;
 * *@db is set even on failure (close it). */
int  _sl_fd_vfs_open  (int       fd,
                       sqlite3 **db);

G_END_DECLS
