/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-launch.c: kernel launch overhead per kernel name. */
#include "sl-launch.h"
#include "sl-graph-launches.h"
#include "sl-int.h"
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
  /* a launch is a launching call: a graph launch's kernels share one */
  const SlGraphLaunches *graphs;
  GHashTable      *graphs_seen;    /* graph calls met in this pass */
  guint64          launches, graph_launches;
  gint64           launch_api_total;
  guint            n, n_all;
  guint32          key[CHUNK];
  gint64           delay[CHUNK];
  gint64           all_delay[CHUNK];   /* one per launch, for the totals */
} Walk;

static void
flush (Walk *w)
{
  sl_stats_table_visit_values (w->queue, w->key, 0, w->delay, w->n);
  sl_stats_table_visit_values (w->queue, NULL, w->all_key, w->all_delay, w->n_all);
  w->n = w->n_all = 0;
}

/* Kernel @i of @k, launched by call @a, into the chunk (per name) and, when
 * it is the first kernel met of its call, the call into the launches (a
 * graph's queue delay is its first kernel's).  A graph call's duration is
 * shared among its kernels in the per-name rows. */
static inline void
visit_kernel (Walk *w, const SlKernels *k, guint i, guint32 a, guint key)
{
  const SlSpans *api = &w->profile->api.spans;
  gboolean graph = sl_graph_launches_contains (w->graphs, a);
  gboolean first = !graph || g_hash_table_add (w->graphs_seen, GUINT_TO_POINTER (a));

  w->key[w->n] = key;
  w->delay[w->n] = k->spans.start[i] - api->start[a];
  if (first)
    w->all_delay[w->n_all++] = graph ? sl_graph_launches_first (w->graphs, a) - api->start[a] : w->delay[w->n];
  w->n++;
  if (!w->totals)
    return;
  w->api_total[key] = sl_sat_add (w->api_total[key], graph ? sl_spans_dur (api, a) / sl_graph_launches_kernels (w->graphs, a)
                                                          : sl_spans_dur (api, a));
  w->kernel_total[key] = sl_sat_add (w->kernel_total[key], sl_spans_dur (&k->spans, i));
  if (first)
    {
      w->launches++;
      w->graph_launches += graph;
      w->launch_api_total = sl_sat_add (w->launch_api_total, sl_spans_dur (api, a));
    }
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
  const guint32 *func_key = w->func_key;
  guint64 unlinked = 0;
  gboolean left = TRUE;

  g_hash_table_remove_all (w->graphs_seen);
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

              if (a == SL_NONE)
                {
                  unlinked++;
                  continue;
                }
              if (a >= limit)
                break;
              visit_kernel (w, k, i, a, func_key[k->func[i]]);
              if (G_UNLIKELY (w->n == CHUNK))
                flush (w);
            }
          w->first[s] = i;
          left |= i < end;
        }
    }
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
 * queue table; sets the kernels without a launching call and the launches
 * (launching calls) of @self. */
static void
measure (SlLaunch *self, PerName *pn, const SlProfile *profile, const SlFilter *filter)
{
  g_autofree guint *first = g_new0 (guint, MAX (profile->n_streams, 1));
  g_autofree guint *last = g_new0 (guint, MAX (profile->n_streams, 1));
  g_autofree Walk *w = g_new0 (Walk, 1);

  for (guint s = 0; s < profile->n_streams; s++)
    if (sl_filter_match_stream (filter, &profile->streams[s]))
      sl_filter_span_bounds (filter, &profile->streams[s].kernels.spans, 0,
                             profile->streams[s].kernels.spans.n, &first[s], &last[s]);
  *w = (Walk) { profile, pn->func_key, &pn->queue, pn->n_keys, g_new (guint, MAX (profile->n_streams, 1)),
                last, TRUE, pn->api_total, pn->kernel_total, 0,
                sl_graph_launches_get (profile), g_hash_table_new (NULL, NULL), 0, 0, 0, 0, 0 };
  while (sl_stats_table_pass (&pn->queue))
    {
      memcpy (w->first, first, profile->n_streams * sizeof (guint));
      walk (w);
      w->totals = FALSE;
    }
  self->unlinked = w->unlinked;
  self->totals.launches = w->launches;
  self->totals.api_total_ns = w->launch_api_total;
  self->graph_launches = w->graph_launches;
  g_free (w->first);
  g_hash_table_unref (w->graphs_seen);
  sl_stats_table_finish (&pn->queue, pn->stats);
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

/* Rows by launch API time, the first @top named; the totals over all
 * launches (measure() counted them and their calls' time). */
static void
fill_rows (SlLaunch *self, const SlProfile *profile, const PerName *pn, guint top)
{
  g_autofree guint *order = sl_name_keys_rank (profile->strings, &pn->keys, pn->stats, pn->api_total,
                                               &self->n_names);
  gint64 all_kernel = 0;

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
      self->kernels += row->launches;
      all_kernel = sl_sat_add (all_kernel, pn->kernel_total[key]);
    }
  if (self->totals.launches > 0)
    set_row (&self->totals, self->totals.launches, self->totals.api_total_ns, pn->stats[pn->n_keys].total,
             all_kernel, sl_stats_table_get (&pn->queue, pn->p95[pn->n_keys]));
}

SlLaunch *
sl_launch_compute (const SlProfile *profile, const SlFilter *filter, SlNameStyle names, guint top)
{
  SlLaunch *self = g_new0 (SlLaunch, 1);
  PerName pn;

  per_name_init (&pn, profile, names);
  measure (self, &pn, profile, filter);
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
  sl_json_member_int (b, "kernels", (gint64) self->kernels);
  sl_json_member_int (b, "graph_launches", (gint64) self->graph_launches);
  json_builder_end_object (b);
  sl_json_member_array (b, "kernels", self->rows, self->n_rows, sizeof (SlLaunchRow), add_row_json, NULL);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
