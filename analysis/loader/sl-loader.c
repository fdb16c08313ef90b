/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-loader.c: opening an Nsight Systems export safely and orchestrating
 * the load (file checks, schema detection, metadata, strings, workers). */
#include "sl-loader-private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

/* Tables whose presence marks a file as an Nsight Systems export. */
static const char *const nsight_tables[] = {
  "StringIds", "META_DATA_EXPORT", "EXPORT_META_DATA", "TARGET_INFO_GPU",
  "TARGET_INFO_CUDA_GPU", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
  "NVTX_EVENTS", "ThreadNames", "ANALYSIS_DETAILS", "TARGET_INFO_SESSION_START_TIME",
};

#define PROGRESS_EVERY 65536

/* ---- small helpers ------------------------------------------------------ */

void
_sl_loader_phase (SlLoader *loader, const char *phase, gint64 since_us)
{
  static int enabled = -1;

  if (enabled < 0)
    enabled = g_getenv ("SL_LOADER_TIMING") != NULL;
  if (enabled)
    g_printerr ("sl-loader: %-24s %8.3f s\n", phase, (double) (g_get_monotonic_time () - since_us) / 1e6);
}

void
_sl_loader_warn (SlLoader *loader, const char *format, ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_mutex_lock (&loader->progress_lock);
  g_ptr_array_add (loader->profile->warnings, message);
  g_mutex_unlock (&loader->progress_lock);
}

static const char *
describe_magic (const guint8 *head, gssize len)
{
  gboolean text = len > 0;

  if (len >= 8 && memcmp (head, "\x89PNG\r\n\x1a\n", 8) == 0)
    return _("it is a PNG image");
  if (len >= 3 && memcmp (head, "\xff\xd8\xff", 3) == 0)
    return _("it is a JPEG image");
  if (len >= 4 && memcmp (head, "PK\x03\x04", 4) == 0)
    return _("it is a ZIP archive");
  if (len >= 4 && memcmp (head, "\x7f" "ELF", 4) == 0)
    return _("it is a program (ELF binary)");
  if (len >= 5 && memcmp (head, "%PDF-", 5) == 0)
    return _("it is a PDF document");
  if (len >= 2 && head[0] == 0x1f && head[1] == 0x8b)
    return _("it is gzip-compressed");
  for (gssize i = 0; i < len; i++)
    if (head[i] < 0x09 || (head[i] > 0x0d && head[i] < 0x20))
      text = FALSE;
  if (text)
    return _("it looks like a text file");
  return _("its contents are not recognised");
}

/* Checks the path before SQLite sees it, so that each common mistake gets
 * its own message rather than SQLite's generic "unable to open". */
static gboolean
check_file (const char *path, const char *display, GError **error)
{
  struct stat st;
  guint8 head[100];
  gssize got;
  int fd;

  if (g_stat (path, &st) != 0)
    {
      int saved = errno;
      if (saved == EACCES)
        g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_PERMISSION,
                     _("Cannot open “%s”: permission denied. Check the permissions of the file and its folders."),
                     display);
      else
        g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_FOUND,
                     _("Cannot open “%s”: the file does not exist. Check the path."), display);
      return FALSE;
    }
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_IS_DIRECTORY,
                   _("Cannot open “%s”: it is a folder. Choose the .sqlite file exported by Nsight Systems inside it."),
                   display);
      return FALSE;
    }
  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, SL_PROFILE_ERROR,
                   saved == EACCES || saved == EPERM ? SL_PROFILE_ERROR_PERMISSION : SL_PROFILE_ERROR_NOT_FOUND,
                   saved == EACCES || saved == EPERM
                     ? _("Cannot open “%s”: permission denied. Make the file readable (chmod u+r) or copy it somewhere you can read.")
                     : _("Cannot open “%s”: %s."),
                   display, g_strerror (saved));
      return FALSE;
    }
  if (st.st_size == 0)
    {
      close (fd);
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_EMPTY,
                   _("Cannot open “%s”: the file is empty (0 bytes). The export or copy probably failed; export the report again with “nsys export --type sqlite”."),
                   display);
      return FALSE;
    }
  got = read (fd, head, sizeof head);
  close (fd);
  if (got < 16 || memcmp (head, "SQLite format 3", 16) != 0)
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_SQLITE,
                   _("Cannot open “%s”: it is not an SQLite database (%s). Sightline opens the SQLite export of Nsight Systems: run “nsys export --type sqlite REPORT.nsys-rep” and open the .sqlite file."),
                   display, describe_magic (head, MAX (got, 0)));
      return FALSE;
    }
  if (got >= 100)
    {
      /* The header records the database size in pages; a shorter file is
       * truncated (an interrupted copy or download). */
      guint32 page_size = ((guint32) head[16] << 8) | head[17];
      guint32 pages = GUINT32_FROM_BE (*(guint32 *) (head + 28));
      guint32 change = GUINT32_FROM_BE (*(guint32 *) (head + 24));
      guint32 valid_for = GUINT32_FROM_BE (*(guint32 *) (head + 92));
      if (page_size == 1)
        page_size = 65536;
      if (pages > 0 && change == valid_for && page_size >= 512 &&
          (guint64) st.st_size < (guint64) pages * page_size)
        {
          g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CORRUPT,
                       _("Cannot open “%s”: the file is truncated (%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes). Copy or download it again, or export the report again."),
                       display, (guint64) st.st_size, (guint64) pages * page_size);
          return FALSE;
        }
    }
  return TRUE;
}

static int
sqlite_primary (int rc)
{
  return rc & 0xff;
}

/* Maps a failing SQLite call to our error codes with a message that says
 * what is wrong with the file, not what SQLite was doing. */
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
  g_autofree char *escaped = g_uri_escape_string (loader->db_path, "/", FALSE);
  /* immutable=1: SQLite neither locks nor creates -wal/-shm files, so the
   * profile can sit in a read-only folder and is never touched. */
  g_autofree char *uri = g_strdup_printf ("file:%s?mode=ro&immutable=1", escaped);
  sqlite3 *db = NULL;
  int rc;

  rc = sqlite3_open_v2 (uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK)
    {
      _sl_loader_step_error (loader, db, rc, _("the database header"), error);
      sqlite3_close (db);
      return NULL;
    }
  sqlite3_extended_result_codes (db, 1);
  /* Memory-mapped reads are markedly faster for the big sequential scans. */
  sqlite3_exec (db, "PRAGMA mmap_size=268435456; PRAGMA cache_size=-16384; PRAGMA query_only=1;", NULL, NULL, NULL);
  return db;
}

gboolean
_sl_loader_has_table (SlLoader *loader, const char *table)
{
  return g_hash_table_contains (loader->tables, table);
}

gboolean
_sl_loader_has_column (SlLoader *loader, const char *table, const char *column)
{
  GHashTable *columns = g_hash_table_lookup (loader->tables, table);
  return columns != NULL && g_hash_table_contains (columns, column);
}

const char *
_sl_loader_column_or_null (SlLoader *loader, const char *table, const char *column)
{
  return _sl_loader_has_column (loader, table, column) ? column : "NULL";
}

gboolean
_sl_loader_tick (SlLoader *loader, gint64 rows, GError **error)
{
  gint64 done = __atomic_add_fetch (&loader->rows_done, rows, __ATOMIC_RELAXED);

  if (g_cancellable_is_cancelled (loader->cancellable))
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED,
                   _("Opening “%s” was cancelled."), loader->display_path);
      return FALSE;
    }
  if (loader->progress != NULL && loader->rows_total > 0)
    {
      double fraction = CLAMP ((double) done / (double) loader->rows_total, 0.0, 1.0);
      g_mutex_lock (&loader->progress_lock);
      loader->progress (0.05 + 0.9 * fraction, _("Reading events"), loader->progress_data);
      g_mutex_unlock (&loader->progress_lock);
    }
  return TRUE;
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

/* max(rowid) is an O(log n) estimate of a table's size, good enough for a
 * progress bar and for pre-sizing arrays. */
gint64
_sl_loader_estimate_rows (SlLoader *loader, sqlite3 *db, const char *table)
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

/* ---- schema ------------------------------------------------------------- */

static gboolean
read_schema (SlLoader *loader, sqlite3 *db, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, "SELECT name FROM sqlite_master WHERE type='table'", -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return _sl_loader_step_error (loader, db, rc, _("the list of tables"), error);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      if (name != NULL)
        g_hash_table_insert (loader->tables, g_strdup (name),
                             g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL));
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return _sl_loader_step_error (loader, db, rc, _("the list of tables"), error);

  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, loader->tables);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autofree char *sql = g_strdup_printf ("PRAGMA table_info(\"%s\")", (const char *) key);
      if (strchr (key, '"') != NULL)
        continue;
      rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
      if (rc != SQLITE_OK)
        return _sl_loader_step_error (loader, db, rc, _("the table definitions"), error);
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          const char *column = (const char *) sqlite3_column_text (stmt, 1);
          if (column != NULL)
            g_hash_table_add (value, g_strdup (column));
        }
      sqlite3_finalize (stmt);
      if (rc != SQLITE_DONE)
        return _sl_loader_step_error (loader, db, rc, _("the table definitions"), error);
    }
  return TRUE;
}

static gboolean
check_nsight (SlLoader *loader, GError **error)
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
  /* The tables we read must at least have start and end. */
  static const char *const timed[] = {
    "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
    "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS",
  };
  for (gsize i = 0; i < G_N_ELEMENTS (timed); i++)
    if (_sl_loader_has_table (loader, timed[i]) &&
        (!_sl_loader_has_column (loader, timed[i], "start") || !_sl_loader_has_column (loader, timed[i], "end")))
      {
        _sl_loader_warn (loader, _("Table %s has no start/end columns and was ignored."), timed[i]);
        g_hash_table_remove (loader->tables, timed[i]);
      }
  return TRUE;
}

/* ---- metadata ----------------------------------------------------------- */

static void
read_meta (SlLoader *loader, sqlite3 *db)
{
  const char *table = _sl_loader_has_table (loader, "META_DATA_EXPORT") ? "META_DATA_EXPORT"
                    : _sl_loader_has_table (loader, "EXPORT_META_DATA") ? "EXPORT_META_DATA" : NULL;
  SlProfile *profile = loader->profile;
  sqlite3_stmt *stmt = NULL;

  if (table != NULL && _sl_loader_has_column (loader, table, "name") && _sl_loader_has_column (loader, table, "value"))
    {
      g_autofree char *sql = g_strdup_printf ("SELECT name, value FROM %s", table);
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

  if (_sl_loader_has_column (loader, "TARGET_INFO_SESSION_START_TIME", "utcEpochNs"))
    {
      if (sqlite3_prepare_v2 (db, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1", -1, &stmt, NULL) == SQLITE_OK &&
          sqlite3_step (stmt) == SQLITE_ROW)
        profile->session_utc_ns = sqlite3_column_int64 (stmt, 0);
      sqlite3_finalize (stmt);
    }
}

static gboolean
read_strings (SlLoader *loader, sqlite3 *db, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  gint64 max_id = 0, count = 0;
  int rc;

  rc = sqlite3_prepare_v2 (db, "SELECT max(id), count(*) FROM StringIds", -1, &stmt, NULL);
  if (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      max_id = sqlite3_column_int64 (stmt, 0);
      count = sqlite3_column_int64 (stmt, 1);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_ROW)
    return _sl_loader_step_error (loader, db, rc, _("the string table"), error);

  /* Dense ids (the usual case) use a plain array; sparse ones a hash. */
  if (max_id >= 0 && max_id <= count * 4 + 65536)
    {
      loader->string_direct_len = (gsize) max_id + 1;
      loader->string_direct = g_new (guint32, loader->string_direct_len);
      memset (loader->string_direct, 0xff, loader->string_direct_len * sizeof (guint32));
    }
  else
    sl_id_map_init (&loader->string_sparse, (gsize) MIN (count, G_MAXINT32));

  rc = sqlite3_prepare_v2 (db, "SELECT id, value FROM StringIds", -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return _sl_loader_step_error (loader, db, rc, _("the string table"), error);
  gint64 rows = 0;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      sqlite3_int64 id = sqlite3_column_int64 (stmt, 0);
      const char *value = (const char *) sqlite3_column_text (stmt, 1);
      int len = sqlite3_column_bytes (stmt, 1);
      guint32 ours;

      if (value == NULL || id < 0)
        continue;
      /* Names end up in tables, HTML and JSON: keep them valid UTF-8. */
      if (G_LIKELY (g_utf8_validate (value, len, NULL)))
        ours = _sl_strings_add (loader->profile->strings, value, (gsize) len);
      else
        {
          g_autofree char *valid = g_utf8_make_valid (value, len);
          ours = _sl_strings_add (loader->profile->strings, valid, strlen (valid));
        }
      if (loader->string_direct != NULL)
        {
          if ((guint64) id < loader->string_direct_len)
            loader->string_direct[id] = ours;
        }
      else
        sl_id_map_insert (&loader->string_sparse, (guint64) id, ours);
      if (++rows % PROGRESS_EVERY == 0 && !_sl_loader_tick (loader, PROGRESS_EVERY, error))
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

static void
read_gpu_table (SlLoader *loader, sqlite3 *db, GArray *gpus, const char *table,
                const char *id_column, const char *sm_column, const char *memory_column)
{
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;

  if (!_sl_loader_has_column (loader, table, id_column))
    return;
  sql = g_strdup_printf ("SELECT %s, %s, %s, %s FROM %s", id_column,
                         _sl_loader_column_or_null (loader, table, "name"),
                         _sl_loader_column_or_null (loader, table, sm_column),
                         _sl_loader_column_or_null (loader, table, memory_column), table);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (stmt);
      return;
    }
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      sqlite3_int64 device = sqlite3_column_int64 (stmt, 0);
      const char *name = (const char *) sqlite3_column_text (stmt, 1);
      SlGpu *gpu;

      if (device < 0 || device > G_MAXUINT32 - 1)
        continue;
      gpu = gpu_for_device (gpus, (guint32) device);
      if (gpu->name == NULL && name != NULL && *name != '\0')
        gpu->name = g_utf8_make_valid (name, -1);
      if (gpu->sm_count < 0 && sqlite3_column_type (stmt, 2) != SQLITE_NULL)
        gpu->sm_count = sqlite3_column_int64 (stmt, 2);
      if (gpu->memory_bytes < 0 && sqlite3_column_type (stmt, 3) != SQLITE_NULL)
        gpu->memory_bytes = sqlite3_column_int64 (stmt, 3);
    }
  sqlite3_finalize (stmt);
}

/* GPUs from TARGET_INFO_GPU (2021+ rich layout or the 5-column 2020.5 one)
 * and TARGET_INFO_CUDA_GPU (2020.x); devices only seen in activity are added
 * when the profile is assembled. */
static GArray *
read_gpus (SlLoader *loader, sqlite3 *db)
{
  GArray *gpus = g_array_new (FALSE, TRUE, sizeof (SlGpu));

  if (_sl_loader_has_column (loader, "TARGET_INFO_GPU", "id"))
    read_gpu_table (loader, db, gpus, "TARGET_INFO_GPU", "id", "smCount", "totalMemory");
  else
    read_gpu_table (loader, db, gpus, "TARGET_INFO_GPU", "deviceId", "smCount", "totalMemory");
  read_gpu_table (loader, db, gpus, "TARGET_INFO_CUDA_GPU", "deviceId", "numMultiprocessors", "globalMemorySize");
  return gpus;
}

/* ---- orchestration ------------------------------------------------------ */

typedef struct {
  SlLoader *loader;
  gboolean (*load) (SlLoader *, sqlite3 *, GError **);
  GError   *error;
  gboolean  ok;
} Worker;

static gpointer
run_worker (gpointer data)
{
  Worker *worker = data;
  sqlite3 *db = _sl_loader_open_db (worker->loader, &worker->error);

  if (db == NULL)
    return NULL;
  worker->ok = worker->load (worker->loader, db, &worker->error);
  sqlite3_close (db);
  if (!worker->ok)
    /* Let the other worker stop early too. */
    g_cancellable_cancel (worker->loader->cancellable);
  return NULL;
}

static guint
loader_threads (void)
{
  const char *env = g_getenv ("SL_LOADER_THREADS");

  if (env != NULL)
    return (guint) CLAMP (g_ascii_strtoull (env, NULL, 10), 1, 2);
  return g_get_num_processors () > 1 ? 2 : 1;
}

static gboolean
load_events (SlLoader *loader, GError **error)
{
  Worker gpu = { loader, _sl_load_gpu, NULL, FALSE };
  Worker cpu = { loader, _sl_load_cpu, NULL, FALSE };

  /* GPU activity and CPU activity are independent tables of similar size:
   * one connection each keeps both cores busy. */
  if (loader_threads () > 1)
    {
      GThread *thread = g_thread_new ("sl-load-gpu", run_worker, &gpu);
      run_worker (&cpu);
      g_thread_join (thread);
    }
  else
    {
      run_worker (&gpu);
      if (gpu.ok)
        run_worker (&cpu);
    }

  /* Report the real failure, not the cancellation it caused in the other worker. */
  GError **first = NULL;
  if (gpu.error != NULL && !g_error_matches (gpu.error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED))
    first = &gpu.error;
  else if (cpu.error != NULL && !g_error_matches (cpu.error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED))
    first = &cpu.error;
  else if (gpu.error != NULL)
    first = &gpu.error;
  else if (cpu.error != NULL)
    first = &cpu.error;
  if (first != NULL)
    {
      g_propagate_error (error, g_steal_pointer (first));
      g_clear_error (&gpu.error);
      g_clear_error (&cpu.error);
      return FALSE;
    }
  return TRUE;
}

static void
free_stream_builder (gpointer data)
{
  SlStreamBuilder *builder = data;
  /* Arrays moved into the profile are NULL here; the rest is freed. */
  _sl_kernels_clear (&builder->stream.kernels);
  _sl_copies_clear (&builder->stream.memcpy);
  _sl_copies_clear (&builder->stream.memset);
  g_free (builder->kernel_corr);
  g_free (builder);
}

void _sl_thread_builder_free (gpointer data);

static void
loader_clear (SlLoader *loader)
{
  g_clear_pointer (&loader->tables, g_hash_table_unref);
  g_clear_pointer (&loader->string_direct, g_free);
  sl_id_map_clear (&loader->string_sparse);
  g_clear_pointer (&loader->stream_builders, g_ptr_array_unref);
  sl_id_map_clear (&loader->stream_index);
  sl_id_map_clear (&loader->func_index);
  g_clear_pointer (&loader->funcs, g_array_unref);
  g_clear_pointer (&loader->thread_builders, g_ptr_array_unref);
  sl_id_map_clear (&loader->thread_index);
  g_clear_pointer (&loader->domains, g_array_unref);
  sl_id_map_clear (&loader->thread_name_override);
  g_clear_pointer (&loader->process_names, g_hash_table_unref);
  g_clear_pointer (&loader->db_path, g_free);
  g_clear_object (&loader->cancellable);
  g_mutex_clear (&loader->progress_lock);
}

static void
add_skip_warnings (SlLoader *loader)
{
  SlProfile *profile = loader->profile;
  gint bad_time = g_atomic_int_get (&loader->skipped_bad_time);
  gint bad_string = g_atomic_int_get (&loader->skipped_bad_string);
  gint unpaired = g_atomic_int_get (&loader->skipped_nvtx_unpaired);

  if (bad_time > 0)
    _sl_loader_warn (loader, ngettext ("Skipped %d event whose end is before its start or missing.",
                                       "Skipped %d events whose end is before their start or missing.", bad_time),
                     bad_time);
  if (bad_string > 0)
    _sl_loader_warn (loader, ngettext ("Skipped %d event naming a string missing from StringIds.",
                                       "Skipped %d events naming strings missing from StringIds.", bad_string),
                     bad_string);
  if (unpaired > 0)
    _sl_loader_warn (loader, ngettext ("Skipped %d NVTX range without an end.",
                                       "Skipped %d NVTX ranges without an end.", unpaired),
                     unpaired);
  profile->counts.skipped_rows = (guint64) bad_time + (guint64) bad_string + (guint64) unpaired;

  if (profile->counts.kernels > 0 && profile->counts.kernels_linked < profile->counts.kernels)
    _sl_loader_warn (loader,
                     _("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " kernels have no launching CUDA API call in the file (the capture was probably cut to a time window); they are shown without a launching thread."),
                     profile->counts.kernels - profile->counts.kernels_linked, profile->counts.kernels);
}

static void
forward_cancel_cb (GCancellable *cancellable, gpointer private_cancellable)
{
  g_cancellable_cancel (private_cancellable);
}

SlProfile *
sl_profile_load (const char     *path,
                 GCancellable   *cancellable,
                 SlProgressFunc  progress,
                 gpointer        progress_data,
                 GError        **error)
{
  SlLoader loader = { 0 };
  sqlite3 *db = NULL;
  SlProfile *profile = NULL;
  GArray *gpus = NULL;
  gboolean ok = FALSE;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  loader.display_path = path;
  /* A private cancellable lets a failing worker stop the other one. */
  loader.cancellable = g_cancellable_new ();
  gulong handler = cancellable != NULL
    ? g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel_cb), loader.cancellable, NULL)
    : 0;
  loader.progress = progress;
  loader.progress_data = progress_data;
  g_mutex_init (&loader.progress_lock);
  loader.tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);

  if (progress != NULL)
    progress (0.0, _("Opening"), progress_data);

  if (_sl_is_nsys_rep_path (path))
    {
      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          check_file (path, path, error);
          goto out;
        }
      if (progress != NULL)
        progress (0.0, _("Converting with nsys export"), progress_data);
      loader.db_path = _sl_nsys_rep_convert (path, cancellable, error);
      if (loader.db_path == NULL)
        goto out;
    }
  else
    loader.db_path = g_strdup (path);

  if (!check_file (loader.db_path, path, error))
    goto out;

  profile = _sl_profile_new (path);
  loader.profile = profile;

  db = _sl_loader_open_db (&loader, error);
  if (db == NULL || !read_schema (&loader, db, error) || !check_nsight (&loader, error))
    goto out;

  read_meta (&loader, db);
  gpus = read_gpus (&loader, db);

  loader.rows_total = _sl_loader_estimate_rows (&loader, db, "StringIds") +
                      _sl_loader_estimate_rows (&loader, db, "CUPTI_ACTIVITY_KIND_KERNEL") +
                      _sl_loader_estimate_rows (&loader, db, "CUPTI_ACTIVITY_KIND_MEMCPY") +
                      _sl_loader_estimate_rows (&loader, db, "CUPTI_ACTIVITY_KIND_MEMSET") +
                      _sl_loader_estimate_rows (&loader, db, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION") +
                      _sl_loader_estimate_rows (&loader, db, "CUPTI_ACTIVITY_KIND_RUNTIME") +
                      _sl_loader_estimate_rows (&loader, db, "NVTX_EVENTS");

  if (progress != NULL)
    progress (0.02, _("Reading names"), progress_data);
  gint64 t0 = g_get_monotonic_time ();
  if (!read_strings (&loader, db, error))
    goto out;
  _sl_loader_phase (&loader, "strings", t0);
  sqlite3_close (db);
  db = NULL;

  loader.stream_builders = g_ptr_array_new_with_free_func (free_stream_builder);
  loader.thread_builders = g_ptr_array_new_with_free_func (_sl_thread_builder_free);
  loader.funcs = g_array_new (FALSE, FALSE, sizeof (SlKernelFunc));
  loader.domains = g_array_new (FALSE, FALSE, sizeof (SlNvtxDomain));
  sl_id_map_init (&loader.stream_index, 64);
  sl_id_map_init (&loader.func_index, 1024);
  sl_id_map_init (&loader.thread_index, 256);
  sl_id_map_init (&loader.thread_name_override, 16);
  loader.process_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  t0 = g_get_monotonic_time ();
  if (!load_events (&loader, error))
    goto out;
  _sl_loader_phase (&loader, "events", t0);

  if (progress != NULL)
    progress (0.95, _("Linking GPU work to CPU calls"), progress_data);
  profile->n_gpus = gpus->len;
  profile->gpus = (SlGpu *) g_array_free (gpus, FALSE);
  gpus = NULL;
  t0 = g_get_monotonic_time ();
  _sl_profile_assemble (&loader);
  _sl_loader_phase (&loader, "assemble", t0);
  add_skip_warnings (&loader);
  if (progress != NULL)
    progress (1.0, _("Done"), progress_data);
  ok = TRUE;

out:
  if (db != NULL)
    sqlite3_close (db);
  if (gpus != NULL)
    {
      for (guint i = 0; i < gpus->len; i++)
        g_free (g_array_index (gpus, SlGpu, i).name);
      g_array_unref (gpus);
    }
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  loader_clear (&loader);
  if (!ok && profile != NULL)
    g_clear_pointer (&profile, sl_profile_unref);
  return profile;
}
