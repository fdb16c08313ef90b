/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-metrics.h: GPU counter rows as area charts (no GTK). */
#pragma once

#include "sl-gpu-metrics.h"

G_BEGIN_DECLS

/* Per pixel column of a view from @t0 at @px_ns per column: the smallest,
 * largest and mean value sampled in the column.  A column without a
 * sample shows the value in effect (the previous sample's: a counter holds
 * until the next); columns before the first or after the last sample are
 * NAN.  Returns how many samples were read. */
guint  sl_timeline_metric_columns  (const SlMetricSeries *series,
                                    double                t0,
                                    double                px_ns,
                                    int                   width,
                                    float                *min,
                                    float                *max,
                                    float                *mean);
/* The top of the chart's y axis: 100 for a percentage, else the largest value. */
float  sl_timeline_metric_scale    (const SlMetricSeries *series);
/* The sample in effect at @t (the last at or before it), SL_NONE before
 * the first or more than @tol after the last. */
guint32 sl_timeline_metric_at      (const SlMetricSeries *series,
                                    double                t,
                                    double                tol);

G_END_DECLS
