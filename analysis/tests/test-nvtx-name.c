/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-nvtx-name.c: the grouping rule of NVTX names (sl-nvtx-name.h) over a
 * table of names, most of them taken from the real profiles, and its
 * per-profile mapping on the h100 capture against SQL. */
#include "sl-test-util.h"

static const struct { const char *name, *group; } names[] = {
  /* nsysai-h100-2gpu-1s: PyTorch emit_nvtx, every name unique by its op id */
  { "aten::to, op_id = 314312", "aten::to" },
  { "aten::_to_copy, op_id = 314313", "aten::_to_copy" },
  { "aten::einsum, op_id = 319742", "aten::einsum" },
  { "detach_, op_id = 317134", "detach_" },
  /* numbers that are not op ids stay */
  { "FSDP::pre_forward (encoder.block.18.layer.0), op_id = 315285", "FSDP::pre_forward (encoder.block.18.layer.0)" },
  { "FSDP::post_forward (encoder.block.9.layer.1), op_id = 315300", "FSDP::post_forward (encoder.block.9.layer.1)" },
  { "FSDP::root_pre_forward", "FSDP::root_pre_forward" },
  /* fuser-report2-h100 (nvFuser), pipit-saxpy-mpi (MPI, textId names): unchanged */
  { "ExpressionEvaluator::evaluate", "ExpressionEvaluator::evaluate" },
  { "transform_replay.cpp::getMatchedLeafPosWithoutReplayCasP", "transform_replay.cpp::getMatchedLeafPosWithoutReplayCasP" },
  { "MPI_Send", "MPI_Send" },
  /* sightline-gen and NCCL names */
  { "iteration_12", "iteration_12" }, { "layer_3/2", "layer_3/2" }, { "ncclAllReduce", "ncclAllReduce" },
  /* PyTorch with record_shapes: seq, sizes and input op ids in any order */
  { "aten::mm, seq = 12, op_id = 34, sizes = [[2, 3], [3, 4]], input_op_ids = [(33,0), (32,0)]", "aten::mm" },
  { "aten::add, seq = 7", "aten::add" },
  { "MulBackward0, stashed seq = 7, op_id = 88", "MulBackward0" },
  { "aten::cat, sizes = [[], [1, 2]]", "aten::cat" },
  { "aten::neg, op_id = -1", "aten::neg" },
  /* a comma inside the name stays; only the argument tail goes */
  { "a, b, op_id = 3", "a, b" },
  /* not a full argument tail: unchanged */
  { "x, op_id = 5 extra", "x, op_id = 5 extra" },
  { "x, op_id = ", "x, op_id = " },
  { "x, op_id = 1e3", "x, op_id = 1e3" },
  { "x, sizes = [[1, 2]", "x, sizes = [[1, 2]" },
  { "x, op_id=5", "x, op_id=5" },
  { "x op_id = 5", "x op_id = 5" },
  { "seq = 5", "seq = 5" },
  { "x, seq = 5, other = 1", "x, seq = 5, other = 1" },
  /* never empty */
  { ", op_id = 5", ", op_id = 5" },
  { "", "" },
};

static void
test_rule_table (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *group = sl_nvtx_group_name (names[i].name);

      if (g_strcmp0 (group, names[i].group) != 0)
        g_error ("group of “%s”: got “%s”, want “%s”", names[i].name, group, names[i].group);
    }
}

/* h100: the groups and their instance counts against SQL, which cuts every
 * name before ", op_id = " (all of its names carry one, nothing else). */
static void
test_h100_groups (void)
{
  g_autofree char *path = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autoptr(SlProfile) profile = sl_test_load (path);
  sqlite3 *db = sl_test_db_open (path);
  const SlNvtxGroups *groups = sl_nvtx_groups_get (profile);
  SlNvtxNaming grouped = sl_nvtx_naming (profile, FALSE);
  g_autoptr(GHashTable) count = g_hash_table_new (g_str_hash, g_str_equal);
  sqlite3_stmt *stmt;

  g_assert_true (groups == sl_nvtx_groups_get (profile));    /* once per profile */
  g_assert_cmpint (sl_strings_count (groups->names), ==,
                   sl_test_db_int (db, "SELECT count(DISTINCT substr(text, 1, instr(text, ', op_id = ') - 1)) "
                                       "FROM NVTX_EVENTS WHERE eventType = 59"));
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;
      for (guint i = 0; i < r->spans.n; i++)
        {
          const char *g = sl_nvtx_naming_get (&grouped, r->name[i]);
          g_hash_table_insert (count, (gpointer) g, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (count, g)) + 1));
        }
    }
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT substr(text, 1, instr(text, ', op_id = ') - 1), count(*) "
                                           "FROM NVTX_EVENTS WHERE eventType = 59 GROUP BY 1", -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *g = (const char *) sqlite3_column_text (stmt, 0);
      g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (count, g)), ==, sqlite3_column_int64 (stmt, 1));
    }
  sqlite3_finalize (stmt);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (count, "aten::to")), ==, 1190);
  sqlite3_close (db);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nvtx-name/rule-table", test_rule_table);
  g_test_add_func ("/nvtx-name/h100-groups", test_h100_groups);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
