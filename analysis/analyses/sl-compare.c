/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare.c: several profiles side by side. */
#include "sl-compare.h"
#include "sl-category-summary.h"
#include "sl-iterations.h"
#include "sl-json.h"
#include "sl-stats.h"

#include <math.h>

const char *
sl_compare_status_name (SlCompareStatus status)
{
  static const char *const names[] = { "same", "faster", "slower", "added", "removed" };
  return status <= SL_COMPARE_REMOVED ? names[status] : "same";
}

static SlCompareStatus
status_of (gint64 first, guint64 first_n, gint64 other, guint64 other_n, double threshold, double *ratio)
{
  *ratio = first > 0 ? (double) other / (double) first : NAN;
  if (first_n == 0 && other_n > 0)
    return SL_COMPARE_ADDED;
  if (first_n > 0 && other_n == 0)
    return SL_COMPARE_REMOVED;
  if (first <= 0)
    return other > 0 ? SL_COMPARE_SLOWER : SL_COMPARE_SAME;
  if (*ratio > 1.0 + threshold)
    return SL_COMPARE_SLOWER;
  if (*ratio < 1.0 - threshold)
    return SL_COMPARE_FASTER;
  return SL_COMPARE_SAME;
}

static int
compare_kernels (gconstpointer a, gconstpointer b)
{
  const SlCompareKernel *x = a, *y = b;

  return sl_rank_compare (ABS (x->delta_ns), x->name, ABS (y->delta_ns), y->name);
}

static void
kernel_free_fields (SlCompareKernel *k)
{
  g_free (k->name);
  g_free (k->total_ns);
  g_free (k->instances);
  g_free (k->deltas_ns);
  g_free (k->ratios);
  g_free (k->statuses);
}

/* The result's per-profile arrays, and every category of @rules (those
 * left empty are dropped at the end). */
static SlCompare *
compare_new (guint n, const SlCategories *rules)
{
  SlCompare *self = g_new0 (SlCompare, 1);
  guint n_cat = sl_categories_get_n_categories (rules);

  self->n_profiles = n;
  self->paths = g_new0 (char *, n + 1);
  self->kernel_total_ns = g_new0 (gint64, n);
  self->has_iterations = g_new0 (gboolean, n);
  self->iteration_median_ns = g_new0 (gint64, n);
  self->categories = g_new0 (SlCompareCategory, MAX (n_cat, 1));
  self->n_categories = n_cat;
  for (guint c = 0; c < n_cat; c++)
    {
      self->categories[c].name = g_strdup (sl_categories_get_name (rules, c));
      self->categories[c].total_ns = g_new0 (gint64, n);
    }
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

/* Kernel time of profile @p, per name, per category and in all. */
static void
add_profile_kernels (SlCompare *self, GHashTable *by_name, GArray *kernels, guint p,
                     const SlProfile *profile, const SlFilter *filter, const SlCategories *rules,
                     SlNameStyle names)
{
  g_autofree gint64 *totals = NULL;
  g_autofree guint64 *counts = NULL;
  g_autofree guint16 *category = sl_categories_classify_funcs (rules, profile);

  sl_kernel_func_totals (profile, filter, &totals, &counts);
  for (guint f = 0; f < profile->n_funcs; f++)
    {
      SlCompareKernel *k;

      if (counts[f] == 0)
        continue;
      self->kernel_total_ns[p] += totals[f];
      self->categories[category[f]].total_ns[p] += totals[f];
      k = kernel_row (by_name, kernels,
                      sl_strings_get (profile->strings, sl_kernel_func_name_id (profile, f, names)),
                      self->n_profiles);
      k->total_ns[p] += totals[f];
      k->instances[p] += counts[f];
    }
}

static void
add_profile_iterations (SlCompare *self, guint p, const SlProfile *profile, const SlFilter *filter)
{
  g_autoptr(SlIterations) its = sl_iterations_compute_durations (profile, filter);

  if (its != NULL && its->n_iterations > 0)
    {
      self->has_iterations[p] = TRUE;
      self->iteration_median_ns[p] = sl_round_ns (its->summary.median);
    }
}

/* Each profile after the first against the first; the last one's is the headline. */
static void
compare_to_first (SlCompareKernel *k, guint n, double threshold)
{
  k->deltas_ns = g_new0 (gint64, MAX (n - 1, 1));
  k->ratios = g_new0 (double, MAX (n - 1, 1));
  k->statuses = g_new0 (SlCompareStatus, MAX (n - 1, 1));
  for (guint p = 1; p < n; p++)
    {
      k->deltas_ns[p - 1] = k->total_ns[p] - k->total_ns[0];
      k->statuses[p - 1] = status_of (k->total_ns[0], k->instances[0], k->total_ns[p],
                                      k->instances[p], threshold, &k->ratios[p - 1]);
    }
  if (n >= 2)
    {
      k->delta_ns = k->deltas_ns[n - 2];
      k->ratio = k->ratios[n - 2];
      k->has_ratio = !isnan (k->ratio);
      k->status = k->statuses[n - 2];
    }
  else
    k->status = SL_COMPARE_SAME;
}

/* The kernels by change, the @top (> 0) largest only. */
static void
keep_kernels (SlCompare *self, GArray *kernels, guint top)
{
  g_array_sort (kernels, compare_kernels);
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

/* Keeps the categories used by some profile, in rule order. */
static void
keep_used_categories (SlCompare *self)
{
  guint n_cat = self->n_categories;

  self->n_categories = 0;
  for (guint c = 0; c < n_cat; c++)
    {
      gboolean used = FALSE;
      for (guint p = 0; p < self->n_profiles; p++)
        used |= self->categories[c].total_ns[p] > 0;
      if (used)
        self->categories[self->n_categories++] = self->categories[c];
      else
        {
          g_free (self->categories[c].name);
          g_free (self->categories[c].total_ns);
        }
    }
}

SlCompare *
sl_compare_compute (SlProfile *const *profiles, guint n, const SlFilter *filter,
                    const SlCategories *rules, SlNameStyle names, double threshold, guint top)
{
  SlCompare *self;
  g_autoptr(GHashTable) by_name = NULL;   /* name -> index + 1 */
  GArray *kernels;

  g_return_val_if_fail (n >= 1, g_new0 (SlCompare, 1));
  if (rules == NULL)
    rules = sl_categories_get_default ();
  self = compare_new (n, rules);
  by_name = g_hash_table_new (g_str_hash, g_str_equal);
  kernels = g_array_new (FALSE, TRUE, sizeof (SlCompareKernel));
  for (guint p = 0; p < n; p++)
    {
      self->paths[p] = g_strdup (profiles[p]->path);
      add_profile_kernels (self, by_name, kernels, p, profiles[p], filter, rules, names);
      add_profile_iterations (self, p, profiles[p], filter);
    }
  for (guint i = 0; i < kernels->len; i++)
    compare_to_first (&g_array_index (kernels, SlCompareKernel, i), n, threshold);
  keep_kernels (self, kernels, top);
  keep_used_categories (self);
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
  g_free (self);
}

static void
add_ratio (JsonBuilder *b, double ratio)
{
  if (isnan (ratio) || isinf (ratio))
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, ratio);
}

/* @data: the number of profiles */
static void
add_category_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlCompareCategory *category = item;
  guint n = *(const guint *) data;

  json_builder_begin_object (b);
  sl_json_member_string (b, "category", category->name);
  sl_json_member_int_array (b, "total_ns", category->total_ns, n);
  json_builder_end_object (b);
}

/* "deltas_ns", "ratios", "statuses": profile i + 1 against the first. */
static void
add_each_against_first (JsonBuilder *b, const SlCompareKernel *k, guint n)
{
  sl_json_member_int_array (b, "deltas_ns", k->deltas_ns, n - 1);
  json_builder_set_member_name (b, "ratios");
  json_builder_begin_array (b);
  for (guint p = 0; p + 1 < n; p++)
    add_ratio (b, k->ratios[p]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "statuses");
  json_builder_begin_array (b);
  for (guint p = 0; p + 1 < n; p++)
    json_builder_add_string_value (b, sl_compare_status_name (k->statuses[p]));
  json_builder_end_array (b);
}

/* @data: the number of profiles */
static void
add_kernel_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlCompareKernel *k = item;
  guint n = *(const guint *) data;

  json_builder_begin_object (b);
  sl_json_member_string (b, "name", k->name);
  sl_json_member_int_array (b, "total_ns", k->total_ns, n);
  sl_json_member_int_array (b, "instances", (const gint64 *) k->instances, n);
  sl_json_member_int (b, "delta_ns", k->delta_ns);
  json_builder_set_member_name (b, "ratio");
  add_ratio (b, k->has_ratio ? k->ratio : NAN);
  sl_json_member_string (b, "status", sl_compare_status_name (k->status));
  if (n > 2)
    add_each_against_first (b, k, n);
  json_builder_end_object (b);
}

JsonNode *
sl_compare_to_json (const SlCompare *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint n = self->n_profiles;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "profiles");
  json_builder_begin_array (b);
  for (guint p = 0; p < n; p++)
    sl_json_add_string (b, self->paths[p]);
  json_builder_end_array (b);
  sl_json_member_array (b, "categories", self->categories, self->n_categories, sizeof (SlCompareCategory),
                        add_category_json, &n);
  sl_json_member_array (b, "kernels", self->kernels, self->n_kernels, sizeof (SlCompareKernel),
                        add_kernel_json, &n);
  json_builder_set_member_name (b, "iteration_median_ns");
  json_builder_begin_array (b);
  for (guint p = 0; p < n; p++)
    if (self->has_iterations[p])
      json_builder_add_int_value (b, self->iteration_median_ns[p]);
    else
      json_builder_add_null_value (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
