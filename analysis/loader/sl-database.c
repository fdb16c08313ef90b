/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-database.c: the loader's read-only connections and table scans, and
 * what their failures mean for the user: messages say what is wrong with
 * the file, not what SQLite was doing. */
#include "sl-loader-private.h"
#include "sl-fd-vfs.h"

#include <glib/gi18n-lib.h>

static int
sqlite_primary (int rc)
{
  return rc & 0xff;
}

gboolean
_sl_loader_step_error (SlLoader *loader, sqlite3 *db, int rc, const char *what, GError **error)
{
  const char *detail = db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (rc);

  switch (sqlite_primary (rc))
    {
    case SQLITE_NOTADB:
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_SQLITE,
                   _("Cannot open “%s”: it is not a valid SQLite database (%s). Export the report again with “nsys export --type sqlite”."),
                   loader->display_path, detail);
      break;
    case SQLITE_CORRUPT:
    case SQLITE_IOERR:
    case SQLITE_FORMAT:
    case SQLITE_RANGE:
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CORRUPT,
                   _("Cannot read “%s”: the database is damaged while reading %s (%s). Copy the file again or export the report again with “nsys export --type sqlite”."),
                   loader->display_path, what, detail);
      break;
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_PERMISSION,
                   _("Cannot open “%s” (%s). Check that the file is readable."),
                   loader->display_path, detail);
      break;
    case SQLITE_NOMEM:
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_FAILED,
                   _("Not enough memory to read %s from “%s”."), what, loader->display_path);
      break;
    default:
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CORRUPT,
                   _("Cannot read %s from “%s”: %s. The file may be damaged; export the report again."),
                   what, loader->display_path, detail);
      break;
    }
  return FALSE;
}

sqlite3 *
_sl_loader_open_db (SlLoader *loader, GError **error)
{
  sqlite3 *db = NULL;
  /* Through the descriptor opened once: SQLite never sees the path, so it
   * can neither read another file put there nor create -wal/-shm files. */
  int rc = _sl_fd_vfs_open (_sl_source_fd (loader->source), &db);

  if (rc != SQLITE_OK)
    {
      _sl_loader_step_error (loader, db, rc, _("the database header"), error);
      sqlite3_close (db);
      return NULL;
    }
  sqlite3_extended_result_codes (db, 1);
  sqlite3_exec (db, "PRAGMA cache_size=-16384; PRAGMA query_only=1;", NULL, NULL, NULL);
  return db;
}

gboolean
_sl_loader_scan_done (SlLoader *loader, SlTableScan *scan, const char *what, GError **error)
{
  int rc = _sl_table_scan_error (scan);

  _sl_table_scan_free (scan);
  if (error != NULL && *error != NULL)
    return FALSE;
  if (rc == SQLITE_OK)
    return TRUE;
  return _sl_loader_step_error (loader, NULL, rc, what, error);
}
