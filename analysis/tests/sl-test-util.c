/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-test-util.c: shared helpers of the analysis tests. */
#include "sl-test-util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

static char *tmp_dir;
static GHashTable *fixtures;

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

char **
sl_test_real_profiles (void)
{
  const char *dir = g_getenv ("SL_PROFILES_DIR");
  GPtrArray *paths = g_ptr_array_new ();
  g_autoptr(GDir) d = NULL;
  const char *name;

  g_assert_nonnull (dir);
  d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".sqlite"))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  g_assert_cmpuint (paths->len, >=, 5);
  g_ptr_array_sort (paths, compare_strings);
  g_ptr_array_add (paths, NULL);
  return (char **) g_ptr_array_free (paths, FALSE);
}

char *
sl_test_real_profile (const char *name)
{
  const char *dir = g_getenv ("SL_PROFILES_DIR");

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

SlProfile *
sl_test_load (const char *path)
{
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

sqlite3 *
sl_test_db_open (const char *path)
{
  g_autofree char *uri = g_strdup_printf ("file:%s?mode=ro&immutable=1", path);
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL), ==, SQLITE_OK);
  return db;
}

gboolean
sl_test_db_has_table (sqlite3 *db, const char *table)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '%s'",
                                          table);
  return sl_test_db_int (db, sql) > 0;
}

gboolean
sl_test_db_has_column (sqlite3 *db, const char *table, const char *column)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'",
                                          table, column);
  return sl_test_db_int (db, sql) > 0;
}

gint64
sl_test_db_int (sqlite3 *db, const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  gint64 value = 0;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  if (sqlite3_step (stmt) == SQLITE_ROW)
    value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return value;
}

void
sl_test_db_exec (sqlite3 *db, const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

void
sl_test_db_prepare (sqlite3 *db)
{
  gboolean has_class;
  g_autoptr(GString) gpu = g_string_new (NULL);

  if (sl_test_db_int (db, "SELECT count(*) FROM sqlite_temp_master WHERE name = 't_api'") > 0)
    return;

  has_class = sl_test_db_has_table (db, "CUPTI_ACTIVITY_KIND_RUNTIME")
              && sl_test_db_has_column (db, "CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass");
  sl_test_db_exec (db, "CREATE TEMP TABLE t_api (pid INT, tid INT, gtid INT, corr INT, start INT, end INT, name TEXT)");
  if (sl_test_db_has_table (db, "CUPTI_ACTIVITY_KIND_RUNTIME"))
    {
      g_autofree char *sql = g_strdup_printf (
        "INSERT INTO t_api SELECT (r.globalTid >> 24) & 16777215, r.globalTid & 16777215, r.globalTid, "
        "r.correlationId, r.start, r.end, s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
        "JOIN StringIds s ON s.id = r.nameId %s", has_class ? "WHERE r.eventClass IN (0, 1)" : "");
      sl_test_db_exec (db, sql);
    }
  sl_test_db_exec (db, "CREATE INDEX temp.t_api_corr ON t_api (pid, corr)");
  sl_test_db_exec (db, "CREATE INDEX temp.t_api_gtid ON t_api (gtid, start)");

  sl_test_db_exec (db, "CREATE TEMP TABLE t_gpu (kind INT, pid INT, device INT, stream INT, corr INT, "
                       "start INT, end INT, name TEXT, bytes INT, copykind INT)");
  if (sl_test_db_has_table (db, "CUPTI_ACTIVITY_KIND_KERNEL"))
    sl_test_db_exec (db, "INSERT INTO t_gpu SELECT 0, (k.globalPid >> 24) & 16777215, k.deviceId, k.streamId, "
                         "k.correlationId, k.start, k.end, s.value, 0, 0 FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                         "JOIN StringIds s ON s.id = k.shortName");
  if (sl_test_db_has_table (db, "CUPTI_ACTIVITY_KIND_MEMCPY"))
    sl_test_db_exec (db, "INSERT INTO t_gpu SELECT 1, (globalPid >> 24) & 16777215, deviceId, streamId, "
                         "correlationId, start, end, NULL, bytes, copyKind FROM CUPTI_ACTIVITY_KIND_MEMCPY");
  if (sl_test_db_has_table (db, "CUPTI_ACTIVITY_KIND_MEMSET"))
    sl_test_db_exec (db, "INSERT INTO t_gpu SELECT 2, (globalPid >> 24) & 16777215, deviceId, streamId, "
                         "correlationId, start, end, NULL, bytes, 0 FROM CUPTI_ACTIVITY_KIND_MEMSET");
  sl_test_db_exec (db, "CREATE INDEX temp.t_gpu_corr ON t_gpu (pid, corr)");

  sl_test_db_exec (db, "CREATE TEMP TABLE t_nvtx (id INTEGER PRIMARY KEY, gtid INT, pid INT, tid INT, "
                       "start INT, end INT, name TEXT, pushpop INT)");
  if (sl_test_db_has_table (db, "NVTX_EVENTS"))
    {
      gboolean has_textid = sl_test_db_has_column (db, "NVTX_EVENTS", "textId");
      g_autofree char *sql = g_strdup_printf (
        "INSERT INTO t_nvtx (gtid, pid, tid, start, end, name, pushpop) SELECT n.globalTid, "
        "(n.globalTid >> 24) & 16777215, n.globalTid & 16777215, n.start, n.end, %s, n.eventType = 59 "
        "FROM NVTX_EVENTS n %s WHERE n.eventType IN (59, 60) AND n.end IS NOT NULL AND n.end >= n.start",
        has_textid ? "COALESCE(n.text, s.value)" : "n.text",
        has_textid ? "LEFT JOIN StringIds s ON s.id = n.textId" : "");
      sl_test_db_exec (db, sql);
    }
  sl_test_db_exec (db, "CREATE INDEX temp.t_nvtx_gtid ON t_nvtx (gtid, start)");
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;

  if (d == NULL)
    {
      g_unlink (path);
      return;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

void
sl_test_cleanup (void)
{
  if (tmp_dir != NULL)
    remove_tree (tmp_dir);
  g_clear_pointer (&tmp_dir, g_free);
}

static void
fixture_free (gpointer data)
{
  SlTestFixture *f = data;

  g_free (f->path);
  g_clear_object (&f->parser);
  g_free (f);
}

const SlTestFixture *
sl_test_fixture (const char *name, const char *args)
{
  const char *gen = g_getenv ("SL_GEN");
  SlTestFixture *f;
  g_autofree char *truth_path = NULL;
  g_autofree char *command = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  int status = 0;

  if (fixtures == NULL)
    fixtures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, fixture_free);
  f = g_hash_table_lookup (fixtures, name);
  if (f != NULL)
    return f;

  g_assert_nonnull (gen);
  if (tmp_dir == NULL)
    {
      tmp_dir = g_dir_make_tmp ("sl-test-XXXXXX", &error);
      g_assert_no_error (error);
    }
  f = g_new0 (SlTestFixture, 1);
  f->path = g_strdup_printf ("%s/%s.sqlite", tmp_dir, name);
  truth_path = g_strdup_printf ("%s/%s.json", tmp_dir, name);
  command = g_strdup_printf ("'%s' '%s' --truth '%s' %s", gen, f->path, truth_path, args);
  g_assert_true (g_shell_parse_argv (command, NULL, &argv, &error));
  g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s failed: %s", command, err);

  f->parser = json_parser_new ();
  json_parser_load_from_file (f->parser, truth_path, &error);
  g_assert_no_error (error);
  f->truth = json_node_get_object (json_parser_get_root (f->parser));
  g_hash_table_insert (fixtures, g_strdup (name), f);
  return f;
}

static int
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

void
sl_test_stats (GArray *values, SlTestStats *out)
{
  gint64 *v = (gint64 *) values->data;
  guint64 n = values->len;
  long double mean = 0, ss = 0;

  memset (out, 0, sizeof *out);
  out->n = n;
  if (n == 0)
    return;
  qsort (v, n, sizeof (gint64), compare_i64);
  for (guint64 i = 0; i < n; i++)
    out->total += v[i];
  out->min = v[0];
  out->max = v[n - 1];
  out->median = n % 2 ? (double) v[n / 2] : ((double) v[n / 2 - 1] + (double) v[n / 2]) / 2.0;
  mean = (long double) out->total / n;
  out->mean = (double) mean;
  for (guint64 i = 0; i < n; i++)
    ss += ((long double) v[i] - mean) * ((long double) v[i] - mean);
  out->stddev = n > 1 ? (double) sqrtl (ss / (n - 1)) : 0.0;
}

void
sl_test_assert_stats (const SlStats *got, const SlTestStats *want, const char *what)
{
  if (got->count != want->n || got->total != want->total || got->min != want->min || got->max != want->max
      || fabs (got->median - want->median) > 1e-6
      || fabs (got->avg - want->mean) > 1e-6 * MAX (1.0, fabs (want->mean))
      || fabs (got->stddev - want->stddev) > 1e-6 * MAX (1.0, want->stddev))
    g_error ("%s: got n=%" G_GUINT64_FORMAT " total=%" G_GINT64_FORMAT " min=%" G_GINT64_FORMAT
             " max=%" G_GINT64_FORMAT " med=%.3f avg=%.3f sd=%.6f; want n=%" G_GUINT64_FORMAT
             " total=%" G_GINT64_FORMAT " min=%" G_GINT64_FORMAT " max=%" G_GINT64_FORMAT
             " med=%.3f avg=%.3f sd=%.6f", what, got->count, got->total, got->min, got->max, got->median,
             got->avg, got->stddev, want->n, want->total, want->min, want->max, want->median, want->mean,
             want->stddev);
}
