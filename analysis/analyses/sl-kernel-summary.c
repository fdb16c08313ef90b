/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-kernel-summary.c: GPU time per kernel name. */
#include "sl-kernel-summary.h"
#include "sl-stats-split.h"

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

guint32 *
sl_kernel_func_keys (const SlProfile *profile, SlNameStyle names, SlNameKeys *keys)
{
  guint32 *func_key = g_new (guint32, MAX (profile->n_funcs, 1));

  /* two functions may share a short name */
  sl_name_keys_init (keys, sl_strings_count (profile->strings));
  for (guint f = 0; f < profile->n_funcs; f++)
    func_key[f] = sl_name_keys_get (keys, sl_kernel_func_name_id (profile, f, names));
  return func_key;
}

/* The kernels of the streams in the filter: per stream, its range. */
typedef struct {
  const SlProfile *profile;
  const guint32   *func_key;
  guint           *first, *last;
  guint64          total;
} Visit;

static void
visit_part (SlStatsTable *table, guint part, guint n_parts, gpointer data)
{
  const Visit *v = data;
  const SlProfile *profile = v->profile;
  guint64 before = 0;

  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlKernels *k = &profile->streams[s].kernels;
      guint first = v->first[s], last = v->last[s];

      if (sl_stats_part_clip (before, v->total, part, n_parts, &first, &last))
        sl_stats_table_visit_spans (table, &k->spans, first, last, k->func, v->func_key,
                                    MAX (profile->n_funcs, 1), NULL);
      before += v->last[s] - v->first[s];
    }
}

static void
visit_init (Visit *v, const SlProfile *profile, const SlFilter *filter, const guint32 *func_key)
{
  *v = (Visit) { profile, func_key, g_new0 (guint, MAX (profile->n_streams, 1)),
                 g_new0 (guint, MAX (profile->n_streams, 1)), 0 };
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];

      if (!sl_filter_match_stream (filter, stream) || stream->kernels.spans.n == 0)
        continue;
      sl_filter_span_bounds (filter, &stream->kernels.spans, 0, stream->kernels.spans.n,
                             &v->first[s], &v->last[s]);
      v->total += v->last[s] - v->first[s];
    }
}

static SlKernelSummary *
compute (const SlProfile *profile, const SlFilter *filter, SlNameStyle names, guint top,
         gboolean medians)
{
  SlKernelSummary *self = g_new0 (SlKernelSummary, 1);
  g_autofree guint32 *func_key = NULL;
  SlNameKeys keys;
  SlStatsTable table;
  Visit visit;

  g_return_val_if_fail (profile != NULL, self);

  func_key = sl_kernel_func_keys (profile, names, &keys);
  if (medians)
    sl_stats_table_init (&table, keys.ids->len, TRUE);
  else
    sl_stats_table_init_sums (&table, keys.ids->len);
  visit_init (&visit, profile, filter, func_key);
  while (sl_stats_table_pass (&table))
    sl_stats_table_visit_split (&table, visit.total, visit_part, &visit);
  g_free (visit.first);
  g_free (visit.last);

  self->rows = sl_name_rows_finish (&table, &keys, profile->strings, top, &self->n_rows,
                                    &self->n_names, &self->total_ns, &self->instances);
  return self;
}

SlKernelSummary *
sl_kernel_summary_compute (const SlProfile *profile, const SlFilter *filter,
                           SlNameStyle names, guint top)
{
  return compute (profile, filter, names, top, TRUE);
}

SlKernelSummary *
sl_kernel_summary_compute_sums (const SlProfile *profile, const SlFilter *filter,
                                SlNameStyle names, guint top)
{
  return compute (profile, filter, names, top, FALSE);
}

void
sl_kernel_summary_free (SlKernelSummary *self)
{
  if (self == NULL)
    return;
  sl_name_rows_free (self->rows, self->n_rows);
  g_free (self);
}

JsonNode *
sl_kernel_summary_to_json (const SlKernelSummary *self)
{
  return sl_name_rows_to_json ("kernels", self->rows, self->n_rows, self->total_ns);
}
