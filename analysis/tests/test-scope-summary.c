/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-scope-summary.c: the scope summary's cancellation and its cache of
 * the whole profile's kept parts (its numbers are test-scope-summary.py's). */
#include "sl-test-util.h"

static void
same_json (const SlScopeSummary *a, const SlScopeSummary *b)
{
  g_autoptr(JsonNode) ja = sl_scope_summary_to_json (a);
  g_autoptr(JsonNode) jb = sl_scope_summary_to_json (b);
  g_autofree char *sa = json_to_string (ja, FALSE);
  g_autofree char *sb = json_to_string (jb, FALSE);

  g_assert_cmpstr (sa, ==, sb);
}

static void
test_cancel (void)
{
  g_autofree char *path = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(SlFilter) filter = sl_filter_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlScopeSummary) whole = NULL;
  g_autoptr(SlScopeSummary) again = NULL;
  g_autoptr(SlFilter) empty = sl_filter_new ();
  SlScopeSummary *s;

  if (path == NULL)
    {
      g_test_skip ("no real profiles");
      return;
    }
  profile = sl_test_load (path);
  sl_filter_set_range (filter, profile->start_ns, profile->start_ns + (profile->end_ns - profile->start_ns) / 2);
  g_cancellable_cancel (cancellable);
  /* cancelled, a range and the whole profile alike: nothing, and no cache of nothing */
  s = sl_scope_summary_compute (profile, filter, cancellable, &error);
  g_assert_null (s);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  s = sl_scope_summary_compute (profile, NULL, cancellable, &error);
  g_assert_null (s);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  whole = sl_scope_summary_compute (profile, NULL, NULL, NULL);
  g_assert_nonnull (whole);
  g_assert_false (whole->has_range);
  g_assert_cmpint (whole->start_ns, ==, profile->start_ns);
  g_assert_cmpuint (whole->kernels->instances, ==, profile->counts.kernels);
  /* an empty filter is the whole profile: summed again from the index (only
   * its iterations are kept with the profile) */
  again = sl_scope_summary_compute (profile, empty, NULL, NULL);
  g_assert_true (again != whole);
  g_assert_false (again->has_range);
  g_assert_true (again->gaps != whole->gaps);
  g_assert_true (again->iterations == whole->iterations);
  g_assert_true (again->nvtx != whole->nvtx);
  same_json (again, whole);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/scope-summary/cancel", test_cancel);
  return g_test_run ();
}
