/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare.c: several profiles side by side.
 *
 * Two captures rarely hold the same number of steps, so kernel times are
 * compared per iteration (a kernel's window total over the profile's steps)
 * when every profile has iterations, else by the mean time per call; never
 * by window totals, which only measure how long each capture ran. */
#include "sl-compare.h"
#include "sl-category-summary.h"
#include "sl-int.h"
#include "sl-iterations.h"
#include "sl-json.h"
#include "sl-parallel.h"
#include "sl-stats.h"

#include <math.h>
#include <string.h>

const char *
sl_compare_status_name (SlCompareStatus status)
{
  static const char *const names[] = { "same", "faster", "slower", "added", "removed", "calls" };
  return status <= SL_COMPARE_CALLS ? names[status] : "same";
}

const char *
sl_compare_basis_name (SlCompareBasis basis)
{
  return basis == SL_COMPARE_PER_ITERATION ? "per_iteration" : "per_call";
}

const char *
sl_compare_verdict_name (SlCompareVerdict verdict)
{
  static const char *const names[] = { "neutral", "improved", "regressed" };
  return verdict <= SL_COMPARE_REGRESSED ? names[verdict] : "neutral";
}

static gboolean
beyond (double ratio, double threshold)
{
  return ratio > 1.0 + threshold || ratio < 1.0 - threshold;
}

/* The time kernels are compared by, in profile @p. */
static double
basis_time (const SlCompareKernel *k, SlCompareBasis basis, guint p)
{
  return basis == SL_COMPARE_PER_ITERATION ? k->per_iteration_ns[p] : k->per_call_ns[p];
}

/* Calls per step (per iteration), or in the window (per call). */
static double
calls_of (const SlCompare *self, const SlCompareKernel *k, guint p)
{
  return self->basis == SL_COMPARE_PER_ITERATION ? (double) k->instances[p] / self->iterations[p].steps
                                                 : (double) k->instances[p];
}

/* Profile @p against the first: faster / slower only when the time per call
 * moved too; a change that only comes from the number of calls is "calls". */
static SlCompareStatus
status_of (const SlCompare *self, const SlCompareKernel *k, guint p, double threshold)
{
  double first, other;

  if (k->instances[0] == 0)
    return k->instances[p] > 0 ? SL_COMPARE_ADDED : SL_COMPARE_SAME;
  if (k->instances[p] == 0)
    return SL_COMPARE_REMOVED;
  first = basis_time (k, self->basis, 0);
  other = basis_time (k, self->basis, p);
  if (beyond (other / first, threshold) && beyond (k->per_call_ns[p] / k->per_call_ns[0], threshold))
    return other > first ? SL_COMPARE_SLOWER : SL_COMPARE_FASTER;
  if (beyond (calls_of (self, k, p) / calls_of (self, k, 0), threshold))
    return SL_COMPARE_CALLS;
  return SL_COMPARE_SAME;
}

/* How much the kernel moved the basis time, for ranking. */
static double
impact_ns (const SlCompare *self, const SlCompareKernel *k)
{
  guint last = self->n_profiles - 1;
  double first = basis_time (k, self->basis, 0), other = basis_time (k, self->basis, last);

  if (k->instances[0] == 0 || k->instances[last] == 0)
    return self->basis == SL_COMPARE_PER_ITERATION ? fabs (other - first)
                                                   : (double) k->total_ns[0] + (double) k->total_ns[last];
  return self->basis == SL_COMPARE_PER_ITERATION ? fabs (other - first)
                                                 : fabs (other - first) * (double) k->instances[0];
}

static int
compare_kernels (gconstpointer a, gconstpointer b, gpointer data)
{
  const SlCompare *self = data;
  const SlCompareKernel *x = a, *y = b;

  return sl_rank_compare (sl_round_ns (impact_ns (self, x)), x->name,
                          sl_round_ns (impact_ns (self, y)), y->name);
}

static void
kernel_free_fields (SlCompareKernel *k)
{
  g_free (k->name);
  g_free (k->total_ns);
  g_free (k->instances);
  g_free (k->per_call_ns);
  g_free (k->per_iteration_ns);
  g_free (k->deltas_ns);
  g_free (k->ratios);
  g_free (k->statuses);
}

/* The result's per-profile arrays. */
static SlCompare *
compare_new (guint n)
{
  SlCompare *self = g_new0 (SlCompare, 1);

  self->n_profiles = n;
  self->paths = g_new0 (char *, n + 1);
  self->kernel_total_ns = g_new0 (gint64, n);
  self->has_iterations = g_new0 (gboolean, n);
  self->iteration_median_ns = g_new0 (gint64, n);
  self->iterations = g_new0 (SlCompareIterations, n);
  self->step_change_pct = g_new0 (double, n);
  return self;
}

/* The row of kernel name @name, added on first sight with @n profiles. */
static SlCompareKernel *
kernel_row (GHashTable *by_name, GArray *kernels, const char *name, guint n)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (by_name, name));   /* index + 1 */

  if (index == 0)
    {
      SlCompareKernel fresh = { 0 };
      fresh.name = g_strdup (name);
      fresh.total_ns = g_new0 (gint64, n);
      fresh.instances = g_new0 (guint64, n);
      g_array_append_val (kernels, fresh);
      index = kernels->len;
      g_hash_table_insert (by_name, g_array_index (kernels, SlCompareKernel, index - 1).name,
                           GUINT_TO_POINTER (index));
    }
  return &g_array_index (kernels, SlCompareKernel, index - 1);
}

/* The rows of the categories of @rules, by name (profiles may use different
 * rules): the position of each of its categories among @categories. */
static guint *
category_rows (GArray *categories, const SlCategories *rules, guint n)
{
  guint n_cat = sl_categories_get_n_categories (rules);
  guint *rows = g_new0 (guint, MAX (n_cat, 1));

  for (guint c = 0; c < n_cat; c++)
    {
      const char *name = sl_categories_get_name (rules, c);
      guint r = 0;
      while (r < categories->len && !g_str_equal (g_array_index (categories, SlCompareCategory, r).name, name))
        r++;
      if (r == categories->len)
        {
          SlCompareCategory fresh = { g_strdup (name), g_new0 (gint64, n) };
          g_array_append_val (categories, fresh);
        }
      rows[c] = r;
    }
  return rows;
}

typedef struct {
  GHashTable *by_name;      /* kernel name -> index + 1 */
  GArray     *kernels;      /* SlCompareKernel */
  GArray     *categories;   /* SlCompareCategory */
} Rows;

/* Kernel time of profile @p, per name, per category and in all, from its
 * per-function @totals and @counts. */
static void
add_profile_kernels (SlCompare *self, Rows *rows, guint p, const SlProfile *profile,
                     const gint64 *totals, const guint64 *counts, const SlCategories *rules, SlNameStyle names)
{
  g_autofree guint16 *category = sl_categories_classify_funcs (rules, profile);
  g_autofree guint *category_row = category_rows (rows->categories, rules, self->n_profiles);

  for (guint f = 0; f < profile->n_funcs; f++)
    {
      SlCompareKernel *k;
      SlCompareCategory *cat;

      if (counts[f] == 0)
        continue;
      cat = &g_array_index (rows->categories, SlCompareCategory, category_row[category[f]]);
      self->kernel_total_ns[p] = sl_sat_add (self->kernel_total_ns[p], totals[f]);
      cat->total_ns[p] = sl_sat_add (cat->total_ns[p], totals[f]);
      k = kernel_row (rows->by_name, rows->kernels,
                      sl_strings_get (profile->strings, sl_kernel_func_name_id (profile, f, names)),
                      self->n_profiles);
      k->total_ns[p] = sl_sat_add (k->total_ns[p], totals[f]);
      k->instances[p] += counts[f];
    }
}

/* The @q quantile (0..1) of sorted @values, linear between order statistics. */
static gint64
quantile (const gint64 *values, guint n, double q)
{
  double pos = q * (double) (n - 1);
  guint lo = (guint) floor (pos);

  if (lo + 1 >= n)
    return values[n - 1];
  return sl_round_ns ((double) values[lo] + (pos - lo) * (double) (values[lo + 1] - values[lo]));
}

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

/* Count, median, p10, p90 and steps per rank of one profile's iterations
 * in @filter, into @out (found when it has at least two). */
static void
summarize_iterations (const SlProfile *profile, const SlFilter *filter, SlCompareIterations *out)
{
  g_autoptr(SlIterations) its = sl_iterations_compute_durations (profile, filter);
  g_autoptr(GHashTable) ranks = g_hash_table_new (NULL, NULL);
  g_autofree gint64 *durations = NULL;

  memset (out, 0, sizeof *out);
  /* one iteration is the whole window (GPU work without an idle gap), not a step */
  if (its == NULL || its->n_iterations < 2)
    return;
  durations = g_new (gint64, its->n_iterations);
  for (guint i = 0; i < its->n_iterations; i++)
    {
      durations[i] = its->iterations[i].dur_ns;
      g_hash_table_add (ranks, GUINT_TO_POINTER (its->iterations[i].pid + 1));
    }
  qsort (durations, its->n_iterations, sizeof (gint64), compare_gint64);
  out->found = TRUE;
  out->count = its->n_iterations;
  out->steps = (double) its->n_iterations / g_hash_table_size (ranks);
  out->median_ns = sl_round_ns (its->summary.median);
  out->p10_ns = quantile (durations, its->n_iterations, 0.10);
  out->p90_ns = quantile (durations, its->n_iterations, 0.90);
  out->method = sl_iterations_method_name (its->method);
}

static gpointer
whole_iterations_build (const SlProfile *profile)
{
  SlCompareIterations *out = g_new (SlCompareIterations, 1);

  summarize_iterations (profile, NULL, out);
  return out;
}

/* The iterations of @profile into @out.  Those of a whole profile are
 * found once and kept with it (the step search walks every GPU operation):
 * comparing the same captures again, as the app does on every change of an
 * option, costs the kernel totals only. */
static void
find_profile_iterations (const SlProfile *profile, const SlFilter *filter, SlCompareIterations *out)
{
  if (sl_filter_is_empty (filter))
    *out = *(const SlCompareIterations *) sl_profile_get_derived (profile, "sl-compare-iterations",
                                                                  whole_iterations_build, g_free);
  else
    summarize_iterations (profile, filter, out);
}

/* What each profile's own data gives, found for all profiles at once. */
typedef struct {
  SlProfile *const *profiles;
  guint             n;
  const SlFilter   *filter;
  gint64          **totals;     /* per profile, per function */
  guint64         **counts;
  SlCompare        *self;       /* its iterations[] */
} PerProfile;

/* Profiles @part, @part + @n_parts, ...: their kernel totals and
 * iterations only read their own profile and write their own slots. */
static void
per_profile_part (guint part, guint n_parts, gpointer data)
{
  PerProfile *w = data;

  for (guint p = part; p < w->n; p += n_parts)
    {
      sl_kernel_func_totals (w->profiles[p], w->filter, &w->totals[p], &w->counts[p]);
      find_profile_iterations (w->profiles[p], w->filter, &w->self->iterations[p]);
    }
}

/* Each profile's kernel totals and iterations, two profiles at once on two
 * cores: after the loads, most of what compare then waits for (the step
 * search walks every GPU operation of each profile). */
static void
find_per_profile (PerProfile *w)
{
  sl_parallel_run (MIN (w->n, sl_analysis_threads ()), per_profile_part, w);
  for (guint p = 0; p < w->n; p++)
    if (w->self->iterations[p].found)
      {
        w->self->has_iterations[p] = TRUE;
        w->self->iteration_median_ns[p] = w->self->iterations[p].median_ns;
      }
}

/* Per-call and per-iteration times of @k in each profile. */
static void
kernel_times (const SlCompare *self, SlCompareKernel *k)
{
  guint n = self->n_profiles;

  k->per_call_ns = g_new (double, n);
  for (guint p = 0; p < n; p++)
    k->per_call_ns[p] = k->instances[p] > 0 ? (double) k->total_ns[p] / (double) k->instances[p] : NAN;
  if (self->basis != SL_COMPARE_PER_ITERATION)
    return;
  k->per_iteration_ns = g_new (double, n);
  for (guint p = 0; p < n; p++)
    k->per_iteration_ns[p] = (double) k->total_ns[p] / self->iterations[p].steps;
}

/* Each profile after the first against the first; the last one's is the headline. */
static void
compare_to_first (const SlCompare *self, SlCompareKernel *k, double threshold)
{
  guint n = self->n_profiles;
  double first, last;

  kernel_times (self, k);
  k->deltas_ns = g_new0 (gint64, MAX (n - 1, 1));
  k->ratios = g_new0 (double, MAX (n - 1, 1));
  k->statuses = g_new0 (SlCompareStatus, MAX (n - 1, 1));
  for (guint p = 1; p < n; p++)
    {
      k->deltas_ns[p - 1] = k->total_ns[p] - k->total_ns[0];
      k->ratios[p - 1] = k->total_ns[0] > 0 ? (double) k->total_ns[p] / (double) k->total_ns[0] : NAN;
      k->statuses[p - 1] = status_of (self, k, p, threshold);
    }
  k->status = n >= 2 ? k->statuses[n - 2] : SL_COMPARE_SAME;
  k->change_pct = NAN;
  if (n < 2)
    return;
  k->delta_ns = k->deltas_ns[n - 2];
  k->ratio = k->ratios[n - 2];
  k->has_ratio = !isnan (k->ratio);
  first = basis_time (k, self->basis, 0);
  last = basis_time (k, self->basis, n - 1);
  if (k->instances[0] > 0 && k->instances[n - 1] > 0 && first > 0)
    k->change_pct = (last / first - 1.0) * 100.0;
}

/* The kernels by change, the @top (> 0) largest only. */
static void
keep_kernels (SlCompare *self, GArray *kernels, guint top)
{
  g_array_sort_with_data (kernels, compare_kernels, self);
  self->n_names = kernels->len;
  if (top > 0 && kernels->len > top)
    {
      for (guint i = top; i < kernels->len; i++)
        kernel_free_fields (&g_array_index (kernels, SlCompareKernel, i));
      g_array_set_size (kernels, top);
    }
  self->n_kernels = kernels->len;
  self->kernels = (SlCompareKernel *) g_array_free (kernels, FALSE);
}

/* Keeps the categories used by some profile, in rule order (the first
 * profile's rules, then categories only later rules have). */
static void
keep_used_categories (SlCompare *self, GArray *categories)
{
  self->n_categories = 0;
  self->categories = g_new0 (SlCompareCategory, MAX (categories->len, 1));
  for (guint c = 0; c < categories->len; c++)
    {
      SlCompareCategory *category = &g_array_index (categories, SlCompareCategory, c);
      gboolean used = FALSE;
      for (guint p = 0; p < self->n_profiles; p++)
        used |= category->total_ns[p] > 0;
      if (used)
        self->categories[self->n_categories++] = *category;
      else
        {
          g_free (category->name);
          g_free (category->total_ns);
        }
    }
  g_array_free (categories, TRUE);
}

/* Per iteration only when every profile has iterations. */
static SlCompareBasis
choose_basis (const SlCompare *self)
{
  for (guint p = 0; p < self->n_profiles; p++)
    if (!self->iterations[p].found)
      return SL_COMPARE_PER_CALL;
  return SL_COMPARE_PER_ITERATION;
}

SlCompare *
sl_compare_compute (SlProfile *const *profiles, guint n, const SlFilter *filter,
                    const SlCategories *const *rules, SlNameStyle names, double threshold, guint top)
{
  SlCompare *self;
  Rows rows;
  PerProfile per;

  g_return_val_if_fail (n >= 1, g_new0 (SlCompare, 1));
  self = compare_new (n);
  per = (PerProfile) { profiles, n, filter, g_new0 (gint64 *, n), g_new0 (guint64 *, n), self };
  find_per_profile (&per);
  rows.by_name = g_hash_table_new (g_str_hash, g_str_equal);
  rows.kernels = g_array_new (FALSE, TRUE, sizeof (SlCompareKernel));
  rows.categories = g_array_new (FALSE, TRUE, sizeof (SlCompareCategory));
  for (guint p = 0; p < n; p++)
    {
      const SlCategories *r = rules != NULL && rules[p] != NULL ? rules[p] : sl_categories_get_default ();
      self->paths[p] = g_strdup (profiles[p]->path);
      /* classified here: a GRegex's first match may JIT-compile it, not
       * safely from two threads at once */
      add_profile_kernels (self, &rows, p, profiles[p], per.totals[p], per.counts[p], r, names);
      g_free (per.totals[p]);
      g_free (per.counts[p]);
    }
  g_free (per.totals);
  g_free (per.counts);
  self->basis = choose_basis (self);
  for (guint i = 0; i < rows.kernels->len; i++)
    compare_to_first (self, &g_array_index (rows.kernels, SlCompareKernel, i), threshold);
  sl_compare_judge (self, profiles, (const SlCompareKernel *) (void *) rows.kernels->data,
                    rows.kernels->len, threshold);
  g_hash_table_destroy (rows.by_name);
  keep_kernels (self, rows.kernels, top);
  keep_used_categories (self, rows.categories);
  return self;
}

void
sl_compare_free (SlCompare *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_kernels; i++)
    kernel_free_fields (&self->kernels[i]);
  for (guint c = 0; c < self->n_categories; c++)
    {
      g_free (self->categories[c].name);
      g_free (self->categories[c].total_ns);
    }
  g_free (self->kernels);
  g_free (self->categories);
  g_strfreev (self->paths);
  g_free (self->kernel_total_ns);
  g_free (self->has_iterations);
  g_free (self->iteration_median_ns);
  g_free (self->iterations);
  g_free (self->step_change_pct);
  g_strfreev (self->reasons);
  g_free (self);
}
