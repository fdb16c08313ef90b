/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-table-scan.c: the direct b-tree reader returns exactly what SQLite
 * returns, on real exports and on tables built to hit its edge cases. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "sl-table-scan.h"
#include "sl-value.h"

static const char *profiles_dir;
static char *tmp_dir;

static sqlite3 *
open_ro (const char *path)
{
  g_autofree char *uri = g_strdup_printf ("file:%s?mode=ro&immutable=1", path);
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open_v2 (uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL), ==, SQLITE_OK);
  return db;
}

/* The rows of a direct scan of @table read in @n_parts parts, one after
 * the other, must be the whole scan's: counts the rows that match @whole. */
static void
check_parts (sqlite3 *db, int fd, const char *table, const char *const *columns, guint n, guint n_parts)
{
  SlScanPlan *plan = _sl_scan_plan_new (db, fd, table, columns, n);
  SlTableScan *whole = _sl_table_scan_open (db, fd, table, columns, n, NULL);
  gint64 a[16], b[16];
  guint64 na, nb;

  for (guint part = 0; part < n_parts; part++)
    {
      SlTableScan *scan = _sl_scan_plan_open (plan, db, part, n_parts, NULL);
      while (_sl_table_scan_next (scan, a, &na))
        {
          g_assert_true (_sl_table_scan_next (whole, b, &nb));
          g_assert_cmphex (na, ==, nb);
          g_assert_cmpmem (a, n * sizeof (gint64), b, n * sizeof (gint64));
        }
      g_assert_cmpint (_sl_table_scan_error (scan), ==, SQLITE_OK);
      _sl_table_scan_free (scan);
    }
  g_assert_false (_sl_table_scan_next (whole, b, &nb));
  _sl_table_scan_free (whole);
  _sl_scan_plan_free (plan);
}

/* Scans @columns of @table both ways and compares row by row. */
static guint64
compare_scans (const char *path, const char *table, const char *const *columns, guint n, gboolean expect_direct)
{
  sqlite3 *db = open_ro (path);
  int fd = g_open (path, O_RDONLY, 0);
  SlTableScan *direct, *plain;
  gint64 a[16], b[16];
  guint64 na, nb, rows = 0;

  direct = _sl_table_scan_open (db, fd, table, columns, n, NULL);
  if (expect_direct)
    check_parts (db, fd, table, columns, n, 3);
  g_setenv ("SL_LOADER_SQLITE_ONLY", "1", TRUE);
  plain = _sl_table_scan_open (db, fd, table, columns, n, NULL);
  g_unsetenv ("SL_LOADER_SQLITE_ONLY");
  g_assert_nonnull (direct);
  g_assert_nonnull (plain);
  g_assert_cmpint (_sl_table_scan_is_direct (direct), ==, expect_direct);
  g_assert_false (_sl_table_scan_is_direct (plain));

  for (;;)
    {
      gboolean more_a = _sl_table_scan_next (direct, a, &na);
      gboolean more_b = _sl_table_scan_next (plain, b, &nb);
      g_assert_cmpint (more_a, ==, more_b);
      if (!more_a)
        break;
      g_assert_cmphex (na, ==, nb);
      for (guint i = 0; i < n; i++)
        if (a[i] != b[i])
          g_error ("%s.%s row %" G_GUINT64_FORMAT ": %" G_GINT64_FORMAT " != %" G_GINT64_FORMAT,
                   table, columns[i], rows, a[i], b[i]);
      rows++;
    }
  g_assert_cmpint (_sl_table_scan_error (direct), ==, SQLITE_OK);
  g_assert_cmpint (_sl_table_scan_error (plain), ==, SQLITE_OK);
  _sl_table_scan_free (direct);
  _sl_table_scan_free (plain);
  sqlite3_close (db);
  close (fd);
  return rows;
}

static void
test_real (gconstpointer data)
{
  g_autofree char *path = g_build_filename (profiles_dir, data, NULL);
  static const char *const kernel[] = { "rowid", "start", "end", "deviceId", "contextId", "streamId",
                                        "globalPid", "correlationId", "shortName", "demangledName", "gridX" };
  static const char *const runtime[] = { "start", "end", "eventClass", "globalTid", "correlationId", "nameId", "callchainId" };
  static const char *const memcpy_cols[] = { "start", "end", "bytes", "copyKind", "virtualAddress", "no_such_column" };
  sqlite3 *db = open_ro (path);
  sqlite3_stmt *stmt = NULL;
  gboolean has_kernels;

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  has_kernels = sqlite3_column_int (stmt, 0) > 0;
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  if (!has_kernels)
    {
      g_test_skip ("no CUDA tables");
      return;
    }
  g_assert_cmpuint (compare_scans (path, "CUPTI_ACTIVITY_KIND_KERNEL", kernel, G_N_ELEMENTS (kernel), TRUE), >, 0);
  g_assert_cmpuint (compare_scans (path, "CUPTI_ACTIVITY_KIND_RUNTIME", runtime, G_N_ELEMENTS (runtime), TRUE), >, 0);
  compare_scans (path, "CUPTI_ACTIVITY_KIND_MEMCPY", memcpy_cols, G_N_ELEMENTS (memcpy_cols), TRUE);
  /* StringIds.id is an INTEGER PRIMARY KEY: the rowid. */
  static const char *const strings[] = { "id", "rowid" };
  g_assert_cmpuint (compare_scans (path, "StringIds", strings, 2, TRUE), >, 0);
}

static void
build (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_unlink (path);
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s", message);
  sqlite3_close (db);
}

/* Rows longer than a page spill onto overflow chains; a deep tree has
 * several interior levels; every integer width and NULL appears. */
static void
test_edge_cases (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "edges.sqlite", NULL);
  static const char *const cols[] = { "rowid", "a", "b", "c", "d" };

  build (path,
         "PRAGMA page_size=512;"
         "CREATE TABLE t(a INTEGER, pad BLOB, b INTEGER, c REAL, d INTEGER);"
         "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
         "INSERT INTO t SELECT i * 7919 - 50000, CASE WHEN i % 97 = 0 THEN randomblob(3000) ELSE NULL END, "
         "  CASE i % 9 WHEN 0 THEN NULL WHEN 1 THEN 0 WHEN 2 THEN 1 WHEN 3 THEN -128 WHEN 4 THEN 32767 "
         "  WHEN 5 THEN -8388608 WHEN 6 THEN 2147483647 WHEN 7 THEN -140737488355328 ELSE 9223372036854775807 END, "
         "  i * 1.5, -i FROM n;"
         "DELETE FROM t WHERE rowid % 13 = 0;"
         "ALTER TABLE t ADD COLUMN e INTEGER;");
  g_assert_cmpuint (compare_scans (path, "t", cols, G_N_ELEMENTS (cols), TRUE), ==, 20000 - 20000 / 13);

  /* A column added with a default: SQLite must supply it. */
  static const char *const with_default[] = { "a", "e2" };
  build (path, "CREATE TABLE t(a INTEGER); INSERT INTO t VALUES (1), (2); ALTER TABLE t ADD COLUMN e2 INTEGER DEFAULT 5;");
  compare_scans (path, "t", with_default, 2, FALSE);

  /* A column beyond the 64 the direct reader decodes: SQLite reads it. */
  {
    g_autoptr(GString) ddl = g_string_new ("CREATE TABLE t(");
    for (int i = 0; i < 80; i++)
      g_string_append_printf (ddl, "%sc%d INTEGER", i ? ", " : "", i);
    g_string_append (ddl, "); INSERT INTO t (c0, c79) VALUES (1, 79), (2, 158);");
    build (path, ddl->str);
    static const char *const far[] = { "c0", "c79" };
    compare_scans (path, "t", far, 2, FALSE);
  }

  /* A UTF-16 database: its text would need converting, SQLite reads it. */
  static const char *const u16[] = { "a" };
  build (path, "PRAGMA encoding='UTF-16le'; CREATE TABLE t(a INTEGER, s TEXT); INSERT INTO t VALUES (1, 'x');");
  compare_scans (path, "t", u16, 1, FALSE);

  /* WITHOUT ROWID tables are index b-trees: the statement reads them. */
  static const char *const wr[] = { "k", "v" };
  build (path, "CREATE TABLE t(k INTEGER PRIMARY KEY, v INTEGER) WITHOUT ROWID; INSERT INTO t VALUES (1, 10), (2, 20);");
  compare_scans (path, "t", wr, 2, FALSE);
}

static void
test_corrupt_leaf (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "bad-leaf.sqlite", NULL);
  static const char *const cols[] = { "a" };
  g_autofree char *contents = NULL;
  gsize len;

  build (path, "PRAGMA page_size=512; CREATE TABLE t(a INTEGER);"
               "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO t SELECT i FROM n;");
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  /* Point every cell of a middle page far outside it. */
  gsize page = (len / 512 / 2) * 512;
  for (gsize i = page + 8; i < page + 200; i += 2)
    {
      contents[i] = (char) 0xff;
      contents[i + 1] = (char) 0xf0;
    }
  g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));

  sqlite3 *db = open_ro (path);
  int fd = g_open (path, O_RDONLY, 0);
  SlTableScan *scan = _sl_table_scan_open (db, fd, "t", cols, 1, NULL);
  gint64 v;
  guint64 nulls;
  g_assert_true (_sl_table_scan_is_direct (scan));
  while (_sl_table_scan_next (scan, &v, &nulls))
    ;
  g_assert_cmpint (_sl_table_scan_error (scan), ==, SQLITE_CORRUPT);
  _sl_table_scan_free (scan);
  sqlite3_close (db);
  close (fd);
}

/* The leaves are listed from the pages above them without being read
 * (all leaves of an SQLite b-tree are at one depth): a page at that depth
 * which is not a leaf must still fail the scan, here one marked interior. */
static void
test_leaf_marked_interior (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "leaf-as-interior.sqlite", NULL);
  static const char *const cols[] = { "a" };
  g_autofree char *contents = NULL;
  gsize len;
  guint64 rows = 0;

  build (path, "PRAGMA page_size=512; CREATE TABLE t(a INTEGER);"
               "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO t SELECT i FROM n;");
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  /* The last page is a leaf of t (the table is the file's only b-tree
   * besides sqlite_master on page 1, and SQLite appends as it grows). */
  gsize page = len - 512;
  g_assert_cmpint ((guint8) contents[page], ==, 0x0D);
  contents[page] = 0x05;
  g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));

  sqlite3 *db = open_ro (path);
  int fd = g_open (path, O_RDONLY, 0);
  SlTableScan *scan = _sl_table_scan_open (db, fd, "t", cols, 1, NULL);
  gint64 v;
  guint64 nulls;
  g_assert_true (_sl_table_scan_is_direct (scan));
  while (_sl_table_scan_next (scan, &v, &nulls))
    rows++;
  g_assert_cmpint (_sl_table_scan_error (scan), ==, SQLITE_CORRUPT);
  g_assert_cmpuint (rows, <, 5000);
  _sl_table_scan_free (scan);
  sqlite3_close (db);
  close (fd);
}

/* The loader's integer rule (sl-value.h) is SQLite's INTEGER affinity:
 * every text and REAL below is stored by SQLite into an INTEGER column,
 * and the rule must say "integer N" exactly when SQLite stored N. */
static void
test_value_affinity (void)
{
  static const char *const texts[] = {
    "123", " 123 ", "\t-7\n", "+5", "-0", "007", "1e3", "1E+3", "2.5e1", "1.", ".5", "12.0", "12.5",
    "1e", "e5", ".", "+", "-", "", " ", "abc", "12abc", "0x10", "1_000", "1 2", "inf", "NaN",
    "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
    "99999999999999999999", "1e18", "9.2e18", "9.3e18", "-9.2e18", "1e400", "0.1e1", "100000000000000000000e-2",
    "20001000000", "2.0001e10", "1.00000000000000000001", "12\x01",
  };
  static const double reals[] = { 0.0, -0.0, 1.0, 1.5, -3.0, 1e15, 1e18, 9.2e18, 9.3e18, -9.3e18, 2.5e-300 };
  sqlite3 *db = NULL;
  sqlite3_stmt *insert = NULL, *read = NULL;

  g_assert_cmpint (sqlite3_open (":memory:", &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE t(x INTEGER)", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "INSERT INTO t VALUES (?1)", -1, &insert, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT typeof(x) = 'integer', x FROM t", -1, &read, NULL), ==, SQLITE_OK);
  for (gsize i = 0; i < G_N_ELEMENTS (texts) + G_N_ELEMENTS (reals); i++)
    {
      gboolean is_text = i < G_N_ELEMENTS (texts);
      gint64 ours = 0;
      gboolean ok;

      sqlite3_exec (db, "DELETE FROM t", NULL, NULL, NULL);
      if (is_text)
        sqlite3_bind_text (insert, 1, texts[i], -1, SQLITE_STATIC);
      else
        sqlite3_bind_double (insert, 1, reals[i - G_N_ELEMENTS (texts)]);
      g_assert_cmpint (sqlite3_step (insert), ==, SQLITE_DONE);
      sqlite3_reset (insert);
      g_assert_cmpint (sqlite3_step (read), ==, SQLITE_ROW);
      ok = is_text ? _sl_value_text_to_int (texts[i], strlen (texts[i]), &ours)
                   : _sl_value_real_to_int (reals[i - G_N_ELEMENTS (texts)], &ours);
      if (ok != sqlite3_column_int (read, 0) || (ok && ours != sqlite3_column_int64 (read, 1)))
        g_error ("value %" G_GSIZE_FORMAT " (%s): ours %d %" G_GINT64_FORMAT ", SQLite %d %" G_GINT64_FORMAT, i,
                 is_text ? texts[i] : "real", ok, ours, sqlite3_column_int (read, 0), (gint64) sqlite3_column_int64 (read, 1));
      sqlite3_reset (read);
    }
  sqlite3_finalize (insert);
  sqlite3_finalize (read);
  sqlite3_close (db);
}

int
main (int argc, char **argv)
{
  static const char *const files[] = {
    "nsysai-h100-2gpu-1s.sqlite", "nsysai-mock-rtx3080.sqlite", "fuser-report2-h100.sqlite",
    "pipit-saxpy-mpi-rank0.sqlite", "jacc-cg-cpu-sampling-only.sqlite",
  };
  int result;

  g_test_init (&argc, &argv, NULL);
  profiles_dir = g_getenv ("SL_PROFILES_DIR");
  if (profiles_dir == NULL)
    profiles_dir = "../shared/profiles";
  tmp_dir = g_dir_make_tmp ("sl-test-scan-XXXXXX", NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *name = g_strdup_printf ("/analysis/table-scan/real/%s", files[i]);
      g_test_add_data_func (name, files[i], test_real);
    }
  g_test_add_func ("/analysis/table-scan/edge-cases", test_edge_cases);
  g_test_add_func ("/analysis/table-scan/corrupt-leaf", test_corrupt_leaf);
  g_test_add_func ("/analysis/table-scan/leaf-marked-interior", test_leaf_marked_interior);
  g_test_add_func ("/analysis/table-scan/value-affinity", test_value_affinity);
  result = g_test_run ();
  g_autofree char *cleanup = g_strdup_printf ("rm -rf '%s'", tmp_dir);
  if (system (cleanup) != 0)
    g_printerr ("could not remove %s\n", tmp_dir);
  return result;
}
