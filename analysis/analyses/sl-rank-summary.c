/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-rank-summary.c: one rank's steps, top kernels, categories and GPUs. */
#include <string.h>

#include "sl-rank-summary.h"
#include "sl-iterations.h"
#include "sl-overlap.h"
#include "sl-kernel-summary.h"
#include "sl-category-summary.h"

/* The rank a file name states: the digits after "rank", "proc", "task" or
 * "worker" (any case, an optional "_", "-" or "." between: "rank07.sqlite",
 * "job-rank_3", "report.proc12"), the last such in the base name; -1 when
 * none.  Any other number in a name ("h100", "rtx3080", "1s") is not a
 * rank: guessing one there put "rank 3080" in front of users. */
static int
rank_from_name (const char *path)
{
  static const char *const markers[] = { "rank", "proc", "task", "worker" };
  g_autofree char *base = g_ascii_strdown (path, -1);
  g_autofree char *name = g_path_get_basename (base);
  int rank = -1;

  for (const char *p = name; *p != '\0'; p++)
    for (guint m = 0; m < G_N_ELEMENTS (markers); m++)
      {
        const char *d = p + strlen (markers[m]);
        if (strncmp (p, markers[m], strlen (markers[m])) != 0)
          continue;
        if (*d == '_' || *d == '-' || *d == '.')
          d++;
        if (g_ascii_isdigit (*d) && strspn (d, "0123456789") <= 9)
          rank = (int) g_ascii_strtoll (d, NULL, 10);
      }
  return rank;
}

/* Folds one process's iteration into its step (the same index in every process). */
static void
add_iteration (SlRankStep *step, const SlIteration *it)
{
  gint64 s = it->has_gpu ? it->gpu_start_ns : it->cpu_start_ns;
  gint64 e = it->has_gpu ? it->gpu_end_ns : it->cpu_end_ns;

  step->start_ns = MIN (step->start_ns, s);
  step->end_ns = MAX (step->end_ns, e);
  step->busy_ns += it->gpu_busy_ns;
  step->nccl_ns += it->nccl_ns;
  step->kernels += it->kernels;
}

/* NCCL time of the step's window not overlapped with compute, every device. */
static gint64
nccl_wait (const SlProfile *profile, gint64 start, gint64 end)
{
  g_autoptr(SlFilter) filter = sl_filter_new ();
  g_autoptr(SlOverlap) overlap = NULL;
  gint64 wait = 0;

  sl_filter_set_range (filter, start, end);
  overlap = sl_overlap_compute (profile, filter);
  for (guint d = 0; d < overlap->n_devices; d++)
    wait += overlap->devices[d].nccl_only_ns;
  return wait;
}

static void
compute_steps (SlRankSummary *sum, const SlProfile *profile, gint64 origin, guint n_gpus)
{
  g_autoptr(SlIterations) its = sl_iterations_compute (profile, NULL, NULL, 0, NULL);
  guint n = 0;

  if (its == NULL || its->n_iterations == 0)
    return;
  sum->method = g_strdup (sl_iterations_method_name (its->method));
  for (guint i = 0; i < its->n_iterations; i++)
    n = MAX (n, its->iterations[i].index + 1);
  sum->n_steps = n;
  sum->steps = g_new0 (SlRankStep, n);
  for (guint k = 0; k < n; k++)
    {
      sum->steps[k].start_ns = G_MAXINT64;
      sum->steps[k].end_ns = G_MININT64;
    }
  for (guint i = 0; i < its->n_iterations; i++)
    add_iteration (&sum->steps[its->iterations[i].index], &its->iterations[i]);
  for (guint k = 0; k < n; k++)
    {
      SlRankStep *st = &sum->steps[k];
      st->index = k;
      if (st->start_ns > st->end_ns)   /* no process had this index */
        st->start_ns = st->end_ns = origin;
      st->nccl_wait_ns = st->nccl_ns > 0 ? nccl_wait (profile, st->start_ns, st->end_ns) : 0;
      st->idle_ns = MAX (0, (st->end_ns - st->start_ns) * (gint64) n_gpus - st->busy_ns);
      st->start_ns -= origin;
      st->end_ns -= origin;
    }
}

static void
compute_kernels (SlRankSummary *sum, const SlProfile *profile, guint top)
{
  g_autoptr(SlKernelSummary) ks = sl_kernel_summary_compute (profile, NULL, SL_NAMES_SHORT, top);
  g_autoptr(SlCategorySummary) cs = sl_category_summary_compute (profile, NULL, NULL, SL_NAMES_SHORT, 0);

  sum->kernel_total_ns = ks->total_ns;
  sum->n_kernels = ks->n_rows;
  sum->kernels = g_new0 (SlRankKernel, ks->n_rows);
  for (guint i = 0; i < ks->n_rows; i++)
    {
      sum->kernels[i].name = g_strdup (ks->rows[i].name);
      sum->kernels[i].total_ns = ks->rows[i].stats.total;
      sum->kernels[i].instances = ks->rows[i].stats.count;
    }
  sum->n_categories = cs->n_rows;
  sum->categories = g_new0 (SlRankCategory, cs->n_rows);
  for (guint i = 0; i < cs->n_rows; i++)
    {
      sum->categories[i].name = g_strdup (cs->rows[i].name);
      sum->categories[i].total_ns = cs->rows[i].total_ns;
    }
}

SlRankSummary *
sl_rank_summary_compute (const SlProfile *profile, int rank, const char *rank_source,
                         gint64 session_utc_ns, gint64 clock_origin_ns, guint top)
{
  SlRankSummary *sum = g_new0 (SlRankSummary, 1);

  sum->path = g_strdup (profile->path);
  sum->rank = rank >= 0 ? rank : rank_from_name (profile->path != NULL ? profile->path : "");
  if (sum->rank >= 0)
    sum->rank_source = g_strdup (rank >= 0 && rank_source != NULL ? rank_source : "file name");
  sum->session_utc_ns = session_utc_ns;
  sum->gpus = g_new0 (SlRankGpu, profile->n_gpus);
  for (guint g = 0; g < profile->n_gpus; g++)
    if (profile->gpus[g].n_kernels > 0)
      {
        sum->gpus[sum->n_gpus].device = profile->gpus[g].device;
        sum->gpus[sum->n_gpus++].name = g_strdup (profile->gpus[g].name);
      }
  compute_steps (sum, profile, clock_origin_ns, MAX (sum->n_gpus, 1));
  compute_kernels (sum, profile, top);
  return sum;
}

void
sl_rank_summary_free (SlRankSummary *sum)
{
  if (sum == NULL)
    return;
  for (guint i = 0; i < sum->n_kernels; i++)
    g_free (sum->kernels[i].name);
  for (guint i = 0; i < sum->n_categories; i++)
    g_free (sum->categories[i].name);
  for (guint i = 0; i < sum->n_gpus; i++)
    g_free (sum->gpus[i].name);
  g_free (sum->kernels);
  g_free (sum->categories);
  g_free (sum->gpus);
  g_free (sum->steps);
  g_free (sum->method);
  g_free (sum->rank_source);
  g_free (sum->path);
  g_free (sum);
}
