/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-launch.c: kernel launch overhead per kernel name. */
#include "sl-launch.h"
#include "sl-stats.h"

SlLaunch *
sl_launch_compute (const SlProfile *profile, const SlFilter *filter, SlNameStyle names, guint top)
{
  SlLaunch *self = g_new0 (SlLaunch, 1);
  const SlSpans *api = &profile->api.spans;
  g_autofree guint32 *func_key = NULL;
  g_autofree gint64 *api_total = NULL, *kernel_total = NULL;
  g_autofree guint *p95 = NULL;
  g_autofree gint64 *delays = NULL;
  g_autofree SlStats *stats = NULL;
  g_autofree guint *order = NULL;
  guint64 n_kernels = 0;
  SlNameKeys keys;
  SlStatsTable queue;     /* queue delays per name: count, total, then values */
  guint n_keys;
  gint64 all_api = 0, all_kernel = 0, all_queue = 0;

  func_key = sl_kernel_func_keys (profile, names, &keys);
  n_keys = keys.ids->len;
  api_total = g_new0 (gint64, MAX (n_keys, 1));
  kernel_total = g_new0 (gint64, MAX (n_keys, 1));

  for (guint s = 0; s < profile->n_streams; s++)
    if (sl_filter_match_stream (filter, &profile->streams[s]))
      {
        guint first, last;
        sl_filter_span_bounds (filter, &profile->streams[s].kernels.spans, 0,
                               profile->streams[s].kernels.spans.n, &first, &last);
        n_kernels += last - first;
      }

  /* key n_keys gathers every launch, for the overall percentile */
  sl_stats_table_init (&queue, n_keys + 1, FALSE);
  p95 = g_new (guint, n_keys + 1);
  for (guint key = 0; key <= n_keys; key++)
    p95[key] = sl_stats_table_request (&queue, key, 95.0);
  /* The launching calls are scattered over the API array: the first pass
   * gathers each kernel's queue delay once (G_MAXINT64: no launching call),
   * the selection passes read them back in order. */
  delays = g_new (gint64, MAX (n_kernels, 1));
  for (int pass = 0; sl_stats_table_pass (&queue); pass++)
    {
      gint64 *d = delays;

      for (guint s = 0; s < profile->n_streams; s++)
        {
          const SlStream *stream = &profile->streams[s];
          const SlKernels *k = &stream->kernels;
          guint first, last;

          if (!sl_filter_match_stream (filter, stream))
            continue;
          sl_filter_span_bounds (filter, &k->spans, 0, k->spans.n, &first, &last);
          for (guint i = first; i < last; i++, d++)
            {
              guint key = func_key[k->func[i]];

              if (pass == 0)
                {
                  guint32 a = k->api[i];
                  if (G_LIKELY (i + 48 < last) && k->api[i + 48] != SL_NONE)
                    {
                      __builtin_prefetch (&api->start[k->api[i + 48]]);
                      __builtin_prefetch (&api->dur[k->api[i + 48]]);
                    }
                  if (a == SL_NONE)
                    {
                      self->unlinked++;
                      *d = G_MAXINT64;
                      continue;
                    }
                  *d = k->spans.start[i] - api->start[a];
                  api_total[key] += sl_spans_dur (api, a);
                  kernel_total[key] += sl_spans_dur (&k->spans, i);
                }
              else if (*d == G_MAXINT64)
                continue;
              sl_stats_table_visit (&queue, key, *d);
              sl_stats_table_visit (&queue, n_keys, *d);
            }
        }
    }

  /* count and total of the queue delays per name */
  stats = g_new0 (SlStats, n_keys + 1);
  sl_stats_table_finish (&queue, stats);
  order = sl_name_keys_rank (profile->strings, &keys, stats, api_total, &self->n_names);
  self->n_rows = top > 0 ? MIN (top, self->n_names) : self->n_names;
  self->rows = g_new0 (SlLaunchRow, MAX (self->n_rows, 1));
  for (guint r = 0; r < self->n_names; r++)
    {
      guint key = order[r];
      guint64 n = stats[key].count;
      SlLaunchRow tmp = { 0 }, *row = r < self->n_rows ? &self->rows[r] : &tmp;

      if (r < self->n_rows)
        row->name = g_strdup (sl_strings_get (profile->strings, g_array_index (keys.ids, guint32, key)));
      row->launches = n;
      row->api_total_ns = api_total[key];
      row->api_mean_ns = (double) api_total[key] / (double) n;
      row->queue_mean_ns = (double) stats[key].total / (double) n;
      row->queue_p95_ns = sl_stats_table_get (&queue, p95[key]);
      row->kernel_mean_ns = (double) kernel_total[key] / (double) n;
      row->launch_bound = row->kernel_mean_ns < row->api_mean_ns;
      self->n_launch_bound += row->launch_bound;
      self->totals.launches += n;
      all_queue += stats[key].total;
      all_api += api_total[key];
      all_kernel += kernel_total[key];
    }
  if (self->totals.launches > 0)
    {
      guint64 n = self->totals.launches;
      self->totals.api_total_ns = all_api;
      self->totals.api_mean_ns = (double) all_api / (double) n;
      self->totals.queue_mean_ns = (double) all_queue / (double) n;
      self->totals.kernel_mean_ns = (double) all_kernel / (double) n;
      self->totals.launch_bound = self->totals.kernel_mean_ns < self->totals.api_mean_ns;
      self->totals.queue_p95_ns = sl_stats_table_get (&queue, p95[n_keys]);
    }
  sl_stats_table_clear (&queue);
  sl_name_keys_clear (&keys);
  return self;
}

void
sl_launch_free (SlLaunch *self)
{
  if (self == NULL)
    return;
  for (guint r = 0; r < self->n_rows; r++)
    g_free (self->rows[r].name);
  g_free (self->rows);
  g_free (self);
}

static void
add_row_members (JsonBuilder *b, const SlLaunchRow *row)
{
  json_builder_set_member_name (b, "launches");
  json_builder_add_int_value (b, (gint64) row->launches);
  json_builder_set_member_name (b, "api_mean_ns");
  json_builder_add_int_value (b, sl_round_ns (row->api_mean_ns));
  json_builder_set_member_name (b, "queue_mean_ns");
  json_builder_add_int_value (b, sl_round_ns (row->queue_mean_ns));
  json_builder_set_member_name (b, "queue_p95_ns");
  json_builder_add_int_value (b, row->queue_p95_ns);
  json_builder_set_member_name (b, "kernel_mean_ns");
  json_builder_add_int_value (b, sl_round_ns (row->kernel_mean_ns));
}

JsonNode *
sl_launch_to_json (const SlLaunch *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "totals");
  json_builder_begin_object (b);
  add_row_members (b, &self->totals);
  json_builder_set_member_name (b, "launch_bound_names");
  json_builder_add_int_value (b, self->n_launch_bound);
  json_builder_set_member_name (b, "unlinked_kernels");
  json_builder_add_int_value (b, (gint64) self->unlinked);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "kernels");
  json_builder_begin_array (b);
  for (guint r = 0; r < self->n_rows; r++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      sl_json_add_string (b, self->rows[r].name);
      add_row_members (b, &self->rows[r]);
      json_builder_set_member_name (b, "launch_bound");
      json_builder_add_boolean_value (b, self->rows[r].launch_bound);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
