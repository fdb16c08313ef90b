/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gen.c: the fixture generator is deterministic, and its --truth manifest
 * agrees with what SQL reads back from the file it wrote.  The SQL here is
 * deliberately independent of the generator's own bookkeeping (GPU busy time,
 * for instance, is a gaps-and-islands window query). */

#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

static const char *gen_path;
static char *tmp_dir;

/* ---- helpers ------------------------------------------------------------- */

static void
run_gen (const char *out, const char *truth, const char *args)
{
  g_autofree char *cmd = truth
    ? g_strdup_printf ("'%s' '%s' --truth '%s' %s", gen_path, out, truth, args)
    : g_strdup_printf ("'%s' '%s' %s", gen_path, out, args);
  g_autofree char *err = NULL;
  int status = 0;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_spawn_command_line_sync (cmd, NULL, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s failed: %s", cmd, err);
}

static gint64
q1 (sqlite3 *db, const char *sql)
{
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2 (db, sql, -1, &st, NULL) != SQLITE_OK)
    g_error ("%s\n  in %s", sqlite3_errmsg (db), sql);
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
  gint64 v = sqlite3_column_int64 (st, 0);
  sqlite3_finalize (st);
  return v;
}

static gboolean
has_table (sqlite3 *db, const char *name)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='%s'", name);
  return q1 (db, sql) > 0;
}

static gboolean
has_column (sqlite3 *db, const char *table, const char *column)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM pragma_table_info('%s') WHERE name='%s'", table, column);
  return q1 (db, sql) > 0;
}

static JsonObject *
load_truth (const char *path, JsonParser **parser_out)
{
  g_autoptr (GError) error = NULL;
  JsonParser *parser = json_parser_new ();
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  *parser_out = parser;
  return json_node_get_object (json_parser_get_root (parser));
}

static gint64
tint (JsonObject *o, const char *member)
{
  g_assert_true (json_object_has_member (o, member));
  return json_object_get_int_member (o, member);
}

static sqlite3 *
open_ro (const char *path)
{
  sqlite3 *db = NULL;
  g_autofree char *uri = g_strdup_printf ("file:%s?mode=ro", path);
  g_assert_cmpint (sqlite3_open_v2 (uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL), ==, SQLITE_OK);
  return db;
}

/* Rows a loader keeps: both times sane, every string id resolvable. */
#define VALID_KERNELS \
  "SELECT k.* FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE k.end >= k.start " \
  "AND k.shortName IN (SELECT id FROM StringIds) AND k.demangledName IN (SELECT id FROM StringIds)"
#define VALID_API \
  "SELECT r.* FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.eventClass IN (0, 1) AND r.end >= r.start " \
  "AND r.nameId IN (SELECT id FROM StringIds)"

/* Total length of the union of the intervals (s, e) produced by @rows. */
static gint64
union_ns (sqlite3 *db, const char *rows)
{
  g_autofree char *sql = g_strdup_printf (
    "WITH iv(s, e) AS (%s), "
    "o AS (SELECT s, e, MAX(e) OVER (ORDER BY s, e ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS pe FROM iv), "
    "g AS (SELECT s, e, SUM(CASE WHEN pe IS NULL OR s > pe THEN 1 ELSE 0 END) "
    "      OVER (ORDER BY s, e ROWS UNBOUNDED PRECEDING) AS grp FROM o) "
    "SELECT COALESCE(SUM(ge - gs), 0) FROM (SELECT MIN(s) AS gs, MAX(e) AS ge FROM g GROUP BY grp)", rows);
  return q1 (db, sql);
}

/* Longest stretch between the intervals of @rows with none of them running. */
static gint64
max_idle_ns (sqlite3 *db, const char *rows)
{
  g_autofree char *sql = g_strdup_printf (
    "WITH iv(s, e) AS (%s), "
    "o AS (SELECT s, MAX(e) OVER (ORDER BY s, e ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS pe FROM iv) "
    "SELECT COALESCE(MAX(s - pe), 0) FROM o WHERE s > pe", rows);
  return q1 (db, sql);
}

/* ---- checks -------------------------------------------------------------- */

static void
check_truth (const char *db_path, const char *truth_path)
{
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *t = load_truth (truth_path, &parser);
  JsonObject *c = json_object_get_object_member (t, "counts");
  sqlite3 *db = open_ro (db_path);
  gboolean gpu = has_table (db, "CUPTI_ACTIVITY_KIND_KERNEL");
  gboolean nvtx = has_table (db, "NVTX_EVENTS");

  if (gpu)
    {
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), ==, tint (c, "kernel_rows"));
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM (" VALID_KERNELS ")"), ==, tint (c, "kernels"));
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"), ==, tint (c, "memcpy"));
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"), ==, tint (c, "memset"));
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"), ==, tint (c, "syncs"));
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), ==, tint (c, "runtime_rows"));
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM (" VALID_API ")"), ==, tint (c, "cuda_api"));
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 67"), ==,
                       tint (c, "backtrace_rows"));
      /* Every valid GPU op has a launching call in its own process that starts before it. */
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM (" VALID_KERNELS ") k JOIN (" VALID_API ") r "
                               "ON r.correlationId = k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24) "
                               "WHERE r.start < k.start"), ==, tint (c, "kernels_linked"));
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN (" VALID_API ") r "
                               "ON r.correlationId = m.correlationId AND (r.globalTid >> 24) = (m.globalPid >> 24) "
                               "WHERE r.start < m.start"), ==, tint (c, "memcpy"));
      /* Correlation ids are unique within a process among API calls. */
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM (SELECT 1 FROM (" VALID_API ") "
                               "GROUP BY globalTid >> 24, correlationId HAVING count(*) > 1)"), ==, 0);
    }
  else
    g_assert_cmpint (tint (c, "kernels"), ==, 0);

  if (nvtx)
    {
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59"), ==, tint (c, "nvtx_pushpop"));
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 60"), ==, tint (c, "nvtx_startend"));
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 34"), ==, tint (c, "nvtx_marks"));
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 75"), ==, tint (c, "nvtx_domain_creates"));
      g_assert_cmpint (tint (c, "nvtx_ranges"), ==, tint (c, "nvtx_pushpop") + tint (c, "nvtx_startend"));
      /* Registered strings resolve; text or textId, never both. */
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM NVTX_EVENTS WHERE textId IS NOT NULL AND textId NOT IN (SELECT id FROM StringIds)"), ==, 0);
      g_assert_cmpint (q1 (db, "SELECT count(*) FROM NVTX_EVENTS WHERE text IS NOT NULL AND textId IS NOT NULL"), ==, 0);
      /* Push/pop ranges nest properly on each thread: no partial overlap. */
      g_assert_cmpint (q1 (db, "WITH r AS (SELECT rowid AS id, start, end, globalTid FROM NVTX_EVENTS WHERE eventType = 59) "
                               "SELECT count(*) FROM r a JOIN r b ON a.globalTid = b.globalTid AND a.id != b.id "
                               "AND b.start > a.start AND b.start < a.end AND b.end > a.end"), ==, 0);
    }
  else
    g_assert_cmpint (tint (c, "nvtx_ranges") + tint (c, "nvtx_marks"), ==, 0);

  /* Earliest start and latest end over everything a loader keeps. */
  {
    GString *all = g_string_new ("SELECT 0 AS s, 0 AS e WHERE 0");
    if (gpu)
      g_string_append (all,
                       " UNION ALL SELECT start, end FROM (" VALID_KERNELS ")"
                       " UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY"
                       " UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET"
                       " UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"
                       " UNION ALL SELECT start, end FROM (" VALID_API ")");
    if (nvtx)
      g_string_append (all, " UNION ALL SELECT start, COALESCE(end, start) FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)");
    g_autofree char *qs = g_strdup_printf ("SELECT COALESCE(MIN(s), 0) FROM (%s)", all->str);
    g_autofree char *qe = g_strdup_printf ("SELECT COALESCE(MAX(e), 0) FROM (%s)", all->str);
    g_assert_cmpint (q1 (db, qs), ==, tint (t, "start_ns"));
    g_assert_cmpint (q1 (db, qe), ==, tint (t, "end_ns"));
    g_string_free (all, TRUE);
  }

  /* GPUs: per-device counts and time accounting. */
  JsonArray *gpus = json_object_get_array_member (t, "gpus");
  if (gpu)
    {
      g_assert_cmpint (json_array_get_length (gpus), ==,
                       q1 (db, "SELECT count(DISTINCT deviceId) FROM (SELECT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL "
                               "UNION ALL SELECT deviceId FROM CUPTI_ACTIVITY_KIND_MEMCPY)"));
      gint64 gpu_table_rows = has_table (db, "TARGET_INFO_GPU") ? q1 (db, "SELECT count(*) FROM TARGET_INFO_GPU")
                                                                : q1 (db, "SELECT count(*) FROM TARGET_INFO_CUDA_GPU");
      g_assert_cmpint (gpu_table_rows, ==, tint (t, "gpus_listed"));
    }
  for (guint i = 0; i < json_array_get_length (gpus); i++)
    {
      JsonObject *gd = json_array_get_object_element (gpus, i);
      gint64 d = tint (gd, "device");
      g_autofree char *k = g_strdup_printf ("SELECT start, end FROM (" VALID_KERNELS ") WHERE deviceId = %" G_GINT64_FORMAT, d);
      g_autofree char *kc = g_strdup_printf ("SELECT k.start, k.end FROM (" VALID_KERNELS ") k JOIN StringIds s ON s.id = k.shortName "
                                             "WHERE k.deviceId = %" G_GINT64_FORMAT " AND s.value NOT LIKE 'nccl%%'", d);
      g_autofree char *kn = g_strdup_printf ("SELECT k.start, k.end FROM (" VALID_KERNELS ") k JOIN StringIds s ON s.id = k.shortName "
                                             "WHERE k.deviceId = %" G_GINT64_FORMAT " AND s.value LIKE 'nccl%%'", d);
      g_autofree char *ops = g_strdup_printf ("%s UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE deviceId = %" G_GINT64_FORMAT
                                              " UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE deviceId = %" G_GINT64_FORMAT,
                                              k, d, d);
      g_autofree char *nk = g_strdup_printf ("SELECT count(*) FROM (%s)", k);
      g_autofree char *mn = g_strdup_printf ("SELECT min(start) FROM (%s)", ops);
      g_autofree char *mx = g_strdup_printf ("SELECT max(end) FROM (%s)", ops);
      g_autofree char *ns = g_strdup_printf ("SELECT count(DISTINCT streamId) FROM (SELECT streamId FROM (" VALID_KERNELS ") WHERE deviceId = %" G_GINT64_FORMAT
                                             " UNION ALL SELECT streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE deviceId = %" G_GINT64_FORMAT ")", d, d);

      g_assert_cmpint (q1 (db, nk), ==, tint (gd, "kernels"));
      g_assert_cmpint (q1 (db, mn), ==, tint (gd, "start_ns"));
      g_assert_cmpint (q1 (db, mx), ==, tint (gd, "end_ns"));
      g_assert_cmpint (q1 (db, ns), ==, json_array_get_length (json_object_get_array_member (gd, "streams")));
      g_assert_cmpint (union_ns (db, ops), ==, tint (gd, "busy_ns"));
      g_assert_cmpint (tint (gd, "idle_ns"), ==, tint (gd, "span_ns") - tint (gd, "busy_ns"));
      g_assert_cmpint (max_idle_ns (db, ops), ==, tint (gd, "max_idle_ns"));
      gint64 comp = union_ns (db, kc), nccl = union_ns (db, kn), kern = union_ns (db, k);
      g_assert_cmpint (comp, ==, tint (gd, "compute_ns"));
      g_assert_cmpint (nccl, ==, tint (gd, "nccl_ns"));
      g_assert_cmpint (comp + nccl - kern, ==, tint (gd, "overlap_ns"));

      /* Planted gaps: nothing runs on the device inside them. */
      JsonArray *gaps = json_object_get_array_member (gd, "gaps");
      for (guint j = 0; j < json_array_get_length (gaps); j++)
        {
          JsonArray *gp = json_array_get_array_element (gaps, j);
          gint64 gs = json_array_get_int_element (gp, 0), ge = json_array_get_int_element (gp, 1);
          g_assert_cmpint (ge, >, gs);
          g_autofree char *inside = g_strdup_printf ("SELECT count(*) FROM (%s) WHERE start < %" G_GINT64_FORMAT " AND end > %" G_GINT64_FORMAT,
                                                     ops, ge, gs);
          g_assert_cmpint (q1 (db, inside), ==, 0);
        }
    }

  /* Processes, threads, iterations. */
  JsonArray *procs = json_object_get_array_member (t, "processes");
  for (guint i = 0; i < json_array_get_length (procs); i++)
    {
      JsonObject *p = json_array_get_object_element (procs, i);
      gint64 pid = tint (p, "pid");
      if (has_table (db, "PROCESSES"))
        {
          g_autofree char *q = g_strdup_printf ("SELECT count(*) FROM PROCESSES WHERE pid = %" G_GINT64_FORMAT
                                                " AND (globalPid >> 24) & 16777215 = pid AND globalPid >> 48 = 1", pid);
          g_assert_cmpint (q1 (db, q), ==, 1);
        }
      if (gpu)
        {
          g_autofree char *q = g_strdup_printf ("SELECT count(*) FROM (" VALID_KERNELS ") WHERE (globalPid >> 24) & 16777215 = %" G_GINT64_FORMAT, pid);
          g_assert_cmpint (q1 (db, q), ==, tint (p, "kernels"));
        }
      JsonArray *threads = json_object_get_array_member (p, "thread_list");
      for (guint j = 0; j < json_array_get_length (threads); j++)
        {
          JsonObject *th = json_array_get_object_element (threads, j);
          gint64 gtid = (G_GINT64_CONSTANT (1) << 48) | (pid << 24) | tint (th, "tid");
          if (j == 0)
            g_assert_cmpint (tint (th, "tid"), ==, pid);
          if (gpu)
            {
              g_autofree char *q = g_strdup_printf ("SELECT count(*) FROM (" VALID_API ") WHERE globalTid = %" G_GINT64_FORMAT, gtid);
              g_assert_cmpint (q1 (db, q), ==, tint (th, "cuda_api"));
            }
          if (nvtx)
            {
              g_autofree char *q = g_strdup_printf ("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND globalTid = %" G_GINT64_FORMAT, gtid);
              g_assert_cmpint (q1 (db, q), ==, tint (th, "nvtx_pushpop"));
            }
          g_autofree char *qn = g_strdup_printf ("SELECT count(*) FROM ThreadNames WHERE globalTid = %" G_GINT64_FORMAT
                                                 " AND nameId IN (SELECT id FROM StringIds)", gtid);
          g_assert_cmpint (q1 (db, qn), ==, 1);
        }
      JsonArray *iters = json_object_get_array_member (p, "iterations");
      for (guint j = 0; j < json_array_get_length (iters) && nvtx; j++)
        {
          JsonObject *it = json_array_get_object_element (iters, j);
          g_autofree char *q = g_strdup_printf ("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND text = 'iteration_%u' "
                                                "AND globalTid = %" G_GINT64_FORMAT " AND start = %" G_GINT64_FORMAT " AND end = %" G_GINT64_FORMAT,
                                                j, (G_GINT64_CONSTANT (1) << 48) | (pid << 24) | pid,
                                                tint (it, "cpu_start"), tint (it, "cpu_end"));
          g_assert_cmpint (q1 (db, q), ==, 1);
        }
    }

  /* Kernel names. */
  JsonArray *names = json_object_get_array_member (t, "kernel_names");
  for (guint i = 0; i < json_array_get_length (names); i++)
    {
      JsonObject *n = json_array_get_object_element (names, i);
      const char *name = json_object_get_string_member (n, "short_name");
      g_autofree char *q = g_strdup_printf ("SELECT count(*) FROM (" VALID_KERNELS ") k JOIN StringIds s ON s.id = k.shortName WHERE s.value = '%s'", name);
      g_autofree char *qt = g_strdup_printf ("SELECT sum(k.end - k.start) FROM (" VALID_KERNELS ") k JOIN StringIds s ON s.id = k.shortName WHERE s.value = '%s'", name);
      g_assert_cmpint (q1 (db, q), ==, tint (n, "instances"));
      g_assert_cmpint (q1 (db, qt), ==, tint (n, "total_ns"));
    }

  sqlite3_close (db);
}

/* ---- test cases ---------------------------------------------------------- */

typedef struct {
  const char *name;
  const char *args;
} Case;

static const Case cases[] = {
  { "current", "--layout current --gpus 3 --streams 2 --processes 2 --threads 3 --iterations 6 --kernels 6000 --nccl --memcpy 60 --memset 20 --gap-ns 1000000 --bad-rows 3 --seed 7" },
  { "2022", "--layout 2022 --gpus 2 --streams 3 --processes 1 --threads 2 --iterations 5 --kernels 4000 --nccl --memcpy 30 --memset 10 --gap-ns 500000 --bad-rows 2 --seed 3" },
  { "2020", "--layout 2020 --gpus 2 --streams 1 --processes 1 --threads 1 --iterations 4 --kernels 3001 --nvtx-depth 3 --memcpy 9 --bad-rows 1 --seed 11" },
  { "shared-gpus", "--gpus 2 --streams 2 --processes 3 --threads 2 --iterations 4 --kernels 5000 --nccl --memcpy 24 --gap-ns 200000 --seed 5" },
  { "deep-nvtx", "--gpus 1 --streams 4 --processes 1 --threads 4 --iterations 3 --kernels 2000 --nvtx-depth 9 --nccl --seed 9" },
  { "no-nvtx", "--gpus 2 --iterations 3 --kernels 1000 --nvtx-depth 0 --nccl --seed 2" },
  { "no-gpu", "--no-gpu --processes 2 --threads 3 --iterations 4 --kernels 2000 --seed 4" },
  { "tiny", "--gpus 4 --iterations 3 --kernels 5 --seed 1" },
};

static void
test_deterministic (gconstpointer data)
{
  const Case *c = data;
  g_autofree char *a = g_build_filename (tmp_dir, "det-a.sqlite", NULL);
  g_autofree char *b = g_build_filename (tmp_dir, "det-b.sqlite", NULL);
  g_autofree char *ta = g_build_filename (tmp_dir, "det-a.json", NULL);
  g_autofree char *tb = g_build_filename (tmp_dir, "det-b.json", NULL);
  g_autofree char *ca = NULL, *cb = NULL, *cta = NULL, *ctb = NULL;
  gsize la, lb, lta, ltb;

  run_gen (a, ta, c->args);
  run_gen (b, tb, c->args);
  g_assert_true (g_file_get_contents (a, &ca, &la, NULL));
  g_assert_true (g_file_get_contents (b, &cb, &lb, NULL));
  g_assert_cmpuint (la, ==, lb);
  g_assert_true (memcmp (ca, cb, la) == 0);
  g_assert_true (g_file_get_contents (ta, &cta, &lta, NULL));
  g_assert_true (g_file_get_contents (tb, &ctb, &ltb, NULL));
  g_assert_cmpstr (cta, ==, ctb);

  /* A different seed gives a different file. */
  g_autofree char *other = g_strconcat (c->args, " --seed 12345", NULL);
  run_gen (b, NULL, other);
  g_free (cb);
  g_assert_true (g_file_get_contents (b, &cb, &lb, NULL));
  g_assert_false (la == lb && memcmp (ca, cb, la) == 0);

  g_unlink (a); g_unlink (b); g_unlink (ta); g_unlink (tb);
}

static void
test_truth (gconstpointer data)
{
  const Case *c = data;
  g_autofree char *db = g_build_filename (tmp_dir, "truth.sqlite", NULL);
  g_autofree char *truth = g_build_filename (tmp_dir, "truth.json", NULL);

  run_gen (db, truth, c->args);
  check_truth (db, truth);
  g_unlink (db);
  g_unlink (truth);
}

static void
test_layouts (void)
{
  g_autofree char *db = g_build_filename (tmp_dir, "layout.sqlite", NULL);
  sqlite3 *h;

  run_gen (db, NULL, "--layout current --kernels 1000 --nccl --bad-rows 1");
  h = open_ro (db);
  g_assert_true (has_table (h, "META_DATA_EXPORT"));
  g_assert_true (has_table (h, "TARGET_INFO_GPU"));
  g_assert_true (has_table (h, "ENUM_NSYS_EVENT_TYPE"));
  g_assert_true (has_table (h, "SystemInfo"));              /* unknown table */
  g_assert_true (has_column (h, "CUPTI_ACTIVITY_KIND_RUNTIME", "name"));  /* unknown column */
  g_assert_true (has_column (h, "CUPTI_ACTIVITY_KIND_KERNEL", "tensorSizeMinusOneElements"));
  g_assert_cmpint (q1 (h, "SELECT count(*) FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION' AND value = '3.25.0'"), ==, 1);
  g_assert_cmpint (q1 (h, "SELECT count(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL' "
                          "AND sql LIKE '%REFERENCES StringIds(id) -- Base kernel function name%'"), ==, 1);
  /* Sparse string ids, as in real exports. */
  g_assert_cmpint (q1 (h, "SELECT max(id) + 1 - count(*) FROM StringIds"), >, 10);
  /* An NCCL domain with registered strings. */
  g_assert_cmpint (q1 (h, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 75 AND text = 'NCCL' AND domainId = 1"), ==, 1);
  g_assert_cmpint (q1 (h, "SELECT count(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId "
                          "WHERE n.domainId = 1 AND s.value = 'ncclAllReduce'"), >, 0);
  /* A start/end range that ends on another thread. */
  g_assert_cmpint (q1 (h, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 60 AND endGlobalTid != globalTid"), >, 0);
  sqlite3_close (h);

  run_gen (db, NULL, "--layout 2022 --kernels 100");
  h = open_ro (db);
  g_assert_true (has_table (h, "EXPORT_META_DATA"));
  g_assert_false (has_table (h, "META_DATA_EXPORT"));
  g_assert_false (has_table (h, "ENUM_NSYS_EVENT_TYPE"));
  g_assert_true (has_table (h, "VULKAN_API"));              /* one of the many empty tables */
  g_assert_cmpint (q1 (h, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 67 AND callchainId IS NOT NULL"), >, 0);
  g_assert_cmpint (q1 (h, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME a JOIN CUPTI_ACTIVITY_KIND_RUNTIME b "
                          "ON a.correlationId = b.correlationId AND a.globalTid = b.globalTid "
                          "WHERE a.eventClass = 67 AND b.eventClass = 0"), ==,
                   q1 (h, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 67"));
  sqlite3_close (h);

  run_gen (db, NULL, "--layout 2020 --kernels 100");
  h = open_ro (db);
  g_assert_true (has_table (h, "TARGET_INFO_CUDA_GPU"));
  g_assert_false (has_table (h, "TARGET_INFO_GPU"));
  g_assert_false (has_table (h, "PROCESSES"));
  g_assert_false (has_table (h, "EXPORT_META_DATA"));
  g_assert_false (has_table (h, "META_DATA_EXPORT"));
  g_assert_false (has_column (h, "CUPTI_ACTIVITY_KIND_KERNEL", "mangledName"));
  sqlite3_close (h);

  run_gen (db, NULL, "--no-gpu --kernels 100");
  h = open_ro (db);
  g_assert_cmpint (q1 (h, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'CUPTI%'"), ==, 0);
  sqlite3_close (h);
  g_unlink (db);
}

static void
test_bad_args (void)
{
  static const char *bad[] = { "--gpus 0", "--layout 2019", "--kernels -1", "--threads 0", "--iterations 0" };
  g_autofree char *db = g_build_filename (tmp_dir, "bad.sqlite", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *cmd = g_strdup_printf ("'%s' '%s' %s", gen_path, db, bad[i]);
      int status = 0;
      g_autofree char *err = NULL;
      g_assert_true (g_spawn_command_line_sync (cmd, NULL, &err, &status, NULL));
      g_assert_nonnull (strstr (err, "sightline-gen:"));
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 2);
      g_assert_false (g_file_test (db, G_FILE_TEST_EXISTS));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  gen_path = g_getenv ("SL_GEN");
  if (!gen_path)
    gen_path = SL_GEN_PATH;

  g_autoptr (GError) error = NULL;
  tmp_dir = g_dir_make_tmp ("sl-test-gen-XXXXXX", &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *p1 = g_strdup_printf ("/gen/deterministic/%s", cases[i].name);
      g_autofree char *p2 = g_strdup_printf ("/gen/truth/%s", cases[i].name);
      g_test_add_data_func (p1, &cases[i], test_deterministic);
      g_test_add_data_func (p2, &cases[i], test_truth);
    }
  g_test_add_func ("/gen/layouts", test_layouts);
  g_test_add_func ("/gen/bad-args", test_bad_args);

  int ret = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
