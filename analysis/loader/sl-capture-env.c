/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-capture-env.c: the capture's environment as text lines.  Read apart
 * from the model (only an export that includes it needs it), straight from
 * the file, with a connection of its own. */
#include "sl-capture-env.h"

#include <glib/gi18n.h>
#include <sqlite3.h>

static const char *const tables[] = { "META_DATA_CAPTURE", "TARGET_INFO_SYSTEM_ENV" };

static gboolean
has_table (sqlite3 *db, const char *table)
{
  sqlite3_stmt *stmt = NULL;
  gboolean found = FALSE;

  if (sqlite3_prepare_v2 (db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                          -1, &stmt, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
      found = sqlite3_step (stmt) == SQLITE_ROW;
    }
  sqlite3_finalize (stmt);
  return found;
}

static void
read_table (sqlite3 *db, const char *table, GPtrArray *lines)
{
  g_autofree char *sql = g_strdup_printf ("SELECT name, value FROM %s ORDER BY rowid", table);
  sqlite3_stmt *stmt = NULL;

  if (!has_table (db, table) || sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (stmt);
      return;   /* absent, or an older layout without name/value: nothing to add */
    }
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      const char *value = (const char *) sqlite3_column_blob (stmt, 1);
      int len = sqlite3_column_bytes (stmt, 1);
      GString *line = g_string_new (NULL);

      g_string_append_printf (line, "%s: %s=", table, name != NULL ? name : "");
      /* Some values are binary (NUL-separated variables, device properties):
       * keep every byte but NUL, which would end the line early. */
      for (int i = 0; value != NULL && i < len; i++)
        g_string_append_c (line, value[i] != '\0' ? value[i] : ' ');
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  sqlite3_finalize (stmt);
}

char **
sl_capture_env_read (const char *path, GError **error)
{
  sqlite3 *db = NULL;
  GPtrArray *lines;

  g_return_val_if_fail (path != NULL, NULL);
  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("Cannot read “%s”: %s"), path,
                   db != NULL ? sqlite3_errmsg (db) : "out of memory");
      sqlite3_close (db);
      return NULL;
    }
  lines = g_ptr_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    read_table (db, tables[i], lines);
  sqlite3_close (db);
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}
