/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-string-table.c: the export's StringIds table (every kernel, API and
 * thread name) copied into the profile's strings, and the map from the
 * file's ids to the profile's that the workers use for every row. */
#include "sl-loader-private.h"
#include "sl-value.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* The largest id and the number of rows; ids that are not integers
 * (sl-value.h) count as huge, so that the map is a hash. */
static gboolean
count_string_ids (SlLoader *loader, sqlite3 *db, gint64 *max_id, gint64 *count, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, "SELECT max(id), count(*), sum(typeof(id) != 'integer') FROM StringIds", -1, &stmt, NULL);
  if (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      *max_id = sqlite3_column_int64 (stmt, 2) > 0 ? G_MAXINT64 : sqlite3_column_int64 (stmt, 0);
      *count = sqlite3_column_int64 (stmt, 1);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_ROW)
    return _sl_loader_step_error (loader, db, rc, _("the string table"), error);
  return TRUE;
}

/* Dense ids (the usual case) use a plain array; sparse ones (sliced
 * fixtures keep only the ids they reference) a hash map. */
static void
init_id_map (SlLoader *loader, gint64 max_id, gint64 count)
{
  if (max_id >= 0 && max_id <= count * 4 + 65536)
    {
      loader->string_direct_len = (gsize) max_id + 1;
      loader->string_direct = g_new (guint32, loader->string_direct_len);
      memset (loader->string_direct, 0xff, loader->string_direct_len * sizeof (guint32));
    }
  else
    sl_id_map_init (&loader->string_sparse, (gsize) MIN (count, G_MAXINT32));
}

static void
map_id (SlLoader *loader, sqlite3_int64 id, guint32 ours)
{
  if (loader->string_direct == NULL)
    sl_id_map_insert (&loader->string_sparse, (guint64) id, ours);
  else if ((guint64) id < loader->string_direct_len)
    loader->string_direct[id] = ours;
}

/* Names end up in tables, HTML and JSON: keep them valid UTF-8. */
static guint32
add_valid_utf8 (SlStrings *strings, const char *value, int len)
{
  if (G_LIKELY (g_utf8_validate (value, len, NULL)))
    return _sl_strings_add (strings, value, (gsize) len);
  g_autofree char *valid = g_utf8_make_valid (value, len);
  return _sl_strings_add (strings, valid, strlen (valid));
}

static gboolean
copy_strings (SlLoader *loader, sqlite3 *db, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  gint64 rows = 0;
  int rc;

  rc = sqlite3_prepare_v2 (db, "SELECT id, value FROM StringIds", -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return _sl_loader_step_error (loader, db, rc, _("the string table"), error);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 id;
      const char *value = (const char *) sqlite3_column_text (stmt, 1);
      int len = sqlite3_column_bytes (stmt, 1);

      /* An id is read as the activity tables' name columns are. */
      if (value == NULL || !_sl_value_column_int (stmt, 0, &id) || id < 0)
        continue;
      map_id (loader, id, add_valid_utf8 (loader->profile->strings, value, len));
      if (!_sl_loader_count_row (loader, &rows, error))
        {
          sqlite3_finalize (stmt);
          return FALSE;
        }
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return _sl_loader_step_error (loader, db, rc, _("the string table"), error);
  return TRUE;
}

gboolean
_sl_string_table_read (SlLoader *loader, sqlite3 *db, GError **error)
{
  gint64 max_id = 0, count = 0;

  if (!count_string_ids (loader, db, &max_id, &count, error))
    return FALSE;
  init_id_map (loader, max_id, count);
  return copy_strings (loader, db, error);
}

guint32
_sl_loader_map_string (SlLoader *loader, sqlite3_int64 file_id)
{
  if (file_id < 0)
    return SL_NONE;
  if (loader->string_direct != NULL)
    return (guint64) file_id < loader->string_direct_len ? loader->string_direct[file_id] : SL_NONE;
  return sl_id_map_lookup (&loader->string_sparse, (guint64) file_id, SL_NONE);
}
