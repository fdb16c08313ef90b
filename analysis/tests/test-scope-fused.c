/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-scope-fused.c: the Summary page's shortcuts (issue 11, item 3's
 * budget) give the separate analyses' numbers: sl_gaps_compute_with_overlap()
 * is sl_gaps_compute() plus sl_overlap_compute() of the same filter, and the
 * _sums variants of the kernels, api and nvtx summaries are the full ones
 * but for the median.  On every real profile and generated ones (NCCL, several
 * GPUs, long durations), whole and under a range and a device filter. */
#include "sl-test-util.h"

static void
assert_same_json (JsonNode *a, JsonNode *b)
{
  g_autofree char *ta = json_to_string (a, FALSE);
  g_autofree char *tb = json_to_string (b, FALSE);

  g_assert_cmpstr (ta, ==, tb);
  json_node_unref (a);
  json_node_unref (b);
}

static void
check_gaps_overlap (const SlProfile *profile, const SlFilter *filter)
{
  g_autoptr(SlOverlap) fused_overlap = NULL;
  g_autoptr(SlGaps) fused = sl_gaps_compute_with_overlap (profile, filter, 0, 10, &fused_overlap);
  g_autoptr(SlGaps) gaps = sl_gaps_compute (profile, filter, 0, 10);
  g_autoptr(SlOverlap) overlap = sl_overlap_compute (profile, filter);

  assert_same_json (sl_gaps_to_json (fused), sl_gaps_to_json (gaps));
  assert_same_json (sl_overlap_to_json (fused_overlap), sl_overlap_to_json (overlap));
}

/* Everything but the median, which the _sums variants leave at 0. */
static void
assert_same_rows (const SlNameRow *a, const SlNameRow *b, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpstr (a[i].name, ==, b[i].name);
      g_assert_cmpuint (a[i].stats.count, ==, b[i].stats.count);
      g_assert_cmpint (a[i].stats.total, ==, b[i].stats.total);
      g_assert_cmpint (a[i].stats.min, ==, b[i].stats.min);
      g_assert_cmpint (a[i].stats.max, ==, b[i].stats.max);
      g_assert_cmpfloat (a[i].stats.avg, ==, b[i].stats.avg);
      g_assert_cmpfloat (a[i].stats.stddev, ==, b[i].stats.stddev);
      g_assert_cmpfloat (a[i].time_pct, ==, b[i].time_pct);
      g_assert_cmpfloat (a[i].stats.median, ==, 0);
    }
}

static void
check_sums (const SlProfile *profile, const SlFilter *filter)
{
  g_autoptr(SlKernelSummary) ks = sl_kernel_summary_compute_sums (profile, filter, SL_NAMES_SHORT, 10);
  g_autoptr(SlKernelSummary) k = sl_kernel_summary_compute (profile, filter, SL_NAMES_SHORT, 10);
  g_autoptr(SlApiSummary) as = sl_api_summary_compute_sums (profile, filter, 10);
  g_autoptr(SlApiSummary) a = sl_api_summary_compute (profile, filter, 10);
  g_autoptr(SlNvtxSummary) ns = sl_nvtx_summary_compute_sums (profile, filter, 10, FALSE);
  g_autoptr(SlNvtxSummary) n = sl_nvtx_summary_compute_names (profile, filter, 10, FALSE);

  g_assert_cmpuint (ks->n_rows, ==, k->n_rows);
  g_assert_cmpint (ks->total_ns, ==, k->total_ns);
  g_assert_cmpuint (ks->instances, ==, k->instances);
  assert_same_rows (ks->rows, k->rows, k->n_rows);
  g_assert_cmpuint (as->n_rows, ==, a->n_rows);
  g_assert_cmpint (as->total_ns, ==, a->total_ns);
  g_assert_cmpuint (as->calls, ==, a->calls);
  assert_same_rows (as->rows, a->rows, a->n_rows);
  g_assert_cmpuint (ns->n_rows, ==, n->n_rows);
  g_assert_cmpint (ns->total_ns, ==, n->total_ns);
  for (guint i = 0; i < n->n_rows; i++)
    {
      SlNameRow x = { ns->rows[i].name, 0, ns->rows[i].stats, ns->rows[i].time_pct };
      SlNameRow y = { n->rows[i].name, 0, n->rows[i].stats, n->rows[i].time_pct };
      assert_same_rows (&x, &y, 1);
      g_assert_cmpint (ns->rows[i].gpu_total_ns, ==, n->rows[i].gpu_total_ns);
    }
}

/* Whole, the middle third, and the first GPU alone. */
static void
check_profile (const char *path)
{
  g_autoptr(SlProfile) profile = sl_test_load (path);
  g_autoptr(SlFilter) range = sl_filter_new ();
  g_autoptr(SlFilter) device = sl_filter_new ();
  gint64 span = profile->end_ns - profile->start_ns;

  g_test_message ("%s", path);
  sl_filter_set_range (range, profile->start_ns + span / 3, profile->start_ns + 2 * span / 3);
  check_gaps_overlap (profile, NULL);
  check_gaps_overlap (profile, range);
  check_sums (profile, NULL);
  check_sums (profile, range);
  if (profile->n_gpus > 0)
    {
      sl_filter_add_gpu (device, profile->gpus[0].device);
      check_gaps_overlap (profile, device);
      check_sums (profile, device);
    }
}

static void
test_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint i = 0; paths[i] != NULL; i++)
    check_profile (paths[i]);
}

static void
test_generated (void)
{
  check_profile (sl_test_fixture ("fused-nccl", "--gpus 3 --streams 3 --processes 2 --threads 2 --iterations 6 "
                                  "--kernels 6000 --nccl --memcpy 200 --seed 5")->path);
  check_profile (sl_test_fixture ("fused-plain", "--gpus 1 --streams 2 --iterations 3 --kernels 2000 "
                                  "--seed 9")->path);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scope-fused/real", test_real);
  g_test_add_func ("/scope-fused/generated", test_generated);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
