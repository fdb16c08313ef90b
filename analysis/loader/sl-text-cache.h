/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-text-cache.h: the string ids of recently seen texts, by their bytes.
 *
 * NVTX names come inline in every row of NVTX_EVENTS, and a training loop's
 * nested ranges repeat a few hundred names in turn, so comparing with the
 * previous row's name misses almost every time; validating, copying and
 * hashing each name for the profile's string table was then about half of
 * the NVTX job, the one job of a load that is not split between cores.
 * A small direct-mapped cache answers those rows with one short hash and
 * one memcmp.  Loader only; one cache per job (not thread-safe). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SL_TEXT_CACHE_SLOTS 512
/* Longer texts are not cached: rare, and hashing them costs more. */
#define SL_TEXT_CACHE_MAX_LEN 256

typedef struct {
  char    *text;       /* a copy of the bytes, not NUL-terminated */
  guint32  len;
  guint32  id;
} SlTextCacheSlot;

typedef struct {
  SlTextCacheSlot slots[SL_TEXT_CACHE_SLOTS];
} SlTextCache;

SlTextCache *_sl_text_cache_new    (void);
void         _sl_text_cache_free   (SlTextCache *cache);
/* The id stored for these @len bytes, or SL_NONE. */
guint32      _sl_text_cache_lookup (const SlTextCache *cache, const char *text, gsize len);
/* Remembers @id for these bytes (replacing what shared their slot). */
void         _sl_text_cache_store  (SlTextCache *cache, const char *text, gsize len, guint32 id);

G_END_DECLS
