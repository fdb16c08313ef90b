/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cache-dir.h: the folder of the profile cache,
 * $XDG_CACHE_HOME/sightline/profiles/, its entries' names and its size
 * bound.  Sightline writes nowhere else for the cache, and never beside a
 * profile.  Loader only (and tests). */
#pragma once

#include "sl-profile.h"

G_BEGIN_DECLS

#define SL_CACHE_DEFAULT_LIMIT (G_GUINT64_CONSTANT (4) << 30)   /* 4 GiB */

/* (transfer full) */
char     *_sl_cache_dir_path           (void);
/* The entry of (@identity, @parts) in @dir: "IDENTITY-PP.slc", PP the
 * parts in two hex digits.  (transfer full) */
char     *_sl_cache_dir_entry          (const char *dir, const char *identity, SlParts parts);
/* The size bound of the folder: $SIGHTLINE_CACHE_SIZE (bytes, optionally
 * with K, M, G or T, powers of 1024, and a trailing "B" or "iB"), else
 * SL_CACHE_DEFAULT_LIMIT. */
guint64   _sl_cache_dir_limit          (void);
/* @text as a size, or @fallback when it is not one. */
guint64   _sl_cache_parse_size         (const char *text, guint64 fallback);
/* Deletes the entries of @identity whose parts are a strict subset of
 * @parts: an entry with @parts serves them all. */
void      _sl_cache_dir_remove_subsets (const char *dir, const char *identity, SlParts parts);
/* Deletes entries, least recently used (oldest mtime) first, until the
 * folder holds at most @limit bytes, and temporary files abandoned over an
 * hour ago (a writer killed mid-way).  Returns how many entries went. */
guint     _sl_cache_dir_evict          (const char *dir, guint64 limit);

G_END_DECLS
