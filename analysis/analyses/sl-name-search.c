/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-name-search.c: kernels, NVTX ranges and API calls by name, grouped.
 *
 * Millions of hits are put in time order by a bucket sort on their start
 * (a pass to count, a pass to scatter, tiny buckets sorted by insertion):
 * a comparison sort or a merge of the tracks costs several times more. */
#include "sl-name-search.h"
#include "sl-name-match.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((gsize) 2 << 20)
#define BIG_BUFFER ((gsize) 32 << 20)

/* Room for @n hits, on 2 MB pages where the kernel allows: a search of
 * millions of matches writes ~50 MB into fresh memory twice, and faulting
 * it in 4 kB pages was a third of the search (10 M kernels: 120 -> 80 ms).
 * NULL when there is no such room (free with g_free). */
static SlNameHit *
try_alloc_hits (gsize n)
{
  gsize bytes = MAX (n, 1) * sizeof (SlNameHit);
  void *mem = NULL;

  /* a few MB: 4 kB pages fault in faster than 2 MB ones are cleared */
  if (bytes < BIG_BUFFER)
    return g_try_new (SlNameHit, MAX (n, 1));
  if (posix_memalign (&mem, HUGE_PAGE, bytes) != 0)
    return NULL;
#ifdef MADV_HUGEPAGE
  madvise (mem, bytes & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
#endif
  return mem;
}

typedef struct {
  const SlProfile *profile;
  const SlFilter  *filter;
  SlNameMatch     *match;
  guint32          n_strings;
  guint32         *group_of[3];  /* per group kind: string id -> group, SL_NONE */
  GArray          *groups;       /* SlNameGroup; 0 is no group (kernels that did not match) */
  SlNameHit       *hits;         /* as found */
  guint            n_hits, cap;
  gint64           tmin, tmax;   /* of the hits' starts */
} Collect;

/* Kernels, API calls and NVTX ranges of the profile: no more hits than that. */
static guint
upper_bound (const SlProfile *p)
{
  guint64 n = p->api.spans.n;

  for (guint s = 0; s < p->n_streams; s++)
    n += p->streams[s].kernels.spans.n;
  for (guint t = 0; t < p->n_threads; t++)
    n += p->threads[t].nvtx.spans.n + p->threads[t].nvtx_startend.spans.n;
  return (guint) MIN (n + 1, G_MAXUINT);
}

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

/* Room for @more hits. */
static void
reserve (Collect *c, guint more)
{
  if (c->n_hits + (gsize) more <= c->cap)
    return;
  c->cap = MAX (c->n_hits + more, MIN ((gsize) c->cap * 2, G_MAXUINT));
  c->hits = g_renew (SlNameHit, c->hits, c->cap);
}

static inline void
add_hit (Collect *c, SlNameHitKind kind, guint32 owner, guint32 index, guint32 group,
         const SlSpans *spans)
{
  SlNameHit *h;
  SlNameGroup *g = &g_array_index (c->groups, SlNameGroup, group);

  reserve (c, 1);
  h = &c->hits[c->n_hits];
  h->start = spans->start[index];
  h->owner = owner;
  h->index = index;
  h->group = group;
  h->kind = kind;
  c->tmin = MIN (c->tmin, h->start);
  c->tmax = MAX (c->tmax, h->start);
  c->n_hits++;
  g->n++;
  g->total_ns += sl_spans_dur (spans, index);
}

/* Kernels of streams [s0, s1) collected into @out (room for all of them):
 * one part of the collection, run beside another on a big profile. */
typedef struct {
  const Collect  *c;
  const guint32  *func_group;
  guint           s0, s1;
  SlNameHit      *out;
  guint           n;            /* hits written */
  guint          *count;        /* per group */
  gint64         *total;
  gint64          tmin, tmax;
  GCancellable   *cancellable;
  gboolean        counting;     /* only count the matches, into n */
} KernelPart;

/* The kernels of stream @s in [lo, hi): every kernel is written as a hit
 * and only a match (group > 0) advances, so the loop over millions has no
 * branch to mispredict; the groups' sums are then taken over the hits. */
static void
collect_stream (KernelPart *part, guint s, guint lo, guint hi)
{
  const SlKernels *k = &part->c->profile->streams[s].kernels;
  const guint32 *func_group = part->func_group;
  SlNameHit *hits = part->out;
  guint n, first = part->n;

  n = first;
  for (guint i = lo; i < hi; i++)
    {
      guint32 g = func_group[k->func[i]];

      hits[n] = (SlNameHit) { k->spans.start[i], s, i, g, SL_NAME_HIT_KERNEL };
      n += g != 0;
    }
  for (guint j = first; j < n; j++)
    {
      part->count[hits[j].group]++;
      part->total[hits[j].group] += sl_spans_dur (&k->spans, hits[j].index);
    }
  /* a stream is sorted by start: its first and last hits bound it */
  if (n > first)
    {
      part->tmin = MIN (part->tmin, hits[first].start);
      part->tmax = MAX (part->tmax, hits[n - 1].start);
    }
  part->n = n;
}

/* The kernels of stream @s the filter keeps: [*lo, *hi); FALSE: none. */
static gboolean
stream_bounds (const Collect *c, guint s, guint *lo, guint *hi)
{
  const SlStream *st = &c->profile->streams[s];

  if (!sl_filter_match_stream (c->filter, st))
    return FALSE;
  sl_filter_span_bounds (c->filter, &st->kernels.spans, 0, st->kernels.spans.n, lo, hi);
  return *hi > *lo;
}

static void
count_stream (KernelPart *part, guint s, guint lo, guint hi)
{
  const guint32 *func = part->c->profile->streams[s].kernels.func;
  guint n = 0;

  for (guint i = lo; i < hi; i++)
    n += part->func_group[func[i]] != 0;
  part->n += n;
}

static gpointer
collect_part (gpointer data)
{
  KernelPart *part = data;
  guint lo, hi;

  for (guint s = part->s0; s < part->s1 && !g_cancellable_is_cancelled (part->cancellable); s++)
    if (stream_bounds (part->c, s, &lo, &hi))
      {
        if (part->counting)
          count_stream (part, s, lo, hi);
        else
          collect_stream (part, s, lo, hi);
      }
  return NULL;
}

/* Runs both parts, the second on a thread of its own. */
static void
run_parts (KernelPart *parts, guint n_parts)
{
  GThread *thread = n_parts > 1 ? g_thread_new ("sl-search", collect_part, &parts[1]) : NULL;

  collect_part (&parts[0]);
  if (thread != NULL)
    g_thread_join (thread);
}

static guint64
part_room (const Collect *c, guint s0, guint s1)
{
  guint64 room = 0;
  guint lo, hi;

  for (guint s = s0; s < s1; s++)
    if (stream_bounds (c, s, &lo, &hi))
      room += hi - lo;
  return room;
}

/* The stream where about half of the kernels lie before. */
static guint
middle_stream (const Collect *c, guint64 total)
{
  guint64 before = 0;

  for (guint s = 0; s < c->profile->n_streams; s++)
    {
      before += c->profile->streams[s].kernels.spans.n;
      if (2 * before >= total)
        return s + 1;
    }
  return c->profile->n_streams;
}

/* Two cores from this many kernels on (a thread costs ~0.1 ms); tests
 * lower it to run both parts on small profiles. */
static guint64 parallel_kernels = 1000000;

void
_sl_name_search_set_parallel_kernels (guint64 kernels)
{
  parallel_kernels = kernels;
}

/* Kernels match by short or demangled name: a group (by short name) or
 * none per function, then one look-up per kernel, the streams in two parts
 * on two cores when there are many: the first part's matches are counted
 * first, so the second writes its hits right after them (after one slot:
 * the first part's loop writes one past its last match), touching no more
 * memory than the hits.  Their order does not matter: they are sorted. */
static void
collect_kernels (Collect *c, GCancellable *cancellable)
{
  const SlProfile *p = c->profile;
  g_autofree guint32 *func_group = g_new (guint32, MAX (p->n_funcs, 1));
  guint64 total = part_room (c, 0, p->n_streams);
  KernelPart parts[2];
  guint mid, n_parts;
  SlNameGroup *groups;

  for (guint f = 0; f < p->n_funcs; f++)
    func_group[f] = sl_name_match_id (c->match, p->funcs[f].short_name)
                    || sl_name_match_id (c->match, p->funcs[f].demangled_name)
                    ? group_for (c, SL_NAME_GROUP_KERNEL, p->funcs[f].short_name) : 0;
  if (total == 0)
    return;
  reserve (c, (guint) MIN (total + 1, G_MAXUINT - c->n_hits));
  mid = total >= parallel_kernels && g_get_num_processors () > 1 ? middle_stream (c, total) : p->n_streams;
  n_parts = mid < p->n_streams ? 2 : 1;
  for (guint i = 0; i < n_parts; i++)
    parts[i] = (KernelPart) { c, func_group, i == 0 ? 0 : mid, i == 0 ? mid : p->n_streams,
                              c->hits + c->n_hits, 0,
                              g_new0 (guint, c->groups->len), g_new0 (gint64, c->groups->len),
                              G_MAXINT64, G_MININT64, cancellable, n_parts > 1 };
  if (n_parts > 1)
    {
      parts[0].n = 0;
      collect_part (&parts[0]);
      parts[1].out += parts[0].n + 1;
      parts[0].n = 0;
      parts[0].counting = parts[1].counting = FALSE;
    }
  run_parts (parts, n_parts);
  /* the slot between the parts takes the second's last hit */
  if (n_parts > 1 && parts[1].n > 0)
    parts[1].out[-1] = parts[1].out[parts[1].n - 1];
  groups = (SlNameGroup *) (void *) c->groups->data;
  for (guint i = 0; i < n_parts; i++)
    {
      c->n_hits += parts[i].n;
      c->tmin = MIN (c->tmin, parts[i].tmin);
      c->tmax = MAX (c->tmax, parts[i].tmax);
      for (guint g = 0; g < c->groups->len; g++)
        {
          groups[g].n += parts[i].count[g];
          groups[g].total_ns += parts[i].total[g];
        }
      g_free (parts[i].count);
      g_free (parts[i].total);
    }
}

/* Which string ids name API calls and NVTX ranges: a pattern none of those
 * names match skips the 10 M calls of a big profile instead of looking
 * each one's name up (a fifth of a search for a kernel name). */
enum { USE_API = 1, USE_RANGE = 2, USE_STARTEND = 4 };

typedef struct {
  guint32  n;
  guint8  *use;          /* per string id: USE_* bits */
} NameUse;

static void
name_use_free (NameUse *u)
{
  g_free (u->use);
  g_free (u);
}

static void
mark_names (NameUse *u, const guint32 *names, guint n, guint8 bit)
{
  for (guint i = 0; i < n; i++)
    if (names[i] < u->n)
      u->use[names[i]] |= bit;
}

static gpointer
name_use_build (const SlProfile *profile)
{
  NameUse *u = g_new0 (NameUse, 1);

  u->n = sl_strings_count (profile->strings);
  u->use = g_new0 (guint8, MAX (u->n, 1));
  mark_names (u, profile->api.name, profile->api.spans.n, USE_API);
  for (guint t = 0; t < profile->n_threads; t++)
    {
      mark_names (u, profile->threads[t].nvtx.name, profile->threads[t].nvtx.spans.n, USE_RANGE);
      mark_names (u, profile->threads[t].nvtx_startend.name, profile->threads[t].nvtx_startend.spans.n,
                  USE_STARTEND);
    }
  return u;
}

/* Whether any name of events of kind @bit matches. */
static gboolean
any_name_matches (Collect *c, guint8 bit)
{
  const NameUse *u = sl_profile_get_derived (c->profile, "sl-name-search-use", name_use_build,
                                             (GDestroyNotify) name_use_free);

  for (guint32 id = 0; id < u->n; id++)
    if ((u->use[id] & bit) && sl_name_match_id (c->match, id))
      return TRUE;
  return FALSE;
}

/* A thread's push/pop (or start/end) ranges. */
static void
collect_ranges (Collect *c, guint t, gboolean startend)
{
  const SlThread *thread = &c->profile->threads[t];
  const SlNvtxRanges *r = startend ? &thread->nvtx_startend : &thread->nvtx;
  SlNameHitKind kind = startend ? SL_NAME_HIT_STARTEND : SL_NAME_HIT_RANGE;

  gboolean timed = c->filter != NULL && c->filter->has_range;

  for (guint i = 0; i < r->spans.n; i++)
    if (sl_name_match_id (c->match, r->name[i]) && (!timed || sl_filter_match_time (c->filter, r->spans.start[i])))
      add_hit (c, kind, t, i, group_for (c, SL_NAME_GROUP_RANGE, r->name[i]), &r->spans);
}

static void
collect_api (Collect *c, guint t)
{
  const SlThread *thread = &c->profile->threads[t];
  const SlApiCalls *api = &c->profile->api;

  gboolean timed = c->filter != NULL && c->filter->has_range;

  for (guint i = thread->api_first; i < thread->api_first + thread->api_count; i++)
    if (sl_name_match_id (c->match, api->name[i]) && (!timed || sl_filter_match_time (c->filter, api->spans.start[i])))
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

static void
insertion_sort (SlNameHit *v, guint n)
{
  for (guint i = 1; i < n; i++)
    {
      SlNameHit x = v[i];
      guint j = i;

      for (; j > 0 && compare_hits (&x, &v[j - 1]) < 0; j--)
        v[j] = v[j - 1];
      v[j] = x;
    }
}

static int
compare_hits_cb (const void *a, const void *b)
{
  return compare_hits (a, b);
}

/* Buckets [0, n_buckets) of @v[0, n) by time (bucket of t: (t - tmin) >>
 * shift), each sorted: counted, placed into @out, then sorted in place;
 * a crowded bucket (a burst) falls back on qsort.  @pos: n_buckets + 1. */
static void
bucket_sort (const SlNameHit *v, guint n, gint64 tmin, guint shift, guint n_buckets, guint *pos,
             SlNameHit *out)
{
  guint lo = 0;

  memset (pos, 0, (n_buckets + 1) * sizeof *pos);
  for (guint i = 0; i < n; i++)
    pos[(((guint64) v[i].start - (guint64) tmin) >> shift) + 1]++;
  for (guint b = 0; b < n_buckets; b++)
    pos[b + 1] += pos[b];
  for (guint i = 0; i < n; i++)
    out[pos[((guint64) v[i].start - (guint64) tmin) >> shift]++] = v[i];
  /* pos[b] is now where bucket b ends */
  for (guint b = 0; b < n_buckets; lo = pos[b++])
    if (pos[b] - lo > 32)
      qsort (out + lo, pos[b] - lo, sizeof (SlNameHit), compare_hits_cb);
    else
      insertion_sort (out + lo, pos[b] - lo);
}

/* Coarse buckets of a big sort: the first pass writes into this many places
 * at once, where one bucket per two hits wrote each hit to a cache line of
 * its own across ~50 MB (most of the search at 10 M kernels). */
#define COARSE_BITS 8
#define FINE_MIN (1u << 12)

/* @v sorted in place by time, then kind, owner and index, with @scratch
 * (room for @n): buckets of equal width, about two hits each.  Big sets go
 * in two passes: by the top COARSE_BITS of the bucket into @scratch, then
 * each coarse bucket (a few hundred kB) by its fine buckets back into @v,
 * in cache. */
void
_sl_name_hits_sort (SlNameHit *v, guint n, gint64 tmin, gint64 tmax, SlNameHit *scratch)
{
  guint n_buckets = 1, bits = 0, shift = 0;
  g_autofree guint *pos = NULL;

  while (n_buckets < n / 2 && n_buckets < (1u << 30))
    {
      n_buckets *= 2;
      bits++;
    }
  /* unsigned: the difference of any two times fits */
  while (n > 0 && (((guint64) tmax - (guint64) tmin) >> shift) >= n_buckets)
    shift++;
  if (n_buckets < FINE_MIN << COARSE_BITS)
    {
      pos = g_new (guint, n_buckets + 1);
      bucket_sort (v, n, tmin, shift, n_buckets, pos, scratch);
      memcpy (v, scratch, (gsize) n * sizeof *v);
      return;
    }
  {
    guint coarse = 1u << COARSE_BITS, fine = n_buckets >> COARSE_BITS, coarse_shift = shift + bits - COARSE_BITS;
    guint cpos[(1u << COARSE_BITS) + 1] = { 0 };
    guint lo = 0;

    pos = g_new (guint, fine + 1);
    for (guint i = 0; i < n; i++)
      cpos[(((guint64) v[i].start - (guint64) tmin) >> coarse_shift) + 1]++;
    for (guint b = 0; b < coarse; b++)
      cpos[b + 1] += cpos[b];
    for (guint i = 0; i < n; i++)
      scratch[cpos[((guint64) v[i].start - (guint64) tmin) >> coarse_shift]++] = v[i];
    for (guint b = 0; b < coarse; lo = cpos[b++])
      {
        gint64 base = (gint64) ((guint64) tmin + ((guint64) b << coarse_shift));

        bucket_sort (scratch + lo, cpos[b] - lo, base, shift, fine, pos, v + lo);
      }
  }
}

/* One sort's scratch is kept for the next search (typing a pattern runs a
 * search per key): its ~50 MB at 10 M kernels need not be faulted in and
 * cleared again.  Only big ones, and none of more than KEEP_MAX. */
#define KEEP_MAX ((gsize) 128 << 20)
G_LOCK_DEFINE_STATIC (spare);
static SlNameHit *spare;
static gsize      spare_n;

static SlNameHit *
take_scratch (gsize n, gsize *have)
{
  SlNameHit *s = NULL;

  G_LOCK (spare);
  if (spare != NULL && spare_n >= n)
    {
      s = g_steal_pointer (&spare);
      *have = spare_n;
    }
  G_UNLOCK (spare);
  if (s != NULL)
    return s;
  *have = MAX (n, 1);
  s = try_alloc_hits (*have);
  return s != NULL ? s : g_new (SlNameHit, *have);
}

static void
give_scratch (SlNameHit *s, gsize n)
{
  gsize bytes = n * sizeof (SlNameHit);

  if (bytes >= BIG_BUFFER && bytes <= KEEP_MAX)
    {
      G_LOCK (spare);
      if (spare == NULL || spare_n < n)
        {
          SlNameHit *old = spare;

          spare = g_steal_pointer (&s);
          spare_n = n;
          s = old;
        }
      G_UNLOCK (spare);
    }
  g_free (s);
}

/* Groups by total time; each hit's group renumbered; order[] filled by a
 * counting sort over the hits, which keeps each group's hits by start. */
static void
finish_groups (SlNameSearch *self, Collect *c)
{
  guint n = c->groups->len - 1;
  g_autofree guint32 *remap = g_new (guint32, n + 1);
  g_autofree guint *fill = g_new (guint, MAX (n, 1));
  SlNameGroup *groups = (SlNameGroup *) (void *) c->groups->data + 1;

  /* the old index rides along in first while sorting */
  for (guint g = 0; g < n; g++)
    groups[g].first = g + 1;
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
  self->groups = g_new0 (SlNameGroup, MAX (n, 1));
  memcpy (self->groups, groups, n * sizeof (SlNameGroup));
}

static void
collect_clear (Collect *c)
{
  for (guint k = 0; k < G_N_ELEMENTS (c->group_of); k++)
    g_free (c->group_of[k]);
  g_clear_pointer (&c->groups, g_array_unref);
  g_clear_pointer (&c->match, sl_name_match_free);
  g_free (c->hits);
}

SlNameSearch *
sl_name_search_compute (const SlProfile *profile, const SlFilter *filter, const char *pattern,
                        GCancellable *cancellable, GError **error)
{
  g_autoptr(SlNameSearch) self = NULL;
  Collect c = { profile, filter, .tmin = G_MAXINT64, .tmax = G_MININT64 };

  g_return_val_if_fail (profile != NULL && pattern != NULL, NULL);
  c.match = sl_name_match_new (profile, pattern, error);
  if (c.match == NULL)
    return NULL;
  c.n_strings = sl_strings_count (profile->strings);
  c.groups = g_array_new (FALSE, TRUE, sizeof (SlNameGroup));
  g_array_set_size (c.groups, 1);   /* group 0: kernels that did not match */
  /* on a big profile every event could match: reserved (address space,
   * not memory) so the hits never move; else they grow as they come */
  c.cap = upper_bound (profile);
  c.hits = c.cap * sizeof (SlNameHit) >= 8 * BIG_BUFFER ? try_alloc_hits (c.cap) : NULL;
  if (c.hits == NULL)
    c.cap = 0;
  collect_kernels (&c, cancellable);
  {
    gboolean api = any_name_matches (&c, USE_API), ranges = any_name_matches (&c, USE_RANGE);
    gboolean startend = any_name_matches (&c, USE_STARTEND);

    for (guint t = 0; t < profile->n_threads && !g_cancellable_is_cancelled (cancellable); t++)
      if (sl_filter_match_thread (filter, profile, t))
        {
          if (api)
            collect_api (&c, t);
          if (ranges)
            collect_ranges (&c, t, FALSE);
          if (startend)
            collect_ranges (&c, t, TRUE);
        }
  }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      collect_clear (&c);
      return NULL;
    }
  self = g_new0 (SlNameSearch, 1);
  self->pattern = g_strdup (pattern);
  self->n_hits = c.n_hits;
  {
    gsize have = 0;
    SlNameHit *scratch = take_scratch (c.n_hits, &have);

    if (c.hits == NULL)
      c.hits = g_new (SlNameHit, 1);
    _sl_name_hits_sort (c.hits, c.n_hits, c.tmin, c.tmax, scratch);
    give_scratch (scratch, have);
  }
  /* the hits stay where they were found (a reservation for every event
   * shrinks to them: its pages past them were never touched) */
  self->hits = g_steal_pointer (&c.hits);
  if (c.cap > 2 * (gsize) c.n_hits + 1024)
    self->hits = g_realloc (self->hits, MAX (c.n_hits, 1) * sizeof (SlNameHit));
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
