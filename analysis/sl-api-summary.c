/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-api-summary.c: CPU time per CUDA API function. */
#include "sl-api-summary.h"

#include <string.h>

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const SlApiRow *x = a, *y = b;

  if (x->stats.total != y->stats.total)
    return x->stats.total > y->stats.total ? -1 : 1;
  return strcmp (x->name, y->name);
}

SlApiSummary *
sl_api_summary_compute (const SlProfile *profile, const SlFilter *filter, guint top)
{
  SlApiSummary *self = g_new0 (SlApiSummary, 1);
  const SlApiCalls *api = &profile->api;
  g_autofree SlStats *stats = NULL;
  g_autofree gboolean *thread_ok = NULL;
  SlNameKeys keys;
  SlStatsTable table;
  guint n_keys;

  sl_name_keys_init (&keys, sl_strings_count (profile->strings));
  thread_ok = g_new0 (gboolean, MAX (profile->n_threads, 1));
  for (guint t = 0; t < profile->n_threads; t++)
    thread_ok[t] = sl_filter_match_thread (filter, profile, t);

  /* Keys are assigned in the first pass, so the table grows as names appear. */
  sl_stats_table_init (&table, 64, TRUE);
  while (sl_stats_table_pass (&table))
    for (guint t = 0; t < profile->n_threads; t++)
      {
        const SlThread *thread = &profile->threads[t];
        guint first, last;

        if (!thread_ok[t] || thread->api_count == 0)
          continue;
        sl_filter_span_bounds (filter, &api->spans, thread->api_first,
                               thread->api_first + thread->api_count, &first, &last);
        for (guint i = first; i < last; i++)
          {
            guint k = sl_name_keys_get (&keys, api->name[i]);
            if (G_UNLIKELY (k >= table.n_keys))
              sl_stats_table_grow (&table, table.n_keys * 2);
            sl_stats_table_visit (&table, k, sl_spans_dur (&api->spans, i));
          }
      }
  n_keys = keys.ids->len;

  stats = g_new0 (SlStats, MAX (table.n_keys, 1));
  sl_stats_table_finish (&table, stats);
  self->rows = g_new0 (SlApiRow, MAX (n_keys, 1));
  for (guint k = 0; k < n_keys; k++)
    {
      SlApiRow *row;

      if (stats[k].count == 0)
        continue;
      row = &self->rows[self->n_rows++];
      row->name_id = g_array_index (keys.ids, guint32, k);
      row->name = g_strdup (sl_strings_get (profile->strings, row->name_id));
      row->stats = stats[k];
      self->total_ns += stats[k].total;
      self->calls += stats[k].count;
    }
  for (guint r = 0; r < self->n_rows; r++)
    self->rows[r].time_pct = sl_percent (self->rows[r].stats.total, self->total_ns);
  qsort (self->rows, self->n_rows, sizeof (SlApiRow), compare_rows);
  self->n_names = self->n_rows;
  if (top > 0 && self->n_rows > top)
    {
      for (guint r = top; r < self->n_rows; r++)
        g_free (self->rows[r].name);
      self->n_rows = top;
    }

  sl_stats_table_clear (&table);
  sl_name_keys_clear (&keys);
  return self;
}

void
sl_api_summary_free (SlApiSummary *self)
{
  if (self == NULL)
    return;
  for (guint r = 0; r < self->n_rows; r++)
    g_free (self->rows[r].name);
  g_free (self->rows);
  g_free (self);
}

JsonNode *
sl_api_summary_to_json (const SlApiSummary *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "total_ns");
  json_builder_add_int_value (b, self->total_ns);
  json_builder_set_member_name (b, "calls");
  json_builder_begin_array (b);
  for (guint r = 0; r < self->n_rows; r++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      sl_json_add_string (b, self->rows[r].name);
      sl_stats_add_json_members (b, &self->rows[r].stats, self->total_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
