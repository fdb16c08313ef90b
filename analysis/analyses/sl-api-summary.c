/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-api-summary.c: CPU time per CUDA API function. */
#include "sl-api-summary.h"

/* Visits the calls [first, last) that are in the profile's scope, run by
 * run (all of them outside scoped subsets: one run, without asking
 * sl_profile_api_kept() about each call). */
static void
visit_kept (SlStatsTable *table, const SlProfile *profile, guint first, guint last, SlNameKeys *keys)
{
  const SlApiCalls *api = &profile->api;

  if (!sl_profile_api_scoped (profile) && first < last)
    {
      sl_stats_table_visit_spans (table, &api->spans, first, last, api->name, keys->key_of, keys->n_ids, keys);
      return;
    }
  while (first < last)
    {
      guint end = first;

      while (end < last && sl_profile_api_kept (profile, end))
        end++;
      if (end > first)
        sl_stats_table_visit_spans (table, &api->spans, first, end, api->name,
                                    keys->key_of, keys->n_ids, keys);
      first = end;
      while (first < last && !sl_profile_api_kept (profile, first))
        first++;
    }
}

static SlApiSummary *
compute (const SlProfile *profile, const SlFilter *filter, guint top, gboolean medians)
{
  SlApiSummary *self = g_new0 (SlApiSummary, 1);
  const SlApiCalls *api = &profile->api;
  g_autofree gboolean *thread_ok = NULL;
  SlNameKeys keys;
  SlStatsTable table;

  sl_name_keys_init (&keys, sl_strings_count (profile->strings));
  thread_ok = g_new0 (gboolean, MAX (profile->n_threads, 1));
  for (guint t = 0; t < profile->n_threads; t++)
    thread_ok[t] = sl_filter_match_thread (filter, profile, t);

  /* Keys are assigned in the first pass, so the table grows as names appear. */
  if (medians)
    sl_stats_table_init (&table, 64, TRUE);
  else
    sl_stats_table_init_sums (&table, 64);
  while (sl_stats_table_pass (&table))
    for (guint t = 0; t < profile->n_threads; t++)
      {
        const SlThread *thread = &profile->threads[t];
        guint first, last;

        if (!thread_ok[t] || thread->api_count == 0)
          continue;
        sl_filter_span_bounds (filter, &api->spans, thread->api_first,
                               thread->api_first + thread->api_count, &first, &last);
        visit_kept (&table, profile, first, last, &keys);
      }

  self->rows = sl_name_rows_finish (&table, &keys, profile->strings, top, &self->n_rows,
                                    &self->n_names, &self->total_ns, &self->calls);
  return self;
}

SlApiSummary *
sl_api_summary_compute (const SlProfile *profile, const SlFilter *filter, guint top)
{
  return compute (profile, filter, top, TRUE);
}

SlApiSummary *
sl_api_summary_compute_sums (const SlProfile *profile, const SlFilter *filter, guint top)
{
  return compute (profile, filter, top, FALSE);
}

void
sl_api_summary_free (SlApiSummary *self)
{
  if (self == NULL)
    return;
  sl_name_rows_free (self->rows, self->n_rows);
  g_free (self);
}

JsonNode *
sl_api_summary_to_json (const SlApiSummary *self)
{
  return sl_name_rows_to_json ("calls", self->rows, self->n_rows, self->total_ns);
}
