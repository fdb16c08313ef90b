/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-name-search.c: kernels, NVTX ranges and API calls by name, grouped.
 *
 * Each track (a stream's kernels, a thread's calls, one depth of a
 * thread's ranges) is sorted by start, so the hits are collected as one
 * sorted run per track and merged, instead of sorting millions of them. */
#include "sl-name-search.h"
#include "sl-name-match.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const SlProfile *profile;
  const SlFilter  *filter;
  SlNameMatch     *match;
  guint32          n_strings;
  guint32         *group_of[3];  /* per group kind: string id -> group, SL_NONE */
  GArray          *groups;       /* SlNameGroup */
  SlNameHit       *hits;         /* run after run */
  guint            n_hits, cap;
  GArray          *runs;         /* guint: where each run starts in hits */
  gboolean         unsorted;     /* the current run went back in time */
} Collect;

static guint32
group_for (Collect *c, SlNameGroupKind kind, guint32 name)
{
  guint32 key = MIN (name, c->n_strings);   /* a dangling id: one group of "" */
  guint32 *map = c->group_of[kind];

  if (map == NULL)
    {
      map = c->group_of[kind] = g_new (guint32, c->n_strings + 1);
      memset (map, 0xff, (c->n_strings + 1) * sizeof (guint32));
    }
  if (map[key] == SL_NONE)
    {
      SlNameGroup g = { kind, name, 0, 0, 0 };

      map[key] = c->groups->len;
      g_array_append_val (c->groups, g);
    }
  return map[key];
}

static void
begin_run (Collect *c)
{
  guint at = c->n_hits;

  g_array_append_val (c->runs, at);
}

static inline void
add_hit (Collect *c, SlNameHitKind kind, guint32 owner, guint32 index, guint32 group,
         const SlSpans *spans)
{
  SlNameHit *h;
  SlNameGroup *g = &g_array_index (c->groups, SlNameGroup, group);

  if (G_UNLIKELY (c->n_hits == c->cap))
    {
      c->cap = MAX (c->cap * 2, 4096);
      c->hits = g_renew (SlNameHit, c->hits, c->cap);
    }
  h = &c->hits[c->n_hits];
  h->start = spans->start[index];
  h->owner = owner;
  h->index = index;
  h->group = group;
  h->kind = kind;
  if (c->n_hits > g_array_index (c->runs, guint, c->runs->len - 1) && h[-1].start > h->start)
    c->unsorted = TRUE;
  c->n_hits++;
  g->n++;
  g->total_ns += sl_spans_dur (spans, index);
}

/* Kernels match by short or demangled name: a group (by short name) or
 * none per function, then one look-up per kernel. */
static void
collect_kernels (Collect *c, GCancellable *cancellable)
{
  const SlProfile *p = c->profile;
  g_autofree guint32 *func_group = g_new (guint32, MAX (p->n_funcs, 1));

  for (guint f = 0; f < p->n_funcs; f++)
    func_group[f] = sl_name_match_id (c->match, p->funcs[f].short_name)
                    || sl_name_match_id (c->match, p->funcs[f].demangled_name)
                    ? group_for (c, SL_NAME_GROUP_KERNEL, p->funcs[f].short_name) : SL_NONE;
  for (guint s = 0; s < p->n_streams && !g_cancellable_is_cancelled (cancellable); s++)
    {
      const SlKernels *k = &p->streams[s].kernels;
      guint lo, hi;

      if (!sl_filter_match_stream (c->filter, &p->streams[s]))
        continue;
      sl_filter_span_bounds (c->filter, &k->spans, 0, k->spans.n, &lo, &hi);
      begin_run (c);
      for (guint i = lo; i < hi; i++)
        {
          guint32 g = func_group[k->func[i]];

          if (g != SL_NONE)
            add_hit (c, SL_NAME_HIT_KERNEL, s, i, g, &k->spans);
        }
    }
}

/* One depth (push/pop) or lane (start/end) of a thread's ranges per run. */
static void
collect_ranges (Collect *c, guint t, gboolean startend)
{
  const SlThread *thread = &c->profile->threads[t];
  const SlNvtxRanges *r = startend ? &thread->nvtx_startend : &thread->nvtx;
  SlNameHitKind kind = startend ? SL_NAME_HIT_STARTEND : SL_NAME_HIT_RANGE;
  guint n_rows = r->depth_first != NULL ? r->n_depths : 1;

  for (guint d = 0; d < n_rows; d++)
    {
      guint lo = r->depth_first != NULL ? r->depth_first[d] : 0;
      guint hi = r->depth_first != NULL ? r->depth_first[d + 1] : r->spans.n;

      begin_run (c);
      for (guint i = lo; i < hi; i++)
        if (sl_filter_match_time (c->filter, r->spans.start[i]) && sl_name_match_id (c->match, r->name[i]))
          add_hit (c, kind, t, i, group_for (c, SL_NAME_GROUP_RANGE, r->name[i]), &r->spans);
    }
}

static void
collect_api (Collect *c, guint t)
{
  const SlThread *thread = &c->profile->threads[t];
  const SlApiCalls *api = &c->profile->api;

  begin_run (c);
  for (guint i = thread->api_first; i < thread->api_first + thread->api_count; i++)
    if (sl_filter_match_time (c->filter, api->spans.start[i]) && sl_name_match_id (c->match, api->name[i]))
      add_hit (c, SL_NAME_HIT_API, t, i, group_for (c, SL_NAME_GROUP_API, api->name[i]), &api->spans);
}

static int
compare_hits (const SlNameHit *a, const SlNameHit *b)
{
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->owner != b->owner)
    return a->owner < b->owner ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

static int
compare_hits_cb (const void *a, const void *b)
{
  return compare_hits (a, b);
}

/* Longest total first; ties by count, kind and name id, so the order is
 * the same on every run. */
static int
compare_groups (const void *pa, const void *pb)
{
  const SlNameGroup *a = pa, *b = pb;

  if (a->total_ns != b->total_ns)
    return a->total_ns > b->total_ns ? -1 : 1;
  if (a->n != b->n)
    return a->n > b->n ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  return (a->name > b->name) - (a->name < b->name);
}

/* A run being merged: its next hit and its end. */
typedef struct {
  const SlNameHit *next, *end;
} Cursor;

static void
sift_down (Cursor *heap, guint n, guint i)
{
  for (;;)
    {
      guint l = 2 * i + 1, m = i;

      if (l < n && compare_hits (heap[l].next, heap[m].next) < 0)
        m = l;
      if (l + 1 < n && compare_hits (heap[l + 1].next, heap[m].next) < 0)
        m = l + 1;
      if (m == i)
        return;
      Cursor tmp = heap[i];
      heap[i] = heap[m];
      heap[m] = tmp;
      i = m;
    }
}

/* The sorted runs of @c merged into @out (a k-way merge on a heap). */
static void
merge_runs (Collect *c, SlNameHit *out)
{
  guint n_runs = c->runs->len, n = 0;
  g_autofree Cursor *heap = g_new (Cursor, MAX (n_runs, 1));

  for (guint r = 0; r < n_runs; r++)
    {
      guint a = g_array_index (c->runs, guint, r);
      guint b = r + 1 < n_runs ? g_array_index (c->runs, guint, r + 1) : c->n_hits;

      if (a < b)
        heap[n++] = (Cursor) { c->hits + a, c->hits + b };
    }
  for (guint i = n / 2; i-- > 0;)
    sift_down (heap, n, i);
  while (n > 1)
    {
      *out++ = *heap[0].next++;
      if (heap[0].next == heap[0].end)
        heap[0] = heap[--n];
      sift_down (heap, n, 0);
    }
  if (n == 1)
    memcpy (out, heap[0].next, (heap[0].end - heap[0].next) * sizeof (SlNameHit));
}

/* Groups by total time; each hit's group renumbered; order[] filled by a
 * counting sort over the hits, which keeps each group's hits by start. */
static void
finish_groups (SlNameSearch *self, Collect *c)
{
  guint n = c->groups->len;
  g_autofree guint32 *remap = g_new (guint32, MAX (n, 1));
  g_autofree guint *fill = g_new (guint, MAX (n, 1));
  SlNameGroup *groups = (SlNameGroup *) (void *) c->groups->data;

  /* the old index rides along in first while sorting */
  for (guint g = 0; g < n; g++)
    groups[g].first = g;
  qsort (groups, n, sizeof (SlNameGroup), compare_groups);
  for (guint g = 0, at = 0; g < n; g++)
    {
      remap[groups[g].first] = g;
      groups[g].first = at;
      fill[g] = at;
      at += groups[g].n;
    }
  self->order = g_new (guint, MAX (self->n_hits, 1));
  for (guint i = 0; i < self->n_hits; i++)
    {
      SlNameHit *h = &self->hits[i];

      h->group = remap[h->group];
      self->order[fill[h->group]++] = i;
      self->n_kernels += h->kind == SL_NAME_HIT_KERNEL;
      self->n_api += h->kind == SL_NAME_HIT_API;
    }
  self->n_ranges = self->n_hits - self->n_kernels - self->n_api;
  self->n_groups = n;
  self->groups = (SlNameGroup *) (void *) g_array_free (g_steal_pointer (&c->groups), FALSE);
}

static void
collect_clear (Collect *c)
{
  for (guint k = 0; k < G_N_ELEMENTS (c->group_of); k++)
    g_free (c->group_of[k]);
  g_clear_pointer (&c->groups, g_array_unref);
  g_clear_pointer (&c->runs, g_array_unref);
  g_clear_pointer (&c->match, sl_name_match_free);
  g_free (c->hits);
}

SlNameSearch *
sl_name_search_compute (const SlProfile *profile, const SlFilter *filter, const char *pattern,
                        GCancellable *cancellable, GError **error)
{
  g_autoptr(SlNameSearch) self = NULL;
  Collect c = { profile, filter };

  g_return_val_if_fail (profile != NULL && pattern != NULL, NULL);
  c.match = sl_name_match_new (profile, pattern, error);
  if (c.match == NULL)
    return NULL;
  c.n_strings = sl_strings_count (profile->strings);
  c.groups = g_array_new (FALSE, FALSE, sizeof (SlNameGroup));
  c.runs = g_array_new (FALSE, FALSE, sizeof (guint));
  collect_kernels (&c, cancellable);
  for (guint t = 0; t < profile->n_threads && !g_cancellable_is_cancelled (cancellable); t++)
    if (sl_filter_match_thread (filter, profile, t))
      {
        collect_api (&c, t);
        collect_ranges (&c, t, FALSE);
        collect_ranges (&c, t, TRUE);
      }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      collect_clear (&c);
      return NULL;
    }
  self = g_new0 (SlNameSearch, 1);
  self->pattern = g_strdup (pattern);
  self->n_hits = c.n_hits;
  self->hits = g_new (SlNameHit, MAX (c.n_hits, 1));
  if (c.unsorted)
    {
      /* a track out of order (a profile built by hand): sort them all */
      memcpy (self->hits, c.hits, c.n_hits * sizeof (SlNameHit));
      qsort (self->hits, c.n_hits, sizeof (SlNameHit), compare_hits_cb);
    }
  else
    merge_runs (&c, self->hits);
  finish_groups (self, &c);
  collect_clear (&c);
  return g_steal_pointer (&self);
}

void
sl_name_search_free (SlNameSearch *self)
{
  if (self == NULL)
    return;
  g_free (self->pattern);
  g_free (self->hits);
  g_free (self->order);
  g_free (self->groups);
  g_free (self);
}

gint64
sl_name_search_hit_end (const SlProfile *profile, const SlNameHit *hit)
{
  switch (hit->kind)
    {
    case SL_NAME_HIT_KERNEL:
      return sl_spans_end (&profile->streams[hit->owner].kernels.spans, hit->index);
    case SL_NAME_HIT_API:
      return sl_spans_end (&profile->api.spans, hit->index);
    case SL_NAME_HIT_RANGE:
      return sl_spans_end (&profile->threads[hit->owner].nvtx.spans, hit->index);
    case SL_NAME_HIT_STARTEND:
    default:
      return sl_spans_end (&profile->threads[hit->owner].nvtx_startend.spans, hit->index);
    }
}

const char *
sl_name_search_group_name (const SlProfile *profile, const SlNameGroup *group)
{
  return sl_strings_get (profile->strings, group->name);
}
