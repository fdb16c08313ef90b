/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-strings.c: the profile's string table, one contiguous buffer. */
#include "sl-strings-private.h"

#include <string.h>

struct _SlStrings {
  char       *blob;
  gsize       blob_len;
  gsize       blob_cap;
  guint64    *offsets;
  guint32     n;
  guint32     cap;
  GHashTable *interned;   /* load time only: value -> id + 1 */
  GString    *scratch;    /* load time only: NUL-terminated copy for lookups */
};

SlStrings *
_sl_strings_new (void)
{
  SlStrings *strings = g_new0 (SlStrings, 1);

  strings->interned = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return strings;
}

void
_sl_strings_free (SlStrings *strings)
{
  if (strings == NULL)
    return;
  g_free (strings->blob);
  g_free (strings->offsets);
  g_clear_pointer (&strings->interned, g_hash_table_unref);
  if (strings->scratch != NULL)
    g_string_free (strings->scratch, TRUE);
  g_free (strings);
}

guint32
_sl_strings_add (SlStrings *strings, const char *value, gsize len)
{
  /* Keep SL_NONE free as the "no string" marker. */
  if (strings->n >= SL_NONE - 1)
    return SL_NONE;
  if (strings->blob_len + len + 1 > strings->blob_cap)
    {
      gsize cap = MAX (strings->blob_cap * 2, 4096);
      while (cap < strings->blob_len + len + 1)
        cap *= 2;
      strings->blob = g_realloc (strings->blob, cap);
      strings->blob_cap = cap;
    }
  if (strings->n == strings->cap)
    {
      strings->cap = MAX (strings->cap * 2, 256u);
      strings->offsets = g_renew (guint64, strings->offsets, strings->cap);
    }
  if (len > 0)
    memcpy (strings->blob + strings->blob_len, value, len);
  strings->blob[strings->blob_len + len] = '\0';
  strings->offsets[strings->n] = strings->blob_len;
  strings->blob_len += len + 1;
  return strings->n++;
}

guint32
_sl_strings_intern (SlStrings *strings, const char *value)
{
  gpointer found;
  guint32 id;

  if (value == NULL)
    return SL_NONE;
  found = g_hash_table_lookup (strings->interned, value);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  id = _sl_strings_add (strings, value, strlen (value));
  if (id != SL_NONE)
    g_hash_table_insert (strings->interned, g_strdup (value), GUINT_TO_POINTER (id + 1));
  return id;
}

guint32
_sl_strings_intern_id (SlStrings *strings, guint32 id)
{
  const char *value;
  gpointer found;

  if (id >= strings->n)
    return id;
  value = strings->blob + strings->offsets[id];
  found = g_hash_table_lookup (strings->interned, value);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  g_hash_table_insert (strings->interned, g_strdup (value), GUINT_TO_POINTER (id + 1));
  return id;
}

guint32
_sl_strings_intern_len (SlStrings *strings, const char *value, gsize len)
{
  if (value == NULL)
    return SL_NONE;
  if (strings->scratch == NULL)
    strings->scratch = g_string_sized_new (256);
  g_string_truncate (strings->scratch, 0);
  g_string_append_len (strings->scratch, value, (gssize) len);
  /* Embedded NULs would make two different names look equal: cut there. */
  return _sl_strings_intern (strings, strings->scratch->str);
}

SlStrings *
_sl_strings_copy (const SlStrings *strings)
{
  SlStrings *copy = _sl_strings_new ();

  copy->blob = g_memdup2 (strings->blob, MAX (strings->blob_len, 1));
  copy->blob_len = copy->blob_cap = strings->blob_len;
  copy->offsets = g_memdup2 (strings->offsets, MAX (strings->n, 1u) * sizeof (guint64));
  copy->n = copy->cap = strings->n;
  return copy;
}

void
_sl_strings_seal (SlStrings *strings)
{
  g_clear_pointer (&strings->interned, g_hash_table_unref);
  if (strings->scratch != NULL)
    g_string_free (g_steal_pointer (&strings->scratch), TRUE);
  if (strings->blob_len > 0)
    {
      strings->blob = g_realloc (strings->blob, strings->blob_len);
      strings->blob_cap = strings->blob_len;
    }
  if (strings->n > 0)
    {
      strings->offsets = g_renew (guint64, strings->offsets, strings->n);
      strings->cap = strings->n;
    }
}

gsize
_sl_strings_bytes (const SlStrings *strings)
{
  return strings->blob_cap + (gsize) strings->cap * sizeof (guint64);
}

const char *
sl_strings_get (const SlStrings *strings, guint32 id)
{
  if (strings == NULL || id >= strings->n)
    return "";
  return strings->blob + strings->offsets[id];
}

guint32
sl_strings_count (const SlStrings *strings)
{
  return strings != NULL ? strings->n : 0;
}

guint32
sl_strings_lookup (const SlStrings *strings, const char *value)
{
  g_return_val_if_fail (value != NULL, SL_NONE);

  /* Rare (tests, search by exact name): a linear scan keeps the sealed
   * table free of a hash index. */
  for (guint32 i = 0; strings != NULL && i < strings->n; i++)
    if (strcmp (strings->blob + strings->offsets[i], value) == 0)
      return i;
  return SL_NONE;
}
