/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-summaries.c: per-name statistics (kernels, api, nvtx), memcpy and
 * launch overhead, against SQL on the real exports and against the
 * generator's truth. */
#include <math.h>
#include <string.h>

#include "sl-test-util.h"

/* name -> GArray of gint64, from a query returning (name, value). */
static GHashTable *
query_groups (sqlite3 *db, const char *sql)
{
  GHashTable *groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      gint64 v = sqlite3_column_int64 (stmt, 1);
      GArray *values;

      if (name == NULL)
        name = "";
      values = g_hash_table_lookup (groups, name);
      if (values == NULL)
        {
          values = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_hash_table_insert (groups, g_strdup (name), values);
        }
      g_array_append_val (values, v);
    }
  sqlite3_finalize (stmt);
  return groups;
}

typedef struct {
  const char *name;
  const SlStats *stats;
  double pct;
} Row;

/* Every row matches its SQL group, no group is missing, order and shares hold. */
static void
check_rows (const char *what, GHashTable *groups, const Row *rows, guint n_rows, gint64 total_ns)
{
  gint64 sum = 0;
  double pct = 0;

  g_assert_cmpuint (n_rows, ==, g_hash_table_size (groups));
  for (guint r = 0; r < n_rows; r++)
    {
      GArray *values = g_hash_table_lookup (groups, rows[r].name);
      SlTestStats want;
      g_autofree char *label = g_strdup_printf ("%s “%s”", what, rows[r].name);

      if (values == NULL)
        g_error ("%s: unexpected name", label);
      sl_test_stats (values, &want);
      sl_test_assert_stats (rows[r].stats, &want, label);
      sum += rows[r].stats->total;
      pct += rows[r].pct;
      if (r > 0)
        g_assert_cmpint (rows[r - 1].stats->total, >=, rows[r].stats->total);
    }
  g_assert_cmpint (sum, ==, total_ns);
  if (n_rows > 0)
    g_assert_cmpfloat (fabs (pct - 100.0), <, 1e-6);
}

static char *
where_clause (const SlFilter *f, const char *time_col, gboolean gpu)
{
  GString *s = g_string_new ("1");

  if (f == NULL)
    return g_string_free (s, FALSE);
  for (guint i = 0; i < f->gpus->len && gpu; i++)
    g_string_append_printf (s, "%s device = %u", i == 0 ? " AND (" : " OR", g_array_index (f->gpus, guint32, i));
  if (f->gpus->len > 0 && gpu)
    g_string_append (s, ")");
  for (guint i = 0; i < f->pids->len; i++)
    g_string_append_printf (s, "%s pid = %u", i == 0 ? " AND (" : " OR", g_array_index (f->pids, guint32, i));
  if (f->pids->len > 0)
    g_string_append (s, ")");
  if (f->has_range)
    g_string_append_printf (s, " AND %s >= %" G_GINT64_FORMAT " AND %s < %" G_GINT64_FORMAT,
                            time_col, f->range_start, time_col, f->range_end);
  return g_string_free (s, FALSE);
}

/* The filters tried on each profile: none, one GPU, a middle window, one pid. */
static GPtrArray *
filters_for (sqlite3 *db)
{
  GPtrArray *filters = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_filter_free);
  gint64 lo = sl_test_db_int (db, "SELECT min(start) FROM t_gpu");
  gint64 hi = sl_test_db_int (db, "SELECT max(start) FROM t_gpu");
  SlFilter *f;

  g_ptr_array_add (filters, NULL);
  f = sl_filter_new ();
  sl_filter_add_gpu (f, (guint32) sl_test_db_int (db, "SELECT coalesce(max(device), 0) FROM t_gpu"));
  g_ptr_array_add (filters, f);
  f = sl_filter_new ();
  sl_filter_set_range (f, lo + (hi - lo) / 4, lo + 3 * (hi - lo) / 4 + 1);
  g_ptr_array_add (filters, f);
  f = sl_filter_new ();
  sl_filter_add_pid (f, (guint32) sl_test_db_int (db, "SELECT coalesce(min(pid), 0) FROM t_api"));
  sl_filter_set_range (f, lo, hi + 1);
  g_ptr_array_add (filters, f);
  f = sl_filter_new ();
  sl_filter_add_gpu (f, 4242);
  g_ptr_array_add (filters, f);
  return filters;
}

static void
test_kernels_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint p = 0; paths[p] != NULL; p++)
    {
      g_autoptr(SlProfile) profile = sl_test_load (paths[p]);
      sqlite3 *db = sl_test_db_open (paths[p]);
      g_autoptr(GPtrArray) filters = NULL;

      sl_test_db_prepare (db);
      filters = filters_for (db);
      for (guint i = 0; i < filters->len; i++)
        {
          const SlFilter *f = filters->pdata[i];
          g_autofree char *where = where_clause (f, "start", TRUE);
          g_autofree char *sql = g_strdup_printf ("SELECT name, end - start FROM t_gpu WHERE kind = 0 AND %s", where);
          g_autoptr(GHashTable) groups = query_groups (db, sql);
          g_autoptr(SlKernelSummary) s = sl_kernel_summary_compute (profile, f, SL_NAMES_SHORT, 0);
          g_autofree Row *rows = g_new0 (Row, MAX (s->n_rows, 1));
          g_autofree char *what = g_strdup_printf ("%s kernels [%s]", paths[p], where);

          for (guint r = 0; r < s->n_rows; r++)
            rows[r] = (Row) { s->rows[r].name, &s->rows[r].stats, s->rows[r].time_pct };
          check_rows (what, groups, rows, s->n_rows, s->total_ns);
        }

      /* demangled names and --top */
      if (sl_test_db_has_table (db, "CUPTI_ACTIVITY_KIND_KERNEL"))
        {
          g_autoptr(GHashTable) groups = query_groups (db,
            "SELECT s.value, k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName");
          g_autoptr(SlKernelSummary) s = sl_kernel_summary_compute (profile, NULL, SL_NAMES_DEMANGLED, 0);
          g_autoptr(SlKernelSummary) top = sl_kernel_summary_compute (profile, NULL, SL_NAMES_DEMANGLED, 2);
          g_autofree Row *rows = g_new0 (Row, MAX (s->n_rows, 1));

          for (guint r = 0; r < s->n_rows; r++)
            rows[r] = (Row) { s->rows[r].name, &s->rows[r].stats, s->rows[r].time_pct };
          check_rows ("demangled", groups, rows, s->n_rows, s->total_ns);
          g_assert_cmpuint (top->n_rows, ==, MIN (2, s->n_rows));
          g_assert_cmpint (top->total_ns, ==, s->total_ns);
          for (guint r = 0; r < top->n_rows; r++)
            g_assert_cmpstr (top->rows[r].name, ==, s->rows[r].name);
        }
      sqlite3_close (db);
    }
}

static void
test_kernels_generated (void)
{
  const SlTestFixture *f = sl_test_fixture ("sum", "--gpus 2 --streams 2 --processes 2 --threads 3 --iterations 4 "
                                                   "--kernels 6000 --nccl --memcpy 40 --memset 12 --seed 5");
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlKernelSummary) s = sl_kernel_summary_compute (profile, NULL, SL_NAMES_SHORT, 0);
  JsonArray *names = json_object_get_array_member (f->truth, "kernel_names");
  JsonObject *counts = json_object_get_object_member (f->truth, "counts");
  gint64 total = 0;

  g_assert_cmpuint (s->n_rows, ==, json_array_get_length (names));
  for (guint i = 0; i < json_array_get_length (names); i++)
    {
      JsonObject *o = json_array_get_object_element (names, i);
      const char *name = json_object_get_string_member (o, "short_name");
      gboolean found = FALSE;

      for (guint r = 0; r < s->n_rows; r++)
        if (g_str_equal (s->rows[r].name, name))
          {
            g_assert_cmpint ((gint64) s->rows[r].stats.count, ==, json_object_get_int_member (o, "instances"));
            g_assert_cmpint (s->rows[r].stats.total, ==, json_object_get_int_member (o, "total_ns"));
            found = TRUE;
          }
      g_assert_true (found);
      total += json_object_get_int_member (o, "total_ns");
    }
  g_assert_cmpint (s->total_ns, ==, total);
  g_assert_cmpint ((gint64) s->instances, ==, json_object_get_int_member (counts, "kernels"));

  /* the API summary counts every runtime/driver call once */
  {
    g_autoptr(SlApiSummary) api = sl_api_summary_compute (profile, NULL, 0);
    g_assert_cmpint ((gint64) api->calls, ==, json_object_get_int_member (counts, "cuda_api"));
  }
  /* memcpy / memset counts */
  {
    g_autoptr(SlMemcpySummary) m = sl_memcpy_summary_compute (profile, NULL);
    guint64 memsets = 0, copies = 0;
    for (guint r = 0; r < m->n_rows; r++)
      if (m->rows[r].is_memset)
        memsets += m->rows[r].count;
      else
        copies += m->rows[r].count;
    g_assert_cmpint ((gint64) copies, ==, json_object_get_int_member (counts, "memcpy"));
    g_assert_cmpint ((gint64) memsets, ==, json_object_get_int_member (counts, "memset"));
  }
}

static void
test_api_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint p = 0; paths[p] != NULL; p++)
    {
      g_autoptr(SlProfile) profile = sl_test_load (paths[p]);
      sqlite3 *db = sl_test_db_open (paths[p]);
      g_autoptr(GPtrArray) filters = NULL;

      sl_test_db_prepare (db);
      filters = filters_for (db);
      for (guint i = 0; i < filters->len; i++)
        {
          const SlFilter *f = filters->pdata[i];
          g_autofree char *where = where_clause (f, "start", FALSE);
          g_autofree char *gpu_where = NULL;
          g_autofree char *sql = NULL;
          g_autoptr(GHashTable) groups = NULL;
          g_autoptr(SlApiSummary) s = sl_api_summary_compute (profile, f, 0);
          g_autofree Row *rows = g_new0 (Row, MAX (s->n_rows, 1));

          /* with GPUs: the processes that have GPU work on them */
          if (f != NULL && f->gpus->len > 0)
            {
              g_autofree char *dev = where_clause (f, "start", TRUE);
              g_autoptr(SlFilter) only_gpu = sl_filter_new ();
              sl_filter_add_gpu (only_gpu, g_array_index (f->gpus, guint32, 0));
              g_free (dev);
              dev = where_clause (only_gpu, "start", TRUE);
              gpu_where = g_strdup_printf (" AND pid IN (SELECT pid FROM t_gpu WHERE %s)", dev);
            }
          sql = g_strdup_printf ("SELECT name, end - start FROM t_api WHERE %s%s", where,
                                 gpu_where != NULL ? gpu_where : "");
          groups = query_groups (db, sql);
          for (guint r = 0; r < s->n_rows; r++)
            rows[r] = (Row) { s->rows[r].name, &s->rows[r].stats, s->rows[r].time_pct };
          check_rows (sql, groups, rows, s->n_rows, s->total_ns);
        }
      sqlite3_close (db);
    }
}

/* NVTX in the middle half of the capture: the ranges that start inside
 * it (each depth of a thread's ranges is a slice of them). */
static void
check_nvtx_window (const SlProfile *profile, sqlite3 *db, const char *path)
{
  gint64 lo = sl_test_db_int (db, "SELECT coalesce(min(start), 0) FROM t_nvtx");
  gint64 hi = sl_test_db_int (db, "SELECT coalesce(max(start), 0) FROM t_nvtx");
  gint64 from = lo + (hi - lo) / 4, to = lo + 3 * (hi - lo) / 4 + 1;
  g_autoptr(SlFilter) filter = sl_filter_new ();
  g_autoptr(SlNvtxSummary) s = NULL;
  g_autofree char *sql = g_strdup_printf ("SELECT name, end - start FROM t_nvtx WHERE start >= %" G_GINT64_FORMAT
                                          " AND start < %" G_GINT64_FORMAT, from, to);
  g_autofree char *what = g_strdup_printf ("%s, NVTX in [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", path, from, to);
  g_autoptr(GHashTable) groups = query_groups (db, sql);
  g_autofree Row *rows = NULL;

  sl_filter_set_range (filter, from, to);
  s = sl_nvtx_summary_compute (profile, filter, 0);
  rows = g_new0 (Row, MAX (s->n_rows, 1));
  for (guint r = 0; r < s->n_rows; r++)
    rows[r] = (Row) { s->rows[r].name, &s->rows[r].stats, s->rows[r].time_pct };
  check_rows (what, groups, rows, s->n_rows, s->total_ns);
}

/* NVTX: statistics per name, and the GPU projection summed per name with a
 * correlated subquery: GPU work of API calls of the range's thread starting
 * inside it. */
static void
test_nvtx_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint p = 0; paths[p] != NULL; p++)
    {
      g_autoptr(SlProfile) profile = sl_test_load (paths[p]);
      sqlite3 *db = sl_test_db_open (paths[p]);
      g_autoptr(SlNvtxSummary) s = sl_nvtx_summary_compute (profile, NULL, 0);
      g_autoptr(GHashTable) groups = NULL;
      g_autoptr(GHashTable) proj = NULL;
      g_autofree Row *rows = g_new0 (Row, MAX (s->n_rows, 1));

      sl_test_db_prepare (db);
      groups = query_groups (db, "SELECT name, end - start FROM t_nvtx");
      for (guint r = 0; r < s->n_rows; r++)
        rows[r] = (Row) { s->rows[r].name, &s->rows[r].stats, s->rows[r].time_pct };
      check_rows (paths[p], groups, rows, s->n_rows, s->total_ns);
      check_nvtx_window (profile, db, paths[p]);

      proj = query_groups (db,
        "SELECT n.name, (SELECT max(g.end) - min(g.start) FROM t_api a JOIN t_gpu g ON g.pid = a.pid AND g.corr = a.corr "
        "                WHERE a.gtid = n.gtid AND a.start >= n.start AND a.start < n.end) AS d "
        "FROM t_nvtx n WHERE d IS NOT NULL");
      for (guint r = 0; r < s->n_rows; r++)
        {
          GArray *values = g_hash_table_lookup (proj, s->rows[r].name);
          gint64 want = 0;
          for (guint i = 0; values != NULL && i < values->len; i++)
            want += g_array_index (values, gint64, i);
          if (s->rows[r].gpu_total_ns != want)
            g_error ("%s: gpu_total_ns of “%s”: got %" G_GINT64_FORMAT ", want %" G_GINT64_FORMAT,
                     paths[p], s->rows[r].name, s->rows[r].gpu_total_ns, want);
          g_assert_cmpuint (s->rows[r].gpu_instances, ==, values != NULL ? values->len : 0);
        }
      sqlite3_close (db);
    }
}

/* Generated: iteration_N ranges exist once per process, with the truth's
 * CPU durations; range counts match. */
static void
test_nvtx_generated (void)
{
  const SlTestFixture *f = sl_test_fixture ("sum", "--gpus 2 --streams 2 --processes 2 --threads 3 --iterations 4 "
                                                   "--kernels 6000 --nccl --memcpy 40 --memset 12 --seed 5");
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlNvtxSummary) s = sl_nvtx_summary_compute (profile, NULL, 0);
  JsonArray *procs = json_object_get_array_member (f->truth, "processes");
  JsonObject *counts = json_object_get_object_member (f->truth, "counts");
  guint n_iter = json_array_get_length (json_object_get_array_member (json_array_get_object_element (procs, 0), "iterations"));

  g_assert_cmpint ((gint64) s->instances, ==, json_object_get_int_member (counts, "nvtx_ranges"));
  for (guint i = 0; i < n_iter; i++)
    {
      g_autofree char *name = g_strdup_printf ("iteration_%u", i);
      gint64 want = 0;
      gboolean found = FALSE;

      for (guint p = 0; p < json_array_get_length (procs); p++)
        {
          JsonObject *it = json_array_get_object_element (
            json_object_get_array_member (json_array_get_object_element (procs, p), "iterations"), i);
          want += json_object_get_int_member (it, "cpu_end") - json_object_get_int_member (it, "cpu_start");
        }
      for (guint r = 0; r < s->n_rows; r++)
        if (g_str_equal (s->rows[r].name, name))
          {
            g_assert_cmpint (s->rows[r].stats.total, ==, want);
            g_assert_cmpuint (s->rows[r].stats.count, ==, json_array_get_length (procs));
            found = TRUE;
          }
      g_assert_true (found);
    }
}

static const char *
kind_name (gint64 kind)
{
  /* ENUM_CUDA_MEMCPY_OPER, as in SCHEMA.md */
  static const char *names[] = { "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD",
                                 "HtoH", "PtoP" };
  return kind >= 0 && kind < (gint64) G_N_ELEMENTS (names) ? names[kind] : NULL;
}

static void
test_memcpy_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint p = 0; paths[p] != NULL; p++)
    {
      g_autoptr(SlProfile) profile = sl_test_load (paths[p]);
      g_autoptr(SlMemcpySummary) s = sl_memcpy_summary_compute (profile, NULL);
      sqlite3 *db = sl_test_db_open (paths[p]);
      sqlite3_stmt *stmt = NULL;
      guint n = 0;

      sl_test_db_prepare (db);
      sqlite3_prepare_v2 (db, "SELECT kind, copykind, count(*), sum(bytes), sum(end - start) FROM t_gpu "
                              "WHERE kind > 0 GROUP BY kind, CASE WHEN kind = 1 THEN copykind ELSE 0 END", -1, &stmt, NULL);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          gboolean memset_row = sqlite3_column_int64 (stmt, 0) == 2;
          const char *kind = memset_row ? "memset" : kind_name (sqlite3_column_int64 (stmt, 1));
          gboolean found = FALSE;

          g_assert_nonnull (kind);
          for (guint r = 0; r < s->n_rows; r++)
            if (g_str_equal (s->rows[r].kind, kind))
              {
                g_assert_cmpint ((gint64) s->rows[r].count, ==, sqlite3_column_int64 (stmt, 2));
                g_assert_cmpint ((gint64) s->rows[r].bytes, ==, sqlite3_column_int64 (stmt, 3));
                g_assert_cmpint (s->rows[r].total_ns, ==, sqlite3_column_int64 (stmt, 4));
                g_assert_cmpfloat (fabs (s->rows[r].gbps - (double) sqlite3_column_int64 (stmt, 3)
                                         / (double) sqlite3_column_int64 (stmt, 4)), <, 1e-9);
                found = TRUE;
              }
          g_assert_true (found);
          n++;
        }
      sqlite3_finalize (stmt);
      g_assert_cmpuint (s->n_rows, ==, n);
      sqlite3_close (db);
    }
}

/* Launch overhead per kernel name of the profile at @path, against SQL:
 * kernels joined to their launching call. */
static void
check_launch (const char *path)
{
  g_autoptr(SlProfile) profile = sl_test_load (path);
  g_autoptr(SlLaunch) s = sl_launch_compute (profile, NULL, SL_NAMES_SHORT, 0);
  sqlite3 *db = sl_test_db_open (path);
  g_autoptr(GHashTable) queue = NULL;
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint64 launches = 0;

  sl_test_db_prepare (db);
  queue = query_groups (db, "SELECT g.name, g.start - a.start FROM t_gpu g JOIN t_api a "
                            "ON a.pid = g.pid AND a.corr = g.corr WHERE g.kind = 0");
  g_assert_cmpint ((gint64) s->unlinked, ==,
                   sl_test_db_int (db, "SELECT count(*) FROM t_gpu g WHERE g.kind = 0 AND NOT EXISTS "
                                       "(SELECT 1 FROM t_api a WHERE a.pid = g.pid AND a.corr = g.corr)"));
  g_assert_cmpuint (s->n_rows, ==, g_hash_table_size (queue));
  for (guint r = 0; r < s->n_rows; r++)
    {
      const SlLaunchRow *row = &s->rows[r];
      GArray *q = g_hash_table_lookup (queue, row->name);
      char *quoted = sqlite3_mprintf ("%q", row->name);
      g_autofree char *sql_api = g_strdup_printf (
        "SELECT sum(a.end - a.start) FROM t_gpu g JOIN t_api a ON a.pid = g.pid AND a.corr = g.corr "
        "WHERE g.kind = 0 AND g.name = '%s'", quoted);
      g_autofree char *sql_kernel = g_strdup_printf (
        "SELECT sum(g.end - g.start) FROM t_gpu g JOIN t_api a ON a.pid = g.pid AND a.corr = g.corr "
        "WHERE g.kind = 0 AND g.name = '%s'", quoted);
      SlTestStats qs;
      guint64 rank;

      sqlite3_free (quoted);
      g_assert_nonnull (q);
      sl_test_stats (q, &qs);   /* sorts q */
      g_array_append_vals (all, q->data, q->len);
      rank = (guint64) ceil (0.95 * qs.n - 1e-9);
      g_assert_cmpuint (row->launches, ==, qs.n);
      g_assert_cmpfloat (fabs (row->queue_mean_ns - qs.mean), <, 1e-6 * MAX (1.0, fabs (qs.mean)));
      g_assert_cmpint (row->queue_p95_ns, ==, g_array_index (q, gint64, rank - 1));
      g_assert_cmpfloat (fabs (row->api_mean_ns - (double) sl_test_db_int (db, sql_api) / qs.n), <, 1e-6 * row->api_mean_ns + 1e-9);
      g_assert_cmpfloat (fabs (row->kernel_mean_ns - (double) sl_test_db_int (db, sql_kernel) / qs.n), <, 1e-6 * row->kernel_mean_ns + 1e-9);
      g_assert_cmpint (row->launch_bound, ==, row->kernel_mean_ns < row->api_mean_ns);
      launches += qs.n;
    }
  g_assert_cmpuint (s->totals.launches, ==, launches);
  if (launches > 0)
    {
      SlTestStats as;
      sl_test_stats (all, &as);
      g_assert_cmpint (s->totals.queue_p95_ns, ==,
                       g_array_index (all, gint64, (guint64) ceil (0.95 * as.n - 1e-9) - 1));
    }
  sqlite3_close (db);
}

static void
test_launch_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint p = 0; paths[p] != NULL; p++)
    check_launch (paths[p]);
}

/* The same on a generated profile large enough that the percentiles come
 * from sampled bands of many values (histogram selection) by the plain
 * walk (test-graphs checks the walk of CUDA graph launches). */
static void
test_launch_generated (void)
{
  check_launch (sl_test_fixture ("launch-plain", "--gpus 2 --streams 3 --iterations 6 --kernels 600000 --nccl --seed 5")->path);
}

/* Launch overhead under each filter: per name, the kernels with a
 * launching call and their queue delays' mean and 95th percentile, and
 * the kernels without a call, as SQL finds them among the kernels the
 * filter keeps. */
static void
test_launch_filtered (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint p = 0; paths[p] != NULL; p++)
    {
      g_autoptr(SlProfile) profile = sl_test_load (paths[p]);
      sqlite3 *db = sl_test_db_open (paths[p]);
      g_autoptr(GPtrArray) filters = NULL;

      sl_test_db_prepare (db);
      filters = filters_for (db);
      for (guint i = 0; i < filters->len; i++)
        {
          const SlFilter *f = filters->pdata[i];
          g_autofree char *where = where_clause (f, "start", TRUE);
          g_autofree char *sql = g_strdup_printf (
            "SELECT name, delay FROM (SELECT g.name AS name, g.device AS device, g.pid AS pid, g.start AS start, "
            "g.start - a.start AS delay FROM t_gpu g JOIN t_api a ON a.pid = g.pid AND a.corr = g.corr "
            "WHERE g.kind = 0) WHERE %s", where);
          g_autofree char *sql_unlinked = g_strdup_printf (
            "SELECT count(*) FROM t_gpu g WHERE g.kind = 0 AND %s AND NOT EXISTS "
            "(SELECT 1 FROM t_api a WHERE a.pid = g.pid AND a.corr = g.corr)", where);
          g_autoptr(GHashTable) queue = query_groups (db, sql);
          g_autoptr(SlLaunch) s = sl_launch_compute (profile, f, SL_NAMES_SHORT, 0);

          g_assert_cmpint ((gint64) s->unlinked, ==, sl_test_db_int (db, sql_unlinked));
          g_assert_cmpuint (s->n_rows, ==, g_hash_table_size (queue));
          for (guint r = 0; r < s->n_rows; r++)
            {
              GArray *q = g_hash_table_lookup (queue, s->rows[r].name);
              SlTestStats qs;

              g_assert_nonnull (q);
              sl_test_stats (q, &qs);   /* sorts q */
              g_assert_cmpuint (s->rows[r].launches, ==, qs.n);
              g_assert_cmpfloat (fabs (s->rows[r].queue_mean_ns - qs.mean), <, 1e-6 * MAX (1.0, fabs (qs.mean)));
              g_assert_cmpint (s->rows[r].queue_p95_ns, ==,
                               g_array_index (q, gint64, (guint64) ceil (0.95 * qs.n - 1e-9) - 1));
            }
        }
      sqlite3_close (db);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/kernels/real", test_kernels_real);
  g_test_add_func ("/analysis/kernels/generated", test_kernels_generated);
  g_test_add_func ("/analysis/api/real", test_api_real);
  g_test_add_func ("/analysis/nvtx/real", test_nvtx_real);
  g_test_add_func ("/analysis/nvtx/generated", test_nvtx_generated);
  g_test_add_func ("/analysis/memcpy/real", test_memcpy_real);
  g_test_add_func ("/analysis/launch/real", test_launch_real);
  g_test_add_func ("/analysis/launch/generated", test_launch_generated);
  g_test_add_func ("/analysis/launch/filtered", test_launch_filtered);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
