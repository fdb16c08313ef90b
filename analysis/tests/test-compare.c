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
      SlCompareStatus want;

      g_assert_cmpint (k->total_ns[0], ==, ta);
      g_assert_cmpint (k->total_ns[1], ==, tb);
      g_assert_cmpint ((gint64) k->instances[1], ==, nb);
      g_assert_cmpint (k->delta_ns, ==, tb - ta);
      if (na == 0)
        want = SL_COMPARE_ADDED;
      else if (nb == 0)
        want = SL_COMPARE_REMOVED;
      else if ((double) tb / ta > 1.05)
        want = SL_COMPARE_SLOWER;
      else if ((double) tb / ta < 0.95)
        want = SL_COMPARE_FASTER;
      else
        want = SL_COMPARE_SAME;
      g_assert_cmpint (k->status, ==, want);
      if (strstr (k->name, "nccl") != NULL)
        {
          g_assert_cmpint (k->status, ==, SL_COMPARE_ADDED);
          g_assert_false (k->has_ratio);
          saw_added = TRUE;
        }
      if (i > 0)
        g_assert_cmpint (ABS (cmp->kernels[i - 1].delta_ns), >=, ABS (k->delta_ns));
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
  sqlite3_close (dba);
  sqlite3_close (dbb);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/compare/self", test_self);
  g_test_add_func ("/analysis/compare/two-and-three", test_two_and_three);
  g_test_add_func ("/analysis/compare/real", test_real);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
