/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-launch.c: kernel launch overhead per kernel name. */
#include "sl-launch.h"
#include "sl-band-select.h"
#include "sl-graph-launches.h"
#include "sl-int.h"
#include "sl-json.h"
#include "sl-stats.h"
#include "sl-parallel.h"

#include <string.h>

#define WINDOW 32768   /* API calls per step of the walk (~400 KB of their arrays) */
#define CHUNK  2048    /* delays handed to the statistics at a time */
#define SPLIT_MIN_KERNELS (1 << 18)   /* fewer: a second thread costs more than it saves */

typedef struct {
  const SlProfile *profile;
  const guint32   *func_key;
  SlStatsTable    *queue;    /* the delays go here (walk), or into @band (walk_bands) */
  SlBandSelect    *band;
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
  gboolean graph = w->graphs->n_calls > 0 && sl_graph_launches_contains (w->graphs, a);
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

/* The queue delay, shares of call time and kernel time of kernel @i of
 * @k (launched by call @a) into @key's band and totals.  TRUE when it is
 * the first kernel met of its call (see visit_kernel): then *@launch is the
 * launch's queue delay. */
static inline gboolean
band_kernel (Walk *w, const SlKernels *k, guint i, guint32 a, guint key, gint64 *call_ns, gint64 *launch)
{
  const SlSpans *api = &w->profile->api.spans;
  gint64 api_start = api->start[a], delay = k->spans.start[i] - api_start;
  gboolean graph = w->graphs->n_calls > 0 && sl_graph_launches_contains (w->graphs, a);

  *call_ns = sl_spans_dur (api, a);
  sl_band_key_add (&w->band->keys[key], delay);
  w->api_total[key] = sl_sat_add (w->api_total[key], graph ? *call_ns / sl_graph_launches_kernels (w->graphs, a)
                                                          : *call_ns);
  w->kernel_total[key] = sl_sat_add (w->kernel_total[key], sl_spans_dur (&k->spans, i));
  *launch = delay;
  if (!graph)
    return TRUE;
  if (!g_hash_table_add (w->graphs_seen, GUINT_TO_POINTER (a)))
    return FALSE;
  w->graph_launches++;
  *launch = sl_graph_launches_first (w->graphs, a) - api_start;
  return TRUE;
}

/* walk() for the bands, in one pass: every launch's sums stay in
 * registers (they would be a chain through memory, a value at a time). */
static void
walk_bands (Walk *w)
{
  const SlProfile *profile = w->profile;
  SlBandKey all = w->band->keys[w->all_key];
  guint64 unlinked = 0, launches = 0;
  gint64 launch_api_total = 0;
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
              gint64 launch, call_ns;
              if (a == SL_NONE)
                {
                  unlinked++;
                  continue;
                }
              if (a >= limit)
                break;
              if (!band_kernel (w, k, i, a, w->func_key[k->func[i]], &call_ns, &launch))
                continue;
              sl_band_key_add (&all, launch);
              launches++;
              launch_api_total = sl_sat_add (launch_api_total, call_ns);
            }
          w->first[s] = i;
          left |= i < end;
        }
    }
  w->band->keys[w->all_key] = all;
  w->unlinked = unlinked;
  w->launches = launches;
  w->launch_api_total = launch_api_total;
}

/* Whether walk_bands_plain() finds what walk_bands() would: no graph
 * launch (each kernel is a launch of its own, so the launches' figures
 * are the kernels' summed over the names), no duration of 2^32-1 ns or
 * more (each fits a guint32, so fewer than 2^32 of them sum exactly in a
 * guint64, and as they are not negative the clamped exact sum is the
 * saturating one), and the API indexes far below SL_NONE (a window's limit
 * never reaches it). */
static gboolean
plain_profile (const Walk *w)
{
  const SlProfile *profile = w->profile;
  guint64 kernels = 0;

  if (w->graphs->n_calls > 0 || profile->api.spans.n_long > 0 || profile->api.spans.n >= G_MAXUINT32 - 2 * WINDOW)
    return FALSE;
  for (guint s = 0; s < profile->n_streams; s++)
    {
      if (profile->streams[s].kernels.spans.n_long > 0)
        return FALSE;
      kernels += w->last[s] - w->first[s];
    }
  return kernels < G_MAXUINT32;
}

/* A name's figures in walk_bands_plain(): all that a kernel updates, in
 * one place (one base register for them all).  The band's values run from
 * band to next, with room up to end.  A value is kept with a branch: few
 * are (a band holds a few hundredths of its key's values), so the branch
 * is nearly always predicted and costs less than a store per value. */
typedef struct {
  gint64   lo;        /* the band is lo <= v <= lo + width */
  guint64  width;
  guint64  counted;   /* the values (low half) and those below the band (high half) */
  gint64  *next;
  gint64  *end;
  gint64   total;     /* summed delays (the walk gives up when it would overflow) */
  guint64  api;       /* summed durations of the calls */
  guint64  kernel;    /* and of the kernels */
  gint64  *band;
} PlainKey;

/* counted's two halves: fewer than 2^32 kernels (plain_profile()) */
#define PLAIN_ONE   G_GUINT64_CONSTANT (1)
#define PLAIN_BELOW (G_GUINT64_CONSTANT (1) << 32)

typedef struct {
  const gint64  *api_start;
  const guint32 *api_dur;
  PlainKey     **func_key;  /* per function, its name's figures */
  PlainKey      *keys;
  guint          n_keys;
  PlainKey       all;       /* its count, total and sums stay 0 */
  guint64        unlinked;
  gboolean       overflow;  /* a name's summed delays passed 2^63 */
} Plain;

static void
plain_key_grow (PlainKey *k)
{
  gsize n = k->next - k->band, cap = sl_band_cap_after (k->end - k->band);

  k->band = g_renew (gint64, k->band, cap);
  k->next = k->band + n;
  k->end = k->band + cap;
}

/* Room in @k's band for @n more values. */
static void
plain_key_room (PlainKey *k, gsize n)
{
  while ((gsize) (k->end - k->next) < n)
    plain_key_grow (k);
}

/* @v into @k's band (which has room for it) or below it. */
static inline void
plain_key_place (PlainKey *k, gint64 v)
{
  k->counted += PLAIN_ONE + (v < k->lo ? PLAIN_BELOW : 0);
  if (G_UNLIKELY ((guint64) v - (guint64) k->lo <= k->width))
    *k->next++ = v;
}

/* @b's band as a PlainKey, and back. */
static void
plain_key_from (PlainKey *k, const SlBandKey *b)
{
  *k = (PlainKey) { .lo = b->lo, .width = (guint64) b->hi - (guint64) b->lo,
                    .counted = b->count + b->below * PLAIN_BELOW, .next = b->band + b->n_band,
                    .end = b->band + b->cap, .total = (gint64) b->total, .band = b->band };
}

static void
plain_key_to (const PlainKey *k, SlBandKey *b)
{
  b->count = k->counted & (PLAIN_BELOW - 1);
  b->below = k->counted >> 32;
  b->total = k->total;
  b->band = k->band;
  b->n_band = k->next - k->band;
  b->cap = k->end - k->band;
}

#define RUN 1024   /* kernels of one plain_run(), that every band has room for */

/* The kernels [@i, @end) of @k launched by a call before @limit into @p
 * (see walk_bands_plain), at most RUN of them; returns where it stopped.
 * Not inlined, so that its loop has the registers to itself: what changes
 * from kernel to kernel is in locals (a sum kept in memory would chain
 * every kernel's add to the previous one's store); a name's figures are in
 * memory, as are the rare cases (no launching call, an overflow).  No band
 * grows in it. */
static G_GNUC_NO_INLINE guint
plain_run (Plain *p, const SlKernels *k, guint from, guint end, guint64 limit)
{
  gsize i = from;   /* not a guint, whose wrapping would take a register of its own */
  const guint32 *kapi = k->api, *kfunc = k->func, *kdur = k->spans.dur, *api_dur = p->api_dur;
  PlainKey *const *func_key = p->func_key;
  const gint64 *kstart = k->spans.start, *api_start = p->api_start;
  const gint64 all_lo = p->all.lo;
  const guint64 all_width = p->all.width;
  gint64 *all_next = p->all.next;
  guint64 misc = 0;   /* every launch's values below its band, the kernels without a call (<< 32),
                       * an overflow (the top bit): one register, not p */

  for (; i < end; i++)
    {
      guint32 a = kapi[i];
      PlainKey *key;
      gint64 delay;

      if (G_UNLIKELY (a >= limit))   /* SL_NONE is too */
        {
          if (a != SL_NONE)
            break;
          misc += G_GUINT64_CONSTANT (1) << 32;
          continue;
        }
      key = func_key[kfunc[i]];
      delay = kstart[i] - api_start[a];
      if (G_UNLIKELY (__builtin_add_overflow (key->total, delay, &key->total)))
        misc |= G_GUINT64_CONSTANT (1) << 63;
      key->api += api_dur[a];
      key->kernel += kdur[i];
      plain_key_place (key, delay);
      /* every launch's band: the count is the names' */
      misc += delay < all_lo;
      if (G_UNLIKELY ((guint64) delay - (guint64) all_lo <= all_width))
        *all_next++ = delay;
    }
  p->all.next = all_next;
  p->all.counted += (misc & 0xffffffff) * PLAIN_BELOW;
  p->unlinked += (misc >> 32) & 0x7fffffff;
  p->overflow |= misc >> 63;
  return i;
}

/* plain_run() over [@i, @end), RUN kernels at a time with room for them
 * in every band. */
static guint
plain_visit (Plain *p, const SlKernels *k, guint i, guint end, guint64 limit)
{
  while (i < end)
    {
      guint n = MIN (end - i, RUN), stop;

      for (guint key = 0; key < p->n_keys; key++)
        plain_key_room (&p->keys[key], n);
      plain_key_room (&p->all, n);
      stop = plain_run (p, k, i, i + n, limit);
      if (stop < i + n)
        return stop;
      i = stop;
    }
  return i;
}

/* The sums of walk_bands_plain() into the walk and the band: per name,
 * then over all the kernels (here every kernel is a launch). */
static void
plain_finish (Walk *w, const Plain *p)
{
  SlBandKey *keys = w->band->keys;
  __int128 total = 0, api_all = 0;
  guint64 count = 0;

  for (guint key = 0; key < w->all_key; key++)
    {
      const PlainKey *k = &p->keys[key];

      plain_key_to (k, &keys[key]);
      w->api_total[key] = (gint64) MIN (k->api, (guint64) G_MAXINT64);
      w->kernel_total[key] = (gint64) MIN (k->kernel, (guint64) G_MAXINT64);
      count += keys[key].count;
      total += keys[key].total;
      api_all += k->api;
    }
  plain_key_to (&p->all, &keys[w->all_key]);
  keys[w->all_key].count = count;
  keys[w->all_key].total = total;
  w->unlinked = p->unlinked;
  w->launches = count;
  w->launch_api_total = sl_sat_from_i128 (api_all);
}

/* Every stream's kernels from *@first[s] to @last[s] into @p, the streams
 * side by side through windows of API indexes (see walk()). */
static void
plain_walk (Plain *p, const SlProfile *profile, guint *first, const guint *last)
{
  gboolean left = TRUE;

  for (guint64 limit = WINDOW; left; limit += WINDOW)
    {
      left = FALSE;
      for (guint s = 0; s < profile->n_streams; s++)
        {
          first[s] = plain_visit (p, &profile->streams[s].kernels, first[s], last[s], limit);
          left |= first[s] < last[s];
        }
    }
}

/* A second part's figures: @k's band, nothing counted, a band buffer of
 * its own. */
static void
plain_key_part (PlainKey *part, const PlainKey *k)
{
  gsize cap = MAX ((gsize) (k->end - k->band) / 2, 256);

  *part = (PlainKey) { .lo = k->lo, .width = k->width, .band = g_new (gint64, cap) };
  part->next = part->band;
  part->end = part->band + cap;
}

/* @b's figures after @a's (the band's values in any order: they are selected). */
static void
plain_key_merge (Plain *into, PlainKey *a, PlainKey *b)
{
  gsize n = b->next - b->band;

  a->counted += b->counted;
  if (__builtin_add_overflow (a->total, b->total, &a->total))
    into->overflow = TRUE;
  a->api += b->api;
  a->kernel += b->kernel;
  plain_key_room (a, n);
  memcpy (a->next, b->band, n * sizeof (gint64));
  a->next += n;
  g_free (b->band);
}

/* Every stream's kernels in two halves, each into figures of its own. */
typedef struct {
  Plain           *p[2];
  const SlProfile *profile;
  guint           *first[2];
  const guint     *last[2];
} PlainHalves;

static void
plain_half_run (guint part, guint n_parts, gpointer data)
{
  PlainHalves *h = data;

  plain_walk (h->p[part], h->profile, h->first[part], h->last[part]);
}

/* plain_walk() in two halves at once: per stream, its first half of the
 * kernels into @p, its second into figures of their own, added to @p's
 * after.  The sums are exact either way (a partial sum that overflows is
 * an overflow, as the whole's would be). */
static void
plain_walk_split (Plain *p, const SlProfile *profile, guint *first, const guint *last)
{
  guint n = MAX (profile->n_streams, 1);
  g_autofree guint *mid = g_new (guint, n);
  g_autofree guint *second_first = g_new (guint, n);
  g_autofree PlainKey *second_keys = g_new (PlainKey, MAX (p->n_keys, 1));
  Plain second = *p;
  PlainHalves halves = { { p, &second }, profile, { first, second_first }, { mid, last } };

  for (guint s = 0; s < profile->n_streams; s++)
    mid[s] = second_first[s] = first[s] + (last[s] - first[s]) / 2;
  for (guint key = 0; key < p->n_keys; key++)
    plain_key_part (&second_keys[key], &p->keys[key]);
  plain_key_part (&second.all, &p->all);
  second.keys = second_keys;
  second.func_key = g_new (PlainKey *, MAX (profile->n_funcs, 1));
  for (guint f = 0; f < profile->n_funcs; f++)
    second.func_key[f] = second_keys + (p->func_key[f] - p->keys);
  second.unlinked = 0;
  second.overflow = FALSE;

  sl_parallel_run (2, plain_half_run, &halves);
  for (guint key = 0; key < p->n_keys; key++)
    plain_key_merge (p, &p->keys[key], &second_keys[key]);
  plain_key_merge (p, &p->all, &second.all);
  p->unlinked += second.unlinked;
  p->overflow |= second.overflow;
  g_free (second.func_key);
  for (guint s = 0; s < profile->n_streams; s++)
    first[s] = last[s];
}

/* walk_bands() where plain_profile() holds: a kernel's work is a few
 * adds to its name's sums and two band updates, without the graph checks
 * nor the saturating adds.  FALSE when a name's summed delays would pass
 * 2^63 ns (a damaged file): then the walk's figures are not to be used. */
static gboolean
walk_bands_plain (Walk *w)
{
  const SlProfile *profile = w->profile;
  guint n_keys = w->all_key;
  g_autofree PlainKey *keys = g_new (PlainKey, MAX (n_keys, 1));
  g_autofree PlainKey **func_key = g_new (PlainKey *, MAX (profile->n_funcs, 1));
  Plain p = { profile->api.spans.start, profile->api.spans.dur, func_key, keys, n_keys, { 0 }, 0, FALSE };
  guint64 kernels = 0;

  for (guint f = 0; f < profile->n_funcs; f++)
    func_key[f] = &keys[w->func_key[f]];

  for (guint key = 0; key < n_keys; key++)
    plain_key_from (&keys[key], &w->band->keys[key]);
  plain_key_from (&p.all, &w->band->keys[n_keys]);
  for (guint s = 0; s < profile->n_streams; s++)
    kernels += w->last[s] - w->first[s];
  if (sl_analysis_threads () > 1 && kernels >= SPLIT_MIN_KERNELS)
    plain_walk_split (&p, profile, w->first, w->last);
  else
    plain_walk (&p, profile, w->first, w->last);
  plain_finish (w, &p);
  return !p.overflow;
}

/* What is gathered per kernel name (key); key n_keys gathers every launch,
 * for the overall percentile. */
typedef struct {
  SlNameKeys    keys;
  guint32      *func_key;
  guint         n_keys;
  SlStatsTable  queue;     /* queue delays: count, total, then values */
  guint        *p95;       /* per key, its percentile request in queue */
  gint64       *p95_ns;    /* per key, the answer */
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
  pn->p95_ns = g_new0 (gint64, pn->n_keys + 1);
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
  g_free (pn->p95_ns);
  g_free (pn->stats);
}

#define SAMPLE_RUN    64     /* consecutive kernels of a stream per sampled run */
#define SAMPLE_EVERY  64     /* kernels per sampled one */
#define SAMPLE_BLOCK  (SAMPLE_RUN * SAMPLE_EVERY)
#define SAMPLE_ROOM   ((gsize) 8 << 20)   /* values reserved for the samples at most */

/* The delays of the kernels [@i, @end) of @k into @samples (see
 * sample_delays).  Their calls are asked for first, all at once: each is
 * a cache miss, and they are answered together rather than one after the
 * other. */
static void
sample_run (const PerName *pn, const SlProfile *profile, const SlGraphLaunches *graphs,
            const SlKernels *k, guint i, guint end, SlBandSample *samples)
{
  const gint64 *api_start = profile->api.spans.start;

  for (guint j = i; j < end; j++)
    if (k->api[j] != SL_NONE)
      __builtin_prefetch (&api_start[k->api[j]]);
  for (; i < end; i++)
    if (k->api[i] != SL_NONE)
      {
        gint64 delay = k->spans.start[i] - api_start[k->api[i]];

        sl_band_sample_add (&samples[pn->func_key[k->func[i]]], delay);
        if (!sl_graph_launches_contains (graphs, k->api[i]))
          sl_band_sample_add (&samples[pn->n_keys], delay);
      }
}

/* Where in block @b of stream @s its sampled run starts, among @room
 * places: spread by a hash of both, so that no period of the kernels (an
 * iteration's) lines up with the blocks and biases the sample. */
static guint
sample_offset (guint s, guint b, guint room)
{
  guint32 h = (s * 0x9e3779b1u) ^ (b * 0x85ebca77u);

  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  return h % room;
}

/* The queue delays of a sample of the kernels, per key and (those not of
 * graph launches) under the key of every launch: where each key's 95th
 * percentile lies, roughly (sl_band_select checks it exactly).  A run of
 * SAMPLE_RUN consecutive kernels in every block of SAMPLE_BLOCK of a
 * stream, at a place of its own: a stream's launching calls are nearly in
 * order, so a run's calls are read together, and the runs spread over
 * every stream and the whole capture (queue delays change as it runs).
 * Nothing else is read: no pass over the streams. */
static SlBandSample *
sample_delays (const PerName *pn, const SlProfile *profile, const guint *first, const guint *last)
{
  const SlGraphLaunches *graphs = sl_graph_launches_get (profile);
  SlBandSample *samples = g_new0 (SlBandSample, pn->n_keys + 1);
  gsize most = 0;

  /* room for every sampled value in each key, so that none grows (a growth
   * copies; the pages never written cost nothing), unless the keys are so
   * many that even the untouched room would be too much to ask: then only
   * the key of every launch */
  for (guint s = 0; s < profile->n_streams; s++)
    most += (last[s] - first[s]) / SAMPLE_BLOCK * SAMPLE_RUN + SAMPLE_RUN;
  for (guint key = 0; key <= pn->n_keys; key++)
    if (key == pn->n_keys || most * (pn->n_keys + 1) <= SAMPLE_ROOM)
      {
        samples[key].cap = most;
        samples[key].v = g_new (gint64, most);
      }
  for (guint s = 0; s < profile->n_streams; s++)
    for (guint block = first[s], b = 0; block < last[s]; block += MIN (last[s] - block, SAMPLE_BLOCK), b++)
      {
        guint len = MIN (last[s] - block, SAMPLE_BLOCK), run = MIN (len, SAMPLE_RUN);
        guint at = block + sample_offset (s, b, len - run + 1);

        sample_run (pn, profile, graphs, &profile->streams[s].kernels, at, at + run, samples);
      }
  return samples;
}

static Walk *
walk_new (PerName *pn, const SlProfile *profile, const guint *last)
{
  Walk *w = g_new0 (Walk, 1);

  *w = (Walk) { profile, pn->func_key, &pn->queue, NULL, pn->n_keys, g_new (guint, MAX (profile->n_streams, 1)),
                (guint *) last, TRUE, pn->api_total, pn->kernel_total, 0,
                sl_graph_launches_get (profile), g_hash_table_new (NULL, NULL), 0, 0, 0, 0, 0 };
  return w;
}

static void
walk_free (SlLaunch *self, Walk *w)
{
  self->unlinked = w->unlinked;
  self->totals.launches = w->launches;
  self->totals.api_total_ns = w->launch_api_total;
  self->graph_launches = w->graph_launches;
  g_free (w->first);
  g_hash_table_unref (w->graphs_seen);
  g_free (w);
}

/* One walk, the delays into sampled bands: FALSE (and nothing set) when
 * some key's percentile fell outside its band. */
static gboolean
measure_by_bands (SlLaunch *self, PerName *pn, const SlProfile *profile, const guint *first, const guint *last)
{
  g_autofree SlBandSample *samples = sample_delays (pn, profile, first, last);
  Walk *w = walk_new (pn, profile, last);
  SlBandSelect band;
  gboolean ok = TRUE;

  sl_band_select_init (&band, pn->n_keys + 1, 95.0, samples);
  /* a sampled kernel in SAMPLE_EVERY: a quarter more for the runs' spread */
  sl_band_select_reserve (&band, SAMPLE_EVERY * 1.25);
  w->band = &band;
  memcpy (w->first, first, profile->n_streams * sizeof (guint));
  if (plain_profile (w))
    ok = walk_bands_plain (w);
  else
    walk_bands (w);
  for (guint key = 0; key <= pn->n_keys && ok; key++)
    {
      ok = sl_band_select_get (&band, key, &pn->p95_ns[key]);
      pn->stats[key].count = band.keys[key].count;
      pn->stats[key].total = sl_sat_from_i128 (band.keys[key].total);   /* as the table's */
    }
  if (ok)
    walk_free (self, w);
  else
    {
      g_free (w->first);
      g_hash_table_unref (w->graphs_seen);
      g_free (w);
      memset (pn->api_total, 0, MAX (pn->n_keys, 1) * sizeof (gint64));
      memset (pn->kernel_total, 0, MAX (pn->n_keys, 1) * sizeof (gint64));
    }
  sl_band_select_clear (&band);
  return ok;
}

/* Walks the kernels of the streams in the filter, once per pass of the
 * queue table (the exact way whatever the delays). */
static void
measure_by_table (SlLaunch *self, PerName *pn, const SlProfile *profile, const guint *first, const guint *last)
{
  Walk *w = walk_new (pn, profile, last);

  while (sl_stats_table_pass (&pn->queue))
    {
      memcpy (w->first, first, profile->n_streams * sizeof (guint));
      walk (w);
      w->totals = FALSE;
    }
  walk_free (self, w);
  sl_stats_table_finish (&pn->queue, pn->stats);
  for (guint key = 0; key <= pn->n_keys; key++)
    pn->p95_ns[key] = sl_stats_table_get (&pn->queue, pn->p95[key]);
}

/* Sets the kernels without a launching call, the launches (launching
 * calls) of @self, and per key the count, total and 95th percentile of
 * the queue delays.  One walk of the kernels (each reads its launching
 * call: most of the cost) when the sampled bands hold the percentiles,
 * else a walk per pass of the statistics table. */
static void
measure (SlLaunch *self, PerName *pn, const SlProfile *profile, const SlFilter *filter)
{
  g_autofree guint *first = g_new0 (guint, MAX (profile->n_streams, 1));
  g_autofree guint *last = g_new0 (guint, MAX (profile->n_streams, 1));

  for (guint s = 0; s < profile->n_streams; s++)
    if (sl_filter_match_stream (filter, &profile->streams[s]))
      sl_filter_span_bounds (filter, &profile->streams[s].kernels.spans, 0,
                             profile->streams[s].kernels.spans.n, &first[s], &last[s]);
  if (!measure_by_bands (self, pn, profile, first, last))
    measure_by_table (self, pn, profile, first, last);
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
               pn->p95_ns[key]);
      self->n_launch_bound += row->launch_bound;
      self->kernels += row->launches;
      all_kernel = sl_sat_add (all_kernel, pn->kernel_total[key]);
    }
  if (self->totals.launches > 0)
    set_row (&self->totals, self->totals.launches, self->totals.api_total_ns, pn->stats[pn->n_keys].total,
             all_kernel, pn->p95_ns[pn->n_keys]);
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
