/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-schema.c: what the export holds: its tables and their columns (which
 * vary across nsys versions), whether it is an Nsight Systems export at
 * all, its metadata and its GPUs. */
#include "sl-loader-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* Tables whose presence marks a file as an Nsight Systems export. */
static const char *const nsight_tables[] = {
  "StringIds", "META_DATA_EXPORT", "EXPORT_META_DATA", "TARGET_INFO_GPU",
  "TARGET_INFO_CUDA_GPU", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
  "NVTX_EVENTS", "ThreadNames", "ANALYSIS_DETAILS", "TARGET_INFO_SESSION_START_TIME",
};

/* The tables the workers read; each must at least have start and end. */
static const char *const timed_tables[] = {
  "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
  "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS",
};

/* ---- tables and columns ------------------------------------------------- */

/* SQLite compares table and column names in any ASCII case ("start",
 * "START"): so do the lookups, keyed by the lower-case name.  SQL keeps
 * using the names the loader knows, which SQLite resolves the same way. */

gboolean
_sl_loader_has_table (SlLoader *loader, const char *table)
{
  g_autofree char *key = g_ascii_strdown (table, -1);
  return g_hash_table_contains (loader->tables, key);
}

gboolean
_sl_loader_has_column (SlLoader *loader, const char *table, const char *column)
{
  g_autofree char *table_key = g_ascii_strdown (table, -1);
  g_autofree char *column_key = g_ascii_strdown (column, -1);
  GHashTable *columns = g_hash_table_lookup (loader->tables, table_key);
  return columns != NULL && g_hash_table_contains (columns, column_key);
}

const char *
_sl_loader_column_or_null (SlLoader *loader, const char *table, const char *column)
{
  return _sl_loader_has_column (loader, table, column) ? column : "NULL";
}

/* Tables and views of the main schema, as SQLite lists them: a view or a
 * WITHOUT ROWID table is read like any table (through SQLite). */
static gboolean
read_table_names (SlLoader *loader, sqlite3 *db, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, "SELECT name FROM pragma_table_list WHERE schema = 'main'", -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return _sl_loader_step_error (loader, db, rc, _("the list of tables"), error);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      if (name != NULL)
        g_hash_table_insert (loader->tables, g_ascii_strdown (name, -1),
                             g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL));
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return _sl_loader_step_error (loader, db, rc, _("the list of tables"), error);
  return TRUE;
}

/* A view whose definition SQLite cannot resolve has no columns: the loader
 * then skips it with a warning (drop_untimed_tables) or reports the error
 * when it reads it. */
static gboolean
read_columns (SlLoader *loader, sqlite3 *db, const char *table, GHashTable *columns, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, "SELECT name FROM pragma_table_xinfo(?1)", -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return _sl_loader_step_error (loader, db, rc, _("the table definitions"), error);
  sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *column = (const char *) sqlite3_column_text (stmt, 0);
      if (column != NULL)
        g_hash_table_add (columns, g_ascii_strdown (column, -1));
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE && (rc & 0xff) != SQLITE_ERROR)
    return _sl_loader_step_error (loader, db, rc, _("the table definitions"), error);
  return TRUE;
}

void
_sl_schema_read_table (SlLoader *loader, sqlite3 *db, const char *table)
{
  GHashTable *columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  read_columns (loader, db, table, columns, NULL);
  g_hash_table_insert (loader->tables, g_ascii_strdown (table, -1), columns);
}

static gboolean
read_all_columns (SlLoader *loader, sqlite3 *db, GError **error)
{
  GHashTableIter iter;
  gpointer table, columns;

  g_hash_table_iter_init (&iter, loader->tables);
  while (g_hash_table_iter_next (&iter, &table, &columns))
    if (!read_columns (loader, db, table, columns, error))
      return FALSE;
  return TRUE;
}

/* ---- is it an Nsight export? -------------------------------------------- */

static gboolean
check_nsight_tables (SlLoader *loader, GError **error)
{
  gboolean any = FALSE;

  for (gsize i = 0; i < G_N_ELEMENTS (nsight_tables); i++)
    any |= _sl_loader_has_table (loader, nsight_tables[i]);
  if (!any)
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_NSIGHT,
                   _("“%s” is an SQLite database, but not an Nsight Systems export (it has none of the Nsight tables such as StringIds or CUPTI_ACTIVITY_KIND_KERNEL). Export the report with “nsys export --type sqlite”."),
                   loader->display_path);
      return FALSE;
    }
  if (!_sl_loader_has_table (loader, "StringIds"))
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_MISSING_TABLE,
                   _("“%s” looks like an Nsight Systems export but has no StringIds table, which holds every name. It was probably altered by another tool; export the report again with “nsys export --type sqlite”."),
                   loader->display_path);
      return FALSE;
    }
  return TRUE;
}

/* A table without start and end is ignored, with a warning.  One without
 * any column is a view SQLite cannot resolve (every table has columns): it
 * stays, so that reading it reports SQLite's reason. */
static void
drop_untimed_tables (SlLoader *loader)
{
  for (gsize i = 0; i < G_N_ELEMENTS (timed_tables); i++)
    {
      g_autofree char *key = g_ascii_strdown (timed_tables[i], -1);
      GHashTable *columns = g_hash_table_lookup (loader->tables, key);
      if (columns == NULL || g_hash_table_size (columns) == 0 ||
          (g_hash_table_contains (columns, "start") && g_hash_table_contains (columns, "end")))
        continue;
      _sl_loader_warn (loader, _("Table %s has no start/end columns and was ignored."), timed_tables[i]);
      g_hash_table_remove (loader->tables, key);
    }
}

gboolean
_sl_schema_read (SlLoader *loader, sqlite3 *db, GError **error)
{
  if (!read_table_names (loader, db, error) || !read_all_columns (loader, db, error) ||
      !check_nsight_tables (loader, error))
    return FALSE;
  drop_untimed_tables (loader);
  return TRUE;
}

/* max(rowid) is an O(log n) estimate of a table's size, good enough for a
 * progress bar. */
gint64
_sl_schema_estimate_rows (SlLoader *loader, sqlite3 *db, const char *table)
{
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 rows = 0;

  if (!_sl_loader_has_table (loader, table))
    return 0;
  sql = g_strdup_printf ("SELECT max(rowid) FROM \"%s\"", table);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK && sqlite3_step (stmt) == SQLITE_ROW)
    rows = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  /* rowids can be anything in a damaged file; keep the sum finite. */
  return CLAMP (rows, 0, G_GINT64_CONSTANT (1) << 40);
}

/* ---- metadata ----------------------------------------------------------- */

static void
read_export_versions (SlLoader *loader, sqlite3 *db)
{
  const char *table = _sl_loader_has_table (loader, "META_DATA_EXPORT") ? "META_DATA_EXPORT"
                    : _sl_loader_has_table (loader, "EXPORT_META_DATA") ? "EXPORT_META_DATA" : NULL;
  SlProfile *profile = loader->profile;
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;

  if (table == NULL || !_sl_loader_has_column (loader, table, "name") || !_sl_loader_has_column (loader, table, "value"))
    return;
  sql = g_strdup_printf ("SELECT name, value FROM %s", table);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK)
    while (sqlite3_step (stmt) == SQLITE_ROW)
      {
        const char *name = (const char *) sqlite3_column_text (stmt, 0);
        const char *value = (const char *) sqlite3_column_text (stmt, 1);
        if (name == NULL || value == NULL)
          continue;
        if (g_str_equal (name, "EXPORT_PRODUCT_VERSION") && profile->nsys_version == NULL)
          profile->nsys_version = g_utf8_make_valid (value, -1);
        else if (g_str_equal (name, "EXPORT_SCHEMA_VERSION") && profile->schema_version == NULL)
          profile->schema_version = g_utf8_make_valid (value, -1);
      }
  sqlite3_finalize (stmt);
}

static void
read_session_start (SlLoader *loader, sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;

  if (!_sl_loader_has_column (loader, "TARGET_INFO_SESSION_START_TIME", "utcEpochNs"))
    return;
  if (sqlite3_prepare_v2 (db, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    loader->profile->session_utc_ns = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
}

void
_sl_schema_read_meta (SlLoader *loader, sqlite3 *db)
{
  read_export_versions (loader, db);
  read_session_start (loader, db);
}

/* ---- GPUs --------------------------------------------------------------- */

static SlGpu *
gpu_for_device (GArray *gpus, guint32 device)
{
  for (guint i = 0; i < gpus->len; i++)
    if (g_array_index (gpus, SlGpu, i).device == device)
      return &g_array_index (gpus, SlGpu, i);
  SlGpu gpu = { .device = device, .sm_count = -1, .memory_bytes = -1 };
  g_array_append_val (gpus, gpu);
  return &g_array_index (gpus, SlGpu, gpus->len - 1);
}

/* GPU memory as stored: bytes, except TARGET_INFO_CUDA_GPU of nsys 2020.x,
 * which stores MiB (a Tesla V100-PCIE-32GB reads 32510).  A value below
 * 2^24 cannot be bytes of a GPU (16 MiB), so it is read as MiB there. */
static gint64
memory_to_bytes (gint64 stored, gboolean table_in_mib)
{
  if (table_in_mib && stored > 0 && stored < (G_GINT64_CONSTANT (1) << 24))
    return stored << 20;
  return stored;
}

/* Fills what @gpu lacks from a row (id, name, SMs, memory). */
static void
fill_gpu (SlGpu *gpu, sqlite3_stmt *stmt, gboolean memory_in_mib)
{
  const char *name = (const char *) sqlite3_column_text (stmt, 1);

  if (gpu->name == NULL && name != NULL && *name != '\0')
    gpu->name = g_utf8_make_valid (name, -1);
  if (gpu->sm_count < 0 && sqlite3_column_type (stmt, 2) != SQLITE_NULL)
    gpu->sm_count = sqlite3_column_int64 (stmt, 2);
  if (gpu->memory_bytes < 0 && sqlite3_column_type (stmt, 3) != SQLITE_NULL)
    gpu->memory_bytes = memory_to_bytes (sqlite3_column_int64 (stmt, 3), memory_in_mib);
}

static void
read_gpu_table (SlLoader *loader, sqlite3 *db, GArray *gpus, const char *table,
                const char *id_column, const char *sm_column, const char *memory_column)
{
  gboolean memory_in_mib = g_str_equal (table, "TARGET_INFO_CUDA_GPU");
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;

  if (!_sl_loader_has_column (loader, table, id_column))
    return;
  sql = g_strdup_printf ("SELECT %s, %s, %s, %s FROM %s", id_column,
                         _sl_loader_column_or_null (loader, table, "name"),
                         _sl_loader_column_or_null (loader, table, sm_column),
                         _sl_loader_column_or_null (loader, table, memory_column), table);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK)
    while (sqlite3_step (stmt) == SQLITE_ROW)
      {
        sqlite3_int64 device = sqlite3_column_int64 (stmt, 0);
        if (device >= 0 && device <= G_MAXUINT32 - 1)
          fill_gpu (gpu_for_device (gpus, (guint32) device), stmt, memory_in_mib);
      }
  sqlite3_finalize (stmt);
}

/* GPUs from TARGET_INFO_GPU (2021+ rich layout or the 5-column 2020.5 one)
 * and TARGET_INFO_CUDA_GPU (2020.x); devices only seen in activity are added
 * when the profile is assembled. */
void
_sl_schema_read_gpus (SlLoader *loader, sqlite3 *db)
{
  GArray *gpus = g_array_new (FALSE, TRUE, sizeof (SlGpu));
  SlProfile *profile = loader->profile;

  if (_sl_loader_has_column (loader, "TARGET_INFO_GPU", "id"))
    read_gpu_table (loader, db, gpus, "TARGET_INFO_GPU", "id", "smCount", "totalMemory");
  else
    read_gpu_table (loader, db, gpus, "TARGET_INFO_GPU", "deviceId", "smCount", "totalMemory");
  read_gpu_table (loader, db, gpus, "TARGET_INFO_CUDA_GPU", "deviceId", "numMultiprocessors", "globalMemorySize");
  profile->n_gpus = gpus->len;
  profile->gpus = (SlGpu *) g_array_free (gpus, FALSE);
}
