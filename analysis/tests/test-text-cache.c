/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-text-cache.c: the NVTX loader's cache of names answers a text with
 * the id stored for exactly those bytes, or not at all: checked against a
 * GHashTable of every text stored, with far more texts than slots (so that
 * they collide), names that are prefixes of each other, embedded NULs and
 * an empty name. */
#include <string.h>
#include <glib.h>

#include "sl-text-cache.h"
#include "sl-types.h"

/* Stores @n texts, then asks for each: a hit must be that text's last id. */
static void
test_against_hash_table (void)
{
  SlTextCache *cache = _sl_text_cache_new ();
  g_autoptr(GHashTable) truth = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                       (GDestroyNotify) g_bytes_unref, NULL);
  guint n = 20 * SL_TEXT_CACHE_SLOTS, hits = 0;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf ("layer_%u", i % (3 * SL_TEXT_CACHE_SLOTS));
      GBytes *bytes = g_bytes_new (text, strlen (text));

      _sl_text_cache_store (cache, text, strlen (text), i);
      g_hash_table_replace (truth, g_bytes_ref (bytes), GUINT_TO_POINTER (i));
      g_ptr_array_add (texts, bytes);
    }
  for (guint i = 0; i < texts->len; i++)
    {
      gsize len;
      const char *text = g_bytes_get_data (texts->pdata[i], &len);
      guint32 id = _sl_text_cache_lookup (cache, text, len);

      if (id == SL_NONE)
        continue;
      hits++;
      g_assert_cmpuint (id, ==, GPOINTER_TO_UINT (g_hash_table_lookup (truth, texts->pdata[i])));
    }
  /* the last ones stored are all there */
  g_assert_cmpuint (hits, >, 0);
  _sl_text_cache_free (cache);
}

static void
test_bytes_not_strings (void)
{
  SlTextCache *cache = _sl_text_cache_new ();
  const char with_nul[] = { 'a', 'b', '\0', 'c' };
  g_autofree char *long_text = g_strnfill (SL_TEXT_CACHE_MAX_LEN + 1, 'x');

  _sl_text_cache_store (cache, "ab", 2, 1);
  _sl_text_cache_store (cache, with_nul, sizeof with_nul, 2);
  _sl_text_cache_store (cache, "", 0, 3);
  _sl_text_cache_store (cache, long_text, strlen (long_text), 4);
  g_assert_cmpuint (_sl_text_cache_lookup (cache, "ab", 2), ==, 1);
  g_assert_cmpuint (_sl_text_cache_lookup (cache, with_nul, sizeof with_nul), ==, 2);
  g_assert_cmpuint (_sl_text_cache_lookup (cache, "", 0), ==, 3);
  g_assert_cmpuint (_sl_text_cache_lookup (cache, "a", 1), ==, SL_NONE);
  g_assert_cmpuint (_sl_text_cache_lookup (cache, "abc", 3), ==, SL_NONE);
  g_assert_cmpuint (_sl_text_cache_lookup (cache, long_text, strlen (long_text)), ==, SL_NONE);
  _sl_text_cache_free (cache);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/text-cache/against-hash-table", test_against_hash_table);
  g_test_add_func ("/text-cache/bytes-not-strings", test_bytes_not_strings);
  return g_test_run ();
}
