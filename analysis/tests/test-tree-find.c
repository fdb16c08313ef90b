/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-tree-find.c: sl_tree_agg_find(), the NVTX page's way from an event
 * selected in another view to its row, against the aggregate's own
 * instance lists (filed by the tree walk, a separate route): every
 * instance sampled from every node is found at that node, with grouped and
 * exact names, over the whole profile and over a window; an event outside
 * the window is not found. */
#include "sl-test-util.h"

#define FIND_ARGS "--gpus 2 --streams 2 --processes 2 --threads 3 --iterations 4 --kernels 6000 " \
                  "--nvtx-depth 4 --nccl --seed 41"

/* Each node's instances (at most 40, spread) are found at the node. */
static guint64
check_agg (const char *path, const SlProfile *profile, const SlTreeAgg *agg)
{
  guint64 checked = 0;

  for (guint id = 0; id < sl_tree_agg_get_n_nodes (agg); id++)
    {
      const SlTreeAggNode *node = sl_tree_agg_get_node (agg, id);
      guint64 n = 0;
      const guint64 *inst = sl_tree_agg_get_instances (agg, id, &n);
      guint64 step = MAX (n / 40, 1);

      for (guint64 i = 0; i < n; i += step)
        {
          guint found = sl_tree_agg_find (agg, profile, node->kind, (guint32) (inst[i] >> 32),
                                          (guint32) (inst[i] & 0xffffffffu));
          if (found != id)
            g_error ("%s: instance %" G_GUINT64_FORMAT " of node %u (%s) found at %u",
                     path, i, id, node->name, found);
          checked++;
        }
    }
  return checked;
}

/* A kernel starting before @t: FALSE when there is none. */
static gboolean
kernel_before (const SlProfile *profile, gint64 t, guint32 *stream, guint32 *index)
{
  for (guint s = 0; s < profile->n_streams; s++)
    if (profile->streams[s].kernels.spans.n > 0 && profile->streams[s].kernels.spans.start[0] < t)
      {
        *stream = s;
        *index = 0;
        return TRUE;
      }
  return FALSE;
}

static void
check_profile (const char *path)
{
  g_autoptr(SlProfile) profile = sl_test_load (path);
  gint64 third = (profile->end_ns - profile->start_ns) / 3;
  g_autoptr(SlFilter) window = sl_filter_new ();
  guint32 stream, index;

  for (int exact = 0; exact <= 1; exact++)
    {
      g_autoptr(SlTreeAgg) agg = sl_tree_agg_compute (profile, NULL, exact, NULL);
      guint64 checked = check_agg (path, profile, agg);

      g_assert_true (checked > 0 || sl_tree_agg_get_n_nodes (agg) == 0);
    }
  sl_filter_set_range (window, profile->start_ns + third, profile->start_ns + 2 * third);
  {
    g_autoptr(SlTreeAgg) agg = sl_tree_agg_compute (profile, window, FALSE, NULL);

    check_agg (path, profile, agg);
    if (kernel_before (profile, profile->start_ns + third, &stream, &index))
      g_assert_cmpuint (sl_tree_agg_find (agg, profile, SL_TREE_KERNEL, stream, index), ==, SL_NONE);
  }
  /* out of bounds: none */
  {
    g_autoptr(SlTreeAgg) agg = sl_tree_agg_compute (profile, NULL, FALSE, NULL);

    g_assert_cmpuint (sl_tree_agg_find (agg, profile, SL_TREE_KERNEL, profile->n_streams, 0), ==, SL_NONE);
    g_assert_cmpuint (sl_tree_agg_find (agg, profile, SL_TREE_RANGE, profile->n_threads, 0), ==, SL_NONE);
  }
}

static void
test_generated (void)
{
  check_profile (sl_test_fixture ("tree-find", FIND_ARGS)->path);
}

static void
test_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint p = 0; paths[p] != NULL; p++)
    check_profile (paths[p]);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/tree-find/generated", test_generated);
  g_test_add_func ("/analysis/tree-find/real", test_real);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
