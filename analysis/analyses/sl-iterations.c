/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-iterations.c: training / inference steps from NVTX or from GPU idle gaps. */
#include "sl-iterations.h"
#include "sl-gpu-busy.h"
#include "sl-iterations-private.h"
#include "sl-attribution.h"
#include "sl-gpu-ops.h"
#include "sl-intervals.h"
#include "sl-json.h"
#include "sl-nccl.h"
#include "sl-int.h"

#include <string.h>

char *
sl_iterations_normalize_name (const char *name)
{
  GString *out = g_string_new (NULL);

  for (const char *p = name; p != NULL && *p != '\0';)
    {
      if (g_ascii_isdigit (*p))
        {
          g_string_append_c (out, '#');
          while (g_ascii_isdigit (*p))
            p++;
        }
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

typedef struct {
  guint32 pid;
  guint32 thread;
  guint32 range;           /* local index in the thread's push/pop ranges */
  gint64  start;
  gint64  end;
} Candidate;

static int
compare_candidates (gconstpointer a, gconstpointer b)
{
  const Candidate *x = a, *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->thread < y->thread ? -1 : x->thread > y->thread ? 1 : 0;
}

typedef struct {
  guint64 count;
  gint64  total;
} PidTally;

typedef struct {
  const char *name;
  gint64      total;
} RankedName;

/* The normalised name of string id @id, cached in @norm_of_id. */
static const char *
normalized_name (GHashTable *norm_of_id, const SlProfile *profile, guint32 id)
{
  char *norm = g_hash_table_lookup (norm_of_id, GUINT_TO_POINTER (id));

  if (norm == NULL)
    {
      norm = sl_iterations_normalize_name (sl_strings_get (profile->strings, id));
      g_hash_table_insert (norm_of_id, GUINT_TO_POINTER (id), norm);
    }
  return norm;
}

/* The tally of name @norm in process @pid, created empty on first use. */
static PidTally *
tally_of (GHashTable *tally, const char *norm, guint32 pid)
{
  GHashTable *per_pid = g_hash_table_lookup (tally, norm);
  PidTally *pt;

  if (per_pid == NULL)
    {
      per_pid = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      g_hash_table_insert (tally, g_strdup (norm), per_pid);
    }
  pt = g_hash_table_lookup (per_pid, GUINT_TO_POINTER (pid));
  if (pt == NULL)
    {
      pt = g_new0 (PidTally, 1);
      g_hash_table_insert (per_pid, GUINT_TO_POINTER (pid), pt);
    }
  return pt;
}

/* Count and CPU time of the depth-0 ranges in the filter, per normalised
 * name (@tally) and process (its values). */
static void
tally_depth0 (const SlProfile *profile, const SlFilter *filter, const gboolean *thread_ok,
              GHashTable *norm_of_id, GHashTable *tally)
{
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;
      guint32 pid = profile->threads[t].pid;

      if (!thread_ok[t] || r->n_depths == 0)
        continue;
      for (guint i = r->depth_first[0]; i < r->depth_first[1]; i++)
        {
          PidTally *pt;

          if (!sl_filter_match_time (filter, r->spans.start[i]))
            continue;
          pt = tally_of (tally, normalized_name (norm_of_id, profile, r->name[i]), pid);
          pt->count++;
          pt->total = sl_sat_add (pt->total, sl_spans_dur (&r->spans, i));
        }
    }
}

/* The CPU time of a name in the processes where it occurs at least twice;
 * FALSE when there is none. */
static gboolean
repeated_total (GHashTable *per_pid, gint64 *total)
{
  GHashTableIter pi;
  gpointer pk, pv;
  gboolean repeated = FALSE;

  *total = 0;
  g_hash_table_iter_init (&pi, per_pid);
  while (g_hash_table_iter_next (&pi, &pk, &pv))
    {
      const PidTally *pt = pv;
      if (pt->count >= 2)
        {
          repeated = TRUE;
          *total = sl_sat_add (*total, pt->total);
        }
    }
  return repeated;
}

static int
compare_ranked (gconstpointer a, gconstpointer b)
{
  const RankedName *x = a, *y = b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* The repeated depth-0 names, the largest CPU time first (then by name). */
static GArray *
ranked_names (GHashTable *tally)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (RankedName));
  GHashTableIter iter;
  gpointer key, value;
  RankedName r;

  g_hash_table_iter_init (&iter, tally);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (repeated_total (value, &r.total))
      {
        r.name = key;
        g_array_append_val (out, r);
      }
  g_array_sort (out, compare_ranked);
  return out;
}

/* The string ids whose normalised name is @norm, into @raw. */
static void
raw_ids_of (GHashTable *norm_of_id, const char *norm, GHashTable *raw)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_remove_all (raw);
  g_hash_table_iter_init (&iter, norm_of_id);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (g_str_equal (value, norm))
      g_hash_table_add (raw, key);
}

static void
add_candidate (GArray *out, const SlProfile *profile, guint32 t, const SlNvtxRanges *r, guint i)
{
  Candidate c = { profile->threads[t].pid, t, i, r->spans.start[i], sl_spans_end (&r->spans, i) };

  g_array_append_val (out, c);
}

static void
collect_depth0 (const SlProfile *profile, const SlFilter *filter, const gboolean *thread_ok,
                GHashTable *chosen_raw, GArray *out)
{
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;

      if (!thread_ok[t] || r->n_depths == 0)
        continue;
      for (guint i = r->depth_first[0]; i < r->depth_first[1]; i++)
        if (sl_filter_match_time (filter, r->spans.start[i])
            && g_hash_table_contains (chosen_raw, GUINT_TO_POINTER (r->name[i])))
          add_candidate (out, profile, t, r, i);
    }
}

/* Ranges of any depth whose name matches @regex, outermost matches only. */
static void
collect_regex (const SlProfile *profile, const SlFilter *filter, const gboolean *thread_ok,
               GRegex *regex, GArray *out)
{
  g_autoptr(GHashTable) verdict = g_hash_table_new (NULL, NULL);   /* id -> 1 no, 2 yes */

  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;
      g_autofree guint8 *covered = NULL;

      if (!thread_ok[t] || r->spans.n == 0)
        continue;
      covered = g_new0 (guint8, r->spans.n);
      /* Rows are ordered by depth, so a parent is always seen before its children. */
      for (guint i = 0; i < r->spans.n; i++)
        {
          gpointer v = g_hash_table_lookup (verdict, GUINT_TO_POINTER (r->name[i]));
          gboolean parent_covered = r->parent[i] != SL_NONE && covered[r->parent[i]];

          if (parent_covered)
            {
              covered[i] = 1;
              continue;
            }
          if (v == NULL)
            {
              const char *name = sl_strings_get (profile->strings, r->name[i]);
              g_autofree char *valid = g_utf8_make_valid (name, -1);
              v = GINT_TO_POINTER (g_regex_match (regex, valid, 0, NULL) ? 2 : 1);
              g_hash_table_insert (verdict, GUINT_TO_POINTER (r->name[i]), v);
            }
          if (GPOINTER_TO_INT (v) == 2 && sl_filter_match_time (filter, r->spans.start[i]))
            {
              add_candidate (out, profile, t, r, i);
              covered[i] = 1;
            }
        }
    }
}


void
sl_iter_acc_init (Acc *acc)
{
  sl_union_init (&acc->busy);
  sl_union_init (&acc->nccl);
}

/* Widens [*lo, *hi] to cover [s, e]; the first time (*has FALSE) it is [s, e]. */
void
sl_iter_widen (gboolean *has, gint64 *lo, gint64 *hi, gint64 s, gint64 e)
{
  if (!*has)
    {
      *has = TRUE;
      *lo = s;
      *hi = e;
    }
  else
    {
      *lo = MIN (*lo, s);
      *hi = MAX (*hi, e);
    }
}

void
sl_iter_acc_op (SlIteration *it, Acc *acc, SlGpuOpType type, gboolean nccl, gint64 s, gint64 e)
{
  sl_iter_widen (&it->has_gpu, &it->gpu_start_ns, &it->gpu_end_ns, s, e);
  it->ops++;
  if (type == SL_GPU_OP_KERNEL)
    it->kernels++;
  if (sl_gpu_busy_counts (type, FALSE))   /* busy is compute, as in `gaps` */
    sl_union_add (&acc->busy, s, e);
  if (nccl)
    sl_union_add (&acc->nccl, s, e);
}

/* Adds the per-device unions of @acc[0, n) to the iteration's busy and NCCL time. */
void
sl_iter_add_device_totals (SlIteration *it, const Acc *acc, guint n)
{
  for (guint d = 0; d < n; d++)
    {
      it->gpu_busy_ns = sl_sat_add (it->gpu_busy_ns, sl_union_total (&acc[d].busy));
      it->nccl_ns = sl_sat_add (it->nccl_ns, sl_union_total (&acc[d].nccl));
    }
}

/* The GPU operations of process @pid inside the filter (its GPUs and window). */
void
sl_iter_add_process_sources (const SlProfile *profile, const SlFilter *filter, guint32 pid, SlMerge *merge)
{
  for (guint s = 0; s < profile->n_streams; s++)
    if (profile->streams[s].pid == pid && sl_filter_match_device (filter, profile->streams[s].device))
      sl_gpu_ops_add_stream (merge, profile, s, filter);
}

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
nvtx_device_work (const SlProfile *profile, const guint8 *is_nccl, SlMerge *merge,
                  SlIteration *its, guint n, Acc *acc)
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

/* GPU work of the NVTX iterations its[0, n) of one process (sorted by start),
 * one device at a time: busy and NCCL time are unions per device, summed
 * over the process's devices (GPU time, as a multi-GPU process spends it). */
static void
nvtx_gpu_work (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl,
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
          nvtx_device_work (profile, is_nccl, &merge, its, n, acc);
        }
      sl_merge_clear (&merge);
    }
}

static int
compare_gap_desc (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x > y ? -1 : x < y ? 1 : 0;
}

/* The split threshold, from the gaps between busy intervals (sorted
 * descending) and the number of GPU operations:
 *  - the sharpest drop g[m-1] / g[m] of at least 3x among the largest gaps
 *    (on equal ratios the later cut wins: more iterations rather than one
 *    outlier pause);
 *  - else, when all gaps are alike (largest <= 3x smallest), every gap, as
 *    when each iteration keeps the GPU busy from end to end;
 * in both cases only when the iterations average at least 4 operations (a
 * launch-bound run has uniform gaps between single kernels).  0 = no split. */
static gint64
auto_threshold (GArray *gaps, guint64 n_ops)
{
  gint64 *g = (gint64 *) gaps->data;
  gsize n = gaps->len, k = MIN (n, 65536);
  double best_ratio = 0;
  gint64 best = 0;
  gsize best_m = 0;

  if (n == 0)
    return 0;
  if (k < n)
    {
      /* keep the k largest at the front */
      sl_select_nth (g, n, n - k);
      memmove (g, g + (n - k), k * sizeof (gint64));
    }
  qsort (g, k, sizeof (gint64), compare_gap_desc);
  for (gsize m = 1; m < k; m++)
    {
      double ratio = (double) g[m - 1] / (double) MAX (g[m], 1);
      if (ratio >= best_ratio)
        {
          best_ratio = ratio;
          best = g[m - 1];
          best_m = m;
        }
    }
  if (best_ratio >= 3.0 && n_ops >= 4 * (best_m + 1))
    return best;
  if (k == n && g[0] <= (__int128) 3 * MAX (g[n - 1], 1) && n_ops >= 4 * (n + 1))
    return g[n - 1];
  return 0;
}

/* The split threshold of process @pid: @min_gap when > 0, else found from
 * the gaps between its busy intervals (see auto_threshold); G_MAXINT64 when
 * it is not to be split. */
static gint64
gap_threshold (const SlProfile *profile, const SlFilter *filter, guint32 pid, gint64 min_gap)
{
  g_autoptr(GArray) gaps = g_array_new (FALSE, FALSE, sizeof (gint64));
  SlMerge merge;
  SlUnion u;
  const SlSpans *spans;
  guint tag, index;
  guint64 n_ops = 0;
  gint64 threshold;

  if (min_gap > 0)
    return min_gap;
  sl_merge_init (&merge);
  sl_iter_add_process_sources (profile, filter, pid, &merge);
  sl_merge_start (&merge);
  sl_union_init (&u);
  while (sl_merge_next (&merge, &tag, &spans, &index))
    {
      gint64 s = spans->start[index];
      n_ops++;
      if (u.open && s > u.cur_end)
        {
          gint64 d = s - u.cur_end;
          g_array_append_val (gaps, d);
        }
      sl_union_add (&u, s, sl_spans_end (spans, index));
    }
  sl_merge_clear (&merge);
  threshold = auto_threshold (gaps, n_ops);
  return threshold != 0 ? threshold : G_MAXINT64;
}

/* Ends the last iteration of the process (out[first_out..]), if any: its
 * per-device unions (@accs) go into its busy and NCCL time. */
static void
end_iteration (GArray *out, guint first_out, GArray *accs)
{
  if (out->len > first_out)
    sl_iter_add_device_totals (&g_array_index (out, SlIteration, out->len - 1), (const Acc *) accs->data, accs->len);
}

static void
start_iteration (GArray *out, guint first_out, guint32 pid, GArray *accs)
{
  SlIteration fresh = { 0 };

  end_iteration (out, first_out, accs);
  fresh.index = out->len - first_out;
  fresh.pid = pid;
  fresh.thread = fresh.range = SL_NONE;
  g_array_append_val (out, fresh);
  for (guint d = 0; d < accs->len; d++)
    sl_iter_acc_init (&g_array_index (accs, Acc, d));
}

/* Splits the operations of process @pid into iterations at idle gaps of at
 * least @threshold.  Busy and NCCL time: unions per device (accs[gpu]),
 * summed into the iteration when it ends, as for the NVTX method. */
static void
split_at_gaps (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl,
               guint32 pid, gint64 threshold, GArray *out)
{
  g_autoptr(GArray) accs = g_array_new (FALSE, TRUE, sizeof (Acc));
  const SlSpans *api = &profile->api.spans;
  guint tag, index, first_out = out->len;
  const SlSpans *spans;
  SlMerge merge;
  SlUnion u;

  accs = g_array_set_size (accs, MAX (profile->n_gpus, 1));
  sl_merge_init (&merge);
  sl_iter_add_process_sources (profile, filter, pid, &merge);
  sl_merge_start (&merge);
  sl_union_init (&u);
  while (sl_merge_next (&merge, &tag, &spans, &index))
    {
      gint64 s = spans->start[index], e = sl_spans_end (spans, index);
      guint gpu = profile->streams[sl_gpu_op_stream (tag)].gpu;
      guint32 a = sl_gpu_op_api (profile, tag)[index];
      SlIteration *it;

      if (!u.open || (s > u.cur_end && s - u.cur_end >= threshold))
        start_iteration (out, first_out, pid, accs);
      sl_union_add (&u, s, e);
      it = &g_array_index (out, SlIteration, out->len - 1);
      sl_iter_acc_op (it, &g_array_index (accs, Acc, MIN (gpu, accs->len - 1)), sl_gpu_op_type (tag),
              sl_gpu_op_is_nccl (profile, is_nccl, tag, index), s, e);
      if (a != SL_NONE)
        sl_iter_widen (&it->has_cpu, &it->cpu_start_ns, &it->cpu_end_ns, api->start[a], sl_spans_end (api, a));
    }
  sl_merge_clear (&merge);
  end_iteration (out, first_out, accs);
  for (guint j = first_out; j < out->len; j++)
    {
      SlIteration *it = &g_array_index (out, SlIteration, j);
      it->dur_ns = it->gpu_end_ns - it->gpu_start_ns;
    }
}

static void
gpu_gaps_process (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl,
                  guint32 pid, gint64 min_gap, GArray *out, gint64 *threshold_out)
{
  gint64 threshold = gap_threshold (profile, filter, pid, min_gap);

  *threshold_out = MAX (*threshold_out, threshold == G_MAXINT64 ? 0 : threshold);
  split_at_gaps (profile, filter, is_nccl, pid, threshold, out);
}

static void
summarize (SlIterations *self)
{
  g_autofree gint64 *durs = g_new (gint64, MAX (self->n_iterations, 1));

  self->slowest = G_MAXUINT;
  for (guint i = 0; i < self->n_iterations; i++)
    {
      durs[i] = self->iterations[i].dur_ns;
      if (self->slowest == G_MAXUINT || durs[i] > self->iterations[self->slowest].dur_ns)
        self->slowest = i;
    }
  sl_stats_compute (durs, self->n_iterations, &self->summary);
}

static void
add_nvtx_iteration (GArray *its, const SlProfile *profile, const Candidate *c, guint index)
{
  const SlNvtxRanges *r = &profile->threads[c->thread].nvtx;
  SlIteration it = { 0 };

  it.index = index;
  it.pid = c->pid;
  it.name = g_strdup (sl_strings_get (profile->strings, r->name[c->range]));
  it.thread = c->thread;
  it.range = c->range;
  it.has_cpu = TRUE;
  it.cpu_start_ns = c->start;
  it.cpu_end_ns = c->end;
  it.dur_ns = c->end - c->start;
  g_array_append_val (its, it);
}

/* One iteration per range in @found, numbered by start within each process;
 * with @gpu_work, the GPU work they launched. */
static void
nvtx_iterations (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl,
                 GArray *found, gboolean gpu_work, GArray *its)
{
  g_array_sort (found, compare_candidates);
  for (guint i = 0; i < found->len;)
    {
      guint32 pid = g_array_index (found, Candidate, i).pid;
      guint first = its->len, j;

      for (j = i; j < found->len && g_array_index (found, Candidate, j).pid == pid; j++)
        add_nvtx_iteration (its, profile, &g_array_index (found, Candidate, j), j - i);
      if (gpu_work)
        nvtx_gpu_work (profile, filter, is_nccl, pid,
                       &g_array_index (its, SlIteration, first), its->len - first);
      i = j;
    }
}

/* Whether stream @s is the first of a process that has no SlProcess entry
 * (GPU streams of processes without CPU-side rows). */
static gboolean
first_stream_of_unlisted_pid (const SlProfile *profile, guint s)
{
  guint32 pid = profile->streams[s].pid;

  if (sl_profile_find_process (profile, pid) != SL_NONE)
    return FALSE;
  for (guint q = 0; q < s; q++)
    if (profile->streams[q].pid == pid)
      return FALSE;
  return TRUE;
}

static void
gpu_gaps_iterations (SlIterations *self, const SlProfile *profile, const SlFilter *filter,
                     const guint8 *is_nccl, gint64 min_gap_ns, GArray *its)
{
  for (guint p = 0; p < profile->n_processes; p++)
    if (sl_filter_match_process (filter, profile, profile->processes[p].pid))
      gpu_gaps_process (profile, filter, is_nccl, profile->processes[p].pid, min_gap_ns,
                        its, &self->gap_threshold_ns);
  for (guint s = 0; s < profile->n_streams; s++)
    if (first_stream_of_unlisted_pid (profile, s) && sl_filter_match_pid (filter, profile->streams[s].pid))
      gpu_gaps_process (profile, filter, is_nccl, profile->streams[s].pid, min_gap_ns,
                        its, &self->gap_threshold_ns);
}

/* Appends to @times the launch times (API start) of @n operations whose
 * launching calls are @api[]. */
static void
append_launches (const SlProfile *profile, const SlFilter *filter, const guint32 *api, guint n, GArray *times)
{
  for (guint i = 0; i < n; i++)
    if (api[i] != SL_NONE && sl_filter_match_time (filter, profile->api.spans.start[api[i]]))
      g_array_append_val (times, profile->api.spans.start[api[i]]);
}

/* Launch times (API start) of the GPU work of each process (kernels, copies
 * and memsets: a range that launches the kernels but none of the copies
 * that dominate the step is not the step), sorted: pid -> GArray of gint64. */
static GHashTable *
launch_times (const SlProfile *profile, const SlFilter *filter)
{
  GHashTable *out = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  GHashTableIter iter;
  gpointer value;

  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *st = &profile->streams[s];
      GArray *times = g_hash_table_lookup (out, GUINT_TO_POINTER (st->pid));
      if (!sl_filter_match_device (filter, st->device))
        continue;
      if (times == NULL)
        {
          times = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_hash_table_insert (out, GUINT_TO_POINTER (st->pid), times);
        }
      append_launches (profile, filter, st->kernels.api, st->kernels.spans.n, times);
      append_launches (profile, filter, st->memcpy.api, st->memcpy.spans.n, times);
      append_launches (profile, filter, st->memset.api, st->memset.spans.n, times);
    }
  g_hash_table_iter_init (&iter, out);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_array_sort (value, compare_gap_desc);   /* descending: see count_launched */
  return out;
}

/* Launches in [s, e) of @times (sorted descending). */
static guint
count_launched (GArray *times, gint64 s, gint64 e)
{
  const gint64 *t = (const gint64 *) times->data;
  guint lo = 0, hi = times->len, a, b;

  while (lo < hi)       /* first index with t < e */
    {
      guint mid = lo + (hi - lo) / 2;
      if (t[mid] >= e) lo = mid + 1; else hi = mid;
    }
  a = lo;
  hi = times->len;
  while (lo < hi)       /* first index with t < s */
    {
      guint mid = lo + (hi - lo) / 2;
      if (t[mid] >= s) lo = mid + 1; else hi = mid;
    }
  b = lo;
  return b - a;
}

static int
compare_int64_asc (gconstpointer a, gconstpointer b)
{
  return -compare_gap_desc (a, b);
}

/* Median of @v[0, n) (sorted here); 0 when n == 0. */
static gint64
median_of (gint64 *v, guint n)
{
  if (n == 0)
    return 0;
  qsort (v, n, sizeof (gint64), compare_int64_asc);
  return n % 2 == 1 ? v[n / 2] : (gint64) (((__int128) v[n / 2 - 1] + v[n / 2]) / 2);
}

/* The share of the processes' launched GPU operations inside the ranges
 * @found, or -1 when an instance launches less than a quarter of the median
 * instance's operations (per-op ranges, syncs, one-off setup). */
static double
ranges_share (const SlProfile *profile, GHashTable *launches, GArray *found)
{
  g_autofree gint64 *counts = g_new (gint64, MAX (found->len, 1));
  g_autoptr(GHashTable) pids = g_hash_table_new (NULL, NULL);
  guint64 covered = 0, total = 0;
  GHashTableIter iter;
  gpointer key;
  gint64 median;

  for (guint i = 0; i < found->len; i++)
    {
      const Candidate *c = &g_array_index (found, Candidate, i);
      GArray *times = g_hash_table_lookup (launches, GUINT_TO_POINTER (c->pid));
      counts[i] = times != NULL ? count_launched (times, c->start, c->end) : 0;
      covered += counts[i];
      g_hash_table_add (pids, GUINT_TO_POINTER (c->pid));
    }
  g_hash_table_iter_init (&iter, pids);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      GArray *times = g_hash_table_lookup (launches, key);
      total += times != NULL ? times->len : 0;
    }
  median = median_of (counts, found->len);
  for (guint i = 0; i < found->len; i++)
    if (median == 0 || counts[i] * 4 < median)
      return -1;
  return total > 0 ? (double) covered / (double) total : -1;
}

/* Median start-to-start time of the ranges of process @pid in @found. */
static gint64
ranges_period (GArray *found, guint32 pid)
{
  g_autofree gint64 *starts = g_new (gint64, MAX (found->len, 1));
  guint n = 0;

  for (guint i = 0; i < found->len; i++)
    if (g_array_index (found, Candidate, i).pid == pid)
      starts[n++] = g_array_index (found, Candidate, i).start;
  qsort (starts, n, sizeof (gint64), compare_int64_asc);
  for (guint i = 0; i + 1 < n; i++)
    starts[i] = starts[i + 1] - starts[i];
  return n >= 2 ? median_of (starts, n - 1) : 0;
}

/* Whether the kernel sequence of the first process in @found has a step
 * period the ranges' period contradicts (beyond 25 %). */
static gboolean
kernel_period_disagrees (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl, GArray *found)
{
  guint32 pid = g_array_index (found, Candidate, 0).pid;
  SlIterations scratch = { 0 };
  g_autoptr(GArray) full = g_array_new (FALSE, TRUE, sizeof (SlIteration));
  g_autoptr(GArray) partial = g_array_new (FALSE, TRUE, sizeof (SlIteration));
  gint64 q;

  if (!sl_iter_kernel_steps (&scratch, profile, filter, is_nccl, pid, full, partial)
      || scratch.period_unit != SL_STEP_UNIT_STEP)
    return FALSE;
  q = ranges_period (found, pid);
  return q * 4 < scratch.period_median_ns * 3 || q * 3 > scratch.period_median_ns * 4;
}

/* The first repeated depth-0 name (largest CPU time first, at most 16
 * tried) whose ranges are steps: a large (>= 50 %), similar share of the
 * GPU work, a period close to the kernel sequence's.  Fills @found. */
static void
find_step_ranges (SlIterations *self, const SlProfile *profile, const SlFilter *filter,
                  const guint8 *is_nccl, const gboolean *thread_ok, GArray *found)
{
  g_autoptr(GHashTable) norm_of_id = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) tally = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) g_hash_table_unref);
  g_autoptr(GHashTable) raw = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) launches = launch_times (profile, filter);
  g_autoptr(GArray) ranked = NULL;

  tally_depth0 (profile, filter, thread_ok, norm_of_id, tally);
  ranked = ranked_names (tally);
  for (guint r = 0; r < MIN (ranked->len, 16); r++)
    {
      const char *name = g_array_index (ranked, RankedName, r).name;
      double share;

      raw_ids_of (norm_of_id, name, raw);
      g_array_set_size (found, 0);
      collect_depth0 (profile, filter, thread_ok, raw, found);
      share = ranges_share (profile, launches, found);
      if (share >= 0.5 && !kernel_period_disagrees (profile, filter, is_nccl, found))
        {
          self->name = g_strdup (name);
          self->confidence = MIN (1.0, share);
          self->reason = g_strdup_printf ("NVTX ranges \"%s\" launch %.0f%% of the GPU operations, a similar share each",
                                          name, 100 * share);
          return;
        }
    }
  g_array_set_size (found, 0);
}

/* "step #" -> ^step [0-9]+$: a --step-range name, normalised or not. */
static char *
step_range_regex (const char *name)
{
  g_auto(GStrv) parts = g_strsplit (name, "#", -1);
  GString *re = g_string_new ("^");

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *escaped = g_regex_escape_string (parts[i], -1);
      g_string_append_printf (re, "%s%s", i > 0 ? "[0-9]+" : "", escaped);
    }
  g_string_append_c (re, '$');
  return g_string_free (re, FALSE);
}

/* NVTX ranges named by --name / --step-range (into @found); FALSE with
 * @error for an invalid regex. */
static gboolean
find_named_ranges (SlIterations *self, const SlProfile *profile, const SlFilter *filter,
                   const SlIterationsOptions *o, const gboolean *thread_ok, GArray *found, GError **error)
{
  g_autofree char *pattern = o->name_regex != NULL ? g_strdup (o->name_regex) : step_range_regex (o->step_range);
  g_autoptr(GRegex) regex = g_regex_new (pattern, G_REGEX_OPTIMIZE, 0, error);
  g_autoptr(GHashTable) launches = NULL;
  double share;

  if (regex == NULL)
    return FALSE;
  collect_regex (profile, filter, thread_ok, regex, found);
  self->n_named = found->len;
  self->name = g_strdup (o->name_regex != NULL ? o->name_regex : o->step_range);
  launches = launch_times (profile, filter);
  share = found->len > 0 ? ranges_share (profile, launches, found) : -1;
  self->confidence = share < 0 ? 0.2 : MIN (1.0, share);
  self->reason = g_strdup_printf ("NVTX ranges named by the user (%.0f%% of the GPU operations)", MAX (share, 0) * 100);
  return TRUE;
}

static void
kernel_iterations (SlIterations *self, const SlProfile *profile, const SlFilter *filter,
                   const guint8 *is_nccl, GArray *its, GArray *partial)
{
  gboolean any = FALSE;

  for (guint p = 0; p < profile->n_processes; p++)
    if (sl_filter_match_process (filter, profile, profile->processes[p].pid))
      any |= sl_iter_kernel_steps (self, profile, filter, is_nccl, profile->processes[p].pid, its, partial);
  for (guint s = 0; s < profile->n_streams; s++)
    if (first_stream_of_unlisted_pid (profile, s) && sl_filter_match_pid (filter, profile->streams[s].pid))
      any |= sl_iter_kernel_steps (self, profile, filter, is_nccl, profile->streams[s].pid, its, partial);
  self->method = SL_ITERATIONS_KERNELS;
  if (!any)
    {
      self->reason = g_strdup ("the kernel sequence does not repeat");
      return;
    }
  if (self->period_unit == SL_STEP_UNIT_BLOCK)
    {
      self->confidence *= its->len >= 2 ? 0.8 : 0.5;
      self->reason = g_strdup_printf ("the kernel sequence repeats every %u kernels, a block inside a step "
                                      "(kernels that run once per step break it): %u full steps, %u partial",
                                      self->period_kernels, its->len, partial->len);
    }
  else
    self->reason = g_strdup_printf ("the kernel sequence repeats every %u kernels (%.0f%% match)",
                                    self->period_kernels, 100 * self->confidence);
}

/* Period of NVTX or gaps steps: start to start within each process. */
static void
period_from_steps (SlIterations *self)
{
  g_autofree gint64 *d = g_new (gint64, MAX (self->n_iterations, 1));
  guint n = 0;

  for (guint i = 0; i + 1 < self->n_iterations; i++)
    {
      const SlIteration *a = &self->iterations[i], *b = &self->iterations[i + 1];
      if (a->pid == b->pid)
        d[n++] = self->method == SL_ITERATIONS_NVTX ? b->cpu_start_ns - a->cpu_start_ns : b->gpu_start_ns - a->gpu_start_ns;
    }
  if (n == 0)
    return;
  self->period_unit = SL_STEP_UNIT_STEP;
  self->period_median_ns = median_of (d, n);
  self->period_p10_ns = d[n / 10];
  self->period_p90_ns = d[MIN (n - 1, n * 9 / 10)];
}

/* Which method runs, by @o, and its ranges when it is NVTX (into @found). */
static gboolean
choose_method (SlIterations *self, const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl,
               const SlIterationsOptions *o, GArray *found, GError **error)
{
  g_autofree gboolean *thread_ok = g_new0 (gboolean, MAX (profile->n_threads, 1));

  self->method = o->method == SL_ITERATIONS_AUTO ? SL_ITERATIONS_KERNELS : o->method;
  if (o->method != SL_ITERATIONS_AUTO && o->method != SL_ITERATIONS_NVTX && o->name_regex == NULL && o->step_range == NULL)
    return TRUE;
  for (guint t = 0; t < profile->n_threads; t++)
    thread_ok[t] = sl_filter_match_thread (filter, profile, t);
  if (o->name_regex != NULL || o->step_range != NULL)
    {
      self->method = SL_ITERATIONS_NVTX;
      return find_named_ranges (self, profile, filter, o, thread_ok, found, error);
    }
  find_step_ranges (self, profile, filter, is_nccl, thread_ok, found);
  if (found->len > 0)
    self->method = SL_ITERATIONS_NVTX;
  else if (o->method == SL_ITERATIONS_NVTX)
    self->reason = g_strdup ("no repeated top-level NVTX range covers a large, similar share of the GPU work");
  return TRUE;
}

/* @gpu_work FALSE leaves out the GPU work of NVTX iterations (their
 * durations are CPU time, so the summary does not change). */
static SlIterations *
compute (const SlProfile *profile, const SlFilter *filter, const SlIterationsOptions *o,
         gboolean gpu_work, GError **error)
{
  g_autoptr(SlIterations) self = g_new0 (SlIterations, 1);
  g_autofree guint8 *is_nccl = sl_nccl_func_mask (profile);
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (Candidate));
  g_autoptr(GArray) its = g_array_new (FALSE, TRUE, sizeof (SlIteration));
  g_autoptr(GArray) partial = g_array_new (FALSE, TRUE, sizeof (SlIteration));
  gboolean auto_method = o->method == SL_ITERATIONS_AUTO && o->name_regex == NULL && o->step_range == NULL;

  if (!choose_method (self, profile, filter, is_nccl, o, found, error))
    return NULL;
  if (self->method == SL_ITERATIONS_NVTX)
    nvtx_iterations (profile, filter, is_nccl, found, gpu_work, its);
  else if (self->method == SL_ITERATIONS_KERNELS)
    kernel_iterations (self, profile, filter, is_nccl, its, partial);
  if (self->method == SL_ITERATIONS_GAPS
      || (auto_method && self->method == SL_ITERATIONS_KERNELS && self->period_unit == SL_STEP_UNIT_NONE))
    {
      self->method = SL_ITERATIONS_GAPS;
      gpu_gaps_iterations (self, profile, filter, is_nccl, o->min_gap_ns, its);
      self->confidence = its->len > 0 ? 0.3 : 0;
      g_free (self->reason);
      self->reason = g_strdup ("no NVTX step range and no repeating kernel sequence: GPU activity split at idle gaps");
    }
  self->n_iterations = its->len;
  self->iterations = (SlIteration *) g_array_free (g_steal_pointer (&its), FALSE);
  self->n_partial = partial->len;
  self->partial = (SlIteration *) g_array_free (g_steal_pointer (&partial), FALSE);
  summarize (self);
  if (self->method != SL_ITERATIONS_KERNELS)
    period_from_steps (self);
  return g_steal_pointer (&self);
}

SlIterations *
sl_iterations_compute_with (const SlProfile *profile, const SlFilter *filter,
                            const SlIterationsOptions *options, GError **error)
{
  static const SlIterationsOptions defaults = { SL_ITERATIONS_AUTO, NULL, NULL, 0 };

  return compute (profile, filter, options != NULL ? options : &defaults, TRUE, error);
}

SlIterations *
sl_iterations_compute (const SlProfile *profile, const SlFilter *filter,
                       const char *name_regex, gint64 min_gap_ns, GError **error)
{
  SlIterationsOptions o = { SL_ITERATIONS_AUTO, name_regex, NULL, min_gap_ns };

  return compute (profile, filter, &o, TRUE, error);
}

SlIterations *
sl_iterations_compute_durations (const SlProfile *profile, const SlFilter *filter)
{
  static const SlIterationsOptions defaults = { SL_ITERATIONS_AUTO, NULL, NULL, 0 };

  return compute (profile, filter, &defaults, FALSE, NULL);
}

void
sl_iterations_free (SlIterations *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_iterations; i++)
    g_free (self->iterations[i].name);
  for (guint i = 0; i < self->n_partial; i++)
    g_free (self->partial[i].name);
  g_free (self->iterations);
  g_free (self->partial);
  g_free (self->reason);
  g_free (self->name);
  g_free (self);
}

static void
add_iteration_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlIteration *it = item;

  json_builder_begin_object (b);
  sl_json_member_int (b, "index", it->index);
  sl_json_member_int (b, "pid", it->pid);
  sl_json_member_string (b, "name", it->name);
  sl_json_member_int_or_null (b, "cpu_start_ns", it->has_cpu, it->cpu_start_ns);
  sl_json_member_int_or_null (b, "cpu_end_ns", it->has_cpu, it->cpu_end_ns);
  sl_json_member_int_or_null (b, "gpu_start_ns", it->has_gpu, it->gpu_start_ns);
  sl_json_member_int_or_null (b, "gpu_end_ns", it->has_gpu, it->gpu_end_ns);
  sl_json_member_int (b, "kernels", (gint64) it->kernels);
  sl_json_member_int (b, "gpu_busy_ns", it->gpu_busy_ns);
  sl_json_member_int (b, "nccl_ns", it->nccl_ns);
  json_builder_end_object (b);
}

static void
add_summary_json (JsonBuilder *b, const SlIterations *self)
{
  static const SlStatsJsonNames names = {
    "count", NULL, "mean_ns", "median_ns", "min_ns", "max_ns", "stddev_ns",
  };
  gboolean any = self->slowest != G_MAXUINT;

  json_builder_begin_object (b);
  sl_stats_add_json_named (b, &self->summary, &names);
  sl_json_member_int_or_null (b, "slowest_index", any, any ? self->iterations[self->slowest].index : 0);
  sl_json_member_int_or_null (b, "slowest_pid", any, any ? self->iterations[self->slowest].pid : 0);
  json_builder_end_object (b);
}

const char *
sl_iterations_method_name (SlIterationMethod method)
{
  return method == SL_ITERATIONS_NVTX ? "nvtx" : method == SL_ITERATIONS_KERNELS ? "kernels" : "gaps";
}

static void
add_period_json (JsonBuilder *b, const SlIterations *self)
{
  json_builder_set_member_name (b, "period");
  if (self->period_unit == SL_STEP_UNIT_NONE)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  sl_json_member_string (b, "unit", self->period_unit == SL_STEP_UNIT_BLOCK ? "block" : "step");
  sl_json_member_int (b, "median_ns", self->period_median_ns);
  sl_json_member_int (b, "p10_ns", self->period_p10_ns);
  sl_json_member_int (b, "p90_ns", self->period_p90_ns);
  sl_json_member_int (b, "spread_ns", self->period_p90_ns - self->period_p10_ns);
  sl_json_member_int_or_null (b, "kernels", self->period_kernels > 0, self->period_kernels);
  json_builder_end_object (b);
}

JsonNode *
sl_iterations_to_json (const SlIterations *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_string (b, "method", sl_iterations_method_name (self->method));
  sl_json_member_string (b, "name", self->name);
  sl_json_member_int (b, "full_steps", self->n_iterations);
  add_period_json (b, self);
  json_builder_set_member_name (b, "confidence");
  json_builder_add_double_value (b, self->confidence);
  sl_json_member_string (b, "reason", self->reason);
  sl_json_member_array (b, "iterations", self->iterations, self->n_iterations, sizeof (SlIteration),
                        add_iteration_json, NULL);
  sl_json_member_array (b, "partial", self->partial, self->n_partial, sizeof (SlIteration),
                        add_iteration_json, NULL);
  json_builder_set_member_name (b, "summary");
  add_summary_json (b, self);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
