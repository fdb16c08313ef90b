/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-search.c: the "search_ms" section of sightline-bench: the search
 * page's search (sl_name_search_compute) on the loaded profile, one core,
 * the best of five runs after a first one: "gemm" (a substring) and
 * "/gemm|flash/i" (a regex), with their numbers of matches. */
#include <json-glib/json-glib.h>

#include "sightline.h"

void sl_bench_search (SlProfile *profile, JsonBuilder *builder);

static double
search_ms (SlProfile *profile, const char *pattern, double *first, guint *hits)
{
  double best = G_MAXDOUBLE;

  for (int i = 0; i < 6; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(SlNameSearch) s = sl_name_search_compute (profile, NULL, pattern, NULL, NULL);
      double ms = (g_get_monotonic_time () - t0) / 1000.0;

      *hits = s != NULL ? s->n_hits : 0;
      if (i == 0)
        *first = ms;
      else
        best = MIN (best, ms);
    }
  return best;
}

void
sl_bench_search (SlProfile *profile, JsonBuilder *b)
{
  double first, ms;
  guint hits;

  json_builder_begin_object (b);
#define DBL(k, v) do { json_builder_set_member_name (b, k); json_builder_add_double_value (b, (v)); } while (0)
#define INT(k, v) do { json_builder_set_member_name (b, k); json_builder_add_int_value (b, (v)); } while (0)
  ms = search_ms (profile, "gemm", &first, &hits);
  DBL ("gemm", ms);
  DBL ("gemm_first", first);
  INT ("gemm_hits", hits);
  ms = search_ms (profile, "/gemm|flash/i", &first, &hits);
  DBL ("regex", ms);
  INT ("regex_hits", hits);
#undef DBL
#undef INT
  json_builder_end_object (b);
}
