/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-scope-index.c: the Summary page from the scope index (issue 11,
 * item 3) gives the separate analyses' numbers: for every real profile and
 * generated ones, the whole profile and ~20 ranges each (random ones that
 * cut kernels, empty, one nanosecond, past the ends, the whole span) and a
 * GPU filter, sl_scope_summary_compute()'s JSON equals
 * sl_scope_summary_compute_separate()'s, and the kernels and api rows agree
 * on every statistic, the NVTX rows on their statistics and GPU sums, the
 * categories on their full JSON.  Blocks of 97 events, so small profiles have many and
 * ranges cut them. */
#include "sl-test-util.h"
#include "sl-scope-index.h"

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
    }
}

static void
assert_same_stats (const SlStats *a, const SlStats *b)
{
  g_assert_cmpuint (a->count, ==, b->count);
  g_assert_cmpint (a->total, ==, b->total);
  g_assert_cmpint (a->min, ==, b->min);
  g_assert_cmpint (a->max, ==, b->max);
  g_assert_cmpfloat (a->avg, ==, b->avg);
  g_assert_cmpfloat (a->stddev, ==, b->stddev);
}

/* Beyond the JSON: every NVTX row's statistics and GPU projection sums. */
static void
assert_same_nvtx (const SlNvtxSummary *a, const SlNvtxSummary *b)
{
  g_assert_cmpuint (a->n_names, ==, b->n_names);
  g_assert_cmpuint (a->n_rows, ==, b->n_rows);
  g_assert_cmpint (a->total_ns, ==, b->total_ns);
  g_assert_cmpuint (a->instances, ==, b->instances);
  for (guint i = 0; i < b->n_rows; i++)
    {
      g_assert_cmpstr (a->rows[i].name, ==, b->rows[i].name);
      assert_same_stats (&a->rows[i].stats, &b->rows[i].stats);
      g_assert_cmpfloat (a->rows[i].time_pct, ==, b->rows[i].time_pct);
      g_assert_cmpint (a->rows[i].gpu_total_ns, ==, b->rows[i].gpu_total_ns);
      g_assert_cmpuint (a->rows[i].gpu_instances, ==, b->rows[i].gpu_instances);
    }
}

/* Beyond the JSON: the categories' whole JSON (top names per row, the
 * kernel list, time basis, wall time). */
static void
assert_same_categories (const SlCategorySummary *a, const SlCategorySummary *b)
{
  g_autoptr(JsonNode) ja = sl_category_summary_to_json (a);
  g_autoptr(JsonNode) jb = sl_category_summary_to_json (b);
  g_autofree char *sa = json_to_string (ja, FALSE);
  g_autofree char *sb = json_to_string (jb, FALSE);

  g_assert_cmpstr (sa, ==, sb);
  g_assert_cmpuint (a->n_kernels, ==, b->n_kernels);
}

static void
check_scope (const SlProfile *profile, const SlFilter *filter)
{
  g_autoptr(SlScopeSummary) got = sl_scope_summary_compute (profile, filter, NULL, NULL);
  g_autoptr(SlScopeSummary) want = sl_scope_summary_compute_separate (profile, filter);
  g_autoptr(JsonNode) got_json = sl_scope_summary_to_json (got);
  g_autoptr(JsonNode) want_json = sl_scope_summary_to_json (want);
  g_autofree char *a = json_to_string (got_json, FALSE);
  g_autofree char *b = json_to_string (want_json, FALSE);

  g_assert_cmpstr (a, ==, b);
  g_assert_cmpuint (got->kernels->n_names, ==, want->kernels->n_names);
  g_assert_cmpuint (got->kernels->n_rows, ==, want->kernels->n_rows);
  assert_same_rows (got->kernels->rows, want->kernels->rows, want->kernels->n_rows);
  g_assert_cmpuint (got->api->n_names, ==, want->api->n_names);
  g_assert_cmpuint (got->api->n_rows, ==, want->api->n_rows);
  assert_same_rows (got->api->rows, want->api->rows, want->api->n_rows);
  assert_same_nvtx (got->nvtx, want->nvtx);
  assert_same_categories (got->categories, want->categories);
}

static void
check_range (const SlProfile *profile, gint64 a, gint64 b)
{
  g_autoptr(SlFilter) f = sl_filter_new ();

  sl_filter_set_range (f, a, b);
  check_scope (profile, f);
}

/* A time where some kernel starts (a range edge that cuts right there). */
static gint64
kernel_start (const SlProfile *profile, GRand *rand)
{
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlSpans *sp = &profile->streams[(s + g_rand_int (rand)) % profile->n_streams].kernels.spans;
      if (sp->n > 0)
        return sp->start[g_rand_int_range (rand, 0, (gint32) sp->n)];
    }
  return profile->start_ns;
}

static void
check_ranges (const SlProfile *profile, GRand *rand)
{
  gint64 s = profile->start_ns, e = profile->end_ns, span = MAX (e - s, 1);

  check_range (profile, s, e + 1);                     /* the whole span as a range */
  check_range (profile, s + span / 2, s + span / 2);   /* empty */
  check_range (profile, e + 10, e + 1000);             /* past the end */
  for (int i = 0; i < 4; i++)
    {
      gint64 t = kernel_start (profile, rand);
      check_range (profile, t, t + 1);                 /* one ns on a kernel's start */
      check_range (profile, t + 1, t + 1 + g_rand_int_range (rand, 1, 1000000));
    }
  for (int i = 0; i < 9; i++)
    {
      gint64 a = s + (gint64) (g_rand_double (rand) * (double) span);
      gint64 b = a + (gint64) (g_rand_double (rand) * (double) (e - a + 1));
      check_range (profile, a, b);
    }
}

static void
check_profile (const char *path, GRand *rand)
{
  g_autoptr(SlProfile) profile = sl_test_load (path);
  g_autoptr(SlFilter) device = sl_filter_new ();

  g_test_message ("%s", path);
  check_scope (profile, NULL);
  check_scope (profile, NULL);   /* kept */
  check_ranges (profile, rand);
  if (profile->n_gpus > 0)
    {
      sl_filter_add_gpu (device, profile->gpus[0].device);
      check_scope (profile, device);
      sl_filter_set_range (device, profile->start_ns, profile->start_ns + (profile->end_ns - profile->start_ns) / 2);
      check_scope (profile, device);
    }
}

static void
test_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);

  for (guint i = 0; paths[i] != NULL; i++)
    check_profile (paths[i], rand);
}

static void
test_generated (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);

  check_profile (sl_test_fixture ("fused-nccl", "--gpus 3 --streams 3 --processes 2 --threads 2 --iterations 6 "
                                  "--kernels 6000 --nccl --memcpy 200 --seed 5")->path, rand);
  check_profile (sl_test_fixture ("fused-plain", "--gpus 1 --streams 2 --iterations 3 --kernels 2000 "
                                  "--seed 9")->path, rand);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  _sl_scope_index_set_block_size (97);
  g_test_add_func ("/scope-index/real", test_real);
  g_test_add_func ("/scope-index/generated", test_generated);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
