/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-scope-summary.c: "scope_summary_ms" of sightline-bench: the side
 * panel's Summary page bundle (sl-scope-summary.h) on the loaded profile,
 * one core: "whole" the whole profile, "selection" its middle tenth (a
 * Shift+drag selection), each the best of three runs.  The whole profile's
 * is built once and kept with the profile: "whole_first" is that build,
 * "whole" what every later request costs. */
#include <json-glib/json-glib.h>

#include "sightline.h"

void sl_bench_scope_summary (SlProfile *profile, JsonBuilder *builder);

static double
run_ms (SlProfile *profile, const SlFilter *filter, double *first)
{
  double best = G_MAXDOUBLE;

  for (int i = 0; i < 3; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double ms;
      sl_scope_summary_unref (sl_scope_summary_compute (profile, filter, NULL, NULL));
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      if (i == 0 && first != NULL)
        *first = ms;
      best = MIN (best, ms);
    }
  return best;
}

void
sl_bench_scope_summary (SlProfile *profile, JsonBuilder *b)
{
  g_autoptr(SlFilter) tenth = sl_filter_new ();
  gint64 span = profile->end_ns - profile->start_ns;
  double first = 0, whole = run_ms (profile, NULL, &first);

  sl_filter_set_range (tenth, profile->start_ns + span * 45 / 100, profile->start_ns + span * 55 / 100);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "whole");
  json_builder_add_double_value (b, whole);
  json_builder_set_member_name (b, "whole_first");
  json_builder_add_double_value (b, first);
  json_builder_set_member_name (b, "selection");
  json_builder_add_double_value (b, run_ms (profile, tenth, NULL));
  json_builder_end_object (b);
}
