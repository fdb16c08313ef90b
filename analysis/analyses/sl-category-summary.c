/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-category-summary.c: GPU time per kernel category. */
#include "sl-category-summary.h"

#include <string.h>
#include "sl-int.h"
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
          totals[k->func[i]] = sl_sat_add (totals[k->func[i]], sl_spans_dur (&k->spans, i));
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

/* One (category, name) pair: gputrc2graph's row of its sum file. */
typedef struct {
  const char *name;         /* borrowed: profile strings or static text */
  guint       category;
  gint64      time_ns;
  gint64      duration_ns;
  guint64     instances;
} Entry;

typedef struct {
  gint64  start;
  gint64  end;
  guint32 entry;
} Record;

typedef struct {
  const SlProfile    *profile;
  const SlCategories *rules;
  SlNameStyle         names;
  gboolean            elapsed;
  GArray             *entries;      /* Entry */
  GHashTable         *by_key;       /* (category << 32 | name id) -> entry + 1 */
  guint32            *func_entry;   /* per function, SL_NONE until seen */
  guint64            *func_count;   /* per function, summed time: see add_kernels_summed() */
  gint64             *func_sum;
  guint32            *seen;         /* functions in the order they appear */
  guint32             copy_entry[2][16];
  GArray             *records;      /* Record, for elapsed time */
} Collect;

/* A copy's name as `nsys stats -r cuda_gpu_trace` prints it (the
 * MemcpyOperStrs of its reports; memsets are all "[CUDA memset]"). */
static const char *
copy_name (SlCopyType type, guint kind)
{
  static const char *const memcpy_names[] = {
    "[CUDA memcpy Unknown]", "[CUDA memcpy HtoD]", "[CUDA memcpy DtoH]", "[CUDA memcpy HtoA]",
    "[CUDA memcpy AtoH]", "[CUDA memcpy AtoA]", "[CUDA memcpy AtoD]", "[CUDA memcpy DtoA]",
    "[CUDA memcpy DtoD]", "[CUDA memcpy HtoH]", "[CUDA memcpy PtoP]",
    "[CUDA Unified Memory memcpy HtoD]", "[CUDA Unified Memory memcpy DtoH]",
    "[CUDA Unified Memory memcpy DtoD]",
  };

  if (type == SL_COPY_MEMSET)
    return "[CUDA memset]";
  return kind < G_N_ELEMENTS (memcpy_names) ? memcpy_names[kind] : memcpy_names[0];
}

static guint32
entry_lookup (Collect *c, guint category, guint64 name_key, const char *name)
{
  guint64 key = ((guint64) category << 32) | name_key;
  gpointer slot = g_hash_table_lookup (c->by_key, GSIZE_TO_POINTER ((gsize) key));
  Entry e = { name, category, 0, 0, 0 };

  if (slot != NULL)
    return GPOINTER_TO_UINT (slot) - 1;
  g_array_append_val (c->entries, e);
  g_hash_table_insert (c->by_key, GSIZE_TO_POINTER ((gsize) key), GUINT_TO_POINTER (c->entries->len));
  return c->entries->len - 1;
}

static guint32
func_entry (Collect *c, guint32 func)
{
  if (c->func_entry[func] == SL_NONE)
    {
      guint32 name_id = sl_kernel_func_name_id (c->profile, func, c->names);
      guint category = sl_categories_classify_func (c->rules, c->profile, func);
      c->func_entry[func] = entry_lookup (c, category, name_id,
                                          sl_strings_get (c->profile->strings, name_id));
    }
  return c->func_entry[func];
}

static guint32
copy_entry (Collect *c, SlCopyType type, guint kind)
{
  guint k = MIN (kind, 15u);

  if (c->copy_entry[type][k] == SL_NONE)
    {
      const char *name = copy_name (type, kind);
      /* names of copies have no string id: keys above any id */
      guint64 name_key = G_MAXUINT32 - (guint64) (type * 16 + k) - 1;
      c->copy_entry[type][k] = entry_lookup (c, sl_categories_classify (c->rules, name), name_key, name);
    }
  return c->copy_entry[type][k];
}

static void
add_record (Collect *c, guint32 entry, gint64 start, gint64 dur)
{
  Entry *e = &g_array_index (c->entries, Entry, entry);

  e->duration_ns = sl_sat_add (e->duration_ns, dur);
  e->instances++;
  if (c->elapsed)
    {
      Record r = { start, start + dur, entry };
      g_array_append_val (c->records, r);
    }
  else
    e->time_ns = sl_sat_add (e->time_ns, dur);
}

static void
add_copies (Collect *c, const SlFilter *filter, const SlCopies *copies, SlCopyType type)
{
  guint first, last;

  sl_filter_span_bounds (filter, &copies->spans, 0, copies->spans.n, &first, &last);
  for (guint i = first; i < last; i++)
    add_record (c, copy_entry (c, type, copies->kind[i]), copies->spans.start[i],
                sl_spans_dur (&copies->spans, i));
}

/* Summed time (not elapsed): the kernels of [first, last) added per
 * function first, in dense arrays, then once per function to its entry,
 * entries made in the order functions first appear (as one at a time
 * would).  Durations are never negative, so the saturating sums do not
 * depend on the grouping. */
static void
add_kernels_summed (Collect *c, const SlKernels *k, guint first, guint last)
{
  guint n_funcs = c->profile->n_funcs, n_seen = 0;

  for (guint i = first; i < last; i++)
    {
      guint32 f = k->func[i];
      gint64 dur = sl_spans_dur (&k->spans, i);

      if (G_UNLIKELY (f >= n_funcs))
        {
          add_record (c, func_entry (c, f), k->spans.start[i], dur);
          continue;
        }
      if (G_UNLIKELY (c->func_count[f]++ == 0))
        c->seen[n_seen++] = f;
      c->func_sum[f] = sl_sat_add (c->func_sum[f], dur);
    }
  for (guint j = 0; j < n_seen; j++)
    {
      guint32 f = c->seen[j];
      guint32 entry = func_entry (c, f);   /* may grow the array: before taking the pointer */
      Entry *e = &g_array_index (c->entries, Entry, entry);

      e->duration_ns = sl_sat_add (e->duration_ns, c->func_sum[f]);
      e->time_ns = sl_sat_add (e->time_ns, c->func_sum[f]);
      e->instances += c->func_count[f];
      c->func_count[f] = 0;
      c->func_sum[f] = 0;
    }
}

static void
collect_records (Collect *c, const SlFilter *filter)
{
  for (guint s = 0; s < c->profile->n_streams; s++)
    {
      const SlStream *stream = &c->profile->streams[s];
      const SlKernels *k = &stream->kernels;
      guint first, last;

      if (!sl_filter_match_stream (filter, stream))
        continue;
      sl_filter_span_bounds (filter, &k->spans, 0, k->spans.n, &first, &last);
      if (!c->elapsed)
        add_kernels_summed (c, k, first, last);
      else
        for (guint i = first; i < last; i++)
          add_record (c, func_entry (c, k->func[i]), k->spans.start[i], sl_spans_dur (&k->spans, i));
      if (sl_categories_is_gputrc2graph (c->rules))
        {
          add_copies (c, filter, &stream->memcpy, SL_COPY_MEMCPY);
          add_copies (c, filter, &stream->memset, SL_COPY_MEMSET);
        }
    }
}

static int
compare_records (gconstpointer a, gconstpointer b, gpointer data)
{
  const Record *x = a, *y = b;
  GArray *entries = data;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return strcmp (g_array_index (entries, Entry, x->entry).name, g_array_index (entries, Entry, y->entry).name);
}

/* gputrc2graph's sum_non_overlapping_intervals: by start, each record counts
 * what lies past the latest end seen so far.  Its pandas sort leaves equal
 * starts in no defined order; ours breaks ties by end, then name. */
static void
add_elapsed (Collect *c)
{
  gint64 latest_end = G_MININT64;

  g_array_sort_with_data (c->records, compare_records, c->entries);
  for (guint i = 0; i < c->records->len; i++)
    {
      const Record *r = &g_array_index (c->records, Record, i);
      Entry *e = &g_array_index (c->entries, Entry, r->entry);
      gint64 elapsed = r->end - r->start;

      if (r->start <= latest_end)
        elapsed = MAX (r->end - latest_end, 0);
      latest_end = MAX (latest_end, r->end);
      e->time_ns = sl_sat_add (e->time_ns, elapsed);
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
      row->total_ns = sl_sat_add (row->total_ns, g_array_index (mine, SlCategoryKernel, k).total_ns);
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

/* The kernels of category @c among @all, largest first. */
static GArray *
kernels_of (GArray *all, GArray *all_cat, guint c)
{
  GArray *mine = g_array_new (FALSE, FALSE, sizeof (SlCategoryKernel));

  for (guint k = 0; k < all->len; k++)
    if (g_array_index (all_cat, guint, k) == c)
      g_array_append_val (mine, g_array_index (all, SlCategoryKernel, k));
  g_array_sort (mine, compare_kernels);
  return mine;
}

/* Every kernel name of every row, after the rows are in order. */
static void
list_kernels (SlCategorySummary *self, GArray *all, GArray *all_cat)
{
  self->kernels = g_new0 (SlCategoryKernel, MAX (all->len, 1));
  for (guint r = 0; r < self->n_rows; r++)
    {
      g_autoptr(GArray) mine = kernels_of (all, all_cat, self->rows[r].category);
      for (guint k = 0; k < mine->len; k++)
        {
          SlCategoryKernel *out = &self->kernels[self->n_kernels++];
          *out = g_array_index (mine, SlCategoryKernel, k);
          out->name = g_strdup (out->name);
          out->category = self->rows[r].name;
        }
    }
}

/* One row per category with kernels, by total descending. */
static void
add_rows (SlCategorySummary *self, const SlCategories *rules, GArray *all, GArray *all_cat,
          guint top_names)
{
  guint n_categories = sl_categories_get_n_categories (rules);

  self->rows = g_new0 (SlCategoryRow, MAX (n_categories, 1));
  for (guint c = 0; c < n_categories; c++)
    {
      g_autoptr(GArray) mine = kernels_of (all, all_cat, c);
      SlCategoryRow *row;

      if (mine->len == 0)
        continue;
      row = &self->rows[self->n_rows++];
      fill_row (row, c, sl_categories_get_name (rules, c), mine, top_names);
      self->total_ns = sl_sat_add (self->total_ns, row->total_ns);
      self->instances += row->instances;
    }
  for (guint r = 0; r < self->n_rows; r++)
    self->rows[r].pct = sl_percent (self->rows[r].total_ns, self->total_ns);
  qsort (self->rows, self->n_rows, sizeof (SlCategoryRow), compare_rows);
  list_kernels (self, all, all_cat);
}

/* Entries as kernels (names borrowed) and their categories. */
static void
entries_to_kernels (GArray *entries, GArray *all, GArray *all_cat)
{
  for (guint i = 0; i < entries->len; i++)
    {
      const Entry *e = &g_array_index (entries, Entry, i);
      SlCategoryKernel k = { (char *) e->name, e->time_ns, e->instances, e->duration_ns, NULL };

      if (e->instances == 0)
        continue;
      g_array_append_val (all, k);
      g_array_append_val (all_cat, e->category);
    }
}

static void
collect_entries (Collect *c, const SlFilter *filter)
{
  c->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  c->by_key = g_hash_table_new (NULL, NULL);
  c->func_entry = g_new (guint32, MAX (c->profile->n_funcs, 1));
  memset (c->func_entry, 0xff, sizeof (guint32) * MAX (c->profile->n_funcs, 1));
  memset (c->copy_entry, 0xff, sizeof c->copy_entry);
  c->records = g_array_new (FALSE, FALSE, sizeof (Record));
  c->func_count = g_new0 (guint64, MAX (c->profile->n_funcs, 1));
  c->func_sum = g_new0 (gint64, MAX (c->profile->n_funcs, 1));
  c->seen = g_new (guint32, MAX (c->profile->n_funcs, 1));
  collect_records (c, filter);
  g_free (c->func_count);
  g_free (c->func_sum);
  g_free (c->seen);
  if (c->elapsed)
    add_elapsed (c);
  g_array_unref (c->records);
  g_hash_table_unref (c->by_key);
  g_free (c->func_entry);
}

SlCategorySummary *
sl_category_summary_compute_full (const SlProfile *profile, const SlFilter *filter,
                                  const SlCategories *rules, const SlCategoryOptions *options)
{
  SlCategorySummary *self = g_new0 (SlCategorySummary, 1);
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (SlCategoryKernel));
  g_autoptr(GArray) all_cat = g_array_new (FALSE, FALSE, sizeof (guint));
  Collect c = { profile, rules != NULL ? rules : sl_categories_get_default (), options->names };

  self->gputrc2graph = sl_categories_is_gputrc2graph (c.rules);
  self->time = options->time;
  if (self->time == SL_CATEGORY_TIME_DEFAULT)
    self->time = self->gputrc2graph ? SL_CATEGORY_TIME_ELAPSED : SL_CATEGORY_TIME_SUM;
  c.elapsed = self->time == SL_CATEGORY_TIME_ELAPSED;
  if (self->gputrc2graph)
    c.names = SL_NAMES_DEMANGLED;
  collect_entries (&c, filter);
  entries_to_kernels (c.entries, all, all_cat);
  add_rows (self, c.rules, all, all_cat, options->top_names);
  g_array_unref (c.entries);
  self->wall_time_ns = options->wall_time_ns >= 0 ? options->wall_time_ns : -1;
  self->cpu_non_gpu_ns = self->wall_time_ns >= 0 ? MAX (self->wall_time_ns - self->total_ns, 0) : -1;
  return self;
}

SlCategorySummary *
sl_category_summary_compute (const SlProfile *profile, const SlFilter *filter,
                             const SlCategories *rules, SlNameStyle names, guint top_names)
{
  SlCategoryOptions options = { names, top_names, SL_CATEGORY_TIME_DEFAULT, -1 };

  return sl_category_summary_compute_full (profile, filter, rules, &options);
}

SlCategorySummary *
sl_category_summary_from_kernels (const SlCategories *rules, const SlCategoryKernel *kernels,
                                  const guint *categories, guint n, guint top_names)
{
  SlCategorySummary *self = g_new0 (SlCategorySummary, 1);
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (SlCategoryKernel));
  g_autoptr(GArray) all_cat = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (!sl_categories_is_gputrc2graph (rules), self);
  self->time = SL_CATEGORY_TIME_SUM;
  for (guint i = 0; i < n; i++)
    if (kernels[i].instances > 0)
      {
        g_array_append_val (all, kernels[i]);
        g_array_append_val (all_cat, categories[i]);
      }
  add_rows (self, rules, all, all_cat, top_names);
  self->wall_time_ns = -1;
  self->cpu_non_gpu_ns = -1;
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
  for (guint k = 0; k < self->n_kernels; k++)
    g_free (self->kernels[k].name);
  g_free (self->kernels);
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

static void
add_kernel_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlCategoryKernel *k = item;

  json_builder_begin_object (b);
  sl_json_member_string (b, "name", k->name);
  sl_json_member_string (b, "category", k->category);
  sl_json_member_int (b, "instances", (gint64) k->instances);
  sl_json_member_int (b, "total_ns", k->total_ns);
  sl_json_member_int (b, "duration_ns", k->duration_ns);
  json_builder_end_object (b);
}

JsonNode *
sl_category_summary_to_json (const SlCategorySummary *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_int (b, "total_ns", self->total_ns);
  sl_json_member_array (b, "categories", self->rows, self->n_rows, sizeof (SlCategoryRow), add_row_json, NULL);
  sl_json_member_string (b, "time", self->time == SL_CATEGORY_TIME_ELAPSED ? "elapsed" : "sum");
  sl_json_member_string (b, "rules", self->gputrc2graph ? "gputrc2graph" : "sightline");
  sl_json_member_array (b, "kernels", self->kernels, self->n_kernels, sizeof (SlCategoryKernel),
                        add_kernel_json, NULL);
  sl_json_member_int_or_null (b, "wall_time_ns", self->wall_time_ns >= 0, self->wall_time_ns);
  sl_json_member_int_or_null (b, "cpu_non_gpu_ns", self->cpu_non_gpu_ns >= 0, self->cpu_non_gpu_ns);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
