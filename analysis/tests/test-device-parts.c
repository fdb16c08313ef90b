/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-device-parts.c: the analyses that measure their GPUs in two parts
 * on two cores (as on big profiles): the NCCL / compute overlap and the
 * gaps (kernels busy, any work busy, and with the overlap from the same
 * walk) give exactly the devices of one pass, in the same order, on every
 * real profile and on generated ones of two and of eight GPUs, with and
 * without a time window and a GPU filter. */
#include <string.h>

#include "sl-test-util.h"

static SlOverlap *
overlap (const SlProfile *profile, const SlFilter *filter, guint64 parallel_from)
{
  _sl_overlap_set_parallel_kernels (parallel_from);
  return sl_overlap_compute (profile, filter);
}

static void
check_same_overlap (const SlOverlap *one, const SlOverlap *two)
{
  g_assert_cmpuint (one->n_devices, ==, two->n_devices);
  g_assert_cmpmem (one->devices, one->n_devices * sizeof *one->devices, two->devices,
                   two->n_devices * sizeof *two->devices);
}

/* The gaps as JSON (every number, name and CPU call of every device), with
 * the overlap of the same walk when @with_overlap. */
static char *
gaps_json (const SlProfile *profile, const SlFilter *filter, gboolean count_copies,
           gboolean with_overlap, guint64 parallel_from, SlOverlap **overlap)
{
  g_autoptr(SlGaps) gaps = NULL;
  g_autoptr(JsonNode) node = NULL;

  _sl_gaps_set_parallel_kernels (parallel_from);
  if (with_overlap)
    gaps = sl_gaps_compute_with_overlap (profile, filter, 1, 5, overlap);
  else
    gaps = sl_gaps_compute_full (profile, filter, 1, 5, count_copies);
  node = sl_gaps_to_json (gaps);
  return json_to_string (node, FALSE);
}

static void
check_gaps (const SlProfile *profile, const SlFilter *filter, gboolean count_copies, gboolean with_overlap)
{
  g_autoptr(SlOverlap) overlap_one = NULL;
  g_autoptr(SlOverlap) overlap_two = NULL;
  g_autofree char *one = gaps_json (profile, filter, count_copies, with_overlap, G_MAXUINT64, &overlap_one);
  g_autofree char *two = gaps_json (profile, filter, count_copies, with_overlap, 1, &overlap_two);

  g_assert_cmpstr (one, ==, two);
  if (with_overlap)
    {
      g_autoptr(SlOverlap) alone = overlap (profile, filter, G_MAXUINT64);
      check_same_overlap (overlap_one, overlap_two);
      check_same_overlap (alone, overlap_two);   /* as sl-overlap.c measures it */
    }
}

static guint
check_filter (const SlProfile *profile, const SlFilter *filter)
{
  g_autoptr(SlOverlap) one = overlap (profile, filter, G_MAXUINT64);
  g_autoptr(SlOverlap) two = overlap (profile, filter, 1);

  check_same_overlap (one, two);
  check_gaps (profile, filter, FALSE, FALSE);
  check_gaps (profile, filter, TRUE, FALSE);
  check_gaps (profile, filter, FALSE, TRUE);
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
  _sl_gaps_set_parallel_kernels (500000);
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
  const SlTestFixture *two = sl_test_fixture ("device-parts-2", "--gpus 2 --streams 3 --processes 2 --threads 2 "
                                              "--iterations 3 --kernels 5000 --nccl --seed 12");
  const SlTestFixture *eight = sl_test_fixture ("device-parts-8", "--gpus 8 --streams 2 --processes 2 --threads 2 "
                                                "--iterations 3 --kernels 8000 --nccl --seed 5");

  g_assert_cmpuint (check_profile (two->path), ==, 2);
  g_assert_cmpuint (check_profile (eight->path), ==, 8);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/device-parts/generated", test_generated);
  g_test_add_func ("/analysis/device-parts/real", test_real);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
