/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gpu-metrics.h: the GPU counters sampled by `nsys --gpu-metrics-devices`
 * (GPU_METRICS + TARGET_INFO_GPU_METRICS): SM active, SM issue, tensor
 * active, DRAM bandwidth, PCIe / NVLink throughput — whatever the file has.
 *
 * Read from the export on demand with sl_gpu_metrics_load()
 * (analysis/loader/sl-cpu-loader.h).  Immutable once built. */
#pragma once

#include <gio/gio.h>

#include "sl-profile.h"

G_BEGIN_DECLS

/* One counter of one GPU over time. */
typedef struct {
  guint32  device;         /* the GPU's deviceId as in the activity tables */
  guint32  gpu;            /* index into SlProfile.gpus, SL_NONE when the profile does not know it */
  guint32  metric_id;      /* metricId in the file */
  char    *name;           /* metricName without its bracketed unit ("SM Active") */
  char    *unit;           /* what the brackets said ("Throughput %"), "" when none */
  gboolean percent;        /* a 0..100 percentage (the unit says %) */
  guint    n;
  gint64  *time;           /* sorted ascending */
  float   *value;
  float    max;            /* largest value, for scaling counters that are not percentages */
} SlMetricSeries;

typedef struct _SlGpuMetrics SlGpuMetrics;

struct _SlGpuMetrics {
  guint           n_series;   /* sorted by (device, metric_id) */
  SlMetricSeries *series;
  guint64         n_samples;  /* over all series */
  GPtrArray      *warnings;   /* char*, human-readable */
  /*< private >*/
  gint            ref_count;
};

SlGpuMetrics *sl_gpu_metrics_ref    (SlGpuMetrics  *metrics);
void          sl_gpu_metrics_unref  (SlGpuMetrics  *metrics);
/* Index of the first sample of @series at or after @t (n when none). */
guint         sl_metric_series_lower_bound (const SlMetricSeries *series,
                                            gint64                t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlGpuMetrics, sl_gpu_metrics_unref)

G_END_DECLS
