/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-analyses.c: the "analysis_ms" section of sightline-bench: the time
 * of every issue-3 analysis on the loaded profile, no filter.  The
 * statistics passes of kernels, api, nvtx and launch take two cores where
 * there are (sl-stats-split.c); the top-level "analysis_threads" says
 * how many were used, and SL_ANALYSIS_THREADS=1 measures them on one.
 *
 * "attribution" is the one-off NVTX attribution of the profile (computed on
 * first use and cached for its life, like a load-time index); every other
 * figure is the best of three runs after it, so they are what a user pays
 * per request.  "compare_first" is compare's first run: it also finds the
 * profile's iterations, which compare then keeps with the profile. */
#include <json-glib/json-glib.h>

#include "sightline.h"
#include "sl-stats-split.h"

void sl_bench_analyses (SlProfile *profile, JsonBuilder *builder);

typedef void (*RunFunc) (SlProfile *profile);

static void run_kernels (SlProfile *p)    { sl_kernel_summary_free (sl_kernel_summary_compute (p, NULL, SL_NAMES_SHORT, 0)); }
static void run_api (SlProfile *p)        { sl_api_summary_free (sl_api_summary_compute (p, NULL, 0)); }
static void run_nvtx (SlProfile *p)       { sl_nvtx_summary_free (sl_nvtx_summary_compute (p, NULL, 0)); }
static void run_memcpy (SlProfile *p)     { sl_memcpy_summary_free (sl_memcpy_summary_compute (p, NULL)); }
static void run_gaps (SlProfile *p)       { sl_gaps_free (sl_gaps_compute (p, NULL, 0, 10)); }
static void run_overlap (SlProfile *p)    { sl_overlap_free (sl_overlap_compute (p, NULL)); }
static void run_nccl (SlProfile *p)       { sl_nccl_free (sl_nccl_compute (p, NULL)); }
static void run_iterations (SlProfile *p) { sl_iterations_free (sl_iterations_compute (p, NULL, NULL, 0, NULL)); }
static void run_launch (SlProfile *p)     { sl_launch_free (sl_launch_compute (p, NULL, SL_NAMES_SHORT, 0)); }
static void run_categories (SlProfile *p) { sl_category_summary_free (sl_category_summary_compute (p, NULL, NULL, SL_NAMES_SHORT, 5)); }
static void run_tree (SlProfile *p)       { sl_tree_free (sl_tree_compute (p, NULL)); }
static void run_tree_agg (SlProfile *p)   { sl_tree_agg_unref (sl_tree_agg_compute (p, NULL, FALSE, NULL)); }
static void run_search (SlProfile *p)     { sl_search_free (sl_search_compute (p, NULL, "gemm", 50, NULL)); }

static void
run_compare (SlProfile *p)
{
  SlProfile *both[] = { p, p };
  sl_compare_free (sl_compare_compute (both, 2, NULL, NULL, SL_NAMES_SHORT, 0.05, 0));
}

/* The best of @repeat runs; *@first the first one. */
static double
time_ms (RunFunc run, SlProfile *profile, int repeat, double *first)
{
  double best = G_MAXDOUBLE;

  for (int i = 0; i < repeat; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double ms;
      run (profile);
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      if (i == 0)
        *first = ms;
      best = MIN (best, ms);
    }
  return best;
}

void
sl_bench_analyses (SlProfile *profile, JsonBuilder *b)
{
  static const struct { const char *name; RunFunc run; } analyses[] = {
    { "kernels", run_kernels }, { "api", run_api }, { "nvtx", run_nvtx }, { "memcpy", run_memcpy },
    { "gaps", run_gaps }, { "overlap", run_overlap }, { "nccl", run_nccl }, { "iterations", run_iterations },
    { "launch", run_launch }, { "categories", run_categories }, { "compare", run_compare },
    { "tree", run_tree }, { "tree_agg", run_tree_agg }, { "search", run_search },
  };
  gint64 t0 = g_get_monotonic_time ();

  sl_attribution_get (profile);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "attribution");
  json_builder_add_double_value (b, (g_get_monotonic_time () - t0) / 1000.0);
  for (gsize i = 0; i < G_N_ELEMENTS (analyses); i++)
    {
      double first = 0, best = time_ms (analyses[i].run, profile, 3, &first);
      json_builder_set_member_name (b, analyses[i].name);
      json_builder_add_double_value (b, best);
      /* compare keeps a profile's iteration summary (derived data): its
       * first run pays the step search, the later ones do not */
      if (analyses[i].run == run_compare)
        {
          json_builder_set_member_name (b, "compare_first");
          json_builder_add_double_value (b, first);
        }
    }
  json_builder_end_object (b);
}
