/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-timeline-graphs.c: the timeline's link from a CUDA graph launch
 * reaches every kernel of the graph (sl_timeline_model_find_all_launched,
 * what the timeline draws), on a generated graph of 5 kernels launched 10
 * times; a plain launch still reaches its one kernel. */
#include "sl-timeline-model.h"
#include "sl-test-util.h"

static void
test_graph_links (void)
{
  const SlTestFixture *f = sl_test_fixture ("graphs", "--kernels 600 --iterations 3 --cuda-graph 5x10 --seed 7");
  JsonObject *graph = json_object_get_object_member (f->truth, "cuda_graph");
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlTimelineModel) model = sl_timeline_model_new (profile, NULL);
  guint graph_calls = 0, plain_calls = 0;

  for (guint a = 0; a < profile->api.spans.n; a++)
    {
      const char *name = sl_strings_get (profile->strings, profile->api.name[a]);
      g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (SlEventRef));
      guint n = sl_timeline_model_find_all_launched (model, a, all);
      SlEventRef first;
      gint64 last_start = G_MININT64;

      if (g_str_has_prefix (name, "cudaLaunchKernel"))
        {
          g_assert_cmpuint (n, ==, 1);
          plain_calls++;
        }
      if (!g_str_has_prefix (name, "cudaGraphLaunch"))
        continue;
      graph_calls++;
      g_assert_cmpuint (n, ==, json_object_get_int_member (graph, "nodes"));
      for (guint i = 0; i < n; i++)
        {
          const SlEventRef *ev = &g_array_index (all, SlEventRef, i);
          const SlKernels *k = &profile->streams[ev->owner].kernels;
          gint64 s, e;

          g_assert_cmpint (ev->kind, ==, SL_EVENT_KERNEL);
          g_assert_cmpuint (k->api[ev->index], ==, a);
          g_assert_cmpuint (sl_kernels_corr (profile, k, ev->index), ==, sl_api_corr (&profile->api, a));
          g_assert_true (sl_timeline_model_event_span (model, ev, &s, &e));
          g_assert_cmpint (s, >=, last_start);
          last_start = s;
        }
      /* the single link is the first of them */
      g_assert_true (sl_timeline_model_find_launched (model, a, &first));
      g_assert_cmpuint (first.index, ==, g_array_index (all, SlEventRef, 0).index);
    }
  g_assert_cmpuint (graph_calls, ==, json_object_get_int_member (graph, "launches"));
  g_assert_cmpuint (plain_calls, >, 0);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/timeline/graph-links", test_graph_links);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
