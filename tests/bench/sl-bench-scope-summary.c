/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-scope-summary.c: "scope_summary_ms" of sightline-bench: the side
 * panel's Summary page bundle (sl-scope-summary.h) on the loaded profile.
 * "scope_index_ms" is sl_scope_summary_prepare (): the scope index
 * (sl-scope-index.h) and the whole profile's iterations, which the app's
 * loading worker builds before the profile is shown.  "scope_summary_ms"
 * is the whole profile's summary, summed from the index as any scope's
 * (nothing of it is kept but the iterations); the detail has it again and
 * a selection of the middle tenth (a Shift+drag), best of three. */
#include <json-glib/json-glib.h>

#include "sightline.h"

void sl_bench_scope_index (SlProfile *profile, JsonBuilder *builder);
void sl_bench_scope_summary (SlProfile *profile, JsonBuilder *builder);
void sl_bench_scope_summary_detail (SlProfile *profile, JsonBuilder *builder);

static double
run_ms (SlProfile *profile, const SlFilter *filter)
{
  double best = G_MAXDOUBLE;

  for (int i = 0; i < 3; i++)
    {
      gint64 t0 = g_get_monotonic_time ();

      sl_scope_summary_unref (sl_scope_summary_compute (profile, filter, NULL, NULL));
      best = MIN (best, (g_get_monotonic_time () - t0) / 1000.0);
    }
  return best;
}

/* "scope_index_ms": sl_scope_summary_prepare (), once per profile, off the
 * main thread (the loading worker, beside the NVTX attribution). */
void
sl_bench_scope_index (SlProfile *profile, JsonBuilder *b)
{
  gint64 t0 = g_get_monotonic_time ();

  sl_scope_summary_prepare (profile);
  json_builder_add_double_value (b, (g_get_monotonic_time () - t0) / 1000.0);
}

/* "scope_summary_ms": one number, the whole profile's summary from the
 * index (each request costs the same). */
void
sl_bench_scope_summary (SlProfile *profile, JsonBuilder *b)
{
  gint64 t0 = g_get_monotonic_time ();

  sl_scope_summary_unref (sl_scope_summary_compute (profile, NULL, NULL, NULL));
  json_builder_add_double_value (b, (g_get_monotonic_time () - t0) / 1000.0);
}

/* "scope_summary_detail": the whole profile again and a selection of the
 * middle tenth, best of three. */
void
sl_bench_scope_summary_detail (SlProfile *profile, JsonBuilder *b)
{
  g_autoptr(SlFilter) tenth = sl_filter_new ();
  gint64 span = profile->end_ns - profile->start_ns;

  sl_filter_set_range (tenth, profile->start_ns + span * 45 / 100, profile->start_ns + span * 55 / 100);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "whole");
  json_builder_add_double_value (b, run_ms (profile, NULL));
  json_builder_set_member_name (b, "selection");
  json_builder_add_double_value (b, run_ms (profile, tenth));
  json_builder_end_object (b);
}
