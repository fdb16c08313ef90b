/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-iterations-nvtx.c: the GPU work of NVTX iterations: every GPU operation
 * of the process whose launching API call starts inside the range,
 * whichever thread made the call.
 *
 * Two ways to the same result.  In general each device's operations are
 * walked in start order (a merge of its streams) and each finds its
 * iteration from its launching call's start.  Usually the iterations do not
 * overlap and each stream's launching calls ascend within one thread (a
 * stream is a FIFO filled by one thread): an iteration's operations are
 * then runs of consecutive operations of each stream, found from the API
 * indexes alone (a call's start is never read per operation, a cache miss
 * each on large profiles), and only kernels are merged, for the unions. */
#include "sl-iterations-private.h"
#include "sl-gpu-busy.h"
#include "sl-parallel.h"

/* ---- the general walk -------------------------------------------------- */

/* The NVTX iteration of its[0, n) (sorted by start) whose CPU range holds
 * @t, or G_MAXUINT.  API starts follow GPU order closely: *@cursor, the
 * last one found, is tried first. */
static inline guint
find_iteration (const SlIteration *its, guint n, gint64 t, guint *cursor)
{
  guint lo = 0, hi = n;

  if (its[*cursor].cpu_start_ns <= t && t < its[*cursor].cpu_end_ns)
    return *cursor;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (its[mid].cpu_start_ns <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  /* iterations of several threads may overlap: look back a little */
  for (guint k = lo, steps = 0; k > 0 && steps < 8; k--, steps++)
    if (t < its[k - 1].cpu_end_ns)
      {
        *cursor = k - 1;
        return k - 1;
      }
  return G_MAXUINT;
}

/* One device's operations (@merge, started) into the iterations its[0, n)
 * whose range holds their launching call. */
static void
device_work (const SlProfile *profile, const guint8 *is_nccl, SlMerge *merge, SlIteration *its, guint n, Acc *acc)
{
  const gint64 *api_start = profile->api.spans.start;
  const SlSpans *spans;
  guint tag, index, cursor = 0;

  for (guint j = 0; j < n; j++)
    sl_iter_acc_init (&acc[j]);
  while (sl_merge_next (merge, &tag, &spans, &index))
    {
      guint32 a = sl_gpu_op_api (profile, tag)[index];
      gboolean nccl;
      guint j;

      if (a == SL_NONE)
        continue;
      j = find_iteration (its, n, api_start[a], &cursor);
      if (j == G_MAXUINT)
        continue;
      nccl = sl_gpu_op_is_nccl (profile, is_nccl, tag, index);
      sl_iter_acc_op (&its[j], &acc[j], sl_gpu_op_type (tag), nccl, spans->start[index], sl_spans_end (spans, index));
    }
  for (guint j = 0; j < n; j++)
    sl_iter_add_device_totals (&its[j], &acc[j], 1);
}

static void
merged_gpu_work (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl,
                 guint32 pid, SlIteration *its, guint n)
{
  g_autofree Acc *acc = g_new0 (Acc, MAX (n, 1));

  for (guint g = 0; g < profile->n_gpus; g++)
    {
      const SlGpu *gpu = &profile->gpus[g];
      SlMerge merge;

      if (!sl_filter_match_device (filter, gpu->device))
        continue;
      sl_merge_init (&merge);
      for (guint i = 0; i < gpu->n_streams; i++)
        if (profile->streams[gpu->streams[i]].pid == pid)
          sl_gpu_ops_add_stream (&merge, profile, gpu->streams[i], NULL);
      if (merge.sources->len > 0)
        {
          sl_merge_start (&merge);
          device_work (profile, is_nccl, &merge, its, n, acc);
        }
      sl_merge_clear (&merge);
    }
}

/* ---- runs -------------------------------------------------------------- */

/* Operations [from, to) of one source (a stream's kernels, memcpy or
 * memset: tag as in sl-gpu-ops.h), all in iteration j. */
typedef struct {
  guint j;
  guint tag;
  guint from;
  guint to;
} Run;

typedef struct {
  const SlProfile   *profile;
  const SlIteration *its;
  guint              n;
  guint            **bounds;   /* per thread, on first use: 2 n API indexes (see thread_bounds) */
} Runs;

/* For each iteration j, [b[2 j], b[2 j + 1]): the calls of thread @t that
 * start inside it.  The iterations do not overlap, so these ascend. */
static const guint *
thread_bounds (Runs *r, guint32 t)
{
  const SlThread *thread = &r->profile->threads[t];
  guint lo = thread->api_first, hi = lo + thread->api_count;

  if (r->bounds[t] == NULL)
    {
      r->bounds[t] = g_new (guint, 2 * (gsize) r->n);
      for (guint j = 0; j < r->n; j++)
        {
          r->bounds[t][2 * j] = sl_spans_lower_bound_in (&r->profile->api.spans, lo, hi, r->its[j].cpu_start_ns);
          r->bounds[t][2 * j + 1] = sl_spans_lower_bound_in (&r->profile->api.spans, lo, hi, r->its[j].cpu_end_ns);
        }
    }
  return r->bounds[t];
}

static void
add_run (GArray *out, guint j, guint tag, guint from, guint to)
{
  Run run = { j, tag, from, to };

  if (j != G_MAXUINT)
    g_array_append_val (out, run);
}

#define MAX_LAUNCHERS 4   /* threads launching onto one stream (PyTorch: main and autograd) */

/* A thread's launches onto one stream: its calls, the iterations'. */
typedef struct {
  guint        first;      /* the thread's slice of the API calls */
  guint        end;
  const guint *b;          /* thread_bounds */
  guint        j;          /* the first iteration that had not ended at its last call */
} Launcher;

/* The launcher of call @a among @l[0, *n), added when new; NULL when
 * there would be too many. */
static Launcher *
launcher_of (Runs *r, Launcher *l, guint *n, guint32 a)
{
  guint32 t;

  for (guint k = 0; k < *n; k++)
    if (a >= l[k].first && a < l[k].end)
      return &l[k];
  t = sl_profile_api_thread (r->profile, a);
  if (t == SL_NONE || *n == MAX_LAUNCHERS)
    return NULL;
  l[*n] = (Launcher) { r->profile->threads[t].api_first,
                       r->profile->threads[t].api_first + r->profile->threads[t].api_count,
                       thread_bounds (r, t), 0 };
  return &l[(*n)++];
}

/* The iteration of call @a of launcher @l (G_MAXUINT: none), moving its
 * pointer forward; FALSE when @a starts before the end of an iteration
 * the pointer has passed (the thread's calls went back in time). */
static inline gboolean
launcher_iteration (Launcher *l, guint n, guint32 a, guint *j)
{
  if (l->j > 0 && a < l->b[2 * l->j - 1])
    return FALSE;
  while (l->j < n && a >= l->b[2 * l->j + 1])
    l->j++;
  *j = l->j < n && a >= l->b[2 * l->j] ? l->j : G_MAXUINT;
  return TRUE;
}

/* The runs of the operations @api[0, n) of source @tag: FALSE when the
 * calls of some launching thread go back to an iteration it has left (or
 * too many threads launch), so that an iteration's operations need not be
 * runs.  Most operations continue the run of the one before, by the calls
 * of the same thread in the same iteration: the inner loop. */
static gboolean
source_runs (Runs *r, const guint32 *api, guint n, guint tag, GArray *out)
{
  Launcher launchers[MAX_LAUNCHERS], *l = NULL;
  guint n_launchers = 0, cur = G_MAXUINT, from = 0, lo = 0, width = 0;

  for (guint i = 0; i < n; i++)
    {
      guint32 a = api[i];
      guint in = G_MAXUINT;

      if (a - lo < width)   /* in the run's iteration, on the run's thread */
        continue;
      width = 0;
      if (a != SL_NONE)
        {
          if (l == NULL || a < l->first || a >= l->end)
            l = launcher_of (r, launchers, &n_launchers, a);
          if (l == NULL || !launcher_iteration (l, r->n, a, &in))
            return FALSE;
          if (in != G_MAXUINT)
            {
              lo = l->b[2 * in];
              width = l->b[2 * in + 1] - lo;
            }
        }
      if (in != cur)
        {
          add_run (out, cur, tag, from, i);
          cur = in;
          from = i;
        }
    }
  add_run (out, cur, tag, from, n);
  return TRUE;
}

/* The runs of the operations of process @pid on device @gpu, into @out;
 * FALSE when some stream does not allow them. */
static gboolean
device_runs (Runs *r, const SlGpu *gpu, guint32 pid, GArray *out)
{
  const SlProfile *profile = r->profile;

  for (guint i = 0; i < gpu->n_streams; i++)
    {
      guint32 s = gpu->streams[i];
      const SlStream *st = &profile->streams[s];
      if (st->pid == pid
          && (!source_runs (r, st->kernels.api, st->kernels.spans.n, s * SL_GPU_OP_N_TYPES + SL_GPU_OP_KERNEL, out)
              || !source_runs (r, st->memcpy.api, st->memcpy.spans.n, s * SL_GPU_OP_N_TYPES + SL_GPU_OP_MEMCPY, out)
              || !source_runs (r, st->memset.api, st->memset.spans.n, s * SL_GPU_OP_N_TYPES + SL_GPU_OP_MEMSET, out)))
        return FALSE;
    }
  return TRUE;
}

static int
compare_runs (gconstpointer a, gconstpointer b)
{
  const Run *x = a, *y = b;

  if (x->j != y->j)
    return x->j < y->j ? -1 : 1;
  if (x->tag != y->tag)
    return x->tag < y->tag ? -1 : 1;
  return x->from < y->from ? -1 : x->from > y->from;
}

static const SlSpans *
run_spans (const SlProfile *profile, const Run *run)
{
  const SlStream *st = &profile->streams[sl_gpu_op_stream (run->tag)];

  switch (sl_gpu_op_type (run->tag))
    {
    case SL_GPU_OP_KERNEL: return &st->kernels.spans;
    case SL_GPU_OP_MEMCPY: return &st->memcpy.spans;
    default: return &st->memset.spans;
    }
}

/* Counts and extent of @run in @it (the order of operations does not
 * matter for them); kernels go into @merge for the unions, which find
 * their extent on the way. */
static void
add_run_ops (const SlProfile *profile, const Run *run, SlIteration *it, SlMerge *merge)
{
  const SlSpans *spans = run_spans (profile, run);
  gint64 end = G_MININT64;

  it->ops += run->to - run->from;
  if (sl_gpu_op_type (run->tag) == SL_GPU_OP_KERNEL)
    {
      it->kernels += run->to - run->from;
      sl_merge_add (merge, spans, run->from, run->to, sl_gpu_op_stream (run->tag));
      return;
    }
  for (guint i = run->from; i < run->to; i++)
    end = MAX (end, sl_spans_end (spans, i));
  sl_iter_widen (&it->has_gpu, &it->gpu_start_ns, &it->gpu_end_ns, spans->start[run->from], end);
}

/* Busy and NCCL time of one iteration on one device: the union of its
 * kernels (@merge, tags are streams), of its NCCL kernels; and their extent. */
static void
add_kernels (const SlProfile *profile, const guint8 *is_nccl, SlMerge *merge, SlIteration *it)
{
  Acc acc;
  const SlSpans *spans;
  guint tag, i, end;
  gint64 limit, first = G_MAXINT64, last = G_MININT64;

  sl_iter_acc_init (&acc);
  sl_merge_start (merge);
  while (sl_merge_run_start (merge, &tag, &spans, &i, &end, &limit))
    {
      const guint32 *func = profile->streams[tag].kernels.func;
      first = MIN (first, spans->start[i]);
      do
        {
          gint64 s = spans->start[i], e = sl_spans_end (spans, i);
          last = MAX (last, e);
          if (sl_gpu_busy_counts (SL_GPU_OP_KERNEL, FALSE))   /* busy is compute, as in `gaps` */
            sl_union_add (&acc.busy, s, e);
          if (func[i] < profile->n_funcs && is_nccl[func[i]])
            sl_union_add (&acc.nccl, s, e);
        }
      while (++i < end && spans->start[i] < limit);
      sl_merge_run_stop (merge, i);
    }
  if (first != G_MAXINT64)
    sl_iter_widen (&it->has_gpu, &it->gpu_start_ns, &it->gpu_end_ns, first, last);
  sl_iter_add_device_totals (it, &acc, 1);
}

/* The runs of one device, by iteration: [first, last) of the sorted runs. */
typedef struct {
  const SlProfile *profile;
  const guint8    *is_nccl;
  GArray          *runs;
  SlIteration     *its;
  guint            cut;      /* the second part's first run */
} DeviceRuns;

static void
device_runs_part (guint part, guint n_parts, gpointer data)
{
  DeviceRuns *d = data;
  guint first = part == 0 ? 0 : d->cut, last = part + 1 == n_parts ? d->runs->len : d->cut;

  for (guint i = first, k; i < last; i = k)
    {
      guint j = g_array_index (d->runs, Run, i).j;
      SlMerge merge;

      sl_merge_init (&merge);
      for (k = i; k < last && g_array_index (d->runs, Run, k).j == j; k++)
        add_run_ops (d->profile, &g_array_index (d->runs, Run, k), &d->its[j], &merge);
      add_kernels (d->profile, d->is_nccl, &merge, &d->its[j]);
      sl_merge_clear (&merge);
    }
}

#define SPLIT_MIN_OPS (1 << 18)   /* fewer operations: one part */

/* The runs of one device, by iteration, into its[]: in two parts at once
 * when there are many operations, cut between iterations near the middle
 * of them (a part writes only its own iterations). */
static void
device_runs_work (const SlProfile *profile, const guint8 *is_nccl, GArray *runs, SlIteration *its)
{
  DeviceRuns d = { profile, is_nccl, runs, its, runs->len };
  guint64 ops = 0, half = 0;

  g_array_sort (runs, compare_runs);
  for (guint i = 0; i < runs->len; i++)
    ops += g_array_index (runs, Run, i).to - g_array_index (runs, Run, i).from;
  if (sl_analysis_threads () < 2 || ops < SPLIT_MIN_OPS)
    {
      device_runs_part (0, 1, &d);
      return;
    }
  for (d.cut = 0; d.cut < runs->len && half < ops / 2; d.cut++)
    half += g_array_index (runs, Run, d.cut).to - g_array_index (runs, Run, d.cut).from;
  while (d.cut > 0 && d.cut < runs->len
         && g_array_index (runs, Run, d.cut).j == g_array_index (runs, Run, d.cut - 1).j)
    d.cut++;
  sl_parallel_run (2, device_runs_part, &d);
}

/* Whether the iterations its[0, n) (sorted by start) are disjoint: then
 * each launch time is in one at most, whatever the order of the walk. */
static gboolean
disjoint (const SlIteration *its, guint n)
{
  for (guint j = 0; j + 1 < n; j++)
    if (its[j].cpu_end_ns > its[j + 1].cpu_start_ns)
      return FALSE;
  return TRUE;
}

/* The runs of the devices, the devices of part @part of @n_parts (every
 * other one: a part writes only its devices' runs and flag). */
typedef struct {
  Runs            *r;
  const SlFilter  *filter;
  guint32          pid;
  GPtrArray       *per_gpu;
  gboolean         ok[SL_PARALLEL_MAX_PARTS];
} DevicesRuns;

static void
devices_runs_part (guint part, guint n_parts, gpointer data)
{
  DevicesRuns *d = data;
  const SlProfile *profile = d->r->profile;

  d->ok[part] = TRUE;
  for (guint g = part; g < profile->n_gpus && d->ok[part]; g += n_parts)
    if (sl_filter_match_device (d->filter, profile->gpus[g].device))
      d->ok[part] = device_runs (d->r, &profile->gpus[g], d->pid, g_ptr_array_index (d->per_gpu, g));
}

/* The work by runs; FALSE (nothing changed) when some stream does not allow them. */
static gboolean
runs_gpu_work (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl,
               guint32 pid, SlIteration *its, guint n)
{
  Runs r = { profile, its, n, g_new0 (guint *, MAX (profile->n_threads, 1)) };
  g_autoptr(GPtrArray) per_gpu = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  DevicesRuns d = { &r, filter, pid, per_gpu, { TRUE, TRUE } };
  gboolean ok = TRUE;
  guint64 ops = 0;

  for (guint g = 0; g < profile->n_gpus; g++)
    g_ptr_array_add (per_gpu, g_array_new (FALSE, FALSE, sizeof (Run)));
  /* every launching thread's bounds first, so that the parts only read them */
  for (guint t = 0; t < profile->n_threads; t++)
    if (profile->threads[t].api_count > 0)
      thread_bounds (&r, t);
  for (guint s = 0; s < profile->n_streams; s++)
    ops += profile->streams[s].kernels.spans.n;
  sl_parallel_run (profile->n_gpus > 1 && ops >= SPLIT_MIN_OPS ? sl_analysis_threads () : 1, devices_runs_part, &d);
  for (guint p = 0; p < SL_PARALLEL_MAX_PARTS; p++)
    ok &= d.ok[p];
  for (guint g = 0; g < per_gpu->len && ok; g++)
    device_runs_work (profile, is_nccl, g_ptr_array_index (per_gpu, g), its);
  for (guint t = 0; t < profile->n_threads; t++)
    g_free (r.bounds[t]);
  g_free (r.bounds);
  return ok;
}

void
sl_iter_nvtx_gpu_work (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl,
                       guint32 pid, SlIteration *its, guint n)
{
  if (n > 0 && disjoint (its, n) && runs_gpu_work (profile, filter, is_nccl, pid, its, n))
    return;
  merged_gpu_work (profile, filter, is_nccl, pid, its, n);
}
