/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scope-summary-json.c: prints sl_scope_summary_to_json() of PROFILE (and of
 * [START, END) ns when given), and with --histogram NAME the duration
 * histogram of that kernel in the same scope, for test-scope-summary.py to
 * hold against sightline-cli and SQL. */
#include <stdio.h>
#include <stdlib.h>

#include "sightline.h"
#include "sl-scope-index.h"

static JsonNode *
histogram_json (const SlProfile *profile, const SlFilter *filter, const char *name)
{
  g_autoptr(GArray) found = sl_kernel_instances_named (profile, filter, name);
  g_autofree gint64 *d = sl_kernel_instances_durations (found);
  g_autoptr(SlDurationHistogram) h = sl_duration_histogram_new (d, found->len, 40);
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_int (b, "n", (gint64) h->n);
  sl_json_member_int (b, "p50_ns", h->p50_ns);
  sl_json_member_int (b, "p90_ns", h->p90_ns);
  sl_json_member_int (b, "p99_ns", h->p99_ns);
  json_builder_set_member_name (b, "bins");
  json_builder_begin_array (b);
  for (guint i = 0; i < h->n_bins; i++)
    {
      json_builder_begin_array (b);
      json_builder_add_int_value (b, h->edges[i]);
      json_builder_add_int_value (b, h->edges[i + 1]);
      json_builder_add_int_value (b, (gint64) h->counts[i]);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlFilter) filter = NULL;
  g_autoptr(SlScopeSummary) summary = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  const char *histogram = NULL;

  if (argc >= 4 && g_str_equal (argv[argc - 2], "--histogram"))
    {
      histogram = argv[argc - 1];
      argc -= 2;
    }
  if (argc != 2 && argc != 4)
    {
      fprintf (stderr, "usage: %s PROFILE [START END] [--histogram NAME]\n", argv[0]);
      return 2;
    }
  /* the test runs with small blocks, so that its ranges cut many */
  if (g_getenv ("SL_SCOPE_BLOCK_SIZE") != NULL)
    _sl_scope_index_set_block_size ((guint) g_ascii_strtoull (g_getenv ("SL_SCOPE_BLOCK_SIZE"), NULL, 10));
  profile = sl_profile_load (argv[1], NULL, NULL, NULL, &error);
  if (profile == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  if (argc == 4)
    {
      filter = sl_filter_new ();
      sl_filter_set_range (filter, g_ascii_strtoll (argv[2], NULL, 10), g_ascii_strtoll (argv[3], NULL, 10));
    }
  summary = sl_scope_summary_compute (profile, filter, NULL, NULL);
  node = histogram != NULL ? histogram_json (profile, filter, histogram) : sl_scope_summary_to_json (summary);
  text = json_to_string (node, TRUE);
  puts (text);
  return 0;
}
