/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-scope-nvtx.c: per-name NVTX sums per block of ranges, added up per scope. */
#include "sl-scope-nvtx.h"

#include <string.h>

#include "sl-attribution.h"
#include "sl-int.h"
#include "sl-nvtx-name.h"
#include "sl-scope-blocks.h"

/* One name's sums over the ranges of one block. */
typedef struct {
  guint32    key;
  SlStatsAcc acc;        /* CPU durations, first pass */
  gint64     gpu_total;  /* saturated sum of the GPU projections */
  guint64    gpu_n;
} Entry;

/* One row of a thread's ranges: those of one depth (a thread's ranges are
 * sorted by depth, then start; see SlNvtxRanges), [lo, hi).  Block b covers
 * ranges [lo + b size, lo + (b + 1) size); its names are entries[first[b],
 * first[b + 1]).  A last partial block is walked. */
typedef struct {
  guint  thread;
  guint  startend;
  guint  lo, hi;
  guint  n_blocks;
  guint *first;
  Entry *entries;
} List;

struct _SlScopeNvtx {
  guint   size;
  GArray *ids;        /* per key: its id in the grouped naming's strings */
  GArray *lists;      /* List: push/pop rows of every thread, then start/end ones */
};

/* Sums being made: of a block while building, of a scope when asked. */
typedef struct {
  const SlProfile     *profile;
  const SlAttribution *attr;
  SlNvtxNaming         naming;
  SlNameKeys           keys;
  SlStatsTable         table;
  gint64              *gpu_total;   /* per key */
  guint64             *gpu_n;
} Sums;

static const SlNvtxRanges *
thread_list (const SlProfile *profile, guint t, gboolean startend)
{
  return startend ? &profile->threads[t].nvtx_startend : &profile->threads[t].nvtx;
}

/* Ranges [from, to) of thread @t's list, as sl-nvtx-summary.c's scan ()
 * visits them: push/pop ones only when the profile keeps them. */
static void
visit (Sums *su, guint t, gboolean startend, guint from, guint to)
{
  const SlNvtxRanges *r = thread_list (su->profile, t, startend);
  const gint64 *gs = startend ? su->attr->se_gpu_start : su->attr->gpu_start;
  const gint64 *ge = startend ? su->attr->se_gpu_end : su->attr->gpu_end;
  guint base = startend ? su->attr->se_base[t] : su->attr->range_base[t];

  for (guint i = from; i < to; i++)
    {
      guint k;

      if (!startend && !sl_profile_range_kept (su->profile, t, i))
        continue;
      k = sl_name_keys_get (&su->keys, sl_nvtx_naming_key (&su->naming, r->name[i]));
      sl_stats_table_visit (&su->table, k, sl_spans_dur (&r->spans, i));
      if (gs[base + i] != SL_NO_GPU_START)
        {
          su->gpu_total[k] = sl_sat_add (su->gpu_total[k], ge[base + i] - gs[base + i]);
          su->gpu_n[k]++;
        }
    }
}

/* Empty sums of the keys @ids (in that order), or of none yet. */
static void
sums_init (Sums *su, const SlProfile *profile, GArray *ids)
{
  su->profile = profile;
  su->attr = sl_attribution_get (profile);
  su->naming = sl_nvtx_naming (profile, FALSE);
  sl_name_keys_init (&su->keys, sl_strings_count (su->naming.strings));
  for (guint k = 0; ids != NULL && k < ids->len; k++)
    sl_name_keys_get (&su->keys, g_array_index (ids, guint32, k));
}

/* The table for the keys registered so far. */
static void
sums_start (Sums *su)
{
  guint n = su->keys.ids->len;

  sl_stats_table_init_sums (&su->table, n);
  sl_stats_table_pass (&su->table);
  su->gpu_total = g_new0 (gint64, MAX (n, 1));
  su->gpu_n = g_new0 (guint64, MAX (n, 1));
}

static void
sums_clear (Sums *su)
{
  sl_stats_table_clear (&su->table);
  sl_name_keys_clear (&su->keys);
  g_free (su->gpu_total);
  g_free (su->gpu_n);
}

/* The names ranges [from, to) touched, their sums moved into @out and
 * emptied for the next block. */
static void
take_block (Sums *su, GArray *out, guint t, gboolean startend, guint from, guint to)
{
  const SlNvtxRanges *r = thread_list (su->profile, t, startend);

  for (guint i = from; i < to; i++)
    {
      guint k = sl_name_keys_get (&su->keys, sl_nvtx_naming_key (&su->naming, r->name[i]));
      Entry e = { k, su->table.acc[k], su->gpu_total[k], su->gpu_n[k] };

      if (e.acc.count == 0)
        continue;
      g_array_append_val (out, e);
      memset (&su->table.acc[k], 0, sizeof (SlStatsAcc));
      su->gpu_total[k] = 0;
      su->gpu_n[k] = 0;
    }
}

static void
build_list (SlScopeNvtx *nv, Sums *su, List *list)
{
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));

  list->n_blocks = (list->hi - list->lo) / nv->size;
  list->first = g_new (guint, list->n_blocks + 1);
  for (guint b = 0; b < list->n_blocks; b++)
    {
      guint from = list->lo + b * nv->size, to = from + nv->size;

      list->first[b] = entries->len;
      visit (su, list->thread, list->startend, from, to);
      take_block (su, entries, list->thread, list->startend, from, to);
    }
  list->first[list->n_blocks] = entries->len;
  list->entries = (Entry *) g_array_free (g_steal_pointer (&entries), FALSE);
}

/* The rows of every thread's ranges, empty ones left out; FALSE when a row
 * is out of start order (scopes take a row's ranges by start, as
 * sl_filter_span_bounds does). */
static gboolean
make_lists (const SlProfile *profile, GArray *lists)
{
  for (guint se = 0; se < 2; se++)
    for (guint t = 0; t < profile->n_threads; t++)
      {
        const SlNvtxRanges *r = thread_list (profile, t, se);
        guint n_rows = r->depth_first != NULL ? r->n_depths : 1;

        for (guint d = 0; d < n_rows && r->spans.n > 0; d++)
          {
            List list = { t, se, r->depth_first != NULL ? r->depth_first[d] : 0,
                          r->depth_first != NULL ? r->depth_first[d + 1] : r->spans.n, };

            for (guint i = list.lo + 1; i < list.hi; i++)
              if (r->spans.start[i] < r->spans.start[i - 1])
                return FALSE;
            if (list.hi > list.lo)
              g_array_append_val (lists, list);
          }
      }
  return TRUE;
}

SlScopeNvtx *
sl_scope_nvtx_build (const SlProfile *profile, guint size)
{
  g_autoptr(GArray) lists = g_array_new (FALSE, FALSE, sizeof (List));
  SlScopeNvtx *nv;
  Sums su;

  if (!make_lists (profile, lists))
    return NULL;
  nv = g_new0 (SlScopeNvtx, 1);
  nv->size = size;
  nv->lists = g_array_ref (lists);
  sums_init (&su, profile, NULL);
  for (guint l = 0; l < lists->len; l++)
    {
      const List *list = &g_array_index (lists, List, l);
      const SlNvtxRanges *r = thread_list (profile, list->thread, list->startend);

      for (guint i = list->lo; i < list->hi; i++)
        sl_name_keys_get (&su.keys, sl_nvtx_naming_key (&su.naming, r->name[i]));
    }
  nv->ids = g_array_ref (su.keys.ids);
  sums_start (&su);
  for (guint l = 0; l < lists->len; l++)
    build_list (nv, &su, &g_array_index (lists, List, l));
  sums_clear (&su);
  return nv;
}

void
sl_scope_nvtx_free (SlScopeNvtx *nv)
{
  if (nv == NULL)
    return;
  for (guint l = 0; l < nv->lists->len; l++)
    {
      g_free (g_array_index (nv->lists, List, l).first);
      g_free (g_array_index (nv->lists, List, l).entries);
    }
  g_array_unref (nv->lists);
  g_array_unref (nv->ids);
  g_free (nv);
}

/* Ranges [first, last) of a row: whole blocks from the index, the rest
 * visited. */
static void
add_list (const SlScopeNvtx *nv, Sums *su, const List *list, guint first, guint last)
{
  guint t = list->thread, startend = list->startend, size = nv->size;
  guint b0 = (first - list->lo + size - 1) / size, b1 = MIN ((last - list->lo) / size, list->n_blocks);

  if (first >= last)
    return;
  if (b0 >= b1)
    {
      visit (su, t, startend, first, last);
      return;
    }
  visit (su, t, startend, first, list->lo + b0 * size);
  for (guint i = list->first[b0]; i < list->first[b1]; i++)
    {
      const Entry *e = &list->entries[i];

      sl_scope_acc_merge (&su->table.acc[e->key], &e->acc);
      su->gpu_total[e->key] = sl_sat_add (su->gpu_total[e->key], e->gpu_total);
      su->gpu_n[e->key] += e->gpu_n;
    }
  visit (su, t, startend, list->lo + b1 * size, last);
}

/* Whether every key's sums give sl-stats' exact standard deviation (as
 * sl-scope-index.c's table_exact). */
static gboolean
sums_exact (const Sums *su)
{
  for (guint k = 0; k < su->table.n_keys; k++)
    {
      const SlStatsAcc *a = &su->table.acc[k];

      if (a->count > 1 && (double) a->count * ((double) a->max - (double) a->min) >= 4.0e18)
        return FALSE;
    }
  return TRUE;
}

/* Names by total descending, the first @top as rows, as the analysis. */
static SlNvtxSummary *
summary_new (Sums *su, guint top)
{
  SlNvtxSummary *self = g_new0 (SlNvtxSummary, 1);
  g_autofree SlStats *stats = g_new0 (SlStats, MAX (su->table.n_keys, 1));

  sl_stats_table_finish (&su->table, stats);
  _sl_nvtx_summary_fill_rows (self, su->naming.strings, &su->keys, stats, su->gpu_total, su->gpu_n, top);
  return self;
}

SlNvtxSummary *
sl_scope_nvtx_summary (const SlScopeNvtx *nv, const SlProfile *profile, const SlFilter *filter,
                       guint top)
{
  SlNvtxSummary *self = NULL;
  Sums su;

  if (filter != NULL && filter->gpus->len > 0)
    return NULL;
  sums_init (&su, profile, nv->ids);
  sums_start (&su);
  for (guint l = 0; l < nv->lists->len; l++)
    {
      const List *list = &g_array_index (nv->lists, List, l);
      guint first, last;

      if (!sl_filter_match_thread (filter, profile, list->thread))
        continue;
      sl_filter_span_bounds (filter, &thread_list (profile, list->thread, list->startend)->spans, list->lo,
                             list->hi, &first, &last);
      add_list (nv, &su, list, first, last);
    }
  if (sums_exact (&su))
    self = summary_new (&su, top);
  sums_clear (&su);
  return self;
}
