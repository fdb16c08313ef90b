/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-text-cache.c: the string ids of recently seen texts (see the header). */
#include "sl-text-cache.h"
#include "sl-types.h"

#include <string.h>

SlTextCache *
_sl_text_cache_new (void)
{
  return g_new0 (SlTextCache, 1);
}

void
_sl_text_cache_free (SlTextCache *cache)
{
  if (cache == NULL)
    return;
  for (guint i = 0; i < SL_TEXT_CACHE_SLOTS; i++)
    g_free (cache->slots[i].text);
  g_free (cache);
}

/* FNV-1a: names are short, and differ anywhere (layer_0 … layer_7). */
static guint
slot_of (const char *text, gsize len)
{
  guint32 h = 2166136261u;

  for (gsize i = 0; i < len; i++)
    h = (h ^ (guchar) text[i]) * 16777619u;
  return (h ^ (h >> 16)) % SL_TEXT_CACHE_SLOTS;
}

guint32
_sl_text_cache_lookup (const SlTextCache *cache, const char *text, gsize len)
{
  const SlTextCacheSlot *slot;

  if (len > SL_TEXT_CACHE_MAX_LEN)
    return SL_NONE;
  slot = &cache->slots[slot_of (text, len)];
  if (slot->text != NULL && slot->len == len && memcmp (slot->text, text, len) == 0)
    return slot->id;
  return SL_NONE;
}

void
_sl_text_cache_store (SlTextCache *cache, const char *text, gsize len, guint32 id)
{
  SlTextCacheSlot *slot;

  if (len > SL_TEXT_CACHE_MAX_LEN)
    return;
  slot = &cache->slots[slot_of (text, len)];
  g_free (slot->text);
  /* never NULL, even for 0 bytes: NULL marks an empty slot */
  slot->text = g_malloc (MAX (len, 1));
  memcpy (slot->text, text, len);
  slot->len = (guint32) len;
  slot->id = id;
}
