/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-cell-cache.c: escaped strings kept by key, so that each
 * distinct name is escaped once per export, not once per event. */
#include "sl-export-private.h"

struct _SlCellCache {
  SlEscapeFunc escape;
  GHashTable  *cells;   /* key + 1 -> GString (0 is no key for a direct hash) */
};

SlCellCache *
sl_cell_cache_new (SlEscapeFunc escape)
{
  SlCellCache *self = g_new0 (SlCellCache, 1);

  self->escape = escape;
  self->cells = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_free);
  return self;
}

void
sl_cell_cache_append (SlCellCache *self, GString *buf, guint32 key, const char *text)
{
  gpointer k = GSIZE_TO_POINTER ((gsize) key + 1);
  char *cell = g_hash_table_lookup (self->cells, k);

  if (cell == NULL)
    {
      GString *s = g_string_new (NULL);
      self->escape (s, text);
      cell = g_string_free (s, FALSE);
      g_hash_table_insert (self->cells, k, cell);
    }
  g_string_append (buf, cell);
}

void
sl_cell_cache_free (SlCellCache *self)
{
  if (self == NULL)
    return;
  g_hash_table_destroy (self->cells);
  g_free (self);
}
