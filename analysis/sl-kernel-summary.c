/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-kernel-summary.c: GPU time per kernel name. */
#include "sl-kernel-summary.h"

#include <string.h>

guint32
sl_kernel_func_name_id (const SlProfile *profile, guint32 func, SlNameStyle style)
{
  const SlKernelFunc *f;
  guint32 preferred, fallback;

  if (func >= profile->n_funcs)
    return SL_NONE;
  f = &profile->funcs[func];
  preferred = style == SL_NAMES_DEMANGLED ? f->demangled_name : f->short_name;
  fallback = style == SL_NAMES_DEMANGLED ? f->short_name : f->demangled_name;
  return preferred != SL_NONE ? preferred : fallback;
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const SlKernelRow *x = a, *y = b;

  if (x->stats.total != y->stats.total)
    return x->stats.total > y->stats.total ? -1 : 1;
  return strcmp (x->name, y->name);
}

SlKernelSummary *
sl_kernel_summary_compute (const SlProfile *profile, const SlFilter *filter,
                           SlNameStyle names, guint top)
{
  SlKernelSummary *self = g_new0 (SlKernelSummary, 1);
  g_autofree guint32 *func_key = NULL;
  g_autofree SlStats *stats = NULL;
  SlNameKeys keys;
  SlStatsTable table;
  guint n_keys;

  g_return_val_if_fail (profile != NULL, self);

  /* Functions to dense name keys (two functions may share a short name). */
  sl_name_keys_init (&keys, sl_strings_count (profile->strings));
  func_key = g_new (guint32, MAX (profile->n_funcs, 1));
  for (guint f = 0; f < profile->n_funcs; f++)
    func_key[f] = sl_name_keys_get (&keys, sl_kernel_func_name_id (profile, f, names));
  n_keys = keys.ids->len;

  sl_stats_table_init (&table, n_keys, TRUE);
  while (sl_stats_table_pass (&table))
    for (guint s = 0; s < profile->n_streams; s++)
      {
        const SlStream *stream = &profile->streams[s];
        const SlKernels *k = &stream->kernels;
        guint first, last;

        if (!sl_filter_match_stream (filter, stream) || k->spans.n == 0)
          continue;
        sl_filter_span_bounds (filter, &k->spans, 0, k->spans.n, &first, &last);
        for (guint i = first; i < last; i++)
          sl_stats_table_visit (&table, func_key[k->func[i]], sl_spans_dur (&k->spans, i));
      }

  stats = g_new0 (SlStats, MAX (n_keys, 1));
  sl_stats_table_finish (&table, stats);
  self->rows = g_new0 (SlKernelRow, MAX (n_keys, 1));
  for (guint k = 0; k < n_keys; k++)
    {
      if (stats[k].count == 0)
        continue;
      self->total_ns += stats[k].total;
      self->instances += stats[k].count;
      SlKernelRow *row = &self->rows[self->n_rows++];
      row->name_id = g_array_index (keys.ids, guint32, k);
      row->name = g_strdup (sl_strings_get (profile->strings, row->name_id));
      row->stats = stats[k];
    }
  for (guint r = 0; r < self->n_rows; r++)
    self->rows[r].time_pct = sl_percent (self->rows[r].stats.total, self->total_ns);
  qsort (self->rows, self->n_rows, sizeof (SlKernelRow), compare_rows);
  self->n_names = self->n_rows;
  if (top > 0 && self->n_rows > top)
    {
      for (guint r = top; r < self->n_rows; r++)
        g_free (self->rows[r].name);
      self->n_rows = top;
    }

  sl_stats_table_clear (&table);
  sl_name_keys_clear (&keys);
  return self;
}

void
sl_kernel_summary_free (SlKernelSummary *self)
{
  if (self == NULL)
    return;
  for (guint r = 0; r < self->n_rows; r++)
    g_free (self->rows[r].name);
  g_free (self->rows);
  g_free (self);
}

JsonNode *
sl_kernel_summary_to_json (const SlKernelSummary *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "total_ns");
  json_builder_add_int_value (b, self->total_ns);
  json_builder_set_member_name (b, "kernels");
  json_builder_begin_array (b);
  for (guint r = 0; r < self->n_rows; r++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      sl_json_add_string (b, self->rows[r].name);
      sl_stats_add_json_members (b, &self->rows[r].stats, self->total_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
