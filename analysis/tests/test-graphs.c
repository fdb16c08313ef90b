/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-graphs.c: CUDA graph launches (one cudaGraphLaunch, one correlationId,
 * several kernels) on a generated profile with a planted graph of 5 kernels
 * launched 10 times inside the NVTX range "graph_replay": the tree, the NVTX
 * GPU projection and the launch overhead, against the truth and SQL. */
#include "sl-test-util.h"

#define GRAPH_ARGS "--kernels 600 --iterations 3 --cuda-graph 5x10 --seed 7"
/* the graph launches' kernels, joined to their call in the same process */
#define GRAPH_KERNELS "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r " \
                      "ON r.correlationId = k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24) " \
                      "JOIN StringIds s ON s.id = r.nameId WHERE s.value LIKE 'cudaGraphLaunch%' "

static gint64
truth_int (const SlTestFixture *f, const char *member)
{
  return json_object_get_int_member (json_object_get_object_member (f->truth, "cuda_graph"), member);
}

typedef struct {
  guint64 kernels;
  guint32 tid;
  gboolean all_on_tid;
} Count;

static void
count_kernels (const SlTree *tree, const SlTreeNode *node, Count *c)
{
  g_autoptr(GArray) children = sl_tree_get_children (tree, node);
  SlTreeNodeInfo info;

  sl_tree_get_info (tree, node, &info);
  if (node->kind == SL_TREE_KERNEL)
    {
      c->kernels++;
      c->all_on_tid &= info.has_tid && info.tid == c->tid;
    }
  for (guint i = 0; i < children->len; i++)
    count_kernels (tree, &g_array_index (children, SlTreeNode, i), c);
}

/* Every kernel of the 10 launches hangs under graph_replay, launched by the main thread. */
static void
test_tree (void)
{
  const SlTestFixture *f = sl_test_fixture ("graphs", GRAPH_ARGS);
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlTree) tree = sl_tree_compute (profile, NULL);
  Count c = { 0, (guint32) truth_int (f, "tid"), TRUE };
  guint found = 0;

  for (guint i = 0; i < sl_tree_get_n_roots (tree); i++)
    {
      SlTreeNode root = sl_tree_get_root (tree, i);
      SlTreeNodeInfo info;

      sl_tree_get_info (tree, &root, &info);
      if (root.kind != SL_TREE_RANGE || g_strcmp0 (info.name, "graph_replay") != 0)
        continue;
      found++;
      g_assert_cmpuint (info.tid, ==, truth_int (f, "tid"));
      count_kernels (tree, &root, &c);
    }
  g_assert_cmpuint (found, ==, 1);
  g_assert_cmpuint (c.kernels, ==, truth_int (f, "nodes") * truth_int (f, "launches"));
  g_assert_true (c.all_on_tid);
}

/* graph_replay's GPU projection runs from its first graph kernel to its last. */
static void
test_nvtx (void)
{
  const SlTestFixture *f = sl_test_fixture ("graphs", GRAPH_ARGS);
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlNvtxSummary) nvtx = sl_nvtx_summary_compute (profile, NULL, 0);
  sqlite3 *db = sl_test_db_open (f->path);
  gint64 span = sl_test_db_int (db, "SELECT max(k.end) - min(k.start) " GRAPH_KERNELS);
  gboolean found = FALSE;

  g_assert_cmpint (sl_test_db_int (db, "SELECT count(*) " GRAPH_KERNELS), ==, truth_int (f, "kernels"));
  for (guint i = 0; i < nvtx->n_rows; i++)
    if (g_str_equal (nvtx->rows[i].name, "graph_replay"))
      {
        found = TRUE;
        g_assert_cmpuint (nvtx->rows[i].gpu_instances, ==, 1);
        g_assert_cmpint (nvtx->rows[i].gpu_total_ns, ==, span);
      }
  g_assert_true (found);
  sqlite3_close (db);
}

/* One launch per cudaGraphLaunch call, not per kernel: launches and their
 * call time as SQL counts distinct launching calls. */
static void
test_launch (void)
{
  const SlTestFixture *f = sl_test_fixture ("graphs", GRAPH_ARGS);
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlLaunch) launch = sl_launch_compute (profile, NULL, SL_NAMES_SHORT, 0);
  sqlite3 *db = sl_test_db_open (f->path);
  const char *calls = "FROM (SELECT DISTINCT r.rowid, r.start, r.end FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                      "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
                      "AND (r.globalTid >> 24) = (k.globalPid >> 24) AND r.eventClass IN (0, 1))";
  g_autofree char *n_sql = g_strdup_printf ("SELECT count(*) %s", calls);
  g_autofree char *api_sql = g_strdup_printf ("SELECT sum(end - start) %s", calls);
  JsonObject *counts = json_object_get_object_member (f->truth, "counts");
  gint64 planted = json_object_get_int_member (counts, "kernels") - truth_int (f, "kernels") + truth_int (f, "launches");

  g_assert_cmpuint (launch->totals.launches, ==, planted);
  g_assert_cmpuint (launch->totals.launches, ==, sl_test_db_int (db, n_sql));
  g_assert_cmpint (launch->totals.api_total_ns, ==, sl_test_db_int (db, api_sql));
  g_assert_cmpuint (launch->kernels, ==, json_object_get_int_member (counts, "kernels"));
  g_assert_cmpuint (launch->graph_launches, ==, truth_int (f, "launches"));
  sqlite3_close (db);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/graphs/tree", test_tree);
  g_test_add_func ("/analysis/graphs/nvtx", test_nvtx);
  g_test_add_func ("/analysis/graphs/launch", test_launch);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
