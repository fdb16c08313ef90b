/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-profile-cache.h: reopening a profile instantly.
 *
 * sl_profile_load() keeps what it loaded from an export in
 * $XDG_CACHE_HOME/sightline/profiles/, keyed by the export's content
 * identity (sl-content-id.h), not its path: the next load of the same
 * contents, by the application or sightline-cli, maps that entry instead
 * of reading the export.  Entries are written once, after the first load,
 * in a background thread; they are checked completely before use (see
 * sl-cache-entry.h), and one that fails a check is deleted and written
 * again.  The folder is bounded ($SIGHTLINE_CACHE_SIZE, default 4 GiB),
 * least recently used entries first out.  SIGHTLINE_NO_CACHE=1 or
 * sl_profile_cache_set_enabled (FALSE) turns reading and writing off.
 * Nothing is ever written beside a profile. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether loads use the cache: FALSE once sl_profile_cache_set_enabled
 * (FALSE) was called or while SIGHTLINE_NO_CACHE is set (to anything but
 * "" or "0"). */
gboolean  sl_profile_cache_get_enabled (void);
/* For the whole process (sightline-cli --no-cache). */
void      sl_profile_cache_set_enabled (gboolean enabled);

/* Waits until the entries being written in the background are complete
 * (or failed).  A program that exits right after loading calls it before
 * exiting, or its entries are never finished (sightline-cli does); the
 * application need not. */
void      sl_profile_cache_flush       (void);

/* What the cache did in this process, for tests and benchmarks. */
typedef struct {
  guint hits;          /* loads served by an entry */
  guint misses;        /* loads that found no usable entry */
  guint rejected;      /* entries that failed a check (and were deleted) */
  guint written;       /* entries written */
  guint not_written;   /* writes that failed or were skipped */
  guint evicted;       /* entries deleted to stay within the size bound */
} SlProfileCacheStats;

void      sl_profile_cache_get_stats   (SlProfileCacheStats *stats);

G_END_DECLS
