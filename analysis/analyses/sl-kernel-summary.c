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

static SlKernelSummary *
compute (const SlProfile *profile, const SlFilter *filter, SlNameStyle names, guint top,
         gboolean medians)
{
  SlKernelSummary *self = g_new0 (SlKernelSummary, 1);
  g_autofree guint32 *func_key = NULL;
  SlNameKeys keys;
  SlStatsTable table;
  guint n_keys;

  g_return_val_if_fail (profile != NULL, self);

  func_key = sl_kernel_func_keys (profile, names, &keys);
  n_keys = keys.ids->len;
  if (medians)
    sl_stats_table_init (&table, n_keys, TRUE);
  else
    sl_stats_table_init_sums (&table, n_keys);
  while (sl_stats_table_pass (&table))
    for (guint s = 0; s < profile->n_streams; s++)
      {
        const SlStream *stream = &profile->streams[s];
        const SlKernels *k = &stream->kernels;
        guint first, last;

        if (!sl_filter_match_stream (filter, stream) || k->spans.n == 0)
          continue;
        sl_filter_span_bounds (filter, &k->spans, 0, k->spans.n, &first, &last);
        sl_stats_table_visit_spans (&table, &k->spans, first, last, k->func, func_key,
                                    MAX (profile->n_funcs, 1), NULL);
      }

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
