/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-launch.c: kernel launch overhead per kernel name. */
#include "sl-launch.h"
#include "sl-stats.h"

#include <string.h>

#define WINDOW 32768   /* API calls per step of the walk (~400 KB of their arrays) */
#define CHUNK  2048    /* delays handed to the statistics at a time */

typedef struct {
  const SlProfile *profile;
  const guint32   *func_key;
  SlStatsTable    *queue;
  guint            all_key;  /* the key that gathers every launch */
  guint           *first;    /* per stream, its kernels in the filter */
  guint           *last;
  gboolean         totals;   /* the first walk also sums durations */
  gint64          *api_total;
  gint64          *kernel_total;
  guint64          unlinked;
  guint            n;
  guint32          key[CHUNK];
  gint64           delay[CHUNK];
} Walk;

static void
flush (Walk *w)
{
  sl_stats_table_visit_values (w->queue, w->key, 0, w->delay, w->n);
  sl_stats_table_visit_values (w->queue, NULL, w->all_key, w->delay, w->n);
  w->n = 0;
}

/* Feeds every linked kernel's queue delay (kernel start - API call start) to
 * the table.  A thread's launching calls are spread over its slice of the
 * API array with all its streams' launches in between, so walking one stream
 * after the other would read each cache line of the API array once per
 * stream; instead every stream advances through the same window of API
 * indexes (each stream's launching calls are nearly in order), so the window
 * stays in cache.  The order of the values does not change the results. */
static void
walk (Walk *w)
{
  const SlProfile *profile = w->profile;
  const SlSpans *api = &profile->api.spans;
  const guint32 *func_key = w->func_key;
  guint32 *keys = w->key;
  gint64 *delays = w->delay;
  gint64 *api_total = w->api_total, *kernel_total = w->kernel_total;
  guint64 unlinked = 0;
  guint n = 0;
  gboolean left = TRUE;

  /* locals, so that the stores into the arrays do not reload them */
  for (guint64 limit = WINDOW; left; limit += WINDOW)
    {
      left = FALSE;
      for (guint s = 0; s < profile->n_streams; s++)
        {
          const SlKernels *k = &profile->streams[s].kernels;
          guint i = w->first[s], end = w->last[s];

          for (; i < end; i++)
            {
              guint32 a = k->api[i];
              guint key;

              if (a == SL_NONE)
                {
                  unlinked++;
                  continue;
                }
              if (a >= limit)
                break;
              key = func_key[k->func[i]];
              keys[n] = key;
              delays[n] = k->spans.start[i] - api->start[a];
              if (w->totals)
                {
                  api_total[key] += sl_spans_dur (api, a);
                  kernel_total[key] += sl_spans_dur (&k->spans, i);
                }
              if (G_UNLIKELY (++n == CHUNK))
                {
                  w->n = n;
                  flush (w);
                  n = 0;
                }
            }
          w->first[s] = i;
          left |= i < end;
        }
    }
  w->n = n;
  flush (w);
  if (w->totals)
    w->unlinked = unlinked;
}

SlLaunch *
sl_launch_compute (const SlProfile *profile, const SlFilter *filter, SlNameStyle names, guint top)
{
  SlLaunch *self = g_new0 (SlLaunch, 1);
  g_autofree guint32 *func_key = NULL;
  g_autofree gint64 *api_total = NULL, *kernel_total = NULL;
  g_autofree guint *p95 = NULL;
  g_autofree guint *first = g_new0 (guint, MAX (profile->n_streams, 1));
  g_autofree guint *last = g_new0 (guint, MAX (profile->n_streams, 1));
  g_autofree Walk *w = NULL;
  g_autofree SlStats *stats = NULL;
  g_autofree guint *order = NULL;
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
      sl_filter_span_bounds (filter, &profile->streams[s].kernels.spans, 0,
                             profile->streams[s].kernels.spans.n, &first[s], &last[s]);

  /* key n_keys gathers every launch, for the overall percentile */
  sl_stats_table_init (&queue, n_keys + 1, FALSE);
  p95 = g_new (guint, n_keys + 1);
  for (guint key = 0; key <= n_keys; key++)
    p95[key] = sl_stats_table_request (&queue, key, 95.0);
  w = g_new0 (Walk, 1);
  *w = (Walk) { profile, func_key, &queue, n_keys, g_new (guint, MAX (profile->n_streams, 1)),
                last, TRUE, api_total, kernel_total, 0, 0 };
  while (sl_stats_table_pass (&queue))
    {
      memcpy (w->first, first, profile->n_streams * sizeof (guint));
      walk (w);
      w->totals = FALSE;
    }
  self->unlinked = w->unlinked;
  g_free (w->first);

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
  sl_named_rows_free (self->rows, self->n_rows, sizeof (SlLaunchRow), G_STRUCT_OFFSET (SlLaunchRow, name));
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
