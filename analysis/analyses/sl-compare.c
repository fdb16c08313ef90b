/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare.c: several profiles side by side. */
#include "sl-compare.h"
#include "sl-category-summary.h"
#include "sl-iterations.h"
#include "sl-stats.h"

#include <math.h>
#include <string.h>

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
  gint64 dx = ABS (x->delta_ns), dy = ABS (y->delta_ns);

  if (dx != dy)
    return dx > dy ? -1 : 1;
  return strcmp (x->name, y->name);
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

SlCompare *
sl_compare_compute (SlProfile *const *profiles, guint n, const SlFilter *filter,
                    const SlCategories *rules, SlNameStyle names, double threshold, guint top)
{
  SlCompare *self = g_new0 (SlCompare, 1);
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);   /* name -> index + 1 */
  g_autoptr(GArray) kernels = g_array_new (FALSE, TRUE, sizeof (SlCompareKernel));
  guint n_cat;

  g_return_val_if_fail (n >= 1, self);
  if (rules == NULL)
    rules = sl_categories_get_default ();
  n_cat = sl_categories_get_n_categories (rules);

  self->n_profiles = n;
  self->paths = g_new0 (char *, n + 1);
  self->kernel_total_ns = g_new0 (gint64, n);
  self->has_iterations = g_new0 (gboolean, n);
  self->iteration_median_ns = g_new0 (gint64, n);
  self->categories = g_new0 (SlCompareCategory, MAX (n_cat, 1));
  for (guint c = 0; c < n_cat; c++)
    {
      self->categories[c].name = g_strdup (sl_categories_get_name (rules, c));
      self->categories[c].total_ns = g_new0 (gint64, n);
    }

  for (guint p = 0; p < n; p++)
    {
      const SlProfile *profile = profiles[p];
      g_autofree gint64 *totals = NULL;
      g_autofree guint64 *counts = NULL;
      g_autofree guint16 *category = sl_categories_classify_funcs (rules, profile);
      g_autoptr(SlIterations) its = NULL;

      self->paths[p] = g_strdup (profile->path);
      sl_kernel_func_totals (profile, filter, &totals, &counts);
      for (guint f = 0; f < profile->n_funcs; f++)
        {
          const char *name;
          guint index;
          SlCompareKernel *k;

          if (counts[f] == 0)
            continue;
          self->kernel_total_ns[p] += totals[f];
          self->categories[category[f]].total_ns[p] += totals[f];
          name = sl_strings_get (profile->strings, sl_kernel_func_name_id (profile, f, names));
          index = GPOINTER_TO_UINT (g_hash_table_lookup (by_name, name));
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
          k = &g_array_index (kernels, SlCompareKernel, index - 1);
          k->total_ns[p] += totals[f];
          k->instances[p] += counts[f];
        }

      its = sl_iterations_compute_durations (profile, filter);
      if (its != NULL && its->n_iterations > 0)
        {
          self->has_iterations[p] = TRUE;
          self->iteration_median_ns[p] = sl_round_ns (its->summary.median);
        }
    }

  for (guint i = 0; i < kernels->len; i++)
    {
      SlCompareKernel *k = &g_array_index (kernels, SlCompareKernel, i);

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

  g_array_sort (kernels, compare_kernels);
  self->n_names = kernels->len;
  if (top > 0 && kernels->len > top)
    {
      for (guint i = top; i < kernels->len; i++)
        kernel_free_fields (&g_array_index (kernels, SlCompareKernel, i));
      g_array_set_size (kernels, top);
    }
  self->n_kernels = kernels->len;
  self->kernels = (SlCompareKernel *) g_array_free (g_steal_pointer (&kernels), FALSE);

  /* keep the categories used by some profile, in rule order */
  for (guint c = 0; c < n_cat; c++)
    {
      gboolean used = FALSE;
      for (guint p = 0; p < n; p++)
        used |= self->categories[c].total_ns[p] > 0;
      if (used)
        self->categories[self->n_categories++] = self->categories[c];
      else
        {
          g_free (self->categories[c].name);
          g_free (self->categories[c].total_ns);
        }
    }
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
add_int_array (JsonBuilder *b, const char *member, const gint64 *values, guint n)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    json_builder_add_int_value (b, values[i]);
  json_builder_end_array (b);
}

static void
add_ratio (JsonBuilder *b, double ratio)
{
  if (isnan (ratio) || isinf (ratio))
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, ratio);
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

  json_builder_set_member_name (b, "categories");
  json_builder_begin_array (b);
  for (guint c = 0; c < self->n_categories; c++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "category");
      sl_json_add_string (b, self->categories[c].name);
      add_int_array (b, "total_ns", self->categories[c].total_ns, n);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "kernels");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->n_kernels; i++)
    {
      const SlCompareKernel *k = &self->kernels[i];
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      sl_json_add_string (b, k->name);
      add_int_array (b, "total_ns", k->total_ns, n);
      add_int_array (b, "instances", (const gint64 *) k->instances, n);
      json_builder_set_member_name (b, "delta_ns");
      json_builder_add_int_value (b, k->delta_ns);
      json_builder_set_member_name (b, "ratio");
      add_ratio (b, k->has_ratio ? k->ratio : NAN);
      json_builder_set_member_name (b, "status");
      json_builder_add_string_value (b, sl_compare_status_name (k->status));
      if (n > 2)
        {
          add_int_array (b, "deltas_ns", k->deltas_ns, n - 1);
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
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

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
