/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-stacks.c: top functions and stacks of the samples in a range.
 * Samples are counted per stack first (a range holds many samples but few
 * distinct stacks), then the stacks are walked once each. */
#include "sl-cpu-stacks.h"
#include "sl-spans.h"

static gboolean
pid_wanted (guint32 pid, const guint32 *pids, guint n_pids)
{
  if (pids == NULL || n_pids == 0)
    return TRUE;
  for (guint i = 0; i < n_pids; i++)
    if (pids[i] == pid)
      return TRUE;
  return FALSE;
}

/* Samples per stack in the range (NULL @counts: only the total). */
static guint64
count_stacks (const SlCpuActivity *a, gint64 start, gint64 end,
              const guint32 *pids, guint n_pids, guint64 *counts)
{
  guint64 total = 0;

  for (guint t = 0; t < a->n_threads; t++)
    {
      const SlCpuSamples *s = &a->threads[t].samples;
      guint lo, hi;

      if (s->n == 0 || !pid_wanted (a->threads[t].pid, pids, n_pids))
        continue;
      lo = sl_times_lower_bound (s->time, 0, s->n, start);
      hi = sl_times_lower_bound (s->time, lo, s->n, end);
      total += hi - lo;
      if (counts != NULL)
        for (guint i = lo; i < hi; i++)
          if (s->stack[i] < a->n_stacks)
            counts[s->stack[i]]++;
    }
  return total;
}

guint64
sl_cpu_count_samples (const SlCpuActivity *a, gint64 start, gint64 end,
                      const guint32 *pids, guint n_pids)
{
  g_return_val_if_fail (a != NULL, 0);
  return end > start ? count_stacks (a, start, end, pids, n_pids, NULL) : 0;
}

static int
compare_stack_counts (gconstpointer pa, gconstpointer pb)
{
  const SlCpuStackCount *x = pa, *y = pb;

  if (x->samples != y->samples)
    return x->samples > y->samples ? -1 : 1;
  return (x->stack > y->stack) - (x->stack < y->stack);
}

GArray *
sl_cpu_top_stacks (const SlCpuActivity *a, gint64 start, gint64 end,
                   const guint32 *pids, guint n_pids, guint limit)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (SlCpuStackCount));
  g_autofree guint64 *counts = NULL;

  g_return_val_if_fail (a != NULL, out);
  if (end <= start || a->n_stacks == 0)
    return out;
  counts = g_new0 (guint64, a->n_stacks);
  count_stacks (a, start, end, pids, n_pids, counts);
  for (guint s = 0; s < a->n_stacks; s++)
    if (counts[s] > 0)
      g_array_append_val (out, ((SlCpuStackCount) { s, counts[s] }));
  g_array_sort (out, compare_stack_counts);
  if (limit > 0 && out->len > limit)
    g_array_set_size (out, limit);
  return out;
}

static int
compare_functions (gconstpointer pa, gconstpointer pb)
{
  const SlCpuFunction *x = pa, *y = pb;

  if (x->self != y->self)
    return x->self > y->self ? -1 : 1;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return (x->symbol > y->symbol) - (x->symbol < y->symbol);
}

GArray *
sl_cpu_top_functions (const SlCpuActivity *a, gint64 start, gint64 end,
                      const guint32 *pids, guint n_pids, guint limit)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (SlCpuFunction));
  g_autofree guint64 *counts = NULL, *self = NULL, *total = NULL;
  g_autofree guint32 *seen = NULL;

  g_return_val_if_fail (a != NULL, out);
  if (end <= start || a->n_stacks == 0 || a->n_names == 0)
    return out;
  counts = g_new0 (guint64, a->n_stacks);
  count_stacks (a, start, end, pids, n_pids, counts);
  self = g_new0 (guint64, a->n_names);
  total = g_new0 (guint64, a->n_names);
  seen = g_new0 (guint32, a->n_names);   /* last stack + 1 that counted it: recursion counts once */
  for (guint s = 0; s < a->n_stacks; s++)
    {
      guint first = a->frame_first[s], last = a->frame_first[s + 1];
      if (counts[s] == 0 || first == last)
        continue;
      self[a->frame_symbol[first]] += counts[s];
      for (guint f = first; f < last; f++)
        if (seen[a->frame_symbol[f]] != s + 1)
          {
            seen[a->frame_symbol[f]] = s + 1;
            total[a->frame_symbol[f]] += counts[s];
          }
    }
  for (guint n = 0; n < a->n_names; n++)
    if (total[n] > 0)
      g_array_append_val (out, ((SlCpuFunction) { n, self[n], total[n] }));
  g_array_sort (out, compare_functions);
  if (limit > 0 && out->len > limit)
    g_array_set_size (out, limit);
  return out;
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

GArray *
sl_cpu_gpu_pids (const SlProfile *profile, guint32 device)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint s = 0; s < profile->n_streams; s++)
    {
      gboolean seen = FALSE;

      if (profile->streams[s].device != device)
        continue;
      for (guint k = 0; k < pids->len && !seen; k++)
        seen = g_array_index (pids, guint32, k) == profile->streams[s].pid;
      if (!seen)
        g_array_append_val (pids, profile->streams[s].pid);
    }
  g_array_sort (pids, compare_u32);
  return pids;
}
