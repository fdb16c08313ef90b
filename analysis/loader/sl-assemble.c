/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-assemble.c: turning the loader's per-track builders into the final
 * profile: sorting, NVTX nesting, one API array, linking GPU work to its
 * launching call through (process, correlationId), the time range. */
#include "sl-loader-private.h"
#include "sl-huge-pages.h"
#include "sl-lanes.h"
#include "sl-radix.h"

#include <string.h>

/* ---- assembling: GPU side ------------------------------------------------ */

static int
compare_stream_builders (gconstpointer a, gconstpointer b)
{
  const SlStream *x = &(*(SlStreamBuilder *const *) a)->stream;
  const SlStream *y = &(*(SlStreamBuilder *const *) b)->stream;

  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->context != y->context)
    return x->context < y->context ? -1 : 1;
  if (x->stream != y->stream)
    return x->stream < y->stream ? -1 : 1;
  return 0;
}

/* A stream in start order in the file keeps every SL_ROWID_STEP-th rowid
 * (and the last), when its rowids rise with the index (they do when the
 * table was read in rowid order, as b-trees and SQLite read tables). */
static void
mark_rowids (SlKernels *k)
{
  guint n = k->spans.n, n_marks = n / SL_ROWID_STEP + 2;

  for (guint i = 1; i < n; i++)
    if (k->rowid[i] <= k->rowid[i - 1])
      return;
  k->rowid_marks = g_new (guint32, n_marks);
  for (guint m = 0; m + 1 < n_marks; m++)
    k->rowid_marks[m] = k->rowid[MIN ((gsize) m * SL_ROWID_STEP, (gsize) n - 1)];
  k->rowid_marks[n_marks - 1] = k->rowid[n - 1];
  g_clear_pointer (&k->rowid, g_free);
}

static void
sort_kernels (SlStreamBuilder *b)
{
  SlKernels *k = &b->stream.kernels;
  g_autofree guint32 *order = _sl_spans_sort (&k->spans);

  if (order == NULL)
    {
      if (k->spans.n > 0)
        mark_rowids (k);
      return;
    }
  _sl_permute_u32 (k->func, order, k->spans.n);
  _sl_permute_u32 (b->kernel_corr, order, k->spans.n);
  _sl_permute_u32 (k->rowid, order, k->spans.n);
}

static void
sort_copies (SlCopies *c)
{
  g_autofree guint32 *order = _sl_spans_sort (&c->spans);

  if (order == NULL)
    return;
  _sl_permute_u8 (c->kind, order, c->spans.n);
  _sl_permute_u64 (c->bytes, order, c->spans.n);
  _sl_permute_u32 (c->corr, order, c->spans.n);
}

static void
shrink_kernels (SlStreamBuilder *b)
{
  SlKernels *k = &b->stream.kernels;
  guint n = k->spans.n;

  _sl_spans_shrink (&k->spans);
  if (n == 0)
    {
      _sl_kernels_clear (k);
      g_clear_pointer (&b->kernel_corr, g_free);
      return;
    }
  k->func = g_renew (guint32, k->func, n);
  if (k->rowid != NULL)
    k->rowid = g_renew (guint32, k->rowid, n);
  b->kernel_corr = g_renew (guint32, b->kernel_corr, n);
  k->api = g_new (guint32, n);
}

static void
shrink_copies (SlCopies *c)
{
  guint n = c->spans.n;

  _sl_spans_shrink (&c->spans);
  if (n == 0)
    {
      _sl_copies_clear (c);
      return;
    }
  c->kind = g_renew (guint8, c->kind, n);
  c->bytes = g_renew (guint64, c->bytes, n);
  c->corr = g_renew (guint32, c->corr, n);
  c->api = g_new (guint32, n);
}

static GPtrArray *
stream_builders (SlLoader *loader)
{
  return ((SlGpuChunk *) g_ptr_array_index (loader->gpu_chunks, 0))->stream_builders;
}

static void
assemble_streams (SlLoader *loader)
{
  SlProfile *profile = loader->profile;
  GPtrArray *builders = stream_builders (loader);
  SlGpuChunk *chunk = g_ptr_array_index (loader->gpu_chunks, 0);

  g_ptr_array_sort (builders, compare_stream_builders);
  profile->n_streams = builders->len;
  profile->streams = g_new0 (SlStream, MAX (builders->len, 1u));
  for (guint i = 0; i < builders->len; i++)
    {
      SlStreamBuilder *b = g_ptr_array_index (builders, i);
      profile->streams[i] = b->stream;
      /* The arrays now belong to the profile. */
      memset (&b->stream, 0, sizeof b->stream);
      profile->counts.kernels += profile->streams[i].kernels.spans.n;
      profile->counts.memcpy += profile->streams[i].memcpy.spans.n;
      profile->counts.memset += profile->streams[i].memset.spans.n;
    }

  profile->n_funcs = chunk->funcs->len;
  profile->funcs = (SlKernelFunc *) g_array_free (g_steal_pointer (&chunk->funcs), FALSE);
}

static int
compare_gpus (gconstpointer a, gconstpointer b)
{
  const SlGpu *x = a, *y = b;
  return (x->device > y->device) - (x->device < y->device);
}

/* Adds devices only seen in activity, sorts by device id and gives each GPU
 * its streams. */
static void
assemble_gpus (SlProfile *profile)
{
  GArray *gpus = g_array_new (FALSE, TRUE, sizeof (SlGpu));

  g_array_append_vals (gpus, profile->gpus, profile->n_gpus);
  g_free (profile->gpus);
  for (guint s = 0; s < profile->n_streams; s++)
    {
      guint32 device = profile->streams[s].device;
      gboolean found = FALSE;
      for (guint g = 0; g < gpus->len && !found; g++)
        found = g_array_index (gpus, SlGpu, g).device == device;
      if (!found)
        {
          SlGpu gpu = { .device = device, .sm_count = -1, .memory_bytes = -1 };
          g_array_append_val (gpus, gpu);
        }
    }
  g_array_sort (gpus, compare_gpus);
  profile->n_gpus = gpus->len;
  profile->gpus = (SlGpu *) g_array_free (gpus, FALSE);

  for (guint g = 0; g < profile->n_gpus; g++)
    {
      SlGpu *gpu = &profile->gpus[g];
      GArray *streams = g_array_new (FALSE, FALSE, sizeof (guint32));
      for (guint s = 0; s < profile->n_streams; s++)
        {
          SlStream *stream = &profile->streams[s];
          if (stream->device != gpu->device)
            continue;
          stream->gpu = g;
          g_array_append_val (streams, s);
          gpu->n_kernels += stream->kernels.spans.n;
          gpu->has_activity |= stream->kernels.spans.n + stream->memcpy.spans.n + stream->memset.spans.n > 0;
        }
      gpu->n_streams = streams->len;
      gpu->streams = (guint32 *) g_array_free (streams, FALSE);
    }
}

/* ---- assembling: CPU side ------------------------------------------------ */

static int
compare_thread_builders (gconstpointer a, gconstpointer b)
{
  const SlThreadBuilder *x = *(SlThreadBuilder *const *) a;
  const SlThreadBuilder *y = *(SlThreadBuilder *const *) b;
  guint32 px = _sl_pid_of (x->global_tid), py = _sl_pid_of (y->global_tid);
  guint32 tx = _sl_tid_of (x->global_tid), ty = _sl_tid_of (y->global_tid);

  if (px != py)
    return px < py ? -1 : 1;
  if (tx != ty)
    return tx < ty ? -1 : 1;
  return (x->global_tid > y->global_tid) - (x->global_tid < y->global_tid);
}

typedef struct {
  gint64  start;
  gint64  end;
  guint32 index;
} RangeKey;

#define MAX_NVTX_DEPTH 1024

static void
permute_ranges (SlNvtxRanges *r, const guint32 *order)
{
  _sl_spans_permute (&r->spans, order);
  _sl_permute_u32 (r->name, order, r->spans.n);
  _sl_permute_u32 (r->load_color, order, r->spans.n);
  _sl_permute_u16 (r->load_domain, order, r->spans.n);
}

/* Ranges @index[0 .. n) by (start asc, end desc, file order), into @order:
 * by end first, then, keeping that order among equal starts, by start.
 * @index is in file order. */
static void
radix_nesting_order (const SlNvtxRanges *r, const guint32 *index, guint n, guint32 *order)
{
  g_autofree SlKeyIndex *pairs = g_new (SlKeyIndex, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      guint32 k = index != NULL ? index[i] : i;
      pairs[i] = (SlKeyIndex) { ~_sl_time_key (sl_spans_end (&r->spans, k)), k };
    }
  _sl_radix_sort (pairs, n);
  for (guint i = 0; i < n; i++)
    pairs[i].key = _sl_time_key (r->spans.start[pairs[i].index]);
  _sl_radix_sort (pairs, n);
  for (guint i = 0; i < n; i++)
    order[i] = pairs[i].index;
}

/* Whether range @a comes before range @b in nesting order. */
static inline gboolean
nests_before (const SlSpans *spans, guint32 a, guint32 b)
{
  gint64 sa = spans->start[a], sb = spans->start[b];

  if (sa != sb)
    return sa < sb;
  gint64 ea = sl_spans_end (spans, a), eb = sl_spans_end (spans, b);
  if (ea != eb)
    return ea > eb;
  return a < b;
}

/* At most this share of the ranges out of place for the merge below: the
 * two radix sorts of the rest cost about as much as sorting them all. */
#define OUT_OF_PLACE_SHARE 8

/* The nesting order of ranges that are nearly in it already, as exports
 * are (by start, or by start but for the outer ranges a tool writes when
 * they end): the ranges in order as they come are kept, the few others
 * sorted and merged in.  NULL when too many are out of place; *@identity
 * when none is. */
static guint32 *
nearly_nested_order (const SlNvtxRanges *r, gboolean *identity)
{
  const SlSpans *spans = &r->spans;
  guint n = spans->n, n_kept = 0, n_aside = 0, limit = n / OUT_OF_PLACE_SHARE;
  guint32 *kept = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *aside = g_new (guint32, MAX (limit, 1));
  g_autofree guint32 *sorted_aside = NULL;
  guint32 *order;

  for (guint32 i = 0; i < n; i++)
    {
      if (n_kept == 0 || nests_before (spans, kept[n_kept - 1], i))
        kept[n_kept++] = i;
      else if (n_aside < limit)
        aside[n_aside++] = i;
      else
        {
          g_free (kept);
          return NULL;
        }
    }
  *identity = n_aside == 0;
  if (n_aside == 0)
    return kept;
  sorted_aside = g_new (guint32, n_aside);
  radix_nesting_order (r, aside, n_aside, sorted_aside);
  order = g_new (guint32, n);
  for (guint i = 0, j = 0, o = 0; o < n; o++)
    order[o] = j == n_aside || (i < n_kept && nests_before (spans, kept[i], sorted_aside[j]))
               ? kept[i++] : sorted_aside[j++];
  g_free (kept);
  return order;
}

/* The ranges' order by (start asc, end desc, file order); *@identity
 * when they are in it already. */
static guint32 *
nesting_order (const SlNvtxRanges *r, gboolean *identity)
{
  guint32 *order = nearly_nested_order (r, identity);

  if (order != NULL)
    return order;
  *identity = FALSE;
  order = g_new (guint32, MAX (r->spans.n, 1));
  radix_nesting_order (r, NULL, r->spans.n, order);
  return order;
}

/* Puts the ranges in (start asc, end desc) order, so that every range
 * comes after the ranges enclosing it; returns their keys in that order. */
static RangeKey *
sort_for_nesting (SlNvtxRanges *r)
{
  guint n = r->spans.n;
  RangeKey *keys = g_new (RangeKey, n);
  gboolean identity;
  g_autofree guint32 *order = nesting_order (r, &identity);

  if (!identity)
    permute_ranges (r, order);
  for (guint i = 0; i < n; i++)
    keys[i] = (RangeKey) { r->spans.start[i], sl_spans_end (&r->spans, i), order[i] };
  return keys;
}

/* Depth and parent of each push/pop range, in the order of @keys, with a
 * stack of the ranges still open; returns the deepest depth. */
static guint
compute_nesting (const RangeKey *keys, guint n, guint16 *depth, guint32 *parent)
{
  g_autofree guint32 *stack = g_new (guint32, MAX_NVTX_DEPTH);
  guint top = 0, max_depth = 0;

  for (guint i = 0; i < n; i++)
    {
      while (top > 0 && keys[stack[top - 1]].end <= keys[i].start)
        top--;
      depth[i] = (guint16) MIN (top, MAX_NVTX_DEPTH - 1);
      parent[i] = top > 0 ? stack[top - 1] : SL_NONE;
      max_depth = MAX (max_depth, depth[i]);
      if (top < MAX_NVTX_DEPTH)
        stack[top++] = i;
    }
  return max_depth;
}

/* Start/end ranges overlap freely: no parents, and as their "depth" the
 * lane of the timeline row that shows them without overlap.  @r is sorted
 * by start.  Returns the number of lanes. */
static guint
assign_lanes (const SlNvtxRanges *r, guint16 *lane, guint32 *parent)
{
  for (guint i = 0; i < r->spans.n; i++)
    parent[i] = SL_NONE;
  return sl_lanes_assign (&r->spans, MAX_NVTX_DEPTH, lane);
}

/* A stable counting sort by depth: fills @order (new position -> old
 * index) and @inverse, and returns where each depth starts (n_depths + 1
 * entries, the last one n). */
static guint *
order_by_depth (const guint16 *depth, guint n, guint n_depths, guint32 *order, guint32 *inverse)
{
  guint *first = g_new0 (guint, n_depths + 1);
  g_autofree guint *fill = NULL;

  for (guint i = 0; i < n; i++)
    first[depth[i] + 1]++;
  for (guint d = 0; d < n_depths; d++)
    first[d + 1] += first[d];
  fill = g_memdup2 (first, (n_depths + 1) * sizeof (guint));
  for (guint i = 0; i < n; i++)
    {
      guint pos = fill[depth[i]]++;
      order[pos] = i;
      inverse[i] = pos;
    }
  return first;
}

/* Stores the ranges sorted by (depth, start), so that each depth is one
 * sorted row for the timeline (which gives a range's depth), with their
 * parent. */
static void
store_by_depth (SlNvtxRanges *r, const guint16 *depth, const guint32 *parent, guint n_depths)
{
  guint n = r->spans.n;
  g_autofree guint32 *order = g_new (guint32, n);
  g_autofree guint32 *inverse = g_new (guint32, n);

  r->depth_first = order_by_depth (depth, n, n_depths, order, inverse);
  r->n_depths = n_depths;
  permute_ranges (r, order);
  r->parent = g_new (guint32, n);
  for (guint pos = 0; pos < n; pos++)
    {
      guint32 old = order[pos];
      r->parent[pos] = parent[old] == SL_NONE ? SL_NONE : inverse[parent[old]];
    }
}

static void
shrink_ranges (SlNvtxRanges *r)
{
  guint n = r->spans.n;

  r->name = g_renew (guint32, r->name, n);
  _sl_spans_shrink (&r->spans);
  _sl_nvtx_ranges_build_styles (r);
}

/* Computes nesting depth and parent of push/pop ranges (@nested) or the
 * lanes of start/end ranges, then stores them by (depth, start). */
static void
nest_ranges (SlNvtxRanges *r, gboolean nested)
{
  guint n = r->spans.n;

  if (n == 0)
    {
      _sl_nvtx_ranges_clear (r);
      r->depth_first = g_new0 (guint, 1);
      return;
    }
  RangeKey *keys = sort_for_nesting (r);
  g_autofree guint16 *depth = g_new (guint16, n);
  g_autofree guint32 *parent = g_new (guint32, n);
  guint n_rows = nested ? compute_nesting (keys, n, depth, parent) + 1 : assign_lanes (r, depth, parent);
  g_free (keys);
  store_by_depth (r, depth, parent, n_rows);
  shrink_ranges (r);
}

static void
sort_marks (SlNvtxMarks *m)
{
  SlSpans view = { .n = m->n, .start = m->time };

  if (m->n == 0 || _sl_spans_is_sorted (&view))
    return;
  guint32 *order = _sl_spans_sort_order (&view);
  _sl_permute (m->time, sizeof (gint64), order, m->n);
  _sl_permute_u32 (m->name, order, m->n);
  _sl_permute_u32 (m->color, order, m->n);
  _sl_permute_u16 (m->domain, order, m->n);
  g_free (order);
}

static void
sort_api (SlApiCalls *api)
{
  g_autofree guint32 *order = _sl_spans_sort (&api->spans);

  if (order == NULL)
    return;
  _sl_permute_u32 (api->name, order, api->spans.n);
  _sl_permute_u32 (api->corr, order, api->spans.n);
}

void
_sl_gpu_finish (SlLoader *loader)
{
  gint64 t0 = g_get_monotonic_time ();
  GPtrArray *builders = stream_builders (loader);

  for (guint i = 0; i < builders->len; i++)
    {
      SlStreamBuilder *b = g_ptr_array_index (builders, i);
      sort_kernels (b);
      sort_copies (&b->stream.memcpy);
      sort_copies (&b->stream.memset);
      shrink_kernels (b);
      shrink_copies (&b->stream.memcpy);
      shrink_copies (&b->stream.memset);
    }
  assemble_streams (loader);
  assemble_gpus (loader->profile);
  /* From here on the streams' data is fixed: a staged GPU profile may
   * share it with the complete one. */
  _sl_profile_adopt_gpu_data (loader->profile, loader->gpu_arena);
  loader->gpu_adopted = TRUE;
  _sl_loader_phase (loader, "sort streams", t0);
  if (loader->gpu_ready != NULL)
    _sl_loader_hand_out_gpu (loader);
}

/* The CPU side's threads, finished in two parallel steps: each thread's
 * builders merged in file order, its calls sorted and its ranges nested;
 * then its calls copied to its slice of the profile's one API array.
 * Threads are independent, and the CPU group finishes last with the other
 * worker idle, so with two cores a second thread takes some of them. */
typedef struct _ThreadWork ThreadWork;
struct _ThreadWork {
  SlLoader   *loader;
  GPtrArray  *builders;     /* chunk 0's: one per thread */
  guint64     events;
  guint       next;         /* atomic: the next builder to take */
  void      (*step) (ThreadWork *work, guint i);
  guint      *api_first;    /* the copy: each builder's slice of the API array ... */
  guint      *api_count;
  guint      *long_first;   /* ... and of its long durations */
  guint       adopted;      /* the builder whose calls are the API array's start, or SL_NONE */
};

static gpointer
take_builders (gpointer data)
{
  ThreadWork *work = data;
  guint i;

  while ((i = (guint) g_atomic_int_add (&work->next, 1)) < work->builders->len)
    work->step (work, i);
  return NULL;
}

/* Runs @step on every builder, on two threads when the loader reads with
 * two and there is enough to share. */
static void
for_each_builder (ThreadWork *work, void (*step) (ThreadWork *work, guint i))
{
  GThread *helper = NULL;

  work->step = step;
  g_atomic_int_set (&work->next, 0);
  if (work->loader->n_workers > 1 && work->builders->len > 1 && work->events > 100000)
    helper = g_thread_new ("sl-load-threads", take_builders, work);
  take_builders (work);
  if (helper != NULL)
    g_thread_join (helper);
}

/* Builder @i: the same thread's builders of the other chunks appended in
 * file order (chunks are parts of the tables in file order), then sorted
 * and nested. */
static void
merge_sort_and_nest (ThreadWork *work, guint i)
{
  SlThreadBuilder *b = g_ptr_array_index (work->builders, i);
  GPtrArray *chunks = work->loader->cpu_chunks;

  for (guint c = 1; c < chunks->len; c++)
    {
      SlThreadBuilder *other = _sl_cpu_chunk_find (chunks->pdata[c], b->global_tid);
      if (other != NULL)
        _sl_thread_builder_merge (b, other);
    }
  sort_api (&b->api);
  nest_ranges (&b->nvtx, TRUE);
  nest_ranges (&b->startend, FALSE);
  sort_marks (&b->marks);
}

static guint64
count_events (SlLoader *loader)
{
  guint64 events = 0;

  for (guint c = 0; c < loader->cpu_chunks->len; c++)
    {
      GPtrArray *builders = ((SlCpuChunk *) loader->cpu_chunks->pdata[c])->thread_builders;
      for (guint i = 0; i < builders->len; i++)
        {
          SlThreadBuilder *b = g_ptr_array_index (builders, i);
          events += b->api.spans.n + b->nvtx.spans.n + b->startend.spans.n + b->marks.n;
        }
    }
  return events;
}

static void assemble_threads (ThreadWork *work);

void
_sl_cpu_finish (SlLoader *loader, sqlite3 *db)
{
  gint64 t0 = g_get_monotonic_time ();
  ThreadWork work = {
    .loader = loader,
    .builders = ((SlCpuChunk *) g_ptr_array_index (loader->cpu_chunks, 0))->thread_builders,
    .events = count_events (loader),
  };

  _sl_load_thread_names (loader, db);
  for_each_builder (&work, merge_sort_and_nest);
  assemble_threads (&work);
  _sl_loader_phase (loader, "sort and nest threads", t0);
}

/* The first builder with calls has the API array's first slice: its
 * arrays, grown to the whole array's size, become the API array (a
 * mapping grows by mremap, without a copy), which saves copying its
 * calls.  FALSE when no builder has calls. */
static gboolean
adopt_first_api (ThreadWork *work, SlApiCalls *api)
{
  guint total = api->spans.n, i = 0;
  SlThreadBuilder *b;

  work->adopted = SL_NONE;
  while (i < work->builders->len && work->api_count[i] == 0)
    i++;
  if (i == work->builders->len)
    return FALSE;
  b = g_ptr_array_index (work->builders, i);
  api->spans.start = _sl_huge_renew_final_n (g_steal_pointer (&b->api.spans.start), total);
  api->spans.dur = _sl_huge_renew_final_n (g_steal_pointer (&b->api.spans.dur), total);
  api->name = _sl_huge_renew_final_n (g_steal_pointer (&b->api.name), total);
  api->corr = _sl_huge_renew_final_n (g_steal_pointer (&b->api.corr), total);
  work->adopted = i;
  return TRUE;
}

/* Each builder's slice of the profile's API array (all of its calls while
 * they fit in 32-bit indexes) and of its long durations; room for them. */
static void
alloc_api (ThreadWork *work, SlApiCalls *api)
{
  GPtrArray *builders = work->builders;
  guint64 total_api = 0, total_long = 0;

  work->api_first = g_new (guint, MAX (builders->len, 1));
  work->api_count = g_new (guint, MAX (builders->len, 1));
  work->long_first = g_new (guint, MAX (builders->len, 1));
  for (guint i = 0; i < builders->len; i++)
    {
      SlThreadBuilder *b = g_ptr_array_index (builders, i);
      guint n = (guint) MIN ((guint64) b->api.spans.n, (guint64) G_MAXUINT32 - 1 - total_api);

      work->api_first[i] = (guint) total_api;
      work->api_count[i] = n;
      work->long_first[i] = (guint) total_long;
      total_api += n;
      for (guint k = 0; k < b->api.spans.n_long; k++)
        total_long += b->api.spans.long_index[k] < n;
    }
  api->spans.n = (guint) total_api;
  api->spans.n_long = (guint) total_long;
  if (!adopt_first_api (work, api))
    {
      api->spans.start = _sl_huge_new (total_api, sizeof (gint64));
      api->spans.dur = _sl_huge_new (total_api, sizeof (guint32));
      api->name = _sl_huge_new (total_api, sizeof (guint32));
      api->corr = _sl_huge_new (total_api, sizeof (guint32));
    }
  if (total_long > 0)
    {
      api->spans.long_index = g_new (guint32, total_long);
      api->spans.long_dur = g_new (gint64, total_long);
    }
}

/* Builder @i's calls into its slice of the API array, its identity and
 * NVTX arrays (which move) into its SlThread; the builder's calls are
 * freed at once, to keep the peak low. */
static void
move_thread (ThreadWork *work, guint i)
{
  SlProfile *profile = work->loader->profile;
  SlThreadBuilder *b = g_ptr_array_index (work->builders, i);
  SlThread *t = &profile->threads[i];
  SlApiCalls *api = &profile->api, *from = &b->api;
  guint offset = work->api_first[i], n = work->api_count[i], l = work->long_first[i];

  t->global_tid = b->global_tid;
  t->pid = _sl_pid_of (b->global_tid);
  t->tid = _sl_tid_of (b->global_tid);
  t->name = b->name;
  t->api_first = offset;
  t->api_count = n;
  if (n > 0)
    {
      /* the adopted builder's calls are in place already */
      if (i != work->adopted)
        {
          memcpy (api->spans.start + offset, from->spans.start, n * sizeof (gint64));
          memcpy (api->spans.dur + offset, from->spans.dur, n * sizeof (guint32));
          memcpy (api->name + offset, from->name, n * sizeof (guint32));
          memcpy (api->corr + offset, from->corr, n * sizeof (guint32));
        }
      for (guint k = 0; k < from->spans.n_long; k++)
        if (from->spans.long_index[k] < n)
          {
            api->spans.long_index[l] = offset + from->spans.long_index[k];
            api->spans.long_dur[l++] = from->spans.long_dur[k];
          }
    }
  _sl_spans_clear (&from->spans);
  g_clear_pointer (&from->name, g_free);
  g_clear_pointer (&from->corr, g_free);
  t->nvtx = b->nvtx;
  t->nvtx_startend = b->startend;
  t->marks = b->marks;
  memset (&b->nvtx, 0, sizeof b->nvtx);
  memset (&b->startend, 0, sizeof b->startend);
  memset (&b->marks, 0, sizeof b->marks);
}

/* The profile's threads in (pid, tid) order, their API calls in one
 * array. */
static void
assemble_threads (ThreadWork *work)
{
  SlLoader *loader = work->loader;
  SlProfile *profile = loader->profile;
  GPtrArray *builders = work->builders;

  g_ptr_array_sort (builders, compare_thread_builders);
  profile->n_threads = builders->len;
  profile->threads = g_new0 (SlThread, MAX (builders->len, 1u));
  alloc_api (work, &profile->api);
  for_each_builder (work, move_thread);
  for (guint i = 0; i < profile->n_threads; i++)
    {
      const SlThread *t = &profile->threads[i];
      profile->counts.nvtx_ranges += t->nvtx.spans.n + t->nvtx_startend.spans.n;
      profile->counts.nvtx_marks += t->marks.n;
    }
  profile->counts.cuda_api = profile->api.spans.n;
  g_clear_pointer (&work->api_first, g_free);
  g_clear_pointer (&work->api_count, g_free);
  g_clear_pointer (&work->long_first, g_free);

  profile->n_domains = loader->domains->len;
  profile->domains = (SlNvtxDomain *) g_array_free (loader->domains, FALSE);
  loader->domains = NULL;
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return (x > y) - (x < y);
}

void
_sl_assemble_processes (SlProfile *profile, GHashTable *process_names)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (guint32));
  GHashTable *seen = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < profile->n_threads; i++)
    if (g_hash_table_add (seen, GUINT_TO_POINTER (profile->threads[i].pid + 1)))
      g_array_append_val (pids, profile->threads[i].pid);
  for (guint i = 0; i < profile->n_streams; i++)
    if (g_hash_table_add (seen, GUINT_TO_POINTER (profile->streams[i].pid + 1)))
      g_array_append_val (pids, profile->streams[i].pid);
  g_hash_table_unref (seen);

  g_array_sort (pids, compare_u32);
  profile->n_processes = pids->len;
  profile->processes = g_new0 (SlProcess, MAX (pids->len, 1u));
  for (guint p = 0; p < pids->len; p++)
    {
      SlProcess *process = &profile->processes[p];
      const char *name;
      process->pid = g_array_index (pids, guint32, p);
      name = g_hash_table_lookup (process_names, GUINT_TO_POINTER (process->pid));
      process->name = name != NULL ? _sl_strings_intern (profile->strings, name) : SL_NONE;
      GArray *threads = g_array_new (FALSE, FALSE, sizeof (guint32));
      for (guint t = 0; t < profile->n_threads; t++)
        if (profile->threads[t].pid == process->pid)
          {
            profile->threads[t].process = p;
            g_array_append_val (threads, t);
          }
      process->n_threads = threads->len;
      process->threads = (guint32 *) g_array_free (threads, FALSE);
    }
  g_array_unref (pids);
}

/* ---- linking GPU work to its launching API call ---------------------------- */

/* correlationId -> API index for one process: a plain array over
 * [min, max] when the ids are dense (as CUPTI hands them out), else a hash. */
typedef struct {
  guint32  pid;
  guint32  min_corr;
  guint32 *direct;
  guint32  direct_len;
  SlIdMap  sparse;
} CorrIndex;

static void
corr_index_build (CorrIndex *index, const SlProfile *profile, guint32 pid, guint first_thread, guint end_thread)
{
  const SlApiCalls *api = &profile->api;
  guint32 min = G_MAXUINT32, max = 0;
  guint64 count = 0;

  index->pid = pid;
  for (guint t = first_thread; t < end_thread; t++)
    {
      const SlThread *thread = &profile->threads[t];
      for (guint i = thread->api_first; i < thread->api_first + thread->api_count; i++)
        {
          min = MIN (min, api->corr[i]);
          max = MAX (max, api->corr[i]);
          count++;
        }
    }
  index->min_corr = min;
  if (count > 0 && (guint64) max - min < count * 4 + 1024)
    {
      index->direct_len = max - min + 1;
      /* ~4 bytes a call, all written by the memset: huge pages when big */
      index->direct = _sl_huge_new (index->direct_len, sizeof (guint32));
      memset (index->direct, 0xff, (gsize) index->direct_len * sizeof (guint32));
    }
  else
    sl_id_map_init (&index->sparse, count);

  for (guint t = first_thread; t < end_thread; t++)
    {
      const SlThread *thread = &profile->threads[t];
      for (guint i = thread->api_first; i < thread->api_first + thread->api_count; i++)
        {
          /* correlationId 0 means "none" in CUPTI. */
          if (api->corr[i] == 0)
            continue;
          if (index->direct != NULL)
            index->direct[api->corr[i] - min] = i;
          else
            sl_id_map_insert (&index->sparse, api->corr[i], i);
        }
    }
}

static inline guint32
corr_index_lookup (const CorrIndex *index, guint32 corr)
{
  if (index == NULL || corr == 0)
    return SL_NONE;
  if (index->direct != NULL)
    return corr >= index->min_corr && corr - index->min_corr < index->direct_len
           ? index->direct[corr - index->min_corr] : SL_NONE;
  return sl_id_map_lookup (&index->sparse, corr, SL_NONE);
}

static const CorrIndex *
find_corr_index (const GArray *indexes, guint32 pid)
{
  for (guint i = 0; i < indexes->len; i++)
    if (g_array_index (indexes, CorrIndex, i).pid == pid)
      return &g_array_index (indexes, CorrIndex, i);
  return NULL;
}

static guint64
link_ops (const CorrIndex *index, const guint32 *corr, guint32 *api, guint n)
{
  guint64 linked = 0;

  for (guint i = 0; i < n; i++)
    {
      api[i] = corr_index_lookup (index, corr[i]);
      linked += api[i] != SL_NONE;
    }
  return linked;
}

/* Keeps the correlationIds of kernels that found no launching call (the
 * others are their call's), then drops the load-time array. */
static void
keep_unlinked_corr (SlKernels *k, guint32 *corr)
{
  guint n = 0;

  for (guint i = 0; i < k->spans.n; i++)
    n += k->api[i] == SL_NONE;
  if (n > 0)
    {
      k->unlinked_index = g_new (guint32, n);
      k->unlinked_corr = g_new (guint32, n);
      for (guint i = 0; i < k->spans.n; i++)
        if (k->api[i] == SL_NONE)
          {
            k->unlinked_index[k->n_unlinked] = i;
            k->unlinked_corr[k->n_unlinked] = corr[i];
            k->n_unlinked++;
          }
    }
  g_free (corr);
}

/* One correlation index per process; they read the calls' correlationIds,
 * which _sl_api_corr_pack() frees. */
static GArray *
build_corr_indexes (const SlProfile *profile)
{
  GArray *indexes = g_array_new (FALSE, TRUE, sizeof (CorrIndex));

  /* Threads are sorted by pid: each process is one contiguous run. */
  for (guint t = 0; t < profile->n_threads;)
    {
      guint end = t;
      while (end < profile->n_threads && profile->threads[end].pid == profile->threads[t].pid)
        end++;
      CorrIndex index = { 0 };
      corr_index_build (&index, profile, profile->threads[t].pid, t, end);
      g_array_append_val (indexes, index);
      t = end;
    }
  return indexes;
}

static void
free_corr_indexes (GArray *indexes)
{
  for (guint i = 0; i < indexes->len; i++)
    {
      CorrIndex *index = &g_array_index (indexes, CorrIndex, i);
      g_free (index->direct);
      sl_id_map_clear (&index->sparse);
    }
  g_array_unref (indexes);
}

/* Each kernel, copy and sync to its launching call, through @indexes
 * (not the calls' correlationIds: they may be packed meanwhile). */
static void
link_gpu_work (SlLoader *loader, const GArray *indexes)
{
  SlProfile *profile = loader->profile;

  for (guint s = 0; s < profile->n_streams; s++)
    {
      SlStream *stream = &profile->streams[s];
      const CorrIndex *index = find_corr_index (indexes, stream->pid);
      SlStreamBuilder *b = g_ptr_array_index (stream_builders (loader), s);
      /* Builders are in the streams' order (assemble_streams sorted both). */
      profile->counts.kernels_linked += link_ops (index, b->kernel_corr, stream->kernels.api, stream->kernels.spans.n);
      /* Without the API table no kernel is linked, and no correlation id
       * is of use: keeping them all would cost 8 bytes a kernel. */
      if (loader->parts & SL_PART_API)
        keep_unlinked_corr (&stream->kernels, g_steal_pointer (&b->kernel_corr));
      else
        g_clear_pointer (&b->kernel_corr, g_free);
      link_ops (index, stream->memcpy.corr, stream->memcpy.api, stream->memcpy.spans.n);
      link_ops (index, stream->memset.corr, stream->memset.api, stream->memset.spans.n);
    }

  SlSyncs *syncs = &profile->syncs;
  if (syncs->spans.n > 0)
    {
      syncs->api = g_new (guint32, syncs->spans.n);
      for (guint i = 0; i < syncs->spans.n; i++)
        syncs->api[i] = corr_index_lookup (find_corr_index (indexes, syncs->pid[i]), syncs->corr[i]);
    }
}

static void
assemble_syncs (SlProfile *profile)
{
  SlSyncs *s = &profile->syncs;
  g_autofree guint32 *order = _sl_spans_sort (&s->spans);

  if (order != NULL)
    {
      _sl_permute_u32 (s->device, order, s->spans.n);
      _sl_permute_u32 (s->stream, order, s->spans.n);
      _sl_permute_u32 (s->pid, order, s->spans.n);
      _sl_permute_u8 (s->sync_type, order, s->spans.n);
      _sl_permute_u32 (s->corr, order, s->spans.n);
    }
  profile->counts.syncs = s->spans.n;
}

void
_sl_assemble_time_range (SlProfile *profile)
{
  gint64 first = G_MAXINT64, last = G_MININT64;

  for (guint s = 0; s < profile->n_streams; s++)
    {
      _sl_spans_range (&profile->streams[s].kernels.spans, &first, &last);
      _sl_spans_range (&profile->streams[s].memcpy.spans, &first, &last);
      _sl_spans_range (&profile->streams[s].memset.spans, &first, &last);
    }
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlThread *thread = &profile->threads[t];
      SlSpans api = profile->api.spans;
      /* One thread's slice of the API array is itself sorted. */
      api.start += thread->api_first;
      api.dur += thread->api_first;
      api.n = thread->api_count;
      api.n_long = 0;
      if (api.n > 0)
        {
          first = MIN (first, api.start[0]);
          for (guint i = 0; i < api.n; i++)
            last = MAX (last, api.start[i] + sl_spans_dur (&profile->api.spans, thread->api_first + i));
        }
      for (guint i = 0; i < thread->nvtx.spans.n; i++)
        {
          first = MIN (first, thread->nvtx.spans.start[i]);
          last = MAX (last, sl_spans_end (&thread->nvtx.spans, i));
        }
      _sl_spans_range (&thread->nvtx_startend.spans, &first, &last);
      if (thread->marks.n > 0)
        {
          first = MIN (first, thread->marks.time[0]);
          last = MAX (last, thread->marks.time[thread->marks.n - 1]);
        }
    }
  _sl_spans_range (&profile->syncs.spans, &first, &last);
  if (first > last)
    first = last = 0;
  profile->start_ns = first;
  profile->end_ns = last;
}

/* The steps of assembling that the links do not wait for, on a second
 * thread while the indexes are built and the links made: the time range
 * (it reads every event's times) and the calls' packed correlationIds
 * (once the indexes no longer read them): 13.5 -> 7 ms of a 1 M load. */
typedef struct {
  SlProfile *profile;
  GMutex     lock;
  GCond      indexed;
  gboolean   indexes_built;
} BesideLinks;

static gpointer
assemble_beside_links (gpointer data)
{
  BesideLinks *beside = data;

  _sl_assemble_time_range (beside->profile);
  g_mutex_lock (&beside->lock);
  while (!beside->indexes_built)
    g_cond_wait (&beside->indexed, &beside->lock);
  g_mutex_unlock (&beside->lock);
  _sl_api_corr_pack (&beside->profile->api);
  return NULL;
}

static void
assemble_links (SlLoader *loader)
{
  SlProfile *profile = loader->profile;
  BesideLinks beside = { .profile = profile };
  GThread *helper = NULL;
  GArray *indexes;

  g_mutex_init (&beside.lock);
  g_cond_init (&beside.indexed);
  if (loader->n_workers > 1 && profile->api.spans.n + profile->counts.kernels > 100000)
    helper = g_thread_new ("sl-assemble", assemble_beside_links, &beside);
  indexes = build_corr_indexes (profile);
  g_mutex_lock (&beside.lock);
  beside.indexes_built = TRUE;
  g_cond_signal (&beside.indexed);
  g_mutex_unlock (&beside.lock);
  link_gpu_work (loader, indexes);
  if (helper != NULL)
    g_thread_join (helper);
  else
    assemble_beside_links (&beside);
  free_corr_indexes (indexes);
  g_cond_clear (&beside.indexed);
  g_mutex_clear (&beside.lock);
}

void
_sl_profile_assemble (SlLoader *loader)
{
  SlProfile *profile = loader->profile;

  /* Streams, GPUs and threads were assembled as their groups finished. */
  _sl_assemble_processes (profile, loader->process_names);
  assemble_syncs (profile);
  assemble_links (loader);
  _sl_strings_seal (profile->strings);
  _sl_profile_share_arena (profile, loader->gpu_arena);
  _sl_profile_adopt_own (profile);
}
