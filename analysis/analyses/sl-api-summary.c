/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-api-summary.c: CPU time per CUDA API function. */
#include "sl-api-summary.h"
#include "sl-stats-split.h"

#include <string.h>

/* The calls of the threads in the filter: per thread, its range. */
typedef struct {
  const SlProfile *profile;
  const SlNameKeys *keys;
  guint           *first, *last;
  guint64          total;
} Visit;

/* Visits the calls [first, last) that are in the profile's scope, run by
 * run (all of them outside scoped subsets: one run, without asking
 * sl_profile_api_kept() about each call). */
static void
visit_kept (SlStatsTable *table, const SlProfile *profile, guint first, guint last, const SlNameKeys *keys)
{
  const SlApiCalls *api = &profile->api;

  if (!sl_profile_api_scoped (profile) && first < last)
    {
      sl_stats_table_visit_spans (table, &api->spans, first, last, api->name, keys->key_of, keys->n_ids, NULL);
      return;
    }
  while (first < last)
    {
      guint end = first;

      while (end < last && sl_profile_api_kept (profile, end))
        end++;
      if (end > first)
        sl_stats_table_visit_spans (table, &api->spans, first, end, api->name,
                                    keys->key_of, keys->n_ids, NULL);
      first = end;
      while (first < last && !sl_profile_api_kept (profile, first))
        first++;
    }
}

static void
visit_part (SlStatsTable *table, guint part, guint n_parts, gpointer data)
{
  const Visit *v = data;
  guint64 before = 0;

  for (guint t = 0; t < v->profile->n_threads; t++)
    {
      guint first = v->first[t], last = v->last[t];

      if (sl_stats_part_clip (before, v->total, part, n_parts, &first, &last))
        visit_kept (table, v->profile, first, last, v->keys);
      before += v->last[t] - v->first[t];
    }
}

/* The distinct name ids of the profile's API calls, ascending (G_MAXUINT32
 * ends them): found once and kept with the profile, since keys must be
 * given before a pass is split and the scan costs as much as a tenth of
 * the summary. */
static gpointer
api_names_build (const SlProfile *profile)
{
  SlNameKeys keys;
  guint32 *ids;

  sl_name_keys_init (&keys, sl_strings_count (profile->strings));
  sl_name_keys_add_ids (&keys, profile->api.name, profile->api.spans.n);
  ids = g_new (guint32, keys.ids->len + 1);
  memcpy (ids, keys.ids->data, keys.ids->len * sizeof (guint32));
  ids[keys.ids->len] = G_MAXUINT32;
  sl_name_keys_clear (&keys);
  return ids;
}

/* The ranges of the threads in the filter, and a key for every name of
 * the profile's calls (keys given before the passes, so that two parts can
 * share them; names without calls in the filter are left out of the rows). */
static void
visit_init (Visit *v, const SlProfile *profile, const SlFilter *filter, SlNameKeys *keys)
{
  const SlApiCalls *api = &profile->api;

  *v = (Visit) { profile, keys, g_new0 (guint, MAX (profile->n_threads, 1)),
                 g_new0 (guint, MAX (profile->n_threads, 1)), 0 };
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlThread *thread = &profile->threads[t];

      if (thread->api_count == 0 || !sl_filter_match_thread (filter, profile, t))
        continue;
      sl_filter_span_bounds (filter, &api->spans, thread->api_first,
                             thread->api_first + thread->api_count, &v->first[t], &v->last[t]);
      v->total += v->last[t] - v->first[t];
    }
  if (v->total > 0)
    for (const guint32 *id = sl_profile_get_derived (profile, "sl-api-names", api_names_build, g_free);
         *id != G_MAXUINT32; id++)
      sl_name_keys_get (keys, *id);
}

static SlApiSummary *
compute (const SlProfile *profile, const SlFilter *filter, guint top, gboolean medians)
{
  SlApiSummary *self = g_new0 (SlApiSummary, 1);
  SlNameKeys keys;
  SlStatsTable table;
  Visit visit;

  sl_name_keys_init (&keys, sl_strings_count (profile->strings));
  visit_init (&visit, profile, filter, &keys);
  if (medians)
    sl_stats_table_init (&table, keys.ids->len, TRUE);
  else
    sl_stats_table_init_sums (&table, keys.ids->len);
  while (sl_stats_table_pass (&table))
    sl_stats_table_visit_split (&table, visit.total, visit_part, &visit);
  g_free (visit.first);
  g_free (visit.last);

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
