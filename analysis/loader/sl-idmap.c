/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-idmap.c: linear-probing hash map guint64 -> guint32. */
#include "sl-idmap.h"

/* Keys are stored +1 so that 0 can mean "empty slot"; the one key that
 * would wrap (G_MAXUINT64) is kept aside. */
#define EMPTY 0

static inline gsize
hash_key (guint64 key)
{
  /* splitmix64 finaliser: correlation ids are sequential, spread them. */
  key ^= key >> 30;
  key *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  key ^= key >> 27;
  key *= G_GUINT64_CONSTANT (0x94d049bb133111eb);
  key ^= key >> 31;
  return (gsize) key;
}

void
sl_id_map_init (SlIdMap *map, gsize expected)
{
  gsize cap = 16;

  while (cap < expected + expected / 2 + 1)
    cap *= 2;
  map->keys = g_new0 (guint64, cap);
  map->values = g_new (guint32, cap);
  map->mask = cap - 1;
  map->n = 0;
}

void
sl_id_map_clear (SlIdMap *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->values, g_free);
  map->mask = 0;
  map->n = 0;
}

static void
grow (SlIdMap *map)
{
  SlIdMap bigger;
  gsize old_cap = map->mask + 1;

  sl_id_map_init (&bigger, old_cap * 2);
  for (gsize i = 0; i < old_cap; i++)
    if (map->keys[i] != EMPTY)
      sl_id_map_insert (&bigger, map->keys[i] - 1, map->values[i]);
  sl_id_map_clear (map);
  *map = bigger;
}

void
sl_id_map_insert (SlIdMap *map, guint64 key, guint32 value)
{
  guint64 stored = key + 1;
  gsize i;

  if (stored == EMPTY)
    return; /* G_MAXUINT64 is never a real key here. */
  if ((map->n + 1) * 3 > (map->mask + 1) * 2)
    grow (map);
  for (i = hash_key (key) & map->mask; map->keys[i] != EMPTY; i = (i + 1) & map->mask)
    if (map->keys[i] == stored)
      {
        map->values[i] = value;
        return;
      }
  map->keys[i] = stored;
  map->values[i] = value;
  map->n++;
}

guint32
sl_id_map_lookup (const SlIdMap *map, guint64 key, guint32 missing)
{
  guint64 stored = key + 1;

  if (map->keys == NULL || stored == EMPTY)
    return missing;
  for (gsize i = hash_key (key) & map->mask; map->keys[i] != EMPTY; i = (i + 1) & map->mask)
    if (map->keys[i] == stored)
      return map->values[i];
  return missing;
}
