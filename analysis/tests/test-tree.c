/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-tree.c: the NVTX tree with kernels as leaves, and search, against SQL
 * (innermost enclosing range of each kernel's launching call) on generated
 * and real profiles. */
#include <string.h>

#include "sl-test-util.h"

#define TREE_ARGS "--gpus 2 --streams 2 --processes 2 --threads 3 --iterations 3 --kernels 2400 " \
                  "--nccl --memcpy 20 --seed 33"

typedef struct {
  sqlite3   *db;
  guint64    kernels;
  guint64    ranges;
  gboolean   check_sql;
  guint64    ties;        /* children starting at the same instant */
} Walk;

static void
check_kernel (Walk *w, const SlTree *tree, const SlTreeNode *node, const SlTreeNodeInfo *parent)
{
  SlTreeNodeInfo info;
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean has_range;

  sl_tree_get_info (tree, node, &info);
  w->kernels++;
  if (!w->check_sql)
    return;
  /* the innermost push/pop range of the launching thread around the call's start */
  sql = g_strdup_printf ("SELECT n.start, n.end, n.name FROM t_gpu g JOIN t_api a ON a.pid = g.pid AND a.corr = g.corr "
                         "JOIN t_nvtx n ON n.gtid = a.gtid AND n.pushpop AND n.start <= a.start AND n.end > a.start "
                         "WHERE g.kind = 0 AND g.pid = %u AND g.corr = %u "
                         "ORDER BY n.start DESC, n.end ASC LIMIT 1", info.pid, info.correlation_id);
  g_assert_cmpint (sqlite3_prepare_v2 (w->db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  has_range = sqlite3_step (stmt) == SQLITE_ROW;
  if (parent == NULL)
    g_assert_false (has_range);
  else
    {
      g_assert_true (has_range);
      g_assert_cmpint (parent->start_ns, ==, sqlite3_column_int64 (stmt, 0));
      g_assert_cmpint (parent->end_ns, ==, sqlite3_column_int64 (stmt, 1));
      g_assert_cmpstr (parent->name, ==, (const char *) sqlite3_column_text (stmt, 2));
      g_assert_cmpuint (parent->tid, ==, info.tid);
    }
  sqlite3_finalize (stmt);
}

static void
check_projection (Walk *w, const SlTreeNodeInfo *info)
{
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;

  if (!w->check_sql)
    return;
  sql = g_strdup_printf ("SELECT min(g.start), max(g.end), count(*) FROM t_api a JOIN t_gpu g ON g.pid = a.pid AND g.corr = a.corr "
                         "WHERE a.pid = %u AND a.tid = %u AND a.start >= %" G_GINT64_FORMAT " AND a.start < %" G_GINT64_FORMAT,
                         info->pid, info->tid, info->start_ns, info->end_ns);
  g_assert_cmpint (sqlite3_prepare_v2 (w->db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  if (sqlite3_column_int64 (stmt, 2) == 0)
    g_assert_false (info->has_gpu);
  else
    {
      g_assert_true (info->has_gpu);
      g_assert_cmpint (info->gpu_start_ns, ==, sqlite3_column_int64 (stmt, 0));
      g_assert_cmpint (info->gpu_end_ns, ==, sqlite3_column_int64 (stmt, 1));
    }
  sqlite3_finalize (stmt);
}

/* Children starting at the same instant: a range before the kernels it
 * launched, then by stream or thread, then by index: one order, whichever
 * sort the tree used. */
static void
assert_tie_order (const SlTreeNode *a, const SlTreeNode *b)
{
  if (a->kind != b->kind)
    {
      g_assert_true (a->kind == SL_TREE_RANGE);
      return;
    }
  g_assert_cmpuint (a->owner, <=, b->owner);
  if (a->owner == b->owner)
    g_assert_cmpuint (a->index, <, b->index);
}

static void
walk (Walk *w, const SlTree *tree, const SlTreeNode *node, const SlTreeNodeInfo *parent)
{
  SlTreeNodeInfo info;
  g_autoptr(GArray) children = NULL;
  gint64 last = G_MININT64;

  if (node->kind == SL_TREE_KERNEL)
    {
      check_kernel (w, tree, node, parent);
      return;
    }
  sl_tree_get_info (tree, node, &info);
  w->ranges++;
  if (parent != NULL)
    {
      g_assert_cmpint (info.start_ns, >=, parent->start_ns);
      g_assert_cmpint (info.end_ns, <=, parent->end_ns);
      g_assert_cmpuint (info.depth, ==, parent->depth + 1);
      g_assert_cmpuint (info.tid, ==, parent->tid);
    }
  else
    g_assert_cmpuint (info.depth, ==, 0);
  check_projection (w, &info);
  children = sl_tree_get_children (tree, node);
  for (guint i = 0; i < children->len; i++)
    {
      const SlTreeNode *child = &g_array_index (children, SlTreeNode, i);
      SlTreeNodeInfo ci;
      sl_tree_get_info (tree, child, &ci);
      g_assert_cmpint (ci.start_ns, >=, last);   /* children by start */
      if (i > 0 && ci.start_ns == last)
        {
          assert_tie_order (child - 1, child);
          w->ties++;
        }
      last = ci.start_ns;
      walk (w, tree, child, &info);
    }
}

/* Returns the number of ties among siblings. */
static guint64
check_profile (const char *path, gboolean check_sql)
{
  g_autoptr(SlProfile) profile = sl_test_load (path);
  g_autoptr(SlTree) tree = sl_tree_compute (profile, NULL);
  Walk w = { sl_test_db_open (path), 0, 0, check_sql, 0 };

  sl_test_db_prepare (w.db);
  for (guint i = 0; i < sl_tree_get_n_roots (tree); i++)
    {
      SlTreeNode root = sl_tree_get_root (tree, i);
      walk (&w, tree, &root, NULL);
    }
  /* every kernel once, every push/pop range once */
  g_assert_cmpint ((gint64) w.kernels, ==, sl_test_db_int (w.db, "SELECT count(*) FROM t_gpu WHERE kind = 0"));
  g_assert_cmpint ((gint64) w.ranges, ==, sl_test_db_int (w.db, "SELECT count(*) FROM t_nvtx WHERE pushpop"));

  /* --depth 1: the roots only, without children */
  {
    g_autoptr(JsonNode) json = sl_tree_to_json (tree, 1, 0);
    JsonArray *roots = json_object_get_array_member (json_node_get_object (json), "roots");
    g_assert_cmpuint (json_array_get_length (roots), ==, sl_tree_get_n_roots (tree));
    for (guint i = 0; i < json_array_get_length (roots); i++)
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                          json_array_get_object_element (roots, i), "children")), ==, 0);
  }
  sqlite3_close (w.db);
  return w.ties;
}

static void
test_generated (void)
{
  const SlTestFixture *f = sl_test_fixture ("tree", TREE_ARGS);
  check_profile (f->path, TRUE);
}

/* One process driving four GPUs, its kernels moved onto a 1 ms grid: the
 * kernels a range launched on several GPUs start at the same instant, and the
 * tree orders them one way whatever the number of children (a few are
 * sorted in place, many merged). */
static void
test_ties (void)
{
  const SlTestFixture *f = sl_test_fixture ("tree-ties", "--gpus 4 --streams 2 --processes 1 --threads 2 "
                                            "--iterations 2 --kernels 2000 --seed 5");
  g_autofree char *dir = g_path_get_dirname (f->path);
  g_autofree char *path = g_build_filename (dir, "ties.sqlite", NULL);
  g_autofree char *bytes = NULL;
  gsize size = 0;
  sqlite3 *db = NULL;

  g_assert_true (g_file_get_contents (f->path, &bytes, &size, NULL));
  g_assert_true (g_file_set_contents (path, bytes, (gssize) size, NULL));
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  sl_test_db_exec (db, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = start - start % 1000000");
  sqlite3_close (db);
  g_assert_cmpuint (check_profile (path, TRUE), >, 100);
}

static void
test_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint p = 0; paths[p] != NULL; p++)
    check_profile (paths[p], TRUE);
}

static guint64
count_kernels (const SlTree *tree, const SlTreeNode *node, guint32 device)
{
  g_autoptr(GArray) children = NULL;
  guint64 n = 0;

  if (node->kind == SL_TREE_KERNEL)
    {
      SlTreeNodeInfo info;
      sl_tree_get_info (tree, node, &info);
      g_assert_cmpuint (info.device, ==, device);
      return 1;
    }
  children = sl_tree_get_children (tree, node);
  for (guint i = 0; i < children->len; i++)
    n += count_kernels (tree, &g_array_index (children, SlTreeNode, i), device);
  return n;
}

static void
test_filter (void)
{
  const SlTestFixture *f = sl_test_fixture ("tree", TREE_ARGS);
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlFilter) filter = sl_filter_new ();
  g_autoptr(SlTree) tree = NULL;
  sqlite3 *db = sl_test_db_open (f->path);
  guint64 n = 0;

  sl_test_db_prepare (db);
  sl_filter_add_gpu (filter, 1);
  tree = sl_tree_compute (profile, filter);
  for (guint i = 0; i < sl_tree_get_n_roots (tree); i++)
    {
      SlTreeNode root = sl_tree_get_root (tree, i);
      n += count_kernels (tree, &root, 1);
    }
  g_assert_cmpint ((gint64) n, ==, sl_test_db_int (db, "SELECT count(*) FROM t_gpu WHERE kind = 0 AND device = 1"));
  sqlite3_close (db);
}

static void
test_search (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();
  const SlTestFixture *f = sl_test_fixture ("tree", TREE_ARGS);
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  for (guint p = 0; paths[p] != NULL; p++)
    g_ptr_array_add (all, paths[p]);
  g_ptr_array_add (all, f->path);
  for (guint p = 0; p < all->len; p++)
    {
      const char *path = all->pdata[p];
      g_autoptr(SlProfile) profile = sl_test_load (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(SlSearch) s = sl_search_compute (profile, NULL, "GEMM", 5, &error);
      g_autoptr(SlSearch) re = sl_search_compute (profile, NULL, "/^aten::(mm|matmul)$/", 0, &error);
      g_autoptr(SlSearch) bad = NULL;
      sqlite3 *db = sl_test_db_open (path);
      gint64 want, first;

      g_assert_no_error (error);
      sl_test_db_prepare (db);
      /* kernels by short or demangled name; NVTX ranges by name; any case */
      want = sl_test_db_int (db, sl_test_db_has_table (db, "CUPTI_ACTIVITY_KIND_KERNEL")
        ? "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE "
          "  (SELECT value FROM StringIds WHERE id = k.shortName) LIKE '%gemm%' OR "
          "  (SELECT value FROM StringIds WHERE id = k.demangledName) LIKE '%gemm%') + "
          " (SELECT count(*) FROM t_nvtx WHERE name LIKE '%gemm%')"
        : "SELECT count(*) FROM t_nvtx WHERE name LIKE '%gemm%'");
      g_assert_cmpint ((gint64) s->total, ==, want);
      g_assert_cmpuint (s->n_matches, ==, MIN (want, 5));
      for (guint i = 1; i < s->n_matches; i++)
        g_assert_cmpint (s->matches[i - 1].start_ns, <=, s->matches[i].start_ns);
      if (s->n_matches > 0)
        {
          first = sl_test_db_int (db, "SELECT min(start) FROM (SELECT start FROM t_gpu WHERE kind = 0 AND name LIKE '%gemm%' "
                                      "UNION ALL SELECT start FROM t_nvtx WHERE name LIKE '%gemm%')");
          g_assert_cmpint (s->matches[0].start_ns, ==, first);
        }
      g_assert_cmpint ((gint64) re->total, ==,
                       sl_test_db_int (db, "SELECT count(*) FROM t_nvtx WHERE name IN ('aten::mm', 'aten::matmul')"));
      g_assert_cmpuint (re->n_matches, ==, re->total);
      for (guint i = 0; i < re->n_matches; i++)
        {
          /* a range's path is its ancestors; their count is its depth */
          const SlSearchMatch *m = &re->matches[i];
          g_assert_cmpint (m->kind, ==, SL_SEARCH_RANGE);
          if (!m->startend)
            g_assert_cmpuint (g_strv_length (m->path), ==,
                              sl_nvtx_ranges_depth (&profile->threads[m->owner].nvtx, m->index));
        }
      bad = sl_search_compute (profile, NULL, "/(oops/", 0, &error);
      g_assert_null (bad);
      g_assert_nonnull (error);
      sqlite3_close (db);
    }
}

/* A kernel's path ends with the range it hangs under in the tree. */
static void
test_search_path (void)
{
  const SlTestFixture *f = sl_test_fixture ("tree", TREE_ARGS);
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlSearch) s = sl_search_compute (profile, NULL, "flash_fwd", 3, NULL);
  sqlite3 *db = sl_test_db_open (f->path);

  sl_test_db_prepare (db);
  g_assert_cmpuint (s->n_matches, ==, 3);
  for (guint i = 0; i < s->n_matches; i++)
    {
      const SlSearchMatch *m = &s->matches[i];
      char *sql = sqlite3_mprintf ("SELECT n.name FROM t_gpu g JOIN t_api a ON a.pid = g.pid AND a.corr = g.corr "
                                   "JOIN t_nvtx n ON n.gtid = a.gtid AND n.pushpop AND n.start <= a.start AND n.end > a.start "
                                   "WHERE g.kind = 0 AND g.start = %lld AND g.device = %u AND g.stream = %u AND g.pid = %u "
                                   "AND g.name = %Q ORDER BY n.start DESC, n.end ASC LIMIT 1",
                                   (long long) m->start_ns, m->device, m->stream, m->pid, m->name);
      sqlite3_stmt *stmt = NULL;
      guint len = g_strv_length (m->path);

      g_assert_cmpint (m->kind, ==, SL_SEARCH_KERNEL);
      g_assert_cmpuint (len, >, 0);
      g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
      g_assert_cmpstr (m->path[len - 1], ==, (const char *) sqlite3_column_text (stmt, 0));
      sqlite3_finalize (stmt);
      sqlite3_free (sql);
    }
  sqlite3_close (db);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/tree/generated", test_generated);
  g_test_add_func ("/analysis/tree/ties", test_ties);
  g_test_add_func ("/analysis/tree/real", test_real);
  g_test_add_func ("/analysis/tree/filter", test_filter);
  g_test_add_func ("/analysis/search/real-and-generated", test_search);
  g_test_add_func ("/analysis/search/path", test_search_path);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
