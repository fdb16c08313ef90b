/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare-json.c: the "compare --json" document (contract in sl-compare.h). */
#include "sl-compare.h"
#include "sl-json.h"

#include <math.h>

/* A double, or null when it is not a number. */
static void
add_double (JsonBuilder *b, double value)
{
  if (isnan (value) || isinf (value))
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, value);
}

static void
member_doubles (JsonBuilder *b, const char *member, const double *values, guint n)
{
  json_builder_set_member_name (b, member);
  if (values == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    add_double (b, values[i]);
  json_builder_end_array (b);
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
  member_doubles (b, "ratios", k->ratios, n - 1);
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
  sl_json_member_int_array (b, "calls", (const gint64 *) k->instances, n);
  member_doubles (b, "per_call_ns", k->per_call_ns, n);
  member_doubles (b, "per_iteration_ns", k->per_iteration_ns, n);
  json_builder_set_member_name (b, "change_pct");
  add_double (b, k->change_pct);
  sl_json_member_int (b, "delta_ns", k->delta_ns);
  json_builder_set_member_name (b, "ratio");
  add_double (b, k->has_ratio ? k->ratio : NAN);
  sl_json_member_string (b, "status", sl_compare_status_name (k->status));
  if (n > 2)
    add_each_against_first (b, k, n);
  json_builder_end_object (b);
}

static void
add_profiles_json (JsonBuilder *b, const SlCompare *self)
{
  json_builder_set_member_name (b, "profiles");
  json_builder_begin_array (b);
  for (guint p = 0; p < self->n_profiles; p++)
    {
      const SlCompareIterations *its = &self->iterations[p];
      json_builder_begin_object (b);
      sl_json_member_string (b, "path", self->paths[p]);
      json_builder_set_member_name (b, "iterations");
      if (!its->found)
        json_builder_add_null_value (b);
      else
        {
          json_builder_begin_object (b);
          sl_json_member_int (b, "count", its->count);
          sl_json_member_int (b, "median_ns", its->median_ns);
          sl_json_member_int (b, "p10_ns", its->p10_ns);
          sl_json_member_int (b, "p90_ns", its->p90_ns);
          sl_json_member_string (b, "method", its->method);
          json_builder_end_object (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* "step", "iteration_median_ns", "verdict", "comparability" */
static void
add_judgement_json (JsonBuilder *b, const SlCompare *self)
{
  guint n = self->n_profiles;

  json_builder_set_member_name (b, "step");
  if (!self->has_step)
    json_builder_add_null_value (b);
  else
    {
      json_builder_begin_object (b);
      sl_json_member_int_array (b, "median_ns", self->iteration_median_ns, n);
      member_doubles (b, "change_pct", self->step_change_pct, n);
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "iteration_median_ns");
  json_builder_begin_array (b);
  for (guint p = 0; p < n; p++)
    if (self->has_iterations[p])
      json_builder_add_int_value (b, self->iteration_median_ns[p]);
    else
      json_builder_add_null_value (b);
  json_builder_end_array (b);
  sl_json_member_string (b, "verdict", sl_compare_verdict_name (self->verdict));
  json_builder_set_member_name (b, "comparability");
  json_builder_begin_object (b);
  sl_json_member_double (b, "score", self->comparability);
  json_builder_set_member_name (b, "reasons");
  json_builder_begin_array (b);
  for (guint i = 0; self->reasons != NULL && self->reasons[i] != NULL; i++)
    json_builder_add_string_value (b, self->reasons[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

JsonNode *
sl_compare_to_json (const SlCompare *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint n = self->n_profiles;

  json_builder_begin_object (b);
  add_profiles_json (b, self);
  sl_json_member_string (b, "basis", sl_compare_basis_name (self->basis));
  sl_json_member_array (b, "categories", self->categories, self->n_categories, sizeof (SlCompareCategory),
                        add_category_json, &n);
  sl_json_member_array (b, "kernels", self->kernels, self->n_kernels, sizeof (SlCompareKernel),
                        add_kernel_json, &n);
  add_judgement_json (b, self);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
