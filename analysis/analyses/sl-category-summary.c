/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-category-summary.c: GPU time per kernel category. */
#include "sl-category-summary.h"
#include "sl-json.h"
#include "sl-stats.h"

void
sl_kernel_func_totals (const SlProfile *profile, const SlFilter *filter,
                       gint64 **totals_out, guint64 **counts_out)
{
  gint64 *totals = g_new0 (gint64, MAX (profile->n_funcs, 1));
  guint64 *counts = g_new0 (guint64, MAX (profile->n_funcs, 1));

  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];
      const SlKernels *k = &stream->kernels;
      guint first, last;

      if (!sl_filter_match_stream (filter, stream))
        continue;
      sl_filter_span_bounds (filter, &k->spans, 0, k->spans.n, &first, &last);
      for (guint i = first; i < last; i++)
        {
          totals[k->func[i]] += sl_spans_dur (&k->spans, i);
          counts[k->func[i]]++;
        }
    }
  *totals_out = totals;
  *counts_out = counts;
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const SlCategoryRow *x = a, *y = b;

  return sl_rank_compare (x->total_ns, x->name, y->total_ns, y->name);
}

static int
compare_kernels (gconstpointer a, gconstpointer b)
{
  const SlCategoryKernel *x = a, *y = b;

  return sl_rank_compare (x->total_ns, x->name, y->total_ns, y->name);
}

/* Sums the functions' totals per (category, name) pair into @kernels (names
 * borrowed from the profile), their categories into @kernel_cat: two
 * functions may share a name. */
static void
group_by_name (const SlProfile *profile, SlNameStyle names, const gint64 *totals, const guint64 *counts,
               const guint16 *category, GArray *kernels, GArray *kernel_cat)
{
  g_autoptr(GHashTable) per_key = g_hash_table_new (NULL, NULL);   /* (category << 32 | name) -> index */

  for (guint f = 0; f < profile->n_funcs; f++)
    {
      guint32 name_id;
      guint64 key;
      gpointer slot;

      if (counts[f] == 0)
        continue;
      name_id = sl_kernel_func_name_id (profile, f, names);
      key = ((guint64) category[f] << 32) | name_id;
      if (!g_hash_table_lookup_extended (per_key, GSIZE_TO_POINTER ((gsize) key), NULL, &slot))
        {
          SlCategoryKernel k = { (char *) sl_strings_get (profile->strings, name_id), 0, 0 };
          guint c = category[f];
          slot = GUINT_TO_POINTER (kernels->len);
          g_array_append_val (kernels, k);
          g_array_append_val (kernel_cat, c);
          g_hash_table_insert (per_key, GSIZE_TO_POINTER ((gsize) key), slot);
        }
      g_array_index (kernels, SlCategoryKernel, GPOINTER_TO_UINT (slot)).total_ns += totals[f];
      g_array_index (kernels, SlCategoryKernel, GPOINTER_TO_UINT (slot)).instances += counts[f];
    }
}

/* Fills @row from the kernel names of its category @mine (sorted), keeping
 * the @top_names largest. */
static void
fill_row (SlCategoryRow *row, guint c, const char *name, GArray *mine, guint top_names)
{
  row->category = c;
  row->name = g_strdup (name);
  row->n_names = mine->len;
  for (guint k = 0; k < mine->len; k++)
    {
      row->total_ns += g_array_index (mine, SlCategoryKernel, k).total_ns;
      row->instances += g_array_index (mine, SlCategoryKernel, k).instances;
    }
  row->n_top = MIN (mine->len, top_names);
  row->top = g_new0 (SlCategoryKernel, MAX (row->n_top, 1));
  for (guint k = 0; k < row->n_top; k++)
    {
      row->top[k] = g_array_index (mine, SlCategoryKernel, k);
      row->top[k].name = g_strdup (row->top[k].name);
    }
}

/* One row per category with kernels, by total descending. */
static void
add_rows (SlCategorySummary *self, const SlCategories *rules, GArray *kernels, GArray *kernel_cat,
          guint top_names)
{
  guint n_categories = sl_categories_get_n_categories (rules);

  self->rows = g_new0 (SlCategoryRow, MAX (n_categories, 1));
  for (guint c = 0; c < n_categories; c++)
    {
      g_autoptr(GArray) mine = g_array_new (FALSE, FALSE, sizeof (SlCategoryKernel));
      SlCategoryRow *row;

      for (guint k = 0; k < kernels->len; k++)
        if (g_array_index (kernel_cat, guint, k) == c)
          g_array_append_val (mine, g_array_index (kernels, SlCategoryKernel, k));
      if (mine->len == 0)
        continue;
      g_array_sort (mine, compare_kernels);
      row = &self->rows[self->n_rows++];
      fill_row (row, c, sl_categories_get_name (rules, c), mine, top_names);
      self->total_ns += row->total_ns;
      self->instances += row->instances;
    }
  for (guint r = 0; r < self->n_rows; r++)
    self->rows[r].pct = sl_percent (self->rows[r].total_ns, self->total_ns);
  qsort (self->rows, self->n_rows, sizeof (SlCategoryRow), compare_rows);
}

SlCategorySummary *
sl_category_summary_compute (const SlProfile *profile, const SlFilter *filter,
                             const SlCategories *rules, SlNameStyle names, guint top_names)
{
  SlCategorySummary *self = g_new0 (SlCategorySummary, 1);
  g_autofree gint64 *totals = NULL;
  g_autofree guint64 *counts = NULL;
  g_autofree guint16 *category = NULL;
  g_autoptr(GArray) kernels = g_array_new (FALSE, FALSE, sizeof (SlCategoryKernel));
  g_autoptr(GArray) kernel_cat = g_array_new (FALSE, FALSE, sizeof (guint));

  if (rules == NULL)
    rules = sl_categories_get_default ();
  sl_kernel_func_totals (profile, filter, &totals, &counts);
  category = sl_categories_classify_funcs (rules, profile);
  group_by_name (profile, names, totals, counts, category, kernels, kernel_cat);
  add_rows (self, rules, kernels, kernel_cat, top_names);
  return self;
}

void
sl_category_summary_free (SlCategorySummary *self)
{
  if (self == NULL)
    return;
  for (guint r = 0; r < self->n_rows; r++)
    {
      for (guint k = 0; k < self->rows[r].n_top; k++)
        g_free (self->rows[r].top[k].name);
      g_free (self->rows[r].top);
      g_free (self->rows[r].name);
    }
  g_free (self->rows);
  g_free (self);
}

static void
add_row_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlCategoryRow *row = item;

  json_builder_begin_object (b);
  sl_json_member_string (b, "category", row->name);
  sl_json_member_int (b, "total_ns", row->total_ns);
  sl_json_member_double (b, "pct", row->pct);
  sl_json_member_int (b, "instances", (gint64) row->instances);
  sl_json_member_named_values (b, "top", "total_ns", row->top, row->n_top, sizeof (SlCategoryKernel),
                               G_STRUCT_OFFSET (SlCategoryKernel, name),
                               G_STRUCT_OFFSET (SlCategoryKernel, total_ns));
  json_builder_end_object (b);
}

JsonNode *
sl_category_summary_to_json (const SlCategorySummary *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_int (b, "total_ns", self->total_ns);
  sl_json_member_array (b, "categories", self->rows, self->n_rows, sizeof (SlCategoryRow), add_row_json, NULL);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
