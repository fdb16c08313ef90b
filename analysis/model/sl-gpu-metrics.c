/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gpu-metrics.c: the GPU counters' object: lifetime and the one search. */
#include "sl-gpu-metrics.h"
#include "sl-spans.h"

SlGpuMetrics *
sl_gpu_metrics_ref (SlGpuMetrics *metrics)
{
  g_return_val_if_fail (metrics != NULL, NULL);
  g_atomic_int_inc (&metrics->ref_count);
  return metrics;
}

void
sl_gpu_metrics_unref (SlGpuMetrics *metrics)
{
  if (metrics == NULL || !g_atomic_int_dec_and_test (&metrics->ref_count))
    return;
  for (guint i = 0; i < metrics->n_series; i++)
    {
      SlMetricSeries *s = &metrics->series[i];
      g_free (s->name);
      g_free (s->unit);
      g_free (s->time);
      g_free (s->value);
    }
  g_free (metrics->series);
  g_clear_pointer (&metrics->warnings, g_ptr_array_unref);
  g_free (metrics);
}

guint
sl_metric_series_lower_bound (const SlMetricSeries *series,
                              gint64                t)
{
  g_return_val_if_fail (series != NULL, 0);
  return sl_times_lower_bound (series->time, 0, series->n, t);
}
