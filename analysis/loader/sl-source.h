/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-source.h: the profile file, opened once.
 *
 * Everything the loader reads (SQLite through sl-fd-vfs.h, the page reader,
 * later the kernel details a user clicks) goes through this one descriptor,
 * so a file renamed or replaced while it loads is still read whole, from
 * one inode.  A file written in place is caught by comparing its size,
 * modification time and SQLite change counter before and after. */
#pragma once

#include <glib.h>
#include <sys/stat.h>

G_BEGIN_DECLS

typedef struct _SlSource SlSource;

/* Opens @path read-only after the checks that give each mistake its own
 * message (missing, a symlink loop, a folder, a FIFO or device, no
 * permission, empty, not SQLite, truncated); @display is the name the user
 * knows (a .nsys-rep's, for its converted export).  Never blocks on a FIFO. */
SlSource   *_sl_source_open       (const char *path,
                                   const char *display,
                                   GError    **error);
SlSource   *_sl_source_ref        (SlSource   *source);
void        _sl_source_unref      (SlSource   *source);
int         _sl_source_fd         (SlSource   *source);
const char *_sl_source_display    (SlSource   *source);
/* FALSE with SL_PROFILE_ERROR_CHANGED when the file was written since it
 * was opened. */
gboolean    _sl_source_unchanged  (SlSource   *source,
                                   GError    **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSource, _sl_source_unref)

G_END_DECLS
