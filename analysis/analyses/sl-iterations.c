/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-iterations.c: training / inference steps from NVTX or from GPU idle gaps. */
#include "sl-iterations.h"
#include "sl-attribution.h"
#include "sl-intervals.h"
#include "sl-nccl.h"

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

/* The normalised depth-0 name with the largest CPU time among those seen at
 * least twice in a process.  Fills @chosen_raw (per string id) and returns
 * the name, or NULL when there is no candidate. */
static char *
choose_name (const SlProfile *profile, const SlFilter *filter, const gboolean *thread_ok,
             GHashTable *chosen_raw)
{
  g_autoptr(GHashTable) norm_of_id = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) tally = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) g_hash_table_unref);
  g_autoptr(GHashTable) total_of = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer key, value;
  const char *best = NULL;
  gint64 best_total = -1;

  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;
      guint32 pid = profile->threads[t].pid;
      guint end0;

      if (!thread_ok[t] || r->n_depths == 0)
        continue;
      end0 = r->depth_first[1];
      for (guint i = r->depth_first[0]; i < end0; i++)
        {
          char *norm;
          GHashTable *per_pid;
          PidTally *pt;

          if (!sl_filter_match_time (filter, r->spans.start[i]))
            continue;
          norm = g_hash_table_lookup (norm_of_id, GUINT_TO_POINTER (r->name[i]));
          if (norm == NULL)
            {
              norm = sl_iterations_normalize_name (sl_strings_get (profile->strings, r->name[i]));
              g_hash_table_insert (norm_of_id, GUINT_TO_POINTER (r->name[i]), norm);
            }
          per_pid = g_hash_table_lookup (tally, norm);
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
          pt->count++;
          pt->total += sl_spans_dur (&r->spans, i);
        }
    }

  g_hash_table_iter_init (&iter, tally);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GHashTableIter pi;
      gpointer pk, pv;
      gint64 total = 0;
      gboolean repeated = FALSE;

      g_hash_table_iter_init (&pi, value);
      while (g_hash_table_iter_next (&pi, &pk, &pv))
        {
          const PidTally *pt = pv;
          if (pt->count >= 2)
            {
              repeated = TRUE;
              total += pt->total;
            }
        }
      if (!repeated)
        continue;
      if (total > best_total || (total == best_total && strcmp (key, best) < 0))
        {
          best = key;
          best_total = total;
        }
    }
  if (best == NULL)
    return NULL;

  g_hash_table_iter_init (&iter, norm_of_id);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (g_str_equal (value, best))
      g_hash_table_add (chosen_raw, key);
  return g_strdup (best);
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
          {
            Candidate c = { profile->threads[t].pid, t, i, r->spans.start[i], sl_spans_end (&r->spans, i) };
            g_array_append_val (out, c);
          }
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
              Candidate c = { profile->threads[t].pid, t, i, r->spans.start[i], sl_spans_end (&r->spans, i) };
              g_array_append_val (out, c);
              covered[i] = 1;
            }
        }
    }
}

/* Accumulators of one iteration while GPU operations stream in start order. */
typedef struct {
  SlUnion busy;
  SlUnion nccl;
} Acc;

static void
acc_op (SlIteration *it, Acc *acc, guint type, gboolean nccl, gint64 s, gint64 e)
{
  if (!it->has_gpu)
    {
      it->has_gpu = TRUE;
      it->gpu_start_ns = s;
      it->gpu_end_ns = e;
    }
  else
    {
      it->gpu_start_ns = MIN (it->gpu_start_ns, s);
      it->gpu_end_ns = MAX (it->gpu_end_ns, e);
    }
  it->ops++;
  if (type == 0)
    it->kernels++;
  sl_union_add (&acc->busy, s, e);
  if (nccl)
    sl_union_add (&acc->nccl, s, e);
}

static void
add_process_sources (const SlProfile *profile, const SlFilter *filter, guint32 pid,
                     gboolean window, SlMerge *merge)
{
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];
      const SlSpans *lists[3] = { &stream->kernels.spans, &stream->memcpy.spans, &stream->memset.spans };

      if (stream->pid != pid || !sl_filter_match_device (filter, stream->device))
        continue;
      for (guint type = 0; type < 3; type++)
        {
          guint first = 0, last = lists[type]->n;
          if (window)
            sl_filter_span_bounds (filter, lists[type], 0, lists[type]->n, &first, &last);
          sl_merge_add (merge, lists[type], first, last, s * 3 + type);
        }
    }
}

static const guint32 *
op_api (const SlProfile *profile, guint tag)
{
  const SlStream *stream = &profile->streams[tag / 3];
  switch (tag % 3)
    {
    case 0: return stream->kernels.api;
    case 1: return stream->memcpy.api;
    default: return stream->memset.api;
    }
}

/* GPU work of the NVTX iterations its[0, n) of one process (sorted by start),
 * one device at a time: busy and NCCL time are unions per device, summed
 * over the process's devices (GPU time, as a multi-GPU process spends it). */
static void
nvtx_gpu_work (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl,
               guint32 pid, SlIteration *its, guint n)
{
  g_autofree Acc *acc = g_new0 (Acc, MAX (n, 1));
  const gint64 *api_start = profile->api.spans.start;

  for (guint g = 0; g < profile->n_gpus; g++)
    {
      const SlGpu *gpu = &profile->gpus[g];
      SlMerge merge;
      const SlSpans *spans;
      guint tag, index, cursor = 0, n_sources;

      if (!sl_filter_match_device (filter, gpu->device))
        continue;
      sl_merge_init (&merge);
      for (guint i = 0; i < gpu->n_streams; i++)
        {
          guint32 s = gpu->streams[i];
          const SlStream *stream = &profile->streams[s];
          const SlSpans *lists[3] = { &stream->kernels.spans, &stream->memcpy.spans, &stream->memset.spans };

          if (stream->pid != pid)
            continue;
          for (guint type = 0; type < 3; type++)
            sl_merge_add (&merge, lists[type], 0, lists[type]->n, s * 3 + type);
        }
      n_sources = merge.sources->len;
      if (n_sources == 0)
        {
          sl_merge_clear (&merge);
          continue;
        }
      sl_merge_start (&merge);
      for (guint j = 0; j < n; j++)
        {
          sl_union_init (&acc[j].busy);
          sl_union_init (&acc[j].nccl);
        }

      while (sl_merge_next (&merge, &tag, &spans, &index))
        {
          guint32 a = op_api (profile, tag)[index];
          gint64 t;
          guint j;
          gboolean nccl = FALSE;

          if (a == SL_NONE)
            continue;
          t = api_start[a];
          /* API starts follow GPU order closely: try the last iteration first. */
          if (its[cursor].cpu_start_ns <= t && t < its[cursor].cpu_end_ns)
            j = cursor;
          else
            {
              guint lo = 0, hi = n;
              while (lo < hi)
                {
                  guint mid = lo + (hi - lo) / 2;
                  if (its[mid].cpu_start_ns <= t)
                    lo = mid + 1;
                  else
                    hi = mid;
                }
              /* iterations of several threads may overlap: look back a little */
              j = G_MAXUINT;
              for (guint k = lo, steps = 0; k > 0 && steps < 8; k--, steps++)
                if (t < its[k - 1].cpu_end_ns)
                  {
                    j = k - 1;
                    break;
                  }
              if (j == G_MAXUINT)
                continue;
              cursor = j;
            }
          if (tag % 3 == 0)
            {
              guint32 f = profile->streams[tag / 3].kernels.func[index];
              nccl = f < profile->n_funcs && is_nccl[f];
            }
          acc_op (&its[j], &acc[j], tag % 3, nccl, spans->start[index], sl_spans_end (spans, index));
        }
      sl_merge_clear (&merge);

      for (guint j = 0; j < n; j++)
        {
          its[j].gpu_busy_ns += sl_union_total (&acc[j].busy);
          its[j].nccl_ns += sl_union_total (&acc[j].nccl);
        }
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
  if (k == n && g[0] <= 3 * MAX (g[n - 1], 1) && n_ops >= 4 * (n + 1))
    return g[n - 1];
  return 0;
}

static void
flush_devices (SlIteration *it, GArray *accs)
{
  for (guint d = 0; d < accs->len; d++)
    {
      it->gpu_busy_ns += sl_union_total (&g_array_index (accs, Acc, d).busy);
      it->nccl_ns += sl_union_total (&g_array_index (accs, Acc, d).nccl);
    }
}

static void
gpu_gaps_process (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl,
                  guint32 pid, gint64 min_gap, GArray *out, gint64 *threshold_out)
{
  g_autoptr(GArray) gaps = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) accs = g_array_new (FALSE, TRUE, sizeof (Acc));
  const SlApiCalls *api = &profile->api;
  gint64 threshold = min_gap;
  SlMerge merge;
  SlUnion u;
  const SlSpans *spans;
  guint tag, index, first_out = out->len;
  guint64 n_ops = 0;

  if (threshold <= 0)
    {
      sl_merge_init (&merge);
      add_process_sources (profile, filter, pid, TRUE, &merge);
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
      if (threshold == 0)
        threshold = G_MAXINT64;
    }
  *threshold_out = MAX (*threshold_out, threshold == G_MAXINT64 ? 0 : threshold);

  /* Busy and NCCL time: unions per device (accs[gpu]), summed into the
   * iteration when it ends, as for the NVTX method. */
  accs = g_array_set_size (accs, MAX (profile->n_gpus, 1));
  sl_merge_init (&merge);
  add_process_sources (profile, filter, pid, TRUE, &merge);
  sl_merge_start (&merge);
  sl_union_init (&u);
  while (sl_merge_next (&merge, &tag, &spans, &index))
    {
      gint64 s = spans->start[index], e = sl_spans_end (spans, index);
      guint gpu = profile->streams[tag / 3].gpu;
      SlIteration *it;
      guint32 a;
      gboolean nccl = FALSE;

      if (!u.open || (s > u.cur_end && s - u.cur_end >= threshold))
        {
          SlIteration fresh = { 0 };
          if (out->len > first_out)
            flush_devices (&g_array_index (out, SlIteration, out->len - 1), accs);
          fresh.index = out->len - first_out;
          fresh.pid = pid;
          fresh.thread = fresh.range = SL_NONE;
          g_array_append_val (out, fresh);
          for (guint d = 0; d < accs->len; d++)
            {
              sl_union_init (&g_array_index (accs, Acc, d).busy);
              sl_union_init (&g_array_index (accs, Acc, d).nccl);
            }
        }
      sl_union_add (&u, s, e);
      it = &g_array_index (out, SlIteration, out->len - 1);
      if (tag % 3 == 0)
        {
          guint32 f = profile->streams[tag / 3].kernels.func[index];
          nccl = f < profile->n_funcs && is_nccl[f];
        }
      acc_op (it, &g_array_index (accs, Acc, MIN (gpu, accs->len - 1)), tag % 3, nccl, s, e);
      a = op_api (profile, tag)[index];
      if (a != SL_NONE)
        {
          gint64 as = api->spans.start[a], ae = sl_spans_end (&api->spans, a);
          if (!it->has_cpu)
            {
              it->has_cpu = TRUE;
              it->cpu_start_ns = as;
              it->cpu_end_ns = ae;
            }
          else
            {
              it->cpu_start_ns = MIN (it->cpu_start_ns, as);
              it->cpu_end_ns = MAX (it->cpu_end_ns, ae);
            }
        }
    }
  sl_merge_clear (&merge);
  if (out->len > first_out)
    flush_devices (&g_array_index (out, SlIteration, out->len - 1), accs);

  for (guint j = first_out; j < out->len; j++)
    {
      SlIteration *it = &g_array_index (out, SlIteration, j);
      it->dur_ns = it->gpu_end_ns - it->gpu_start_ns;
    }
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

/* @gpu_work FALSE leaves out the GPU work of NVTX iterations (their
 * durations are CPU time, so the summary does not change). */
static SlIterations *
compute (const SlProfile *profile, const SlFilter *filter, const char *name_regex,
         gint64 min_gap_ns, gboolean gpu_work, GError **error)
{
  g_autoptr(SlIterations) self = g_new0 (SlIterations, 1);
  g_autofree gboolean *thread_ok = g_new0 (gboolean, MAX (profile->n_threads, 1));
  g_autofree guint8 *is_nccl = sl_nccl_func_mask (profile);
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (Candidate));
  g_autoptr(GArray) its = g_array_new (FALSE, TRUE, sizeof (SlIteration));

  for (guint t = 0; t < profile->n_threads; t++)
    thread_ok[t] = sl_filter_match_thread (filter, profile, t);

  if (name_regex != NULL)
    {
      g_autoptr(GRegex) regex = g_regex_new (name_regex, G_REGEX_OPTIMIZE, 0, error);
      if (regex == NULL)
        return NULL;
      collect_regex (profile, filter, thread_ok, regex, found);
      self->name = g_strdup (name_regex);
      self->method = SL_ITERATIONS_NVTX;
    }
  else
    {
      g_autoptr(GHashTable) chosen_raw = g_hash_table_new (NULL, NULL);
      self->name = choose_name (profile, filter, thread_ok, chosen_raw);
      if (self->name != NULL)
        collect_depth0 (profile, filter, thread_ok, chosen_raw, found);
      self->method = self->name != NULL ? SL_ITERATIONS_NVTX : SL_ITERATIONS_GPU_GAPS;
    }

  if (self->method == SL_ITERATIONS_NVTX)
    {
      g_array_sort (found, compare_candidates);
      for (guint i = 0; i < found->len;)
        {
          guint32 pid = g_array_index (found, Candidate, i).pid;
          guint first = its->len, j;

          for (j = i; j < found->len && g_array_index (found, Candidate, j).pid == pid; j++)
            {
              const Candidate *c = &g_array_index (found, Candidate, j);
              const SlNvtxRanges *r = &profile->threads[c->thread].nvtx;
              SlIteration it = { 0 };

              it.index = j - i;
              it.pid = pid;
              it.name = g_strdup (sl_strings_get (profile->strings, r->name[c->range]));
              it.thread = c->thread;
              it.range = c->range;
              it.has_cpu = TRUE;
              it.cpu_start_ns = c->start;
              it.cpu_end_ns = c->end;
              it.dur_ns = c->end - c->start;
              g_array_append_val (its, it);
            }
          if (gpu_work)
            nvtx_gpu_work (profile, filter, is_nccl, pid,
                           &g_array_index (its, SlIteration, first), its->len - first);
          i = j;
        }
    }
  else
    {
      for (guint p = 0; p < profile->n_processes; p++)
        if (sl_filter_match_process (filter, profile, profile->processes[p].pid))
          gpu_gaps_process (profile, filter, is_nccl, profile->processes[p].pid, min_gap_ns,
                            its, &self->gap_threshold_ns);
      /* GPU streams of processes without CPU-side rows have no SlProcess entry. */
      for (guint s = 0; s < profile->n_streams; s++)
        {
          guint32 pid = profile->streams[s].pid;
          gboolean seen = sl_profile_find_process (profile, pid) != SL_NONE;
          for (guint q = 0; q < s && !seen; q++)
            seen = profile->streams[q].pid == pid;
          if (!seen && sl_filter_match_pid (filter, pid))
            gpu_gaps_process (profile, filter, is_nccl, pid, min_gap_ns, its, &self->gap_threshold_ns);
        }
    }

  self->n_iterations = its->len;
  self->iterations = (SlIteration *) g_array_free (g_steal_pointer (&its), FALSE);
  summarize (self);
  return g_steal_pointer (&self);
}

SlIterations *
sl_iterations_compute (const SlProfile *profile, const SlFilter *filter,
                       const char *name_regex, gint64 min_gap_ns, GError **error)
{
  return compute (profile, filter, name_regex, min_gap_ns, TRUE, error);
}

SlIterations *
sl_iterations_compute_durations (const SlProfile *profile, const SlFilter *filter)
{
  return compute (profile, filter, NULL, 0, FALSE, NULL);
}

void
sl_iterations_free (SlIterations *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_iterations; i++)
    g_free (self->iterations[i].name);
  g_free (self->iterations);
  g_free (self->name);
  g_free (self);
}

static void
add_int_or_null (JsonBuilder *b, const char *member, gboolean has, gint64 value)
{
  json_builder_set_member_name (b, member);
  if (has)
    json_builder_add_int_value (b, value);
  else
    json_builder_add_null_value (b);
}

JsonNode *
sl_iterations_to_json (const SlIterations *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  const SlStats *s = &self->summary;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "method");
  json_builder_add_string_value (b, self->method == SL_ITERATIONS_NVTX ? "nvtx" : "gpu-gaps");
  json_builder_set_member_name (b, "name");
  sl_json_add_string (b, self->name);
  json_builder_set_member_name (b, "iterations");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->n_iterations; i++)
    {
      const SlIteration *it = &self->iterations[i];
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "index");
      json_builder_add_int_value (b, it->index);
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, it->pid);
      json_builder_set_member_name (b, "name");
      sl_json_add_string (b, it->name);
      add_int_or_null (b, "cpu_start_ns", it->has_cpu, it->cpu_start_ns);
      add_int_or_null (b, "cpu_end_ns", it->has_cpu, it->cpu_end_ns);
      add_int_or_null (b, "gpu_start_ns", it->has_gpu, it->gpu_start_ns);
      add_int_or_null (b, "gpu_end_ns", it->has_gpu, it->gpu_end_ns);
      json_builder_set_member_name (b, "kernels");
      json_builder_add_int_value (b, (gint64) it->kernels);
      json_builder_set_member_name (b, "gpu_busy_ns");
      json_builder_add_int_value (b, it->gpu_busy_ns);
      json_builder_set_member_name (b, "nccl_ns");
      json_builder_add_int_value (b, it->nccl_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "summary");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, (gint64) s->count);
  json_builder_set_member_name (b, "mean_ns");
  json_builder_add_int_value (b, sl_round_ns (s->avg));
  json_builder_set_member_name (b, "median_ns");
  json_builder_add_int_value (b, sl_round_ns (s->median));
  json_builder_set_member_name (b, "min_ns");
  json_builder_add_int_value (b, s->min);
  json_builder_set_member_name (b, "max_ns");
  json_builder_add_int_value (b, s->max);
  json_builder_set_member_name (b, "stddev_ns");
  json_builder_add_int_value (b, sl_round_ns (s->stddev));
  add_int_or_null (b, "slowest_index", self->slowest != G_MAXUINT,
                   self->slowest != G_MAXUINT ? self->iterations[self->slowest].index : 0);
  add_int_or_null (b, "slowest_pid", self->slowest != G_MAXUINT,
                   self->slowest != G_MAXUINT ? self->iterations[self->slowest].pid : 0);
  json_builder_end_object (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
