/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-recovery.h: a profile that SQLite would have to recover first (a -wal
 * file, or a hot rollback journal, beside it), recovered in a private copy
 * so that the profile and its folder are never written. Loader only. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _SlRecovery SlRecovery;

/* When @path has a non-empty -wal or a hot -journal beside it, copies the
 * three into a private folder, lets SQLite recover the copy (committed WAL
 * frames applied, a hot journal rolled back) and returns it; NULL without
 * @error when there is nothing to recover, NULL with @error set when the
 * recovery failed.  @display names the profile in messages. */
SlRecovery  *_sl_recovery_new      (const char    *path,
                                    const char    *display,
                                    GCancellable  *cancellable,
                                    GError       **error);
/* The recovered database to read instead of the profile. */
const char  *_sl_recovery_path     (SlRecovery    *recovery);
/* A translated sentence for the profile's warnings: what was recovered. */
const char  *_sl_recovery_warning  (SlRecovery    *recovery);
/* Removes the private copy and frees @recovery. */
void         _sl_recovery_free     (SlRecovery    *recovery);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlRecovery, _sl_recovery_free)

G_END_DECLS
