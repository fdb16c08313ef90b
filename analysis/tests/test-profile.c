/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-profile.c: the loader on real exports, bad input and read-only use. */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sqlite3.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "sightline.h"
#include "sl-profile-private.h"

static const char *profiles_dir;

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return (x > y) - (x < y);
}
static char *tmp_dir;

static char *
real_profile (const char *name)
{
  return g_build_filename (profiles_dir, name, NULL);
}

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static gint64
sql_count (const char *path, const char *sql)
{
  g_autofree char *uri = g_strdup_printf ("file:%s?mode=ro&immutable=1", path);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 value = -1;

  g_assert_cmpint (sqlite3_open_v2 (uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL), ==, SQLITE_OK);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK && sqlite3_step (stmt) == SQLITE_ROW)
    value = sqlite3_column_int64 (stmt, 0);
  else
    value = 0; /* table absent */
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}

/* A writable copy of a real profile, so that tests can damage it. */
static char *
copy_profile (const char *name, const char *as)
{
  g_autofree char *src = real_profile (name);
  char *dst = tmp_path (as);
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (dst, contents, (gssize) len, NULL));
  return dst;
}

static void
exec_sql (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

static void
assert_load_fails (const char *path, SlProfileError code, const char *needle)
{
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_load (path, NULL, NULL, NULL, &error);

  g_assert_null (profile);
  g_assert_error (error, SL_PROFILE_ERROR, (gint) code);
  /* Every message names the file, and says something specific. */
  g_assert_nonnull (strstr (error->message, path));
  if (needle != NULL && strstr (error->message, needle) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, needle);
}

/* ---- real profiles ------------------------------------------------------- */

typedef struct {
  const char *file;
  const char *version;
  guint       gpus_with_activity;
} RealCase;

static const RealCase real_cases[] = {
  { "nsysai-h100-2gpu-1s.sqlite", "2026.2.1.210", 2 },
  { "nsysai-mock-rtx3080.sqlite", "2026.1.1.204", 1 },
  { "fuser-report2-h100.sqlite", "2024.6.2.25", 1 },
  { "pipit-saxpy-mpi-rank0.sqlite", "2022.2.1.31", 1 },
  { "jacc-cg-cpu-sampling-only.sqlite", "2026.2.1.210", 0 },
};

static guint
gpus_with_activity (const SlProfile *profile)
{
  guint n = 0;
  for (guint g = 0; g < profile->n_gpus; g++)
    n += profile->gpus[g].has_activity;
  return n;
}

static gboolean
has_column (const char *path, const char *table, const char *column)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'", table, column);
  return sql_count (path, sql) > 0;
}

static void
test_real_profile (gconstpointer data)
{
  const RealCase *c = data;
  g_autofree char *path = real_profile (c->file);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = sl_profile_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  g_assert_cmpstr (profile->nsys_version, ==, c->version);
  g_assert_cmpuint (gpus_with_activity (profile), ==, c->gpus_with_activity);

  /* Counts against independent SQL. */
  g_assert_cmpint (profile->counts.kernels, ==, sql_count (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  g_assert_cmpint (profile->counts.memcpy, ==, sql_count (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
  g_assert_cmpint (profile->counts.memset, ==, sql_count (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"));
  g_assert_cmpint (profile->counts.cuda_api, ==,
                   has_column (path, "CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass")
                   ? sql_count (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0,1)")
                   : sql_count (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
  g_assert_cmpint (profile->counts.nvtx_ranges, ==,
                   sql_count (path, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND end IS NOT NULL"));
  g_assert_cmpint (profile->counts.nvtx_marks, ==, sql_count (path, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 34"));

  /* Linking: kernels whose (process, correlationId) has a runtime/driver row. */
  const char *linked_sql = has_column (path, "CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass")
    ? "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
      "WHERE r.correlationId = k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24) AND r.eventClass IN (0,1))"
    : "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
      "WHERE r.correlationId = k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24))";
  g_assert_cmpint (profile->counts.kernels_linked, ==, sql_count (path, linked_sql));

  if (profile->counts.kernels > 0)
    {
      g_assert_cmpint (profile->start_ns, <=,
                       sql_count (path, "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
      g_assert_cmpint (profile->end_ns, >=, sql_count (path, "SELECT max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    }
  else
    g_assert_cmpint (profile->end_ns - profile->start_ns, >=, 0);

  /* Every kernel's launching call is on a thread of the same process, starts
   * before it and has the same correlation id. */
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];
      for (guint i = 0; i < stream->kernels.spans.n; i++)
        {
          guint32 api = stream->kernels.api[i];
          if (i > 0)
            g_assert_cmpint (stream->kernels.spans.start[i - 1], <=, stream->kernels.spans.start[i]);
          if (api == SL_NONE)
            continue;
          guint32 thread = sl_profile_api_thread (profile, api);
          g_assert_cmpuint (thread, !=, SL_NONE);
          g_assert_cmpuint (profile->threads[thread].pid, ==, stream->pid);
          g_assert_cmpuint (sl_api_corr (&profile->api, api), ==, sl_kernels_corr (profile, &stream->kernels, i));
          g_assert_cmpint (profile->api.spans.start[api], <=, stream->kernels.spans.start[i]);
        }
    }

  /* The packed correlation ids of the API calls are SQLite's, as a
   * multiset (the calls are in thread and start order, not rowid order). */
  if (profile->api.spans.n > 0 &&
      (gint64) profile->api.spans.n == sql_count (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"))
    {
      g_autofree guint32 *ours = g_new (guint32, profile->api.spans.n);
      g_autofree char *uri = g_strdup_printf ("file:%s?mode=ro&immutable=1", path);
      sqlite3 *db = NULL;
      sqlite3_stmt *stmt = NULL;
      guint k = 0;

      for (guint i = 0; i < profile->api.spans.n; i++)
        ours[i] = sl_api_corr (&profile->api, i);
      qsort (ours, profile->api.spans.n, sizeof (guint32), compare_u32);
      g_assert_cmpint (sqlite3_open_v2 (uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY 1",
                                           -1, &stmt, NULL), ==, SQLITE_OK);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        g_assert_cmpuint (ours[k++], ==, (guint32) sqlite3_column_int64 (stmt, 0));
      g_assert_cmpuint (k, ==, profile->api.spans.n);
      sqlite3_finalize (stmt);
      sqlite3_close (db);
    }

  /* Every kernel's correlation id (its launching call's packed one, or its
   * own when unlinked) is SQLite's, as a multiset. */
  if (profile->counts.kernels > 0 &&
      (gint64) profile->counts.kernels == sql_count (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"))
    {
      g_autofree guint32 *ours = g_new (guint32, profile->counts.kernels);
      g_autofree char *uri = g_strdup_printf ("file:%s?mode=ro&immutable=1", path);
      sqlite3 *db = NULL;
      sqlite3_stmt *stmt = NULL;
      guint k = 0;

      for (guint st = 0; st < profile->n_streams; st++)
        for (guint i = 0; i < profile->streams[st].kernels.spans.n; i++)
          ours[k++] = sl_kernels_corr (profile, &profile->streams[st].kernels, i);
      g_assert_cmpuint (k, ==, profile->counts.kernels);
      qsort (ours, k, sizeof (guint32), compare_u32);
      k = 0;
      g_assert_cmpint (sqlite3_open_v2 (uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY 1",
                                           -1, &stmt, NULL), ==, SQLITE_OK);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        g_assert_cmpuint (ours[k++], ==, (guint32) sqlite3_column_int64 (stmt, 0));
      g_assert_cmpuint (k, ==, profile->counts.kernels);
      sqlite3_finalize (stmt);
      sqlite3_close (db);
    }

  /* NVTX nesting: every child lies inside its parent's start. */
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;
      for (guint i = 0; i < r->spans.n; i++)
        if (r->parent[i] != SL_NONE)
          {
            g_assert_cmpuint (sl_nvtx_ranges_depth (r, r->parent[i]) + 1, ==, sl_nvtx_ranges_depth (r, i));
            g_assert_cmpint (r->spans.start[r->parent[i]], <=, r->spans.start[i]);
          }
    }
}

/* Correlation ids packed to a base per block and 16-bit distances: ids
 * out of reach of their block's base (another process's calls, 0, jumps
 * of more than 65534, the 32-bit extremes) read back exactly. */
static void
test_api_corr_packing (void)
{
  static const guint sizes[] = { 1, 63, 64, 65, 1000, 5000 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      guint n = sizes[s];
      SlApiCalls api = { 0 };
      g_autofree guint32 *want = g_new (guint32, n);
      GRand *rand = g_rand_new_with_seed (n);

      for (guint i = 0; i < n; i++)
        {
          guint kind = g_rand_int_range (rand, 0, 20);
          want[i] = kind == 0 ? 0
                  : kind == 1 ? G_MAXUINT32
                  : kind == 2 ? g_rand_int (rand)
                  : i < n / 2 ? 5000000 + i * 3      /* one process */
                  : 100 + i;                         /* another, from 100 */
        }
      api.spans.n = n;
      api.corr = g_memdup2 (want, n * sizeof (guint32));
      _sl_api_corr_pack (&api);
      g_assert_null (api.corr);
      g_assert_nonnull (api.corr_delta);
      for (guint i = 0; i < n; i++)
        g_assert_cmpuint (sl_api_corr (&api, i), ==, want[i]);
      g_assert_cmpuint (sl_api_corr (&api, n), ==, 0);
      g_free (api.corr_base);
      g_free (api.corr_delta);
      g_free (api.corr_far_index);
      g_free (api.corr_far);
      g_rand_free (rand);
    }
}

/* In a capture cut to a time window, kernels whose launching call is
 * outside it still report their own correlationId. */
static void
test_unlinked_correlation_ids (void)
{
  g_autofree char *path = real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autoptr(SlProfile) profile = sl_profile_load (path, NULL, NULL, NULL, NULL);
  gint64 sum = 0, unlinked = 0;

  g_assert_nonnull (profile);
  for (guint s = 0; s < profile->n_streams; s++)
    for (guint i = 0; i < profile->streams[s].kernels.spans.n; i++)
      {
        sum += sl_kernels_corr (profile, &profile->streams[s].kernels, i);
        unlinked += profile->streams[s].kernels.api[i] == SL_NONE;
      }
  g_assert_cmpint (unlinked, >, 0);
  g_assert_cmpint (sum, ==, sql_count (path, "SELECT sum(correlationId) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

static void
test_pipit_nvtx_domains (void)
{
  g_autofree char *path = real_profile ("pipit-saxpy-mpi-rank0.sqlite");
  g_autoptr(SlProfile) profile = sl_profile_load (path, NULL, NULL, NULL, NULL);
  gboolean saw_mpi = FALSE;

  g_assert_nonnull (profile);
  /* The MPI domain's ranges use registered strings (textId). */
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlThread *thread = &profile->threads[t];
      for (guint i = 0; i < thread->nvtx.spans.n; i++)
        if (sl_nvtx_ranges_domain (&thread->nvtx, i) == 1)
          {
            g_assert_cmpstr (sl_profile_domain_name (profile, thread->pid, 1), ==, "MPI");
            g_assert_true (g_str_has_prefix (sl_strings_get (profile->strings, thread->nvtx.name[i]), "MPI_"));
            saw_mpi = TRUE;
          }
      /* nvtxNameOsThread gave the main thread its name. */
      if (thread->tid == thread->pid)
        g_assert_cmpstr (sl_profile_thread_name (profile, t), ==, "MPI Rank 0");
    }
  g_assert_true (saw_mpi);
}

static void
test_kernel_details (void)
{
  g_autofree char *path = real_profile ("nsysai-mock-rtx3080.sqlite");
  g_autoptr(SlProfile) profile = sl_profile_load (path, NULL, NULL, NULL, NULL);
  SlKernelDetails details;
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = NULL;

  g_assert_nonnull (profile);
  g_assert_cmpuint (profile->n_streams, >=, 1);
  g_assert_true (sl_kernel_details_read (profile, 0, 0, &details, &error));
  g_assert_no_error (error);
  sql = g_strdup_printf ("SELECT gridX FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start = %" G_GINT64_FORMAT
                         " AND deviceId = %u AND streamId = %u ORDER BY rowid LIMIT 1",
                         profile->streams[0].kernels.spans.start[0], profile->streams[0].device,
                         profile->streams[0].stream);
  g_assert_cmpint (details.grid[0], ==, sql_count (path, sql));
  g_assert_cmpint (details.block[0], >, 0);
  sl_kernel_details_clear (&details);

  g_assert_false (sl_kernel_details_read (profile, 99, 0, &details, NULL));
}

/* The index of the kernel loaded from row @rowid of stream @s, or -1. */
static gint
kernel_of_row (const SlProfile *profile, guint s, guint32 rowid)
{
  for (guint i = 0; i < profile->streams[s].kernels.spans.n; i++)
    if (profile->streams[s].kernels.rowid[i] == rowid)
      return (gint) i;
  return -1;
}

/* A kernel committed only in the -wal (a writer that died without a
 * checkpoint): loaded, its details read, the folder left as it was. */
static void
test_kernel_details_wal (void)
{
  g_autofree char *path = copy_profile ("nsysai-mock-rtx3080.sqlite", "wal-details.sqlite");
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  gint64 rowid = sql_count (path, "SELECT max(rowid) + 1 FROM CUPTI_ACTIVITY_KIND_KERNEL");
  SlKernelDetails details;
  pid_t pid = fork ();

  if (pid == 0)
    {
      sqlite3 *db = NULL;
      if (sqlite3_open (path, &db) != SQLITE_OK ||
          sqlite3_exec (db, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
                            "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1;"
                            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET gridX = 777 WHERE rowid = (SELECT max(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL);",
                        NULL, NULL, NULL) != SQLITE_OK)
        _exit (1);
      _exit (0); /* no close: the WAL stays */
    }
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  g_unlink (shm);
  g_assert_true (g_file_test (wal, G_FILE_TEST_EXISTS));

  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_ptr_array_index (profile->warnings, 0), ==,
                   "The profile had committed changes in “wal-details.sqlite-wal” that were not in the database file yet; they were applied in a private copy.");
  for (guint s = 0; s < profile->n_streams; s++)
    {
      gint i = kernel_of_row (profile, s, (guint32) rowid);
      if (i < 0)
        continue;
      g_assert_true (sl_kernel_details_read (profile, s, (guint) i, &details, &error));
      g_assert_no_error (error);
      g_assert_cmpint (details.grid[0], ==, 777);
      sl_kernel_details_clear (&details);
      g_assert_false (g_file_test (shm, G_FILE_TEST_EXISTS));
      return;
    }
  g_assert_not_reached ();
}

/* A view has no row ids: the details say they are not available, not "damaged". */
static void
test_kernel_details_view (void)
{
  g_autofree char *path = copy_profile ("nsysai-mock-rtx3080.sqlite", "view-details.sqlite");
  g_autoptr(GError) error = NULL;
  SlKernelDetails details;

  exec_sql (path, "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME TO kernel_rows;"
                  "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT * FROM kernel_rows;");
  g_autoptr(SlProfile) profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (profile->counts.kernels, ==, sql_count (path, "SELECT count(*) FROM kernel_rows"));
  g_assert_false (sl_kernel_details_read (profile, 0, 0, &details, &error));
  g_assert_nonnull (strstr (error->message, "not available"));
}

/* ---- bad input ------------------------------------------------------------- */

static void
test_missing (void)
{
  g_autofree char *path = tmp_path ("does-not-exist.sqlite");
  assert_load_fails (path, SL_PROFILE_ERROR_NOT_FOUND, "does not exist");
}

static void
test_directory (void)
{
  assert_load_fails (tmp_dir, SL_PROFILE_ERROR_IS_DIRECTORY, "folder");
}

static void
test_empty (void)
{
  g_autofree char *path = tmp_path ("empty.sqlite");
  g_assert_true (g_file_set_contents (path, "", 0, NULL));
  assert_load_fails (path, SL_PROFILE_ERROR_EMPTY, "empty");
}

static void
test_text (void)
{
  g_autofree char *path = tmp_path ("notes.sqlite");
  g_assert_true (g_file_set_contents (path, "kernel timings\nsee the spreadsheet\n", -1, NULL));
  assert_load_fails (path, SL_PROFILE_ERROR_NOT_SQLITE, "text file");
}

static void
test_png (void)
{
  static const guint8 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                                0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0 };
  g_autofree char *path = tmp_path ("shot.sqlite");
  g_assert_true (g_file_set_contents (path, (const char *) png, sizeof png, NULL));
  assert_load_fails (path, SL_PROFILE_ERROR_NOT_SQLITE, "PNG");
}

static void
test_not_nsight (void)
{
  g_autofree char *path = tmp_path ("contacts.sqlite");
  exec_sql (path, "CREATE TABLE people(name TEXT, phone TEXT); INSERT INTO people VALUES('Ada', '123');");
  assert_load_fails (path, SL_PROFILE_ERROR_NOT_NSIGHT, "not an Nsight Systems export");
}

static void
test_no_string_ids (void)
{
  g_autofree char *path = copy_profile ("nsysai-mock-rtx3080.sqlite", "no-strings.sqlite");
  exec_sql (path, "DROP TABLE StringIds;");
  assert_load_fails (path, SL_PROFILE_ERROR_MISSING_TABLE, "StringIds");
}

static void
test_truncated (void)
{
  g_autofree char *src = real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autofree char *path = tmp_path ("truncated.sqlite");
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) (len / 2), NULL));
  assert_load_fails (path, SL_PROFILE_ERROR_CORRUPT, "truncated");
}

static void
test_corrupt_pages (void)
{
  g_autofree char *src = real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autofree char *path = tmp_path ("corrupt.sqlite");
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  /* Scribble over the middle half: b-tree pages of the big tables. */
  for (gsize i = len / 4; i < len * 3 / 4; i++)
    contents[i] = (char) (i * 131 + 7);
  g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));
  assert_load_fails (path, SL_PROFILE_ERROR_CORRUPT, "damaged");
}

static void
test_bad_rows (void)
{
  g_autofree char *path = copy_profile ("fuser-report2-h100.sqlite", "bad-rows.sqlite");
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  gboolean time_warning = FALSE, string_warning = FALSE;

  /* Two kernels end before they start, one API row and one kernel name a
   * string id that does not exist. */
  exec_sql (path,
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 5 WHERE rowid IN (SELECT rowid FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 2);"
            "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = 987654321 WHERE rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0,1));"
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET shortName = 987654321, demangledName = 987654322 WHERE rowid = (SELECT max(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL);");
  profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (profile->counts.kernels, ==, 19 - 3);
  g_assert_cmpint (profile->counts.cuda_api, ==, 975 - 1);
  g_assert_cmpint (profile->counts.skipped_rows, ==, 4);
  for (guint i = 0; i < profile->warnings->len; i++)
    {
      const char *w = g_ptr_array_index (profile->warnings, i);
      time_warning |= strstr (w, "Skipped 2 events whose end is before") != NULL;
      string_warning |= strstr (w, "Skipped 2 events naming strings missing") != NULL;
    }
  g_assert_true (time_warning);
  g_assert_true (string_warning);
}

static void
test_extra_columns_and_absurd_values (void)
{
  g_autofree char *path = copy_profile ("nsysai-mock-rtx3080.sqlite", "absurd.sqlite");
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;

  exec_sql (path,
            "CREATE TABLE MY_TOOL_NOTES(x INTEGER);"
            "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN annotation TEXT;"
            /* a kernel lasting 30 s (in a capture long enough to hold it:
             * one far longer than the capture is skipped, see
             * test-extreme-times.py), one with a huge device id and a
             * negative stream */
            "UPDATE ANALYSIS_DETAILS SET duration = 40000000000;"
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start + 30000000000 WHERE rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL);"
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 9223372036854775807, streamId = -4 WHERE rowid = (SELECT max(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL);");
  profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (profile->counts.kernels, ==, 2);
  gboolean found_long = FALSE;
  for (guint s = 0; s < profile->n_streams; s++)
    for (guint i = 0; i < profile->streams[s].kernels.spans.n; i++)
      found_long |= sl_spans_dur (&profile->streams[s].kernels.spans, i) == G_GINT64_CONSTANT (30000000000);
  g_assert_true (found_long);
  g_assert_cmpint (profile->end_ns - profile->start_ns, >=, G_GINT64_CONSTANT (30000000000));
}

/* Issue 10: a kernel far longer than the capture (ANALYSIS_DETAILS says
 * 1.87 s) and times beyond ±2^62 ns are skipped and counted, with a warning
 * that says why. */
static void
test_impossible_times (void)
{
  g_autofree char *path = copy_profile ("nsysai-mock-rtx3080.sqlite", "impossible.sqlite");
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  gboolean warned = FALSE;

  exec_sql (path,
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start + 30000000000 WHERE rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL);"
            "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = -4611686018427387904, end = 4611686018427387904 WHERE rowid = 1;"
            "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = 9223372036854775000, end = 9223372036854775807 WHERE rowid = 2;");
  profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (profile->counts.kernels, ==, 1);
  g_assert_cmpint (profile->counts.skipped_rows, ==, 3);
  g_assert_cmpint (profile->start_ns, >, 0);
  for (guint i = 0; i < profile->warnings->len; i++)
    warned |= g_str_equal (g_ptr_array_index (profile->warnings, i),
                           "Skipped 3 events with impossible times (outside ±146 years or far longer than the 1.87 s capture).");
  g_assert_true (warned);
}

static void
test_no_gpu_activity (void)
{
  g_autofree char *path = real_profile ("jacc-cg-cpu-sampling-only.sqlite");
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = sl_profile_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpint (profile->counts.kernels + profile->counts.memcpy + profile->counts.memset, ==, 0);
  g_assert_cmpuint (gpus_with_activity (profile), ==, 0);
}

static void
test_cancelled (void)
{
  g_autofree char *path = real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_null (sl_profile_load (path, cancellable, NULL, NULL, &error));
  g_assert_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED);
}

static void
progress_cb (double fraction, const char *phase, gpointer user_data)
{
  double *last = user_data;
  g_assert_cmpfloat (fraction, >=, 0.0);
  g_assert_cmpfloat (fraction, <=, 1.0);
  g_assert_nonnull (phase);
  *last = fraction;
}

static void
test_progress (void)
{
  g_autofree char *path = real_profile ("fuser-report2-h100.sqlite");
  double last = -1;
  g_autoptr(SlProfile) profile = sl_profile_load (path, NULL, progress_cb, &last, NULL);

  g_assert_nonnull (profile);
  g_assert_cmpfloat (last, ==, 1.0);
}

/* ---- .nsys-rep ---------------------------------------------------------- */

static void
test_nsys_rep_without_nsys (void)
{
  g_autofree char *path = tmp_path ("run1.nsys-rep");
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));

  g_assert_true (g_file_set_contents (path, "not really a report", -1, NULL));
  g_setenv ("PATH", "/nonexistent", TRUE);
  assert_load_fails (path, SL_PROFILE_ERROR_NSYS_REP, "nsys export --type sqlite");
  g_setenv ("PATH", old_path, TRUE);
}

static void
test_nsys_rep_converted (void)
{
  /* A stand-in nsys that "exports" by copying a real export to --output. */
  g_autofree char *bin = tmp_path ("fake-bin");
  g_autofree char *nsys = g_build_filename (bin, "nsys", NULL);
  g_autofree char *cache = tmp_path ("cache");
  g_autofree char *report_dir = tmp_path ("reports");
  g_autofree char *report = g_build_filename (report_dir, "run2.nsys-rep", NULL);
  g_autofree char *source = real_profile ("nsysai-mock-rtx3080.sqlite");
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\n"
                                             "while [ $# -gt 0 ]; do case \"$1\" in --output) out=\"$2\"; shift;; esac; shift; done\n"
                                             "cp '%s' \"$out\"\n", source);
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *new_path = g_strdup_printf ("%s:%s", bin, old_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GDir) dir = NULL;
  guint entries = 0;

  g_mkdir_with_parents (bin, 0755);
  g_mkdir_with_parents (report_dir, 0755);
  g_assert_true (g_file_set_contents (nsys, script, -1, NULL));
  g_chmod (nsys, 0755);
  g_assert_true (g_file_set_contents (report, "report bytes", -1, NULL));
  g_setenv ("PATH", new_path, TRUE);

  profile = sl_profile_load (report, NULL, NULL, NULL, &error);
  g_setenv ("PATH", old_path, TRUE);
  g_assert_no_error (error);
  g_assert_cmpint (profile->counts.kernels, ==, 2);
  g_assert_cmpstr (profile->path, ==, report);

  /* Nothing was written beside the user's report. */
  dir = g_dir_open (report_dir, 0, NULL);
  while (g_dir_read_name (dir) != NULL)
    entries++;
  g_assert_cmpuint (entries, ==, 1);
  g_autofree char *converted = g_build_filename (cache, "sightline", "converted", NULL);
  g_assert_true (g_file_test (converted, G_FILE_TEST_IS_DIR));
}

/* ---- read-only ---------------------------------------------------------- */

static void
test_unchanged_after_load (void)
{
  g_autofree char *path = copy_profile ("pipit-saxpy-mpi-rank0.sqlite", "unchanged.sqlite");
  g_autofree char *before = NULL, *after = NULL;
  gsize before_len, after_len;
  GStatBuf st_before, st_after;
  struct timespec old_times[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

  /* An old mtime makes any write visible even within the same second. */
  utimensat (AT_FDCWD, path, old_times, 0);
  g_assert_true (g_file_get_contents (path, &before, &before_len, NULL));
  g_assert_cmpint (g_stat (path, &st_before), ==, 0);

  SlProfile *profile = sl_profile_load (path, NULL, NULL, NULL, NULL);
  g_assert_nonnull (profile);
  SlKernelDetails details;
  g_assert_true (sl_kernel_details_read (profile, 0, 0, &details, NULL));
  sl_kernel_details_clear (&details);
  sl_profile_unref (profile);

  g_assert_true (g_file_get_contents (path, &after, &after_len, NULL));
  g_assert_cmpint (g_stat (path, &st_after), ==, 0);
  g_assert_cmpmem (before, before_len, after, after_len);
  g_assert_cmpint (st_before.st_mtime, ==, st_after.st_mtime);
  /* No -journal/-wal/-shm files appeared beside it. */
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  g_autofree char *journal = g_strconcat (path, "-journal", NULL);
  g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (shm, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));
}

/* Runs @body in a child that has dropped root (if we are root), since root
 * ignores file permissions.  Returns the child's exit status. */
static int
run_unprivileged (void (*body) (gpointer), gpointer data)
{
  pid_t pid = fork ();
  int status = 0;

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      if (geteuid () == 0)
        {
          struct passwd *nobody = getpwnam ("nobody");
          uid_t uid = nobody != NULL ? nobody->pw_uid : 65534;
          gid_t gid = nobody != NULL ? nobody->pw_gid : 65534;
          if (setgid (gid) != 0 || setuid (uid) != 0)
            _exit (77);
        }
      body (data);
      _exit (0);
    }
  waitpid (pid, &status, 0);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 99;
}

static void
open_read_only_body (gpointer data)
{
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_load (data, NULL, NULL, NULL, &error);
  if (profile == NULL)
    {
      g_printerr ("%s\n", error->message);
      _exit (1);
    }
  if (profile->counts.kernels != 19)
    _exit (2);
  sl_profile_unref (profile);
}

static void
test_read_only_directory (void)
{
  g_autofree char *dir = tmp_path ("ro-dir");
  g_autofree char *path = g_build_filename (dir, "profile.sqlite", NULL);
  g_autofree char *src = real_profile ("fuser-report2-h100.sqlite");
  g_autofree char *contents = NULL;
  gsize len;

  g_chmod (tmp_dir, 0755);
  g_mkdir_with_parents (dir, 0755);
  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));
  g_chmod (path, 0444);
  g_chmod (dir, 0555);
  g_assert_cmpint (run_unprivileged (open_read_only_body, path), ==, 0);
  g_chmod (dir, 0755);
}

static void
unreadable_body (gpointer data)
{
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_load (data, NULL, NULL, NULL, &error);
  if (profile != NULL)
    _exit (1);
  if (!g_error_matches (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_PERMISSION))
    _exit (2);
  if (strstr (error->message, "permission denied") == NULL)
    _exit (3);
}

static void
test_no_permission (void)
{
  g_autofree char *path = copy_profile ("nsysai-mock-rtx3080.sqlite", "secret.sqlite");

  g_chmod (tmp_dir, 0755);
  g_chmod (path, 0000);
  g_assert_cmpint (run_unprivileged (unreadable_body, path), ==, 0);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int result;

  g_test_init (&argc, &argv, NULL);
  profiles_dir = g_getenv ("SL_PROFILES_DIR");
  if (profiles_dir == NULL)
    profiles_dir = "../shared/profiles";
  tmp_dir = g_dir_make_tmp ("sl-test-profile-XXXXXX", &error);
  g_assert_no_error (error);
  /* GLib reads XDG_CACHE_HOME once: set it before anything asks. */
  g_autofree char *cache = g_build_filename (tmp_dir, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);

  for (gsize i = 0; i < G_N_ELEMENTS (real_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/analysis/profile/real/%s", real_cases[i].file);
      g_test_add_data_func (name, &real_cases[i], test_real_profile);
    }
  g_test_add_func ("/analysis/profile/real/pipit-nvtx-domains", test_pipit_nvtx_domains);
  g_test_add_func ("/analysis/profile/real/unlinked-correlation-ids", test_unlinked_correlation_ids);
  g_test_add_func ("/analysis/profile/api-corr-packing", test_api_corr_packing);
  g_test_add_func ("/analysis/profile/kernel-details", test_kernel_details);
  g_test_add_func ("/analysis/profile/kernel-details-wal", test_kernel_details_wal);
  g_test_add_func ("/analysis/profile/kernel-details-view", test_kernel_details_view);
  g_test_add_func ("/analysis/profile/open-missing", test_missing);
  g_test_add_func ("/analysis/profile/open-directory", test_directory);
  g_test_add_func ("/analysis/profile/open-no-permission", test_no_permission);
  g_test_add_func ("/analysis/profile/open-empty", test_empty);
  g_test_add_func ("/analysis/profile/open-text", test_text);
  g_test_add_func ("/analysis/profile/open-png", test_png);
  g_test_add_func ("/analysis/profile/open-not-nsight", test_not_nsight);
  g_test_add_func ("/analysis/profile/open-no-string-ids", test_no_string_ids);
  g_test_add_func ("/analysis/profile/open-truncated", test_truncated);
  g_test_add_func ("/analysis/profile/open-corrupt-pages", test_corrupt_pages);
  g_test_add_func ("/analysis/profile/bad-rows-skipped", test_bad_rows);
  g_test_add_func ("/analysis/profile/extra-columns-absurd-values", test_extra_columns_and_absurd_values);
  g_test_add_func ("/analysis/profile/impossible-times", test_impossible_times);
  g_test_add_func ("/analysis/profile/no-gpu-activity", test_no_gpu_activity);
  g_test_add_func ("/analysis/profile/cancelled", test_cancelled);
  g_test_add_func ("/analysis/profile/progress", test_progress);
  g_test_add_func ("/analysis/profile/nsys-rep-without-nsys", test_nsys_rep_without_nsys);
  g_test_add_func ("/analysis/profile/nsys-rep-converted", test_nsys_rep_converted);
  g_test_add_func ("/analysis/profile/unchanged-after-load", test_unchanged_after_load);
  g_test_add_func ("/analysis/profile/read-only-directory", test_read_only_directory);

  result = g_test_run ();
  g_autofree char *cleanup = g_strdup_printf ("chmod -R u+rwx '%s' && rm -rf '%s'", tmp_dir, tmp_dir);
  if (system (cleanup) != 0)
    g_printerr ("could not remove %s\n", tmp_dir);
  return result;
}
