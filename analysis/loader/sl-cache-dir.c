/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cache-dir.c: the cache folder, entry names, the size bound and
 * least-recently-used eviction (see sl-cache-dir.h).  Entries are only
 * ever removed with unlink(): a profile mapping one keeps it readable. */
#include "sl-cache-dir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#define ENTRY_SUFFIX  ".slc"
#define TMP_PREFIX    ".tmp-entry-"
#define ABANDONED_S   3600

char *
_sl_cache_dir_path (void)
{
  return g_build_filename (g_get_user_cache_dir (), "sightline", "profiles", NULL);
}

char *
_sl_cache_dir_entry (const char *dir, const char *identity, SlParts parts)
{
  g_autofree char *name = g_strdup_printf ("%s-%02x" ENTRY_SUFFIX, identity, (guint) parts & 0xff);

  return g_build_filename (dir, name, NULL);
}

guint64
_sl_cache_parse_size (const char *text, guint64 fallback)
{
  static const char units[] = "KMGT";
  char *end = NULL;
  guint64 value;
  const char *unit;
  guint shift = 0;

  if (text == NULL || !g_ascii_isdigit (*text))
    return fallback;
  /* Only ERANGE means anything: g_ascii_strtoull() was seen to leave a
   * stray EAGAIN when threads first call it at once (see sl-fd-vfs.c). */
  errno = 0;
  value = g_ascii_strtoull (text, &end, 10);
  if (errno == ERANGE)
    return fallback;
  if (*end != '\0' && (unit = strchr (units, g_ascii_toupper (*end))) != NULL)
    {
      shift = 10 * (guint) (unit - units + 1);
      end++;
      if (*end == 'i')
        end++;
    }
  if (*end == 'B' || *end == 'b')
    end++;
  if (*end != '\0' || (shift > 0 && value > (G_MAXUINT64 >> shift)))
    return fallback;
  return value << shift;
}

guint64
_sl_cache_dir_limit (void)
{
  return _sl_cache_parse_size (g_getenv ("SIGHTLINE_CACHE_SIZE"), SL_CACHE_DEFAULT_LIMIT);
}

void
_sl_cache_dir_remove_subsets (const char *dir, const char *identity, SlParts parts)
{
  for (guint sub = 1; sub < (guint) parts; sub++)
    if ((sub & ~(guint) parts) == 0)
      {
        g_autofree char *path = _sl_cache_dir_entry (dir, identity, (SlParts) sub);
        g_unlink (path);
      }
}

typedef struct {
  char   *path;
  guint64 size;
  gint64  mtime_ns;
} Entry;

static void
entry_clear (gpointer p)
{
  g_free (((Entry *) p)->path);
}

static int
compare_by_use (gconstpointer a, gconstpointer b)
{
  const Entry *x = a, *y = b;

  if (x->mtime_ns != y->mtime_ns)
    return x->mtime_ns < y->mtime_ns ? -1 : 1;
  return strcmp (x->path, y->path);
}

/* The entries of @dir into @entries; returns the bytes of the folder,
 * temporary files of writers still at work included. */
static guint64
list_entries (const char *dir, GArray *entries)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint64 total = 0;
  gint64 now_s = g_get_real_time () / G_USEC_PER_SEC;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      gboolean entry = g_str_has_suffix (name, ENTRY_SUFFIX), tmp = g_str_has_prefix (name, TMP_PREFIX);
      g_autofree char *path = NULL;
      struct stat st;

      if (!entry && !tmp)
        continue;
      path = g_build_filename (dir, name, NULL);
      if (lstat (path, &st) != 0 || !S_ISREG (st.st_mode))
        continue;
      if (tmp && now_s - st.st_mtim.tv_sec > ABANDONED_S)
        {
          g_unlink (path);
          continue;
        }
      total += (guint64) st.st_size;
      if (entry)
        {
          Entry e = { g_steal_pointer (&path), (guint64) st.st_size,
                      (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec };
          g_array_append_val (entries, e);
        }
    }
  return total;
}

guint
_sl_cache_dir_evict (const char *dir, guint64 limit)
{
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  guint64 total;
  guint evicted = 0;

  g_array_set_clear_func (entries, entry_clear);
  total = list_entries (dir, entries);
  g_array_sort (entries, compare_by_use);
  for (guint i = 0; i < entries->len && total > limit; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);
      if (g_unlink (e->path) == 0 || errno == ENOENT)
        {
          total -= MIN (total, e->size);
          evicted++;
        }
    }
  return evicted;
}
