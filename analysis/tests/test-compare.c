/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-compare.c: several profiles side by side, against the generator's
 * truth and SQL. */
#include <math.h>
#include <string.h>

#include "sl-test-util.h"

#define BASE_ARGS "--gpus 2 --streams 2 --processes 2 --threads 2 --iterations 4 --kernels 3000 --seed 8"

static gint64
truth_total (const SlTestFixture *f, const char *name, gint64 *instances)
{
  JsonArray *names = json_object_get_array_member (f->truth, "kernel_names");

  for (guint i = 0; i < json_array_get_length (names); i++)
    {
      JsonObject *o = json_array_get_object_element (names, i);
      if (g_str_equal (json_object_get_string_member (o, "short_name"), name))
        {
          *instances = json_object_get_int_member (o, "instances");
          return json_object_get_int_member (o, "total_ns");
        }
    }
  *instances = 0;
  return 0;
}

/* The truth's iteration durations (CPU range), sorted. */
static GArray *
truth_iteration_durations (const SlTestFixture *f)
{
  JsonArray *procs = json_object_get_array_member (f->truth, "processes");
  GArray *durs = g_array_new (FALSE, FALSE, sizeof (gint64));
  SlTestStats st;

  for (guint p = 0; p < json_array_get_length (procs); p++)
    {
      JsonArray *its = json_object_get_array_member (json_array_get_object_element (procs, p), "iterations");
      for (guint i = 0; i < json_array_get_length (its); i++)
        {
          JsonObject *it = json_array_get_object_element (its, i);
          gint64 d = json_object_get_int_member (it, "cpu_end") - json_object_get_int_member (it, "cpu_start");
          g_array_append_val (durs, d);
        }
    }
  sl_test_stats (durs, &st);   /* sorts */
  return durs;
}

/* numpy's default percentile: linear between the order statistics */
static gint64
truth_quantile (GArray *sorted, double q)
{
  double pos = q * (sorted->len - 1);
  guint lo = (guint) pos;
  gint64 a = g_array_index (sorted, gint64, lo);
  gint64 b = g_array_index (sorted, gint64, MIN (lo + 1, sorted->len - 1));

  return (gint64) llround ((double) a + (pos - lo) * (double) (b - a));
}

/* The status the contract gives a kernel from its window totals and calls
 * in two profiles of @steps_a / @steps_b steps per rank. */
static const char *
want_status (gint64 ta, gint64 na, gint64 tb, gint64 nb, double steps_a, double steps_b, double threshold)
{
  double per_step, per_call, calls;

  if (na == 0)
    return nb > 0 ? "added" : "same";
  if (nb == 0)
    return "removed";
  per_step = (tb / steps_b) / (ta / steps_a);
  per_call = ((double) tb / nb) / ((double) ta / na);
  calls = (nb / steps_b) / (na / steps_a);
  if (fabs (per_step - 1) > threshold && fabs (per_call - 1) > threshold)
    return per_step > 1 ? "slower" : "faster";
  if (fabs (calls - 1) > threshold)
    return "calls";
  return "same";
}

static double
truth_median_iteration (const SlTestFixture *f)
{
  JsonArray *procs = json_object_get_array_member (f->truth, "processes");
  g_autoptr(GArray) durs = g_array_new (FALSE, FALSE, sizeof (gint64));
  SlTestStats st;

  for (guint p = 0; p < json_array_get_length (procs); p++)
    {
      JsonArray *its = json_object_get_array_member (json_array_get_object_element (procs, p), "iterations");
      for (guint i = 0; i < json_array_get_length (its); i++)
        {
          JsonObject *it = json_array_get_object_element (its, i);
          gint64 d = json_object_get_int_member (it, "cpu_end") - json_object_get_int_member (it, "cpu_start");
          g_array_append_val (durs, d);
        }
    }
  sl_test_stats (durs, &st);
  return st.median;
}

static void
test_self (void)
{
  const SlTestFixture *f = sl_test_fixture ("base", BASE_ARGS);
  g_autoptr(SlProfile) a = sl_test_load (f->path);
  g_autoptr(SlProfile) b = sl_test_load (f->path);
  SlProfile *both[] = { a, b };
  g_autoptr(SlCompare) cmp = sl_compare_compute (both, 2, NULL, NULL, SL_NAMES_SHORT, 0.05, 0);

  g_assert_cmpuint (cmp->n_profiles, ==, 2);
  g_assert_cmpuint (cmp->n_kernels, ==, json_array_get_length (json_object_get_array_member (f->truth, "kernel_names")));
  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      const SlCompareKernel *k = &cmp->kernels[i];
      gint64 n;
      g_assert_cmpint (k->total_ns[0], ==, truth_total (f, k->name, &n));
      g_assert_cmpint ((gint64) k->instances[0], ==, n);
      g_assert_cmpint (k->total_ns[1], ==, k->total_ns[0]);
      g_assert_cmpint (k->delta_ns, ==, 0);
      g_assert_true (k->has_ratio);
      g_assert_cmpfloat (k->ratio, ==, 1.0);
      g_assert_cmpint (k->status, ==, SL_COMPARE_SAME);
    }
  g_assert_true (cmp->has_iterations[0] && cmp->has_iterations[1]);
  g_assert_cmpint (cmp->iteration_median_ns[0], ==, sl_round_ns (truth_median_iteration (f)));
  /* a self-compare: nothing changed, the same capture */
  g_assert_cmpint (cmp->basis, ==, SL_COMPARE_PER_ITERATION);
  g_assert_cmpint (cmp->verdict, ==, SL_COMPARE_NEUTRAL);
  g_assert_cmpfloat (cmp->step_change_pct[1], ==, 0.0);
  g_assert_cmpfloat (cmp->comparability, ==, 1.0);
  g_assert_cmpstr (cmp->reasons[0], ==, "same capture");
  g_assert_null (cmp->reasons[1]);
}

/* B adds NCCL kernels and runs a different seed: NCCL is "added", each
 * name's totals are the truths', statuses follow the ratios. */
static void
test_two_and_three (void)
{
  const SlTestFixture *fa = sl_test_fixture ("base", BASE_ARGS);
  const SlTestFixture *fb = sl_test_fixture ("nccl", "--gpus 2 --streams 2 --processes 2 --threads 2 --iterations 4 "
                                                     "--kernels 3600 --seed 9 --nccl");
  g_autoptr(SlProfile) a = sl_test_load (fa->path);
  g_autoptr(SlProfile) b = sl_test_load (fb->path);
  SlProfile *two[] = { a, b };
  SlProfile *three[] = { a, b, a };
  g_autoptr(SlCompare) cmp = sl_compare_compute (two, 2, NULL, NULL, SL_NAMES_SHORT, 0.05, 0);
  g_autoptr(SlCompare) cmp3 = sl_compare_compute (three, 3, NULL, NULL, SL_NAMES_SHORT, 0.10, 3);
  g_autoptr(JsonNode) json3 = sl_compare_to_json (cmp3);
  gboolean saw_added = FALSE;

  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      const SlCompareKernel *k = &cmp->kernels[i];
      gint64 na, nb;
      gint64 ta = truth_total (fa, k->name, &na), tb = truth_total (fb, k->name, &nb);

      g_assert_cmpint (k->total_ns[0], ==, ta);
      g_assert_cmpint (k->total_ns[1], ==, tb);
      g_assert_cmpint ((gint64) k->instances[1], ==, nb);
      g_assert_cmpint (k->delta_ns, ==, tb - ta);
      /* 2 processes of 4 iterations each: 4 steps per rank */
      g_assert_cmpstr (sl_compare_status_name (k->status), ==, want_status (ta, na, tb, nb, 4, 4, 0.05));
      if (strstr (k->name, "nccl") != NULL)
        {
          g_assert_cmpint (k->status, ==, SL_COMPARE_ADDED);
          g_assert_false (k->has_ratio);
          saw_added = TRUE;
        }
      if (i > 0)   /* by the change of time per step */
        g_assert_cmpint (ABS (cmp->kernels[i - 1].delta_ns) + 4, >=, ABS (k->delta_ns));
    }
  g_assert_true (saw_added);
  g_assert_cmpint (cmp->iteration_median_ns[1], ==, sl_round_ns (truth_median_iteration (fb)));

  /* category totals add up to each profile's kernel time */
  for (guint p = 0; p < 2; p++)
    {
      gint64 sum = 0;
      for (guint c = 0; c < cmp->n_categories; c++)
        sum += cmp->categories[c].total_ns[p];
      g_assert_cmpint (sum, ==, cmp->kernel_total_ns[p]);
    }

  /* A B A: the last against the first is "same" everywhere; per-profile arrays */
  g_assert_cmpuint (cmp3->n_kernels, ==, 3);
  for (guint i = 0; i < cmp3->n_kernels; i++)
    {
      const SlCompareKernel *k = &cmp3->kernels[i];
      g_assert_cmpint (k->delta_ns, ==, 0);
      g_assert_cmpint (k->statuses[1], ==, SL_COMPARE_SAME);
      g_assert_cmpint (k->deltas_ns[0], ==, k->total_ns[1] - k->total_ns[0]);
    }
  {
    JsonObject *root = json_node_get_object (json3);
    JsonObject *k0 = json_array_get_object_element (json_object_get_array_member (root, "kernels"), 0);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "profiles")), ==, 3);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (k0, "total_ns")), ==, 3);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (k0, "deltas_ns")), ==, 2);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "iteration_median_ns")), ==, 3);
  }
}

/* Real exports: per-name totals in each file from SQL; names only in one
 * file are added / removed. */
static void
test_real (void)
{
  g_autofree char *pa = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autofree char *pb = sl_test_real_profile ("nsysai-mock-rtx3080.sqlite");
  g_autofree char *pc = sl_test_real_profile ("jacc-cg-cpu-sampling-only.sqlite");
  g_autoptr(SlProfile) a = sl_test_load (pa);
  g_autoptr(SlProfile) b = sl_test_load (pb);
  g_autoptr(SlProfile) c = sl_test_load (pc);
  SlProfile *list[] = { a, b };
  SlProfile *empty[] = { c, b };
  g_autoptr(SlCompare) cmp = sl_compare_compute (list, 2, NULL, NULL, SL_NAMES_SHORT, 0.05, 0);
  g_autoptr(SlCompare) cmp2 = sl_compare_compute (empty, 2, NULL, NULL, SL_NAMES_SHORT, 0.05, 0);
  sqlite3 *dba = sl_test_db_open (pa), *dbb = sl_test_db_open (pb);

  sl_test_db_prepare (dba);
  sl_test_db_prepare (dbb);
  g_assert_cmpint ((gint64) cmp->n_kernels, ==,
                   sl_test_db_int (dba, "SELECT count(DISTINCT name) FROM t_gpu WHERE kind = 0"));
  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      const SlCompareKernel *k = &cmp->kernels[i];
      char *qa = sqlite3_mprintf ("SELECT coalesce(sum(end - start), 0) FROM t_gpu WHERE kind = 0 AND name = %Q", k->name);
      gint64 ta = sl_test_db_int (dba, qa), tb = sl_test_db_int (dbb, qa);
      g_assert_cmpint (k->total_ns[0], ==, ta);
      g_assert_cmpint (k->total_ns[1], ==, tb);
      if (tb == 0)
        g_assert_cmpint (k->status, ==, SL_COMPARE_REMOVED);
      sqlite3_free (qa);
    }
  /* a profile without GPU work first: everything is added */
  g_assert_cmpuint (cmp2->n_kernels, ==, 2);
  for (guint i = 0; i < cmp2->n_kernels; i++)
    g_assert_cmpint (cmp2->kernels[i].status, ==, SL_COMPARE_ADDED);
  g_assert_false (cmp2->has_iterations[0]);
  g_assert_cmpint (cmp2->basis, ==, SL_COMPARE_PER_CALL);
  g_assert_false (cmp2->has_step);
  g_assert_cmpfloat (cmp2->comparability, ==, 0.0);
  g_assert_true (g_str_has_prefix (cmp2->reasons[g_strv_length (cmp2->reasons) - 1], "no iterations in A"));
  sqlite3_close (dba);
  sqlite3_close (dbb);
}

#define STEP_ARGS "--gpus 2 --streams 2 --processes 1 --threads 2 --seed 5"
#define SLOW_GEMM "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"

/* The iterations of profile @p against the truth's (one process). */
static void
assert_iterations (const SlCompare *cmp, guint p, const SlTestFixture *f, guint count)
{
  g_autoptr(GArray) durs = truth_iteration_durations (f);

  g_assert_true (cmp->iterations[p].found);
  g_assert_cmpuint (cmp->iterations[p].count, ==, count);
  g_assert_cmpuint (durs->len, ==, count);
  g_assert_cmpfloat (cmp->iterations[p].steps, ==, count);
  g_assert_cmpstr (cmp->iterations[p].method, ==, "nvtx");
  g_assert_cmpint (cmp->iterations[p].median_ns, ==, sl_round_ns (truth_median_iteration (f)));
  g_assert_cmpint (cmp->iterations[p].p10_ns, ==, truth_quantile (durs, 0.10));
  g_assert_cmpint (cmp->iterations[p].p90_ns, ==, truth_quantile (durs, 0.90));
}

/* B: the same steps (the same kernels per step), one kernel 30 % slower per
 * call, and a window of 9 steps instead of 12.  Summed over the window every
 * kernel reads faster; per step only the slow one changed. */
static void
test_per_step (void)
{
  const SlTestFixture *fa = sl_test_fixture ("steps12", STEP_ARGS " --iterations 12 --kernels 4800");
  const SlTestFixture *fb = sl_test_fixture ("steps9slow", STEP_ARGS " --iterations 9 --kernels 3600 "
                                             "--slow-kernel " SLOW_GEMM "=1.3");
  g_autoptr(SlProfile) a = sl_test_load (fa->path);
  g_autoptr(SlProfile) b = sl_test_load (fb->path);
  SlProfile *two[] = { a, b };
  g_autoptr(SlCompare) cmp = sl_compare_compute (two, 2, NULL, NULL, SL_NAMES_SHORT, 0.05, 0);
  double step_a = truth_median_iteration (fa), step_b = truth_median_iteration (fb);

  g_assert_cmpuint (cmp->n_kernels, ==, 14);
  g_assert_cmpint (cmp->basis, ==, SL_COMPARE_PER_ITERATION);
  assert_iterations (cmp, 0, fa, 12);
  assert_iterations (cmp, 1, fb, 9);
  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      const SlCompareKernel *k = &cmp->kernels[i];
      gint64 na, nb, ta = truth_total (fa, k->name, &na), tb = truth_total (fb, k->name, &nb);

      g_assert_cmpfloat_with_epsilon (k->per_call_ns[0], (double) ta / na, 1e-6);
      g_assert_cmpfloat_with_epsilon (k->per_call_ns[1], (double) tb / nb, 1e-6);
      g_assert_cmpfloat_with_epsilon (k->per_iteration_ns[0], ta / 12.0, 1e-6);
      g_assert_cmpfloat_with_epsilon (k->per_iteration_ns[1], tb / 9.0, 1e-6);
      g_assert_cmpfloat_with_epsilon (k->change_pct, ((tb / 9.0) / (ta / 12.0) - 1) * 100, 1e-9);
      g_assert_cmpstr (sl_compare_status_name (k->status), ==, want_status (ta, na, tb, nb, 12, 9, 0.05));
      /* the planted design */
      if (g_str_equal (k->name, SLOW_GEMM))
        g_assert_cmpint (k->status, ==, SL_COMPARE_SLOWER);
      else
        g_assert_true (k->status == SL_COMPARE_SAME || k->status == SL_COMPARE_CALLS);
    }
  g_assert_true (cmp->has_step);
  g_assert_cmpfloat (step_b, >, step_a * 1.05);
  g_assert_cmpfloat_with_epsilon (cmp->step_change_pct[1],
                                  ((double) sl_round_ns (step_b) / sl_round_ns (step_a) - 1) * 100, 1e-9);
  g_assert_cmpint (cmp->verdict, ==, SL_COMPARE_REGRESSED);
  g_assert_cmpfloat (cmp->comparability, >, 0.9);
  g_assert_true (g_strv_contains ((const char *const *) cmp->reasons, "iterations: 12 in A, 9 in B; compared per iteration"));
}

/* A kernel with the same time per call and fewer calls per step is "calls",
 * never faster: B's window per step holds half the kernels of A's. */
static void
test_calls (void)
{
  const SlTestFixture *fa = sl_test_fixture ("steps12", STEP_ARGS " --iterations 12 --kernels 4800");
  const SlTestFixture *fb = sl_test_fixture ("steps12half", STEP_ARGS " --iterations 12 --kernels 2400");
  g_autoptr(SlProfile) a = sl_test_load (fa->path);
  g_autoptr(SlProfile) b = sl_test_load (fb->path);
  SlProfile *two[] = { a, b };
  g_autoptr(SlCompare) cmp = sl_compare_compute (two, 2, NULL, NULL, SL_NAMES_SHORT, 0.05, 0);
  guint n_calls = 0;

  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      const SlCompareKernel *k = &cmp->kernels[i];
      gint64 na, nb, ta = truth_total (fa, k->name, &na), tb = truth_total (fb, k->name, &nb);

      g_assert_cmpstr (sl_compare_status_name (k->status), ==, want_status (ta, na, tb, nb, 12, 12, 0.05));
      g_assert_true (k->status != SL_COMPARE_FASTER && k->status != SL_COMPARE_SLOWER);
      n_calls += k->status == SL_COMPARE_CALLS;
    }
  g_assert_cmpuint (n_calls, >, 0);
}

/* Without iterations (one step, no NVTX): kernels compared per call, the
 * verdict on A's calls priced at B's time per call, from the truth. */
static void
test_per_call (void)
{
  const SlTestFixture *fa = sl_test_fixture ("one-step", "--iterations 1 --nvtx-depth 0 --kernels 400 --seed 5");
  const SlTestFixture *fb = sl_test_fixture ("one-step-slow", "--iterations 1 --nvtx-depth 0 --kernels 300 --seed 5 "
                                             "--slow-kernel " SLOW_GEMM "=1.5");
  g_autoptr(SlProfile) a = sl_test_load (fa->path);
  g_autoptr(SlProfile) b = sl_test_load (fb->path);
  SlProfile *two[] = { a, b };
  g_autoptr(SlCompare) cmp = sl_compare_compute (two, 2, NULL, NULL, SL_NAMES_SHORT, 0.05, 0);
  double priced = 0, first = 0;

  g_assert_false (cmp->iterations[0].found || cmp->iterations[1].found);
  g_assert_cmpint (cmp->basis, ==, SL_COMPARE_PER_CALL);
  g_assert_false (cmp->has_step);
  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      const SlCompareKernel *k = &cmp->kernels[i];
      gint64 na, nb, ta = truth_total (fa, k->name, &na), tb = truth_total (fb, k->name, &nb);
      double pa = (double) ta / na, pb = (double) tb / nb;

      g_assert_null (k->per_iteration_ns);
      g_assert_cmpfloat_with_epsilon (k->change_pct, (pb / pa - 1) * 100, 1e-9);
      if (fabs (pb / pa - 1) > 0.05)
        g_assert_cmpstr (sl_compare_status_name (k->status), ==, pb > pa ? "slower" : "faster");
      else
        g_assert_cmpstr (sl_compare_status_name (k->status), ==, fabs ((double) nb / na - 1) > 0.05 ? "calls" : "same");
      if (g_str_equal (k->name, SLOW_GEMM))
        g_assert_cmpint (k->status, ==, SL_COMPARE_SLOWER);
      priced += na * pb;
      first += ta;
    }
  g_assert_cmpfloat_with_epsilon (cmp->verdict_change_pct, (priced / first - 1) * 100, 1e-9);
  g_assert_cmpfloat (cmp->verdict_change_pct, >, 5);
  g_assert_cmpint (cmp->verdict, ==, SL_COMPARE_REGRESSED);
  g_assert_true (g_str_has_prefix (cmp->reasons[g_strv_length (cmp->reasons) - 1], "no iterations in A"));
}

/* A real capture against itself is the same capture; a different model on
 * another machine (fuser: 1 H100, 8 steps) against the h100 capture is
 * hardly comparable.  Times per call from SQL. */
static void
test_real_comparability (void)
{
  g_autofree char *ph = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autofree char *pf = sl_test_real_profile ("fuser-report2-h100.sqlite");
  g_autoptr(SlProfile) h = sl_test_load (ph);
  g_autoptr(SlProfile) h2 = sl_test_load (ph);
  g_autoptr(SlProfile) fu = sl_test_load (pf);
  SlProfile *same[] = { h, h2 };
  SlProfile *other[] = { fu, h };
  g_autoptr(SlCompare) self = sl_compare_compute (same, 2, NULL, NULL, SL_NAMES_SHORT, 0.05, 0);
  g_autoptr(SlCompare) cmp = sl_compare_compute (other, 2, NULL, NULL, SL_NAMES_SHORT, 0.05, 0);
  sqlite3 *dbf = sl_test_db_open (pf), *dbh = sl_test_db_open (ph);

  g_assert_cmpint (self->verdict, ==, SL_COMPARE_NEUTRAL);
  g_assert_cmpfloat (self->comparability, ==, 1.0);
  g_assert_cmpstr (self->reasons[0], ==, "same capture");
  for (guint i = 0; i < self->n_kernels; i++)
    g_assert_cmpint (self->kernels[i].status, ==, SL_COMPARE_SAME);

  g_assert_cmpfloat (cmp->comparability, <, 0.2);
  sl_test_db_prepare (dbf);
  sl_test_db_prepare (dbh);
  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      const SlCompareKernel *k = &cmp->kernels[i];
      char *q = sqlite3_mprintf ("SELECT coalesce(sum(end - start), 0) FROM t_gpu WHERE kind = 0 AND name = %Q", k->name);
      char *qn = sqlite3_mprintf ("SELECT count(*) FROM t_gpu WHERE kind = 0 AND name = %Q", k->name);
      gint64 tf = sl_test_db_int (dbf, q), nf = sl_test_db_int (dbf, qn);
      gint64 th = sl_test_db_int (dbh, q), nh = sl_test_db_int (dbh, qn);
      g_assert_cmpint ((gint64) k->instances[0], ==, nf);
      g_assert_cmpint ((gint64) k->instances[1], ==, nh);
      if (nf > 0)
        g_assert_cmpfloat_with_epsilon (k->per_call_ns[0], (double) tf / nf, 1e-6);
      if (nh > 0)
        g_assert_cmpfloat_with_epsilon (k->per_call_ns[1], (double) th / nh, 1e-6);
      sqlite3_free (q);
      sqlite3_free (qn);
    }
  sqlite3_close (dbf);
  sqlite3_close (dbh);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/compare/self", test_self);
  g_test_add_func ("/analysis/compare/two-and-three", test_two_and_three);
  g_test_add_func ("/analysis/compare/real", test_real);
  g_test_add_func ("/analysis/compare/per-step", test_per_step);
  g_test_add_func ("/analysis/compare/calls", test_calls);
  g_test_add_func ("/analysis/compare/per-call", test_per_call);
  g_test_add_func ("/analysis/compare/real-comparability", test_real_comparability);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
