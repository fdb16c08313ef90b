/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-overlap-parts.c: the NCCL / compute overlap measured with its GPUs
 * in two parts on two cores (as on big profiles) gives exactly the devices
 * of one pass, in the same order, on every real profile and on generated
 * ones of two and of eight GPUs, with and without a time window and a GPU
 * filter. */
#include <string.h>

#include "sl-test-util.h"

static SlOverlap *
overlap (const SlProfile *profile, const SlFilter *filter, guint64 parallel_from)
{
  _sl_overlap_set_parallel_kernels (parallel_from);
  return sl_overlap_compute (profile, filter);
}

static guint
check_filter (const SlProfile *profile, const SlFilter *filter)
{
  g_autoptr(SlOverlap) one = overlap (profile, filter, G_MAXUINT64);
  g_autoptr(SlOverlap) two = overlap (profile, filter, 1);

  g_assert_cmpuint (one->n_devices, ==, two->n_devices);
  g_assert_cmpmem (one->devices, one->n_devices * sizeof *one->devices, two->devices,
                   two->n_devices * sizeof *two->devices);
  return one->n_devices;
}

/* The devices measured without a filter. */
static guint
check_profile (const char *path)
{
  g_autoptr(SlProfile) profile = sl_test_load (path);
  g_autoptr(SlFilter) window = sl_filter_new ();
  g_autoptr(SlFilter) last_gpu = sl_filter_new ();
  guint devices;

  sl_filter_set_range (window, profile->start_ns + (profile->end_ns - profile->start_ns) / 4,
                       profile->start_ns + (profile->end_ns - profile->start_ns) / 2);
  if (profile->n_gpus > 0)
    sl_filter_add_gpu (last_gpu, profile->gpus[profile->n_gpus - 1].device);
  devices = check_filter (profile, NULL);
  check_filter (profile, window);
  check_filter (profile, last_gpu);
  _sl_overlap_set_parallel_kernels (500000);
  return devices;
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
  const SlTestFixture *two = sl_test_fixture ("overlap-parts-2", "--gpus 2 --streams 3 --processes 2 --threads 2 "
                                              "--iterations 3 --kernels 5000 --nccl --seed 12");
  const SlTestFixture *eight = sl_test_fixture ("overlap-parts-8", "--gpus 8 --streams 2 --processes 2 --threads 2 "
                                                "--iterations 3 --kernels 8000 --nccl --seed 5");

  g_assert_cmpuint (check_profile (two->path), ==, 2);
  g_assert_cmpuint (check_profile (eight->path), ==, 8);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/overlap-parts/generated", test_generated);
  g_test_add_func ("/analysis/overlap-parts/real", test_real);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
