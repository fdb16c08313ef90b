/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare-verdict.c: did the last capture get better or worse than the
 * first, and can the two be compared at all?
 *
 * The verdict follows the median step time when every profile has
 * iterations.  Without, it prices the first profile's calls at each
 * profile's mean time per call (kernels both ran), so that a longer or
 * shorter window does not read as a change.  Comparability multiplies three
 * likenesses: the share of kernel time in names both ran, the call mix, and
 * the GPUs. */
#include "sl-compare.h"

#include <math.h>
#include <glib/gi18n-lib.h>

static char
letter (guint p)
{
  return (char) ('A' + MIN (p, 25));
}

static void
judge_step (SlCompare *self)
{
  self->has_step = self->basis == SL_COMPARE_PER_ITERATION;
  for (guint p = 0; p < self->n_profiles; p++)
    self->step_change_pct[p] = self->has_step && self->iterations[0].median_ns > 0
      ? ((double) self->iterations[p].median_ns / (double) self->iterations[0].median_ns - 1.0) * 100.0
      : 0.0;
}

/* The first profile's calls of kernels both ran, priced at profile @p's
 * mean time per call, against the same calls at the first's. */
static double
weighted_change_pct (const SlCompareKernel *kernels, guint n_kernels, guint p)
{
  double first = 0, other = 0;

  for (guint i = 0; i < n_kernels; i++)
    if (kernels[i].instances[0] > 0 && kernels[i].instances[p] > 0)
      {
        first += (double) kernels[i].total_ns[0];
        other += kernels[i].per_call_ns[p] * (double) kernels[i].instances[0];
      }
  return first > 0 ? (other / first - 1.0) * 100.0 : 0.0;
}

static void
judge_verdict (SlCompare *self, const SlCompareKernel *kernels, guint n_kernels, double threshold)
{
  guint last = self->n_profiles - 1;

  self->verdict_change_pct = self->has_step ? self->step_change_pct[last]
                                            : weighted_change_pct (kernels, n_kernels, last);
  if (self->verdict_change_pct > threshold * 100.0)
    self->verdict = SL_COMPARE_REGRESSED;
  else if (self->verdict_change_pct < -threshold * 100.0)
    self->verdict = SL_COMPARE_IMPROVED;
  else
    self->verdict = SL_COMPARE_NEUTRAL;
}

/* Every kernel the same in both, and the same iterations. */
static gboolean
same_capture (const SlCompare *self, const SlCompareKernel *kernels, guint n_kernels, guint last)
{
  const SlCompareIterations *a = &self->iterations[0], *b = &self->iterations[last];

  if (n_kernels == 0 || a->found != b->found || a->count != b->count || a->median_ns != b->median_ns)
    return FALSE;
  for (guint i = 0; i < n_kernels; i++)
    if (kernels[i].total_ns[0] != kernels[i].total_ns[last] || kernels[i].instances[0] != kernels[i].instances[last])
      return FALSE;
  return TRUE;
}

/* The smaller of the two profiles' shares of kernel time in names both ran. */
static double
shared_time (const SlCompareKernel *kernels, guint n_kernels, guint last, GPtrArray *reasons)
{
  double all[2] = { 0, 0 }, shared[2] = { 0, 0 };

  for (guint i = 0; i < n_kernels; i++)
    for (guint s = 0; s < 2; s++)
      {
        double t = (double) kernels[i].total_ns[s == 0 ? 0 : last];
        all[s] += t;
        if (kernels[i].instances[0] > 0 && kernels[i].instances[last] > 0)
          shared[s] += t;
      }
  for (guint s = 0; s < 2; s++)
    shared[s] = all[s] > 0 ? shared[s] / all[s] : 0;
  g_ptr_array_add (reasons, g_strdup_printf (_("kernel names both ran: %.0f %% of %c's kernel time, %.0f %% of %c's"),
                                             shared[0] * 100, letter (0), shared[1] * 100, letter (last)));
  return MIN (shared[0], shared[1]);
}

/* 1 minus the total variation distance between the two call-count mixes. */
static double
call_mix (const SlCompareKernel *kernels, guint n_kernels, guint last, GPtrArray *reasons)
{
  double calls[2] = { 0, 0 }, distance = 0;

  for (guint i = 0; i < n_kernels; i++)
    {
      calls[0] += (double) kernels[i].instances[0];
      calls[1] += (double) kernels[i].instances[last];
    }
  if (calls[0] == 0 || calls[1] == 0)
    return 0;
  for (guint i = 0; i < n_kernels; i++)
    distance += fabs ((double) kernels[i].instances[0] / calls[0] - (double) kernels[i].instances[last] / calls[1]);
  distance /= 2;
  g_ptr_array_add (reasons, g_strdup_printf (_("call mix %.0f %% alike"), (1 - distance) * 100));
  return 1 - distance;
}

/* "2 × NVIDIA H100": the GPUs that ran work, by name. */
static char *
gpu_list (const SlProfile *profile)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GString *out = g_string_new (NULL);

  for (guint g = 0; g < profile->n_gpus; g++)
    if (profile->gpus[g].has_activity)
      g_ptr_array_add (names, profile->gpus[g].name != NULL ? profile->gpus[g].name : (char *) _("unknown"));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len;)
    {
      guint j = i;
      while (j < names->len && g_str_equal (names->pdata[j], names->pdata[i]))
        j++;
      g_string_append_printf (out, "%s%u × %s", out->len > 0 ? ", " : "", j - i, (char *) names->pdata[i]);
      i = j;
    }
  return g_string_free (out, FALSE);
}

static gboolean
any_unnamed_gpu (const SlProfile *profile)
{
  for (guint g = 0; g < profile->n_gpus; g++)
    if (profile->gpus[g].has_activity && profile->gpus[g].name == NULL)
      return TRUE;
  return FALSE;
}

/* 1 for the same GPUs by name and number, 0.9 when an export does not name
 * them (nothing says they differ), else 0.5. */
static double
same_gpus (const SlProfile *first, const SlProfile *last, guint last_index, GPtrArray *reasons)
{
  g_autofree char *a = gpu_list (first), *b = gpu_list (last);

  if (any_unnamed_gpu (first) || any_unnamed_gpu (last))
    {
      g_ptr_array_add (reasons, g_strdup_printf (_("GPU models not all recorded: %s in %c, %s in %c"),
                                                 a[0] != '\0' ? a : "–", letter (0), b[0] != '\0' ? b : "–",
                                                 letter (last_index)));
      return 0.9;
    }
  if (g_str_equal (a, b))
    {
      g_ptr_array_add (reasons, g_strdup_printf (_("same GPUs: %s"), a[0] != '\0' ? a : "–"));
      return 1.0;
    }
  g_ptr_array_add (reasons, g_strdup_printf (_("different GPUs: %s in %c, %s in %c"),
                                             a[0] != '\0' ? a : "–", letter (0), b[0] != '\0' ? b : "–",
                                             letter (last_index)));
  return 0.5;
}

/* What the comparison is based on, when the profiles differ in steps. */
static void
basis_reasons (const SlCompare *self, guint last, GPtrArray *reasons)
{
  for (guint p = 0; p < self->n_profiles; p++)
    if (!self->iterations[p].found)
      {
        g_ptr_array_add (reasons, g_strdup_printf (_("no iterations in %c: kernels compared by time per call, "
                                                     "the verdict by %c's calls at each profile's time per call"),
                                                   letter (p), letter (0)));
        return;
      }
  if (self->iterations[0].count != self->iterations[last].count)
    g_ptr_array_add (reasons, g_strdup_printf (_("iterations: %u in %c, %u in %c; compared per iteration"),
                                               self->iterations[0].count, letter (0),
                                               self->iterations[last].count, letter (last)));
}

void
sl_compare_judge (SlCompare *self, SlProfile *const *profiles, const SlCompareKernel *kernels,
                  guint n_kernels, double threshold)
{
  guint last = self->n_profiles - 1;
  GPtrArray *reasons = g_ptr_array_new ();

  judge_step (self);
  judge_verdict (self, kernels, n_kernels, threshold);
  if (same_capture (self, kernels, n_kernels, last))
    {
      self->comparability = 1.0;
      g_ptr_array_add (reasons, g_strdup (_("same capture")));
    }
  else if (n_kernels == 0)
    g_ptr_array_add (reasons, g_strdup (_("no kernels to compare")));
  else
    {
      self->comparability = shared_time (kernels, n_kernels, last, reasons);
      self->comparability *= call_mix (kernels, n_kernels, last, reasons);
      self->comparability *= same_gpus (profiles[0], profiles[last], last, reasons);
      basis_reasons (self, last, reasons);
    }
  g_ptr_array_add (reasons, NULL);
  self->reasons = (char **) g_ptr_array_free (reasons, FALSE);
}

const char *
sl_compare_status_label (SlCompareStatus status)
{
  switch (status)
    {
    case SL_COMPARE_FASTER: return _("faster");
    case SL_COMPARE_SLOWER: return _("slower");
    case SL_COMPARE_ADDED: return _("added");
    case SL_COMPARE_REMOVED: return _("removed");
    case SL_COMPARE_CALLS: return _("call count");
    case SL_COMPARE_SAME: default: return _("same");
    }
}
