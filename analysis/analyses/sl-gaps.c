/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gaps.c: GPU busy / idle time per device and its longest idle gaps. */
#include "sl-gaps.h"
#include "sl-attribution.h"
#include "sl-gpu-busy.h"
#include "sl-gpu-ops.h"
#include "sl-int.h"
#include "sl-intervals.h"
#include "sl-json.h"
#include "sl-nccl.h"
#include "sl-stats.h"

#include <string.h>

typedef struct {
  gint64 start, end;
  guint  before_tag, before_index;
  guint  after_tag, after_index;
} GapCandidate;

/* Longer first; among equals, earlier first. */
static inline gboolean
gap_better (const GapCandidate *a, const GapCandidate *b)
{
  gint64 da = a->end - a->start, db = b->end - b->start;
  return da > db || (da == db && a->start < b->start);
}

/* A bounded min-heap (worst candidate on top) keeps the @top best gaps. */
static void
keep_gap (GArray *heap, guint top, const GapCandidate *c)
{
  GapCandidate *h;
  guint i;

  if (top == 0)
    return;
  if (heap->len < top)
    {
      g_array_append_val (heap, *c);
      h = (GapCandidate *) heap->data;
      for (i = heap->len - 1; i > 0 && gap_better (&h[(i - 1) / 2], &h[i]); i = (i - 1) / 2)
        {
          GapCandidate t = h[i];
          h[i] = h[(i - 1) / 2];
          h[(i - 1) / 2] = t;
        }
      return;
    }
  h = (GapCandidate *) heap->data;
  if (!gap_better (c, &h[0]))
    return;
  h[0] = *c;
  for (i = 0;;)
    {
      guint l = 2 * i + 1, r = l + 1, worst = i;
      if (l < heap->len && gap_better (&h[worst], &h[l]))
        worst = l;
      if (r < heap->len && gap_better (&h[worst], &h[r]))
        worst = r;
      if (worst == i)
        break;
      GapCandidate t = h[i];
      h[i] = h[worst];
      h[worst] = t;
      i = worst;
    }
}

static int
compare_candidates (gconstpointer a, gconstpointer b)
{
  return gap_better (a, b) ? -1 : gap_better (b, a) ? 1 : 0;
}

static int
compare_cpu (gconstpointer a, gconstpointer b)
{
  const SlGapCpu *x = a, *y = b;

  return sl_rank_compare (x->overlap_ns, x->name, y->overlap_ns, y->name);
}

/* Adds the overlap of @thread's API calls with [gs, ge) to their names' sums. */
static void
sum_thread_overlap (const SlProfile *profile, const SlAttribution *attr, guint32 t,
                    gint64 gs, gint64 ge, GHashTable *per_name)
{
  const SlSpans *spans = &profile->api.spans;
  const SlThread *thread = &profile->threads[t];
  guint lo = thread->api_first, hi = thread->api_first + thread->api_count;
  guint a = sl_spans_lower_bound_in (spans, lo, hi, ge);
  gint64 reach = sl_sat_sub (gs, attr->api_max_dur[t]);

  /* Calls starting before ge; the longest call bounds how far back one
   * can still reach into the gap. */
  while (a > lo && spans->start[a - 1] >= reach)
    {
      gint64 s, e, overlap;
      a--;
      s = MAX (spans->start[a], gs);
      e = MIN (sl_spans_end (spans, a), ge);
      overlap = e - s;
      if (overlap > 0)
        {
          gpointer name = GUINT_TO_POINTER (profile->api.name[a]);
          gint64 *sum = g_hash_table_lookup (per_name, name);
          if (sum == NULL)
            {
              sum = g_new0 (gint64, 1);
              g_hash_table_insert (per_name, name, sum);
            }
          *sum = sl_sat_add (*sum, overlap);   /* many threads can overlap one gap */
        }
    }
}

/* The @gap's top 3 names by summed overlap (frees the sums). */
static void
keep_top_cpu (const SlProfile *profile, GHashTable *per_name, SlGap *gap)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (SlGapCpu));
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, per_name);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      SlGapCpu row = { (char *) sl_strings_get (profile->strings, GPOINTER_TO_UINT (key)),
                       *(gint64 *) value };
      g_array_append_val (rows, row);
      g_free (value);
    }
  g_array_sort (rows, compare_cpu);
  gap->n_cpu = MIN (rows->len, 3);
  for (guint i = 0; i < gap->n_cpu; i++)
    {
      gap->cpu[i].name = g_strdup (g_array_index (rows, SlGapCpu, i).name);
      gap->cpu[i].overlap_ns = g_array_index (rows, SlGapCpu, i).overlap_ns;
    }
}

/* API calls of process @pid overlapping [gs, ge), summed per name, top 3. */
static void
describe_cpu (const SlProfile *profile, const SlAttribution *attr, guint32 pid,
              gint64 gs, gint64 ge, SlGap *gap)
{
  guint32 p = sl_profile_find_process (profile, pid);
  g_autoptr(GHashTable) per_name = g_hash_table_new (NULL, NULL);

  if (p == SL_NONE)
    return;
  for (guint i = 0; i < profile->processes[p].n_threads; i++)
    sum_thread_overlap (profile, attr, profile->processes[p].threads[i], gs, ge, per_name);
  keep_top_cpu (profile, per_name, gap);
}

#define ALL_OPS    ((1u << SL_GPU_OP_N_TYPES) - 1)
#define KERNEL_OPS (1u << SL_GPU_OP_KERNEL)
#define COPY_OPS   (ALL_OPS & ~KERNEL_OPS)

/* The device's operations of the @types (a mask of SlGpuOpType bits) in the
 * filter, tagged as sl_gpu_ops_add_stream() does. */
static void
add_device_sources (SlMerge *merge, const SlProfile *profile, const SlFilter *filter, const SlGpu *gpu,
                    guint types)
{
  for (guint i = 0; i < gpu->n_streams; i++)
    {
      guint32 s = gpu->streams[i];
      const SlStream *st = &profile->streams[s];
      const SlSpans *lists[SL_GPU_OP_N_TYPES] = { &st->kernels.spans, &st->memcpy.spans, &st->memset.spans };

      if (!sl_filter_match_stream (filter, st))
        continue;
      for (guint type = 0; type < SL_GPU_OP_N_TYPES; type++)
        {
          guint first, last;
          if (!(types & (1u << type)))
            continue;
          sl_filter_span_bounds (filter, lists[type], 0, lists[type]->n, &first, &last);
          sl_merge_add (merge, lists[type], first, last, s * SL_GPU_OP_N_TYPES + type);
        }
    }
}

/* One walk over a device's operations in start order. */
typedef struct {
  gboolean count_copies;
  gint64   min_gap;
  guint    top;
  GArray  *heap;           /* GapCandidate, the @top longest gaps */
  gint64   worst;          /* the shortest gap kept once the heap is full */
  SlUnion  counted;        /* what counts as busy: kernels, or everything */
  SlUnion  kernels, copies;   /* kernels: with --count-copies only */
  GArray  *copy_runs;      /* the closed intervals of @copies, in order (gint64 pairs) */
  guint    end_tag, end_index;   /* the operation that ends @counted so far */
  /* With sl_gaps_compute_with_overlap(): the kernels split in two unions,
   * NCCL ones (by function) and the others, as sl-overlap.c measures them */
  const SlProfile *profile;
  const guint8    *is_nccl;      /* per function; NULL: no split */
  SlUnion          nccl, compute;
} Scan;

/* A gap in @counted before [s, e) of the tagged operation: counted, and
 * kept when among the @top longest. */
static void
scan_gap (Scan *sc, SlGapsDevice *out, gint64 s, guint tag, guint index)
{
  gint64 d = s - sc->counted.cur_end;

  out->n_gaps++;
  out->gaps_total_ns += d;
  /* gaps come in start order, so a later one only displaces the worst
   * kept one when strictly longer */
  if (d > sc->worst)
    {
      GapCandidate c = { sc->counted.cur_end, s, sc->end_tag, sc->end_index, tag, index };
      const GapCandidate *h;

      keep_gap (sc->heap, sc->top, &c);
      h = (const GapCandidate *) sc->heap->data;
      if (sc->heap->len == sc->top)
        sc->worst = h[0].end - h[0].start;
    }
}

static void
scan_copy (Scan *sc, gint64 s, gint64 e)
{
  if (sc->copies.open && s > sc->copies.cur_end)
    {
      g_array_append_val (sc->copy_runs, sc->copies.cur_start);
      g_array_append_val (sc->copy_runs, sc->copies.cur_end);
    }
  sl_union_add (&sc->copies, s, e);
}

/* With --count-copies: every operation is busy, so @counted is the union
 * of all work; @kernels the kernels'. */
static void
scan_op (Scan *sc, SlGapsDevice *out, guint tag, guint index, gint64 s, gint64 e)
{
  SlGpuOpType type = sl_gpu_op_type (tag);

  out->last_end_ns = MAX (out->last_end_ns, e);
  if (type == SL_GPU_OP_KERNEL)
    sl_union_add (&sc->kernels, s, e);
  else
    scan_copy (sc, s, e);
  if (sc->counted.open && s > sc->counted.cur_end && s - sc->counted.cur_end >= sc->min_gap)
    scan_gap (sc, out, s, tag, index);
  if (!sc->counted.open || s > sc->counted.cur_end || e > sc->counted.cur_end)
    {
      sc->end_tag = tag;
      sc->end_index = index;
    }
  sl_union_add (&sc->counted, s, e);
}

/* With --count-copies, walks the device's operations in start order: its
 * span, its busy unions, and its gaps of at least @min_gap (the @top
 * longest kept in the heap).  Returns FALSE when there is none. */
static gboolean
scan_device (SlMerge *merge, Scan *sc, SlGapsDevice *out)
{
  guint tag, index, end;
  gint64 limit;
  const SlSpans *spans;
  gboolean any = FALSE;

  while (sl_merge_run_start (merge, &tag, &spans, &index, &end, &limit))
    {
      do
        {
          gint64 s = spans->start[index];
          gint64 e = s + (G_LIKELY (spans->dur[index] != SL_LONG_DUR) ? (gint64) spans->dur[index]
                                                                      : _sl_spans_long_dur (spans, index));

          if (G_UNLIKELY (!any))
            {
              out->first_start_ns = s;
              out->last_end_ns = e;
              any = TRUE;
            }
          scan_op (sc, out, tag, index, s, e);
        }
      while (++index < end && spans->start[index] < limit);
      sl_merge_run_stop (merge, index);
    }
  out->kernel_busy_ns = sl_union_total (&sc->kernels);
  out->copy_busy_ns = sl_union_total (&sc->copies);
  if (sc->copies.open)   /* the last run */
    {
      g_array_append_val (sc->copy_runs, sc->copies.cur_start);
      g_array_append_val (sc->copy_runs, sc->copies.cur_end);
    }
  out->busy_ns = sl_union_total (&sc->counted);
  return any;
}

/* Copy time inside [gs, ge), from the closed copy runs. */
static gint64
copy_inside (const GArray *runs, gint64 gs, gint64 ge)
{
  const gint64 *r = (const gint64 *) runs->data;
  guint lo = 0, hi = runs->len / 2;
  gint64 sum = 0;

  while (lo < hi)   /* the first run ending after gs */
    {
      guint mid = (lo + hi) / 2;
      if (r[2 * mid + 1] <= gs)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < runs->len / 2 && r[2 * i] < ge; i++)
    sum += MIN (r[2 * i + 1], ge) - MAX (r[2 * i], gs);
  return sum;
}

/* The kept gaps, longest first, with the operations around them and the
 * CPU calls during them. */
static void
describe_gaps (const SlProfile *profile, const SlAttribution *attr, GArray *heap,
               const GArray *copy_runs, SlGapsDevice *out)
{
  g_array_sort (heap, compare_candidates);
  out->n_top = heap->len;
  out->gaps = g_new0 (SlGap, MAX (heap->len, 1));
  for (guint i = 0; i < heap->len; i++)
    {
      const GapCandidate *c = &g_array_index (heap, GapCandidate, i);
      SlGap *gap = &out->gaps[i];
      guint32 before_stream = sl_gpu_op_stream (c->before_tag), after_stream = sl_gpu_op_stream (c->after_tag);

      gap->start_ns = c->start;
      gap->end_ns = c->end;
      gap->dur_ns = c->end - c->start;
      gap->copy_ns = copy_inside (copy_runs, c->start, c->end);
      gap->before = sl_gpu_op_name (profile, before_stream, sl_gpu_op_type (c->before_tag), c->before_index);
      gap->after = sl_gpu_op_name (profile, after_stream, sl_gpu_op_type (c->after_tag), c->after_index);
      gap->pid = profile->streams[before_stream].pid;
      describe_cpu (profile, attr, gap->pid, gap->start_ns, gap->end_ns, gap);
    }
}

/* Without --count-copies kernels alone are busy, and copies only make the
 * copy and any-work unions: they are walked on their own (few) before the
 * kernels, which then merge alone.  The any-work union is kernels +
 * copies - their intersection, summed as each kernel interval closes: one
 * union per kernel, fewer sources to merge. */

/* The copies of a device in start order (@merge, started): their union and
 * its closed runs (sc->copy_runs), and their extent (*first, *last). */
static gboolean
scan_copies (SlMerge *merge, Scan *sc, gint64 *first, gint64 *last)
{
  guint tag, index, end;
  gint64 limit;
  const SlSpans *spans;
  gboolean any = FALSE;

  while (sl_merge_run_start (merge, &tag, &spans, &index, &end, &limit))
    {
      do
        {
          gint64 s = spans->start[index], e = sl_spans_end (spans, index);
          *first = any ? *first : s;
          *last = any ? MAX (*last, e) : e;
          any = TRUE;
          scan_copy (sc, s, e);
        }
      while (++index < end && spans->start[index] < limit);
      sl_merge_run_stop (merge, index);
    }
  if (sc->copies.open)   /* the last run */
    {
      g_array_append_val (sc->copy_runs, sc->copies.cur_start);
      g_array_append_val (sc->copy_runs, sc->copies.cur_end);
    }
  return any;
}

/* Overlap of [a, b) with the copy runs from *@cursor on; the kernel
 * intervals come in order, so runs ending by @a are passed for good. */
static gint64
copy_overlap (const GArray *runs, guint *cursor, gint64 a, gint64 b)
{
  const gint64 *r = (const gint64 *) (void *) runs->data;
  guint n = runs->len / 2;
  gint64 sum = 0;

  while (*cursor < n && r[2 * *cursor + 1] <= a)
    (*cursor)++;
  for (guint i = *cursor; i < n && r[2 * i] < b; i++)
    sum += MIN (r[2 * i + 1], b) - MAX (r[2 * i], a);
  return sum;
}

/* The overlap split of one kernel (see Scan). */
static inline void
split_kernel (Scan *sc, guint32 f, gint64 s, gint64 e)
{
  guint n_funcs = sc->profile->n_funcs;
  gboolean nc = (f < n_funcs) & (sc->is_nccl[f < n_funcs ? f : 0] != 0);

  sl_union_add (nc ? &sc->nccl : &sc->compute, s, e);
}

/* The kernels of a device in start order (@merge, started; the copies
 * scanned before): the counted union, its gaps, and its intersection with
 * the copies into *@both. */
static gboolean
scan_kernels (SlMerge *merge, Scan *sc, SlGapsDevice *out, gint64 *both, gint64 *first, gint64 *last)
{
  guint tag, index, end, cursor = 0;
  gint64 limit;
  const SlSpans *spans;
  gboolean any = FALSE;

  while (sl_merge_run_start (merge, &tag, &spans, &index, &end, &limit))
    {
      const guint32 *func = sc->is_nccl != NULL ? sc->profile->streams[tag / SL_GPU_OP_N_TYPES].kernels.func : NULL;

      do
        {
          gint64 s = spans->start[index], e = sl_spans_end (spans, index);
          SlUnion *u = &sc->counted;
          if (func != NULL)
            split_kernel (sc, func[index], s, e);
          *first = any ? *first : s;
          any = TRUE;
          if (u->open && s > u->cur_end)
            {
              *both += copy_overlap (sc->copy_runs, &cursor, u->cur_start, u->cur_end);
              if (s - u->cur_end >= sc->min_gap)
                scan_gap (sc, out, s, tag, index);
            }
          if (!u->open || s > u->cur_end || e > u->cur_end)
            {
              sc->end_tag = tag;
              sc->end_index = index;
            }
          sl_union_add (u, s, e);
        }
      while (++index < end && spans->start[index] < limit);
      sl_merge_run_stop (merge, index);
    }
  if (sc->counted.open)
    {
      *both += copy_overlap (sc->copy_runs, &cursor, sc->counted.cur_start, sc->counted.cur_end);
      *last = sc->counted.cur_end;   /* in start order, the last interval ends last */
    }
  return any;
}

/* The device's walk without --count-copies (see scan_copies). */
static gboolean
scan_device_kernels (const SlProfile *profile, const SlFilter *filter, const SlGpu *gpu, Scan *sc,
                     SlGapsDevice *out)
{
  SlMerge copies, kernels;
  gint64 cfirst = 0, clast = 0, kfirst = 0, klast = 0, both = 0;
  gboolean any_copy, any_kernel;

  sl_merge_init (&copies);
  add_device_sources (&copies, profile, filter, gpu, COPY_OPS);
  sl_merge_start (&copies);
  any_copy = scan_copies (&copies, sc, &cfirst, &clast);
  sl_merge_clear (&copies);
  sl_merge_init (&kernels);
  add_device_sources (&kernels, profile, filter, gpu, KERNEL_OPS);
  sl_merge_start (&kernels);
  any_kernel = scan_kernels (&kernels, sc, out, &both, &kfirst, &klast);
  sl_merge_clear (&kernels);

  out->first_start_ns = !any_kernel ? cfirst : !any_copy ? kfirst : MIN (cfirst, kfirst);
  out->last_end_ns = !any_kernel ? clast : !any_copy ? klast : MAX (clast, klast);
  out->kernel_busy_ns = sl_union_total (&sc->counted);
  out->copy_busy_ns = sl_union_total (&sc->copies);
  out->busy_ns = sl_sat_from_i128 ((__int128) out->kernel_busy_ns + out->copy_busy_ns - both);
  return any_copy || any_kernel;
}

static gboolean
device_gaps (const SlProfile *profile, const SlAttribution *attr, const SlFilter *filter,
             const SlGpu *gpu, Scan *sc, SlGapsDevice *out)
{
  g_autoptr(GArray) heap = g_array_new (FALSE, FALSE, sizeof (GapCandidate));
  g_autoptr(GArray) copy_runs = g_array_new (FALSE, FALSE, sizeof (gint64));
  SlMerge merge;
  gboolean any;

  sc->heap = heap;
  sc->copy_runs = copy_runs;
  sc->worst = sc->top > 0 ? -1 : G_MAXINT64;
  sl_union_init (&sc->counted);
  sl_union_init (&sc->kernels);
  sl_union_init (&sc->copies);
  sl_union_init (&sc->nccl);
  sl_union_init (&sc->compute);
  out->device = gpu->device;
  if (sc->count_copies)
    {
      sl_merge_init (&merge);
      add_device_sources (&merge, profile, filter, gpu, ALL_OPS);
      sl_merge_start (&merge);
      any = scan_device (&merge, sc, out);
      sl_merge_clear (&merge);
    }
  else
    any = scan_device_kernels (profile, filter, gpu, sc, out);

  out->span_ns = any ? out->last_end_ns - out->first_start_ns : 0;
  out->idle_ns = out->span_ns - out->busy_ns;
  out->any_busy_pct = sl_percent (out->busy_ns, out->span_ns);
  out->utilization_pct = sc->count_copies ? out->any_busy_pct : sl_percent (out->kernel_busy_ns, out->span_ns);
  describe_gaps (profile, attr, heap, copy_runs, out);
  return any;
}

SlGaps *
sl_gaps_compute (const SlProfile *profile, const SlFilter *filter, gint64 min_gap_ns, guint top)
{
  return sl_gaps_compute_full (profile, filter, min_gap_ns, top, FALSE);
}

/* Whether the filter keeps any stream of @gpu. */
static gboolean
gpu_in_filter (const SlProfile *profile, const SlFilter *filter, const SlGpu *gpu)
{
  if (!sl_filter_match_device (filter, gpu->device))
    return FALSE;
  for (guint i = 0; i < gpu->n_streams; i++)
    if (sl_filter_match_stream (filter, &profile->streams[gpu->streams[i]]))
      return TRUE;
  return FALSE;
}

/* What one GPU gave: its gaps device and, with an overlap, its overlap
 * device (only with kernels). */
typedef struct {
  SlGapsDevice    gaps;
  SlOverlapDevice overlap;
  gboolean        has_gaps, has_overlap;
} GpuResult;

/* GPUs [first, last), each into its slot of @results, with a Scan of its
 * own (the devices are independent). */
typedef struct {
  const SlProfile     *profile;
  const SlAttribution *attr;
  const SlFilter      *filter;
  Scan                 scan;
  gboolean             with_overlap;
  guint                first, last;
  GpuResult           *results;
} GapsPart;

static void
measure_gpu (GapsPart *part, guint g)
{
  const SlGpu *gpu = &part->profile->gpus[g];
  GpuResult *r = &part->results[g];
  Scan *sc = &part->scan;

  if (!gpu_in_filter (part->profile, part->filter, gpu))
    return;
  if (!device_gaps (part->profile, part->attr, part->filter, gpu, sc, &r->gaps))
    {
      /* nothing of this device inside the window */
      g_free (r->gaps.gaps);
      memset (&r->gaps, 0, sizeof r->gaps);
      return;
    }
  r->has_gaps = TRUE;
  if (part->with_overlap && sc->counted.n_intervals > 0)   /* counted: the kernels' union */
    {
      sl_overlap_device_set (&r->overlap, gpu->device, sl_union_total (&sc->counted),
                             sl_union_total (&sc->nccl), sl_union_total (&sc->compute));
      r->has_overlap = TRUE;
    }
}

static gpointer
measure_part (gpointer data)
{
  GapsPart *part = data;

  for (guint g = part->first; g < part->last; g++)
    measure_gpu (part, g);
  return NULL;
}

/* From this many kernels the GPUs are measured in two parts on two cores
 * (sl_gpu_ops_split_gpus), as sl-overlap.c does. */
static guint64 parallel_kernels = 500000;

void
_sl_gaps_set_parallel_kernels (guint64 kernels)
{
  parallel_kernels = kernels;
}

/* With @overlap (count_copies FALSE), also its devices: those with kernels. */
static SlGaps *
compute (const SlProfile *profile, const SlFilter *filter, gint64 min_gap_ns, guint top,
         gboolean count_copies, SlOverlap *overlap)
{
  SlGaps *self = g_new0 (SlGaps, 1);
  g_autofree guint8 *is_nccl = overlap != NULL ? sl_nccl_func_mask (profile) : NULL;
  g_autofree GpuResult *results = g_new0 (GpuResult, MAX (profile->n_gpus, 1));
  guint mid = sl_gpu_ops_split_gpus (profile, parallel_kernels);
  GapsPart parts[2] = { {
    .profile = profile, .attr = sl_attribution_get (profile), .filter = filter,
    .scan = { .count_copies = count_copies, .min_gap = MAX (min_gap_ns, 1), .top = top,
              .profile = profile, .is_nccl = is_nccl },
    .with_overlap = overlap != NULL, .first = 0, .last = mid > 0 ? mid : profile->n_gpus,
    .results = results,
  } };
  GThread *other = NULL;

  if (mid > 0)
    {
      parts[1] = parts[0];
      parts[1].first = mid;
      parts[1].last = profile->n_gpus;
      other = g_thread_new ("sl-gaps", measure_part, &parts[1]);
    }
  measure_part (&parts[0]);
  if (other != NULL)
    g_thread_join (other);

  self->count_copies = count_copies;
  self->devices = g_new0 (SlGapsDevice, MAX (profile->n_gpus, 1));
  for (guint g = 0; g < profile->n_gpus; g++)
    {
      if (results[g].has_gaps)
        self->devices[self->n_devices++] = results[g].gaps;
      if (results[g].has_overlap)
        overlap->devices[overlap->n_devices++] = results[g].overlap;
    }
  return self;
}

SlGaps *
sl_gaps_compute_full (const SlProfile *profile, const SlFilter *filter, gint64 min_gap_ns, guint top,
                      gboolean count_copies)
{
  return compute (profile, filter, min_gap_ns, top, count_copies, NULL);
}

SlGaps *
sl_gaps_compute_with_overlap (const SlProfile *profile, const SlFilter *filter, gint64 min_gap_ns,
                              guint top, SlOverlap **overlap)
{
  SlOverlap *o = g_new0 (SlOverlap, 1);

  o->devices = g_new0 (SlOverlapDevice, MAX (profile->n_gpus, 1));
  *overlap = o;
  return compute (profile, filter, min_gap_ns, top, FALSE, o);
}

void
sl_gaps_free (SlGaps *self)
{
  if (self == NULL)
    return;
  for (guint d = 0; d < self->n_devices; d++)
    {
      for (guint i = 0; i < self->devices[d].n_top; i++)
        {
          SlGap *gap = &self->devices[d].gaps[i];
          g_free (gap->before);
          g_free (gap->after);
          for (guint c = 0; c < gap->n_cpu; c++)
            g_free (gap->cpu[c].name);
        }
      g_free (self->devices[d].gaps);
    }
  g_free (self->devices);
  g_free (self);
}

static void
add_gap_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlGap *gap = item;

  json_builder_begin_object (b);
  sl_json_member_int (b, "start_ns", gap->start_ns);
  sl_json_member_int (b, "end_ns", gap->end_ns);
  sl_json_member_int (b, "dur_ns", gap->dur_ns);
  sl_json_member_int (b, "copy_ns", gap->copy_ns);
  sl_json_member_string (b, "before", gap->before);
  sl_json_member_string (b, "after", gap->after);
  sl_json_member_named_values (b, "cpu", "overlap_ns", gap->cpu, gap->n_cpu, sizeof (SlGapCpu),
                               G_STRUCT_OFFSET (SlGapCpu, name), G_STRUCT_OFFSET (SlGapCpu, overlap_ns));
  json_builder_end_object (b);
}

static void
add_device_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlGapsDevice *dev = item;

  json_builder_begin_object (b);
  sl_json_member_int (b, "device", dev->device);
  sl_json_member_int (b, "span_ns", dev->span_ns);
  sl_json_member_int (b, "kernel_busy_ns", dev->kernel_busy_ns);
  sl_json_member_int (b, "copy_busy_ns", dev->copy_busy_ns);
  sl_json_member_int (b, "busy_ns", dev->busy_ns);
  sl_json_member_int (b, "idle_ns", dev->idle_ns);
  sl_json_member_double (b, "utilization_pct", dev->utilization_pct);
  sl_json_member_double (b, "any_busy_pct", dev->any_busy_pct);
  sl_json_member_array (b, "gaps", dev->gaps, dev->n_top, sizeof (SlGap), add_gap_json, NULL);
  json_builder_end_object (b);
}

JsonNode *
sl_gaps_to_json (const SlGaps *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_string (b, "busy", self->count_copies ? "any" : "kernels");
  sl_json_member_array (b, "devices", self->devices, self->n_devices, sizeof (SlGapsDevice),
                        add_device_json, NULL);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
