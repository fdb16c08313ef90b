/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-launch.c: kernel launch overhead per kernel name. */
#include "sl-launch.h"
#include "sl-json.h"
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

/* What is gathered per kernel name (key); key n_keys gathers every launch,
 * for the overall percentile. */
typedef struct {
  SlNameKeys    keys;
  guint32      *func_key;
  guint         n_keys;
  SlStatsTable  queue;     /* queue delays: count, total, then values */
  guint        *p95;       /* per key, its percentile request in queue */
  gint64       *api_total;
  gint64       *kernel_total;
  SlStats      *stats;     /* of the queue delays, once finished */
} PerName;

static void
per_name_init (PerName *pn, const SlProfile *profile, SlNameStyle names)
{
  pn->func_key = sl_kernel_func_keys (profile, names, &pn->keys);
  pn->n_keys = pn->keys.ids->len;
  pn->api_total = g_new0 (gint64, MAX (pn->n_keys, 1));
  pn->kernel_total = g_new0 (gint64, MAX (pn->n_keys, 1));
  sl_stats_table_init (&pn->queue, pn->n_keys + 1, FALSE);
  pn->p95 = g_new (guint, pn->n_keys + 1);
  for (guint key = 0; key <= pn->n_keys; key++)
    pn->p95[key] = sl_stats_table_request (&pn->queue, key, 95.0);
  pn->stats = g_new0 (SlStats, pn->n_keys + 1);
}

static void
per_name_clear (PerName *pn)
{
  sl_stats_table_clear (&pn->queue);
  sl_name_keys_clear (&pn->keys);
  g_free (pn->func_key);
  g_free (pn->api_total);
  g_free (pn->kernel_total);
  g_free (pn->p95);
  g_free (pn->stats);
}

/* Walks the kernels of the streams in the filter, once per pass of the
 * queue table; returns the number of kernels without a launching call. */
static guint64
measure (PerName *pn, const SlProfile *profile, const SlFilter *filter)
{
  g_autofree guint *first = g_new0 (guint, MAX (profile->n_streams, 1));
  g_autofree guint *last = g_new0 (guint, MAX (profile->n_streams, 1));
  g_autofree Walk *w = g_new0 (Walk, 1);
  guint64 unlinked;

  for (guint s = 0; s < profile->n_streams; s++)
    if (sl_filter_match_stream (filter, &profile->streams[s]))
      sl_filter_span_bounds (filter, &profile->streams[s].kernels.spans, 0,
                             profile->streams[s].kernels.spans.n, &first[s], &last[s]);
  *w = (Walk) { profile, pn->func_key, &pn->queue, pn->n_keys, g_new (guint, MAX (profile->n_streams, 1)),
                last, TRUE, pn->api_total, pn->kernel_total, 0, 0 };
  while (sl_stats_table_pass (&pn->queue))
    {
      memcpy (w->first, first, profile->n_streams * sizeof (guint));
      walk (w);
      w->totals = FALSE;
    }
  unlinked = w->unlinked;
  g_free (w->first);
  sl_stats_table_finish (&pn->queue, pn->stats);
  return unlinked;
}

/* A row from @n launches with these summed durations and delay percentile. */
static void
set_row (SlLaunchRow *row, guint64 n, gint64 api_total, gint64 queue_total, gint64 kernel_total,
         gint64 queue_p95)
{
  row->launches = n;
  row->api_total_ns = api_total;
  row->api_mean_ns = (double) api_total / (double) n;
  row->queue_mean_ns = (double) queue_total / (double) n;
  row->queue_p95_ns = queue_p95;
  row->kernel_mean_ns = (double) kernel_total / (double) n;
  row->launch_bound = row->kernel_mean_ns < row->api_mean_ns;
}

/* Rows by launch API time, the first @top named; the totals over all names. */
static void
fill_rows (SlLaunch *self, const SlProfile *profile, const PerName *pn, guint top)
{
  g_autofree guint *order = sl_name_keys_rank (profile->strings, &pn->keys, pn->stats, pn->api_total,
                                               &self->n_names);
  gint64 all_api = 0, all_kernel = 0, all_queue = 0;

  self->n_rows = sl_rank_keep (self->n_names, top);
  self->rows = g_new0 (SlLaunchRow, MAX (self->n_rows, 1));
  for (guint r = 0; r < self->n_names; r++)
    {
      guint key = order[r];
      SlLaunchRow tmp = { 0 }, *row = r < self->n_rows ? &self->rows[r] : &tmp;

      if (r < self->n_rows)
        row->name = g_strdup (sl_strings_get (profile->strings, g_array_index (pn->keys.ids, guint32, key)));
      set_row (row, pn->stats[key].count, pn->api_total[key], pn->stats[key].total, pn->kernel_total[key],
               sl_stats_table_get (&pn->queue, pn->p95[key]));
      self->n_launch_bound += row->launch_bound;
      self->totals.launches += row->launches;
      all_queue += pn->stats[key].total;
      all_api += pn->api_total[key];
      all_kernel += pn->kernel_total[key];
    }
  if (self->totals.launches > 0)
    set_row (&self->totals, self->totals.launches, all_api, all_queue, all_kernel,
             sl_stats_table_get (&pn->queue, pn->p95[pn->n_keys]));
}

SlLaunch *
sl_launch_compute (const SlProfile *profile, const SlFilter *filter, SlNameStyle names, guint top)
{
  SlLaunch *self = g_new0 (SlLaunch, 1);
  PerName pn;

  per_name_init (&pn, profile, names);
  self->unlinked = measure (&pn, profile, filter);
  fill_rows (self, profile, &pn, top);
  per_name_clear (&pn);
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
  sl_json_member_int (b, "launches", (gint64) row->launches);
  sl_json_member_int (b, "api_mean_ns", sl_round_ns (row->api_mean_ns));
  sl_json_member_int (b, "queue_mean_ns", sl_round_ns (row->queue_mean_ns));
  sl_json_member_int (b, "queue_p95_ns", row->queue_p95_ns);
  sl_json_member_int (b, "kernel_mean_ns", sl_round_ns (row->kernel_mean_ns));
}

static void
add_row_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlLaunchRow *row = item;

  json_builder_begin_object (b);
  sl_json_member_string (b, "name", row->name);
  add_row_members (b, row);
  sl_json_member_boolean (b, "launch_bound", row->launch_bound);
  json_builder_end_object (b);
}

JsonNode *
sl_launch_to_json (const SlLaunch *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "totals");
  json_builder_begin_object (b);
  add_row_members (b, &self->totals);
  sl_json_member_int (b, "launch_bound_names", self->n_launch_bound);
  sl_json_member_int (b, "unlinked_kernels", (gint64) self->unlinked);
  json_builder_end_object (b);
  sl_json_member_array (b, "kernels", self->rows, self->n_rows, sizeof (SlLaunchRow), add_row_json, NULL);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
