/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-profile-cache-private.h: the two calls sl_profile_load() makes. */
#pragma once

#include "sl-profile-cache.h"
#include "sl-profile.h"
#include "sl-source.h"

G_BEGIN_DECLS

/* Before reading the export open in @source (@display_path is what the
 * user opened): the profile from a valid entry holding at least @parts,
 * reading its details through @source, (transfer full), or NULL.
 * *@identity gets (transfer full) the export's identity for
 * _sl_profile_cache_store(), or NULL when the cache is off or cannot serve
 * this file (a -wal or -journal file beside it: its committed state is not
 * in the identity). */
SlProfile *_sl_profile_cache_load  (SlSource   *source,
                                    const char *display_path,
                                    SlParts     parts,
                                    char      **identity);
/* After a load from the export: writes @profile's entry in a background
 * thread, unless @identity (taken) is NULL or the identity of the file the
 * profile was read from (its source descriptor) has changed since. */
void       _sl_profile_cache_store (SlProfile  *profile,
                                    char       *identity);

G_END_DECLS
