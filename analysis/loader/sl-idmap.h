/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-idmap.h: open-addressing map from 64-bit keys to 32-bit values, for the
 * loader's joins (correlation ids, string ids, kernel functions). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 *keys;
  guint32 *values;
  gsize    mask;     /* capacity - 1, capacity a power of two */
  gsize    n;
} SlIdMap;

void     sl_id_map_init    (SlIdMap *map, gsize expected);
void     sl_id_map_clear   (SlIdMap *map);
/* Inserts or overwrites. */
void     sl_id_map_insert  (SlIdMap *map, guint64 key, guint32 value);
/* Returns the value, or @missing when the key is absent. */
guint32  sl_id_map_lookup  (const SlIdMap *map, guint64 key, guint32 missing);

G_END_DECLS
