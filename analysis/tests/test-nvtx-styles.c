/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-nvtx-styles.c: an NVTX range keeps the index of its (color, domain)
 * pair, its thread's style (sl-nvtx-styles.c), and its depth is the row of
 * depth_first it lies in.  Checked by hand on arrays, and on a generated
 * profile given a thread with 70 000 ranges of distinct colors (more pairs
 * than 2-byte indexes hold) against what SQL reads from the file, through
 * the page reader and through SQLite alone. */
#include <string.h>

#include "sl-test-util.h"
#include "sl-profile-private.h"

/* Ranges of @n (color, domain) pairs made into styles. */
static void
styles_of (SlNvtxRanges *r, guint n, const guint32 *color, const guint16 *domain)
{
  memset (r, 0, sizeof *r);
  r->spans.n = n;
  r->load_color = g_memdup2 (color, n * sizeof (guint32));
  r->load_domain = g_memdup2 (domain, n * sizeof (guint16));
  _sl_nvtx_ranges_build_styles (r);
  g_assert_null (r->load_color);
  g_assert_null (r->load_domain);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmphex (sl_nvtx_ranges_color (r, i), ==, color[i]);
      g_assert_cmpuint (sl_nvtx_ranges_domain (r, i), ==, domain[i]);
    }
}

static void
clear_styles (SlNvtxRanges *r)
{
  r->spans.n = 0;
  _sl_nvtx_ranges_clear (r);
}

static void
test_few (void)
{
  static const guint32 color[] = { 0, 0xff76b900, 0, 0xff76b900, 0xff0000ff, 0, 0 };
  static const guint16 domain[] = { 0, 0, 3, 0, 0, 3, 0 };
  SlNvtxRanges r;

  styles_of (&r, G_N_ELEMENTS (color), color, domain);
  g_assert_nonnull (r.style);
  g_assert_null (r.style_wide);
  g_assert_cmpuint (r.n_styles, ==, 4);   /* (0,0) (76b900,0) (0,3) (0000ff,0) */
  clear_styles (&r);
}

/* 70 000 distinct pairs: the indexes widen to 4 bytes part way. */
static void
test_wide (void)
{
  guint n = 70000;
  g_autofree guint32 *color = g_new (guint32, n);
  g_autofree guint16 *domain = g_new (guint16, n);
  SlNvtxRanges r;

  for (guint i = 0; i < n; i++)
    {
      color[i] = 0xff000000u | (i * 2654435761u >> 8);
      domain[i] = (guint16) (i % 5 == 0 ? 0xffff : i % 3);
    }
  color[n - 1] = color[0];   /* a pair seen before, after widening */
  domain[n - 1] = domain[0];
  styles_of (&r, n, color, domain);
  g_assert_null (r.style);
  g_assert_nonnull (r.style_wide);
  g_assert_cmpuint (r.n_styles, ==, n - 1);
  g_assert_cmpuint (r.style_wide[n - 1], ==, r.style_wide[0]);
  clear_styles (&r);
}

/* No ranges, or ranges without colors read: color 0, domain 0. */
static void
test_none (void)
{
  SlNvtxRanges r;

  memset (&r, 0, sizeof r);
  _sl_nvtx_ranges_build_styles (&r);
  g_assert_cmpuint (r.n_styles, ==, 0);
  r.spans.n = 3;
  _sl_nvtx_ranges_build_styles (&r);
  g_assert_null (r.style);
  g_assert_cmphex (sl_nvtx_ranges_color (&r, 2), ==, 0);
  g_assert_cmpuint (sl_nvtx_ranges_domain (&r, 2), ==, 0);
  /* an index past the styles (a damaged cache entry) reads as none */
  r.style = g_new0 (guint16, 3);
  r.style[1] = 7;
  g_assert_cmphex (sl_nvtx_ranges_color (&r, 1), ==, 0);
  clear_styles (&r);
}

/* Rows with empty depths between them: each range's depth is its row's. */
static void
test_depth (void)
{
  guint first[] = { 0, 2, 2, 5, 6 };
  SlNvtxRanges r = { .spans.n = 6, .n_depths = 4, .depth_first = first };
  static const guint want[] = { 0, 0, 2, 2, 2, 3 };

  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpuint (sl_nvtx_ranges_depth (&r, i), ==, want[i]);
}

/* ---- loaded from a file ---------------------------------------------------------- */

typedef struct {
  guint64 gtid;
  gint64  start, end;
  guint32 color;
  guint16 domain;
} Row;

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const Row *x = a, *y = b;

  if (x->gtid != y->gtid)
    return x->gtid < y->gtid ? -1 : 1;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  if (x->color != y->color)
    return x->color < y->color ? -1 : 1;
  return (int) x->domain - (int) y->domain;
}

static void
add_ranges (GArray *rows, const SlThread *t, const SlNvtxRanges *r)
{
  for (guint i = 0; i < r->spans.n; i++)
    {
      Row row = { t->global_tid, r->spans.start[i], sl_spans_end (&r->spans, i), sl_nvtx_ranges_color (r, i),
                  sl_nvtx_ranges_domain (r, i) };
      g_array_append_val (rows, row);
    }
}

static GArray *
profile_rows (const SlProfile *p, gboolean *wide)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (Row));

  for (guint t = 0; t < p->n_threads; t++)
    {
      add_ranges (rows, &p->threads[t], &p->threads[t].nvtx);
      add_ranges (rows, &p->threads[t], &p->threads[t].nvtx_startend);
      *wide |= p->threads[t].nvtx.style_wide != NULL;
    }
  g_array_sort (rows, compare_rows);
  return rows;
}

static GArray *
sql_rows (const char *path)
{
  sqlite3 *db = sl_test_db_open (path);
  sqlite3_stmt *stmt = NULL;
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (Row));

  g_assert_cmpint (sqlite3_prepare_v2 (db,
                                       "SELECT globalTid, start, \"end\", coalesce(color, 0), "
                                       "coalesce(domainId, 0) FROM NVTX_EVENTS "
                                       "WHERE eventType IN (59, 60) AND \"end\" IS NOT NULL AND \"end\" >= start",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      Row row = { (guint64) sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1),
                  sqlite3_column_int64 (stmt, 2), (guint32) sqlite3_column_int64 (stmt, 3),
                  (guint16) sqlite3_column_int64 (stmt, 4) };
      g_array_append_val (rows, row);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  g_array_sort (rows, compare_rows);
  return rows;
}

static void
assert_rows_equal (GArray *got, GArray *want)
{
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < got->len; i++)
    if (compare_rows (&g_array_index (got, Row, i), &g_array_index (want, Row, i)) != 0)
      {
        const Row *a = &g_array_index (got, Row, i), *b = &g_array_index (want, Row, i);
        g_error ("range %u: tid %" G_GUINT64_FORMAT " [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") color %08x "
                 "domain %u, SQL: [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") color %08x domain %u",
                 i, a->gtid, a->start, a->end, a->color, a->domain, b->start, b->end, b->color, b->domain);
      }
}

/* A copy of a generated profile (colored steps, NCCL's domain, start/end
 * lanes) whose first thread with ranges gets 70 000 more after its last,
 * each of its own color, in domains 0, 1 and 7. */
static char *
many_colors_profile (void)
{
  const SlTestFixture *f = sl_test_fixture ("nvtx-styles", "--kernels 3000 --iterations 4 --nccl --async-ranges 3");
  g_autofree char *contents = NULL;
  g_autofree char *dir = g_path_get_dirname (f->path);
  gsize len;
  char *path = g_build_filename (dir, "many-colors.sqlite", NULL);
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_true (g_file_get_contents (f->path, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db,
                    "WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < 69999), "
                    "at(t, tid) AS (SELECT max(\"end\"), (SELECT globalTid FROM NVTX_EVENTS WHERE eventType = 59 "
                    "ORDER BY rowid LIMIT 1) FROM NVTX_EVENTS) "
                    "INSERT INTO NVTX_EVENTS (start, \"end\", eventType, text, globalTid, color, domainId) "
                    "SELECT t + 100 * n + 10, t + 100 * n + 60, 59, 'colored', tid, "
                    "4278190080 + (n * 40503) % 16777216, CASE n % 3 WHEN 0 THEN 0 WHEN 1 THEN 1 ELSE 7 END FROM i, at",
                    NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s", message);
  sqlite3_close (db);
  return path;
}

static void
test_loaded (void)
{
  g_autofree char *path = many_colors_profile ();
  g_autoptr(GArray) want = sql_rows (path);

  sl_profile_cache_set_enabled (FALSE);
  for (guint sqlite_only = 0; sqlite_only < 2; sqlite_only++)
    {
      g_autoptr(SlProfile) p = NULL;
      g_autoptr(GArray) got = NULL;
      gboolean wide = FALSE;

      if (sqlite_only)
        g_setenv ("SL_LOADER_SQLITE_ONLY", "1", TRUE);
      p = sl_test_load (path);
      g_unsetenv ("SL_LOADER_SQLITE_ONLY");
      got = profile_rows (p, &wide);
      g_assert_true (wide);
      assert_rows_equal (got, want);
    }
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/nvtx-styles/few", test_few);
  g_test_add_func ("/analysis/nvtx-styles/wide", test_wide);
  g_test_add_func ("/analysis/nvtx-styles/none", test_none);
  g_test_add_func ("/analysis/nvtx-styles/depth", test_depth);
  g_test_add_func ("/analysis/nvtx-styles/loaded", test_loaded);
  rc = g_test_run ();
  sl_test_cleanup ();
  return rc;
}
