/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-nvtx-summary.c: CPU time and GPU projection per NVTX range name. */
#include "sl-nvtx-summary.h"
#include "sl-attribution.h"
#include "sl-int.h"
#include "sl-nvtx-name.h"
#include "sl-stats-split.h"
#include "sl-json.h"

typedef struct {
  const SlProfile *profile;
  const SlFilter  *filter;
  const gboolean  *thread_ok;
  SlNvtxNaming     naming;     /* grouped or exact names */
  SlNameKeys       keys;
  SlStatsTable     table;
  gint64          *gpu_total[SL_STATS_MAX_PARTS];   /* per part of a pass, merged after it */
  guint64         *gpu_n[SL_STATS_MAX_PARTS];
  gboolean         medians;    /* FALSE: one statistics pass, median 0 */
  int              pass;
  guint64          n_ranges;   /* of the threads in the filter, both kinds */
  const guint     *base[2];    /* per thread, its first range's projection */
  const gint64    *gs[2], *ge[2];
} Scan;

enum { PASS_STATS, PASS_SELECT };

/* Part @part of @n_parts of the ranges of one kind, in the order of the
 * threads; *@before counts the ranges of the kind and threads before.  The
 * subset's kept flags are a byte each. */
static void
scan (Scan *sc, SlStatsTable *table, guint part, guint n_parts, gboolean startend, guint64 *before)
{
  const SlProfile *profile = sc->profile;
  const guint *base = sc->base[startend];
  const gint64 *gs = sc->gs[startend], *ge = sc->ge[startend];
  gint64 *gpu_total = sc->gpu_total[part];
  guint64 *gpu_n = sc->gpu_n[part];

  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = startend ? &profile->threads[t].nvtx_startend : &profile->threads[t].nvtx;
      const guint8 *kept = !startend && profile->ranges_kept != NULL ? profile->ranges_kept + profile->ranges_base[t]
                                                                     : NULL;
      guint first = 0, last = r->spans.n, n = r->spans.n;

      if (!sc->thread_ok[t] || n == 0)
        continue;
      *before += n;
      if (!sl_stats_part_clip (*before - n, sc->n_ranges, part, n_parts, &first, &last))
        continue;
      /* each depth's row is sorted by start: the window is a slice of it */
      for (guint d = 0; d < MAX (r->n_depths, 1); d++)
        {
          guint lo = r->n_depths > 0 ? MAX (first, r->depth_first[d]) : first;
          guint hi = r->n_depths > 0 ? MIN (last, r->depth_first[d + 1]) : last;

          if (lo >= hi)
            continue;
          if (r->n_depths > 0)
            sl_filter_span_bounds (sc->filter, &r->spans, lo, hi, &lo, &hi);
          for (guint i = lo; i < hi; i++)
            {
              guint k;

              if ((kept != NULL && !kept[i]) || (r->n_depths == 0 && !sl_filter_match_time (sc->filter, r->spans.start[i])))
                continue;
              k = sl_name_keys_lookup (&sc->keys, sl_nvtx_naming_key (&sc->naming, r->name[i]));
              sl_stats_table_visit (table, k, sl_spans_dur (&r->spans, i));
              if (sc->pass == PASS_STATS && gs[base[t] + i] != SL_NO_GPU_START)
                {
                  gpu_total[k] = sl_sat_add (gpu_total[k], ge[base[t] + i] - gs[base[t] + i]);
                  gpu_n[k]++;
                }
            }
        }
    }
}

/* The distinct name ids of the profile's ranges of both kinds, ascending
 * (G_MAXUINT32 ends them; ids past the string table included): found once
 * and kept with the profile, so that the keys are given before the passes
 * (which two parts then share) without a scan of every range each time. */
static gpointer
range_names_build (const SlProfile *profile)
{
  guint n_strings = sl_strings_count (profile->strings);
  g_autofree guint8 *seen = g_new0 (guint8, n_strings + 1);
  g_autoptr(GHashTable) beyond = g_hash_table_new (NULL, NULL);
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 end = G_MAXUINT32;

  for (guint t = 0; t < profile->n_threads; t++)
    for (int kind = 0; kind < 2; kind++)
      {
        const SlNvtxRanges *r = kind ? &profile->threads[t].nvtx_startend : &profile->threads[t].nvtx;

        for (guint i = 0; i < r->spans.n; i++)
          {
            guint32 id = r->name[i];
            seen[MIN (id, n_strings)] = 1;
            if (G_UNLIKELY (id >= n_strings))
              g_hash_table_add (beyond, GUINT_TO_POINTER (id));
          }
      }
  for (guint32 id = 0; id < n_strings; id++)
    if (seen[id])
      g_array_append_val (ids, id);
  if (seen[n_strings])
    {
      g_autoptr(GList) rest = g_hash_table_get_keys (beyond);
      for (GList *l = rest; l != NULL; l = l->next)
        {
          guint32 id = GPOINTER_TO_UINT (l->data);
          g_array_append_val (ids, id);
        }
    }
  g_array_append_val (ids, end);
  return g_array_free (ids, FALSE);
}

/* A key for every range name of the profile, as the naming groups them
 * (names without ranges in the filter are left out of the rows). */
static void
give_keys (Scan *sc)
{
  const guint32 *id = sl_profile_get_derived (sc->profile, "sl-nvtx-range-names", range_names_build, g_free);

  for (; *id != G_MAXUINT32; id++)
    sl_name_keys_get (&sc->keys, sl_nvtx_naming_key (&sc->naming, *id));
}

static void
scan_part (SlStatsTable *table, guint part, guint n_parts, gpointer data)
{
  Scan *sc = data;
  guint64 before = 0;

  scan (sc, table, part, n_parts, FALSE, &before);
  scan (sc, table, part, n_parts, TRUE, &before);
}

static void
count_ranges (Scan *sc)
{
  const SlProfile *profile = sc->profile;

  sc->n_ranges = 0;
  for (guint t = 0; t < profile->n_threads; t++)
    if (sc->thread_ok[t])
      sc->n_ranges += profile->threads[t].nvtx.spans.n + profile->threads[t].nvtx_startend.spans.n;
}

/* GPU projections of push/pop (gs, ge) and start/end ranges (ses, see),
 * restricted to the filter's GPUs (see sl_attribution_project). */
typedef struct {
  gint64  *gs, *ge, *ses, *see;
  gboolean owned;
} Projection;

static void
projection_clear (Projection *pr)
{
  if (!pr->owned)
    return;
  g_free (pr->gs);
  g_free (pr->ge);
  g_free (pr->ses);
  g_free (pr->see);
}

/* Statistics of every range name in the filter, and their GPU projections. */
static SlStats *
gather (Scan *sc, const SlAttribution *attr, const Projection *pr)
{
  guint n_keys;
  SlStats *stats;

  count_ranges (sc);
  give_keys (sc);
  n_keys = sc->keys.ids->len;
  if (sc->medians)
    sl_stats_table_init (&sc->table, n_keys, TRUE);
  else
    sl_stats_table_init_sums (&sc->table, n_keys);
  for (guint p = 0; p < SL_STATS_MAX_PARTS; p++)
    {
      sc->gpu_total[p] = g_new0 (gint64, MAX (n_keys, 1));
      sc->gpu_n[p] = g_new0 (guint64, MAX (n_keys, 1));
    }
  sc->base[0] = attr->range_base;
  sc->base[1] = attr->se_base;
  sc->gs[0] = pr->gs;
  sc->ge[0] = pr->ge;
  sc->gs[1] = pr->ses;
  sc->ge[1] = pr->see;
  for (sc->pass = PASS_STATS; sl_stats_table_pass (&sc->table); sc->pass = PASS_SELECT)
    sl_stats_table_visit_split (&sc->table, sc->n_ranges, scan_part, sc);
  for (guint p = 1; p < SL_STATS_MAX_PARTS; p++)
    for (guint k = 0; k < n_keys; k++)
      {
        sc->gpu_total[0][k] = sl_sat_add (sc->gpu_total[0][k], sc->gpu_total[p][k]);
        sc->gpu_n[0][k] += sc->gpu_n[p][k];
      }
  stats = g_new0 (SlStats, MAX (n_keys, 1));
  sl_stats_table_finish (&sc->table, stats);
  return stats;
}

/* Names by total descending, the first @top as rows (also the scope
 * index's NVTX part, sl-scope-nvtx.c). */
void
_sl_nvtx_summary_fill_rows (SlNvtxSummary *self, const SlStrings *strings, const SlNameKeys *keys,
                            const SlStats *stats, const gint64 *gpu_total, const guint64 *gpu_n,
                            guint top)
{
  g_autofree guint *order = sl_name_keys_rank (strings, keys, stats, NULL, &self->n_names);

  self->n_rows = sl_rank_keep (self->n_names, top);
  self->rows = g_new0 (SlNvtxRow, MAX (self->n_rows, 1));
  sl_stats_sum_keys (stats, order, self->n_names, &self->total_ns, &self->instances);
  for (guint r = 0; r < self->n_rows; r++)
    {
      SlNvtxRow *row = &self->rows[r];
      guint k = order[r];

      row->name_id = g_array_index (keys->ids, guint32, k);
      row->name = g_strdup (sl_strings_get (strings, row->name_id));
      row->stats = stats[k];
      row->time_pct = sl_percent (stats[k].total, self->total_ns);
      row->gpu_total_ns = gpu_total[k];
      row->gpu_instances = gpu_n[k];
    }
}

SlNvtxSummary *
sl_nvtx_summary_compute (const SlProfile *profile, const SlFilter *filter, guint top)
{
  return sl_nvtx_summary_compute_names (profile, filter, top, TRUE);
}

static SlNvtxSummary *
compute (const SlProfile *profile, const SlFilter *filter, guint top, gboolean exact_names,
         gboolean medians)
{
  SlNvtxSummary *self = g_new0 (SlNvtxSummary, 1);
  const SlAttribution *attr = sl_attribution_get (profile);
  g_autofree gboolean *thread_ok = g_new0 (gboolean, MAX (profile->n_threads, 1));
  g_autofree SlStats *stats = NULL;
  Projection pr;
  Scan sc = { profile, filter, thread_ok, };

  sc.medians = medians;

  for (guint t = 0; t < profile->n_threads; t++)
    thread_ok[t] = sl_filter_match_thread (filter, profile, t);
  sl_attribution_project (profile, filter, &pr.gs, &pr.ge, &pr.ses, &pr.see, &pr.owned);
  self->exact_names = exact_names;
  sc.naming = sl_nvtx_naming (profile, exact_names);
  sl_name_keys_init (&sc.keys, sl_strings_count (sc.naming.strings));
  stats = gather (&sc, attr, &pr);
  _sl_nvtx_summary_fill_rows (self, sc.naming.strings, &sc.keys, stats, sc.gpu_total[0], sc.gpu_n[0], top);

  projection_clear (&pr);
  for (guint p = 0; p < SL_STATS_MAX_PARTS; p++)
    {
      g_free (sc.gpu_total[p]);
      g_free (sc.gpu_n[p]);
    }
  sl_stats_table_clear (&sc.table);
  sl_name_keys_clear (&sc.keys);
  return self;
}

SlNvtxSummary *
sl_nvtx_summary_compute_names (const SlProfile *profile, const SlFilter *filter, guint top,
                               gboolean exact_names)
{
  return compute (profile, filter, top, exact_names, TRUE);
}

SlNvtxSummary *
sl_nvtx_summary_compute_sums (const SlProfile *profile, const SlFilter *filter, guint top,
                              gboolean exact_names)
{
  return compute (profile, filter, top, exact_names, FALSE);
}

void
sl_nvtx_summary_free (SlNvtxSummary *self)
{
  if (self == NULL)
    return;
  sl_named_rows_free (self->rows, self->n_rows, sizeof (SlNvtxRow), G_STRUCT_OFFSET (SlNvtxRow, name));
  g_free (self);
}

/* @data: the total time, for the row's share */
static void
add_row_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlNvtxRow *row = item;

  json_builder_begin_object (b);
  sl_name_stats_add_json_members (b, row->name, &row->stats, *(const gint64 *) data);
  sl_json_member_int (b, "gpu_total_ns", row->gpu_total_ns);
  json_builder_end_object (b);
}

JsonNode *
sl_nvtx_summary_to_json (const SlNvtxSummary *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_boolean (b, "exact_names", self->exact_names);
  sl_json_member_array (b, "ranges", self->rows, self->n_rows, sizeof (SlNvtxRow), add_row_json,
                        &self->total_ns);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
