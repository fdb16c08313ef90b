/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-rank-summaries.c: "rank_summaries_ms" of sightline-bench: what
 * opening a folder of rank summaries costs (issue 15, part 6): this
 * profile summarized once (`sightline-cli summarize`), then 1,024 copies
 * of its summary text (one per rank) parsed as the ranks window reads
 * them and merged into the heat map's table (sl_ranks_compute).  No
 * profile is loaded for that: the figure does not grow with the profile. */
#include <string.h>
#include <json-glib/json-glib.h>

#include "sightline.h"

#define N_RANKS 1024

void sl_bench_rank_summaries (SlProfile *profile, JsonBuilder *builder);

static double
ms_since (gint64 t0)
{
  return (g_get_monotonic_time () - t0) / 1000.0;
}

static void
member (JsonBuilder *b, const char *name, double value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, value);
}

/* The summary's text with rank @r (as each rank's file has its own). */
static char *
rank_text (JsonNode *node, guint r)
{
  g_autoptr(JsonNode) copy = json_node_copy (node);
  g_autoptr(JsonGenerator) gen = json_generator_new ();

  json_object_set_int_member (json_node_get_object (copy), "rank", r);
  json_generator_set_root (gen, copy);
  return json_generator_to_data (gen, NULL);
}

void
sl_bench_rank_summaries (SlProfile *profile, JsonBuilder *b)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) sums = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_rank_summary_free);
  g_autoptr(SlRankSummary) one = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(SlRanks) ranks = NULL;
  gint64 t0 = g_get_monotonic_time ();

  one = sl_rank_summary_compute (profile, 0, NULL, profile->session_utc_ns, profile->start_ns, 20);
  json_builder_begin_object (b);
  member (b, "summarize", ms_since (t0));
  node = sl_rank_summary_to_json (one);
  for (guint r = 0; r < N_RANKS; r++)
    g_ptr_array_add (texts, rank_text (node, r));
  t0 = g_get_monotonic_time ();
  for (guint r = 0; r < N_RANKS; r++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      if (json_parser_load_from_data (parser, texts->pdata[r], -1, NULL))
        g_ptr_array_add (sums, sl_rank_summary_from_json (json_parser_get_root (parser), NULL));
    }
  member (b, "read_1024", ms_since (t0));
  t0 = g_get_monotonic_time ();
  ranks = sl_ranks_compute ((SlRankSummary *const *) sums->pdata, sums->len, NULL);
  member (b, "heatmap_table_1024", ms_since (t0));
  json_builder_set_member_name (b, "summary_bytes");
  json_builder_add_int_value (b, (gint64) strlen (texts->pdata[0]));
  json_builder_end_object (b);
}
