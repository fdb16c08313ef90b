/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-search-parts.c: a search's kernels collected in two parts on two
 * cores (as on big profiles) give exactly the hits, order and groups of
 * one pass, on every real profile and a generated one, for patterns that
 * match kernels, API calls, NVTX ranges, everything or nothing, with and
 * without a time window. */
#include <string.h>

#include "sl-test-util.h"

static const char *const patterns[] = { "a", "gemm", "/kernel$/", "nccl", "cuda", "/./", "no-such-name" };

static SlNameSearch *
search (const SlProfile *profile, const SlFilter *filter, const char *pattern, guint64 parallel_from)
{
  _sl_name_search_set_parallel_kernels (parallel_from);
  return sl_name_search_compute (profile, filter, pattern, NULL, NULL);
}

static void
check_same (const SlNameSearch *one, const SlNameSearch *two)
{
  g_assert_cmpuint (one->n_hits, ==, two->n_hits);
  g_assert_cmpuint (one->n_groups, ==, two->n_groups);
  g_assert_cmpmem (one->hits, one->n_hits * sizeof *one->hits, two->hits, two->n_hits * sizeof *two->hits);
  g_assert_cmpmem (one->order, one->n_hits * sizeof *one->order, two->order, two->n_hits * sizeof *two->order);
  g_assert_cmpmem (one->groups, one->n_groups * sizeof *one->groups, two->groups, two->n_groups * sizeof *two->groups);
}

static guint
check_profile (const char *path)
{
  g_autoptr(SlProfile) profile = sl_test_load (path);
  g_autoptr(SlFilter) window = sl_filter_new ();
  guint hits = 0;

  sl_filter_set_range (window, profile->start_ns + (profile->end_ns - profile->start_ns) / 4,
                       profile->start_ns + (profile->end_ns - profile->start_ns) / 2);
  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    for (int timed = 0; timed <= 1; timed++)
      {
        const SlFilter *filter = timed ? window : NULL;
        g_autoptr(SlNameSearch) one = search (profile, filter, patterns[i], G_MAXUINT64);
        g_autoptr(SlNameSearch) two = search (profile, filter, patterns[i], 1);

        check_same (one, two);
        hits += one->n_hits;
      }
  _sl_name_search_set_parallel_kernels (1000000);
  return hits;
}

static void
test_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint p = 0; paths[p] != NULL; p++)
    check_profile (paths[p]);
}

static void
test_generated (void)
{
  const SlTestFixture *f = sl_test_fixture ("search-parts", "--gpus 2 --streams 3 --processes 2 --threads 2 "
                                            "--iterations 3 --kernels 5000 --nccl --seed 12");

  g_assert_cmpuint (check_profile (f->path), >, 5000);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/search-parts/generated", test_generated);
  g_test_add_func ("/analysis/search-parts/real", test_real);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
