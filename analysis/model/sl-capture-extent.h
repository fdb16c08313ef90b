/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-capture-extent.h: the time range of everything a capture holds. */
#pragma once

#include "sl-cpu-activity.h"
#include "sl-gpu-metrics.h"

G_BEGIN_DECLS

/* The earliest start and latest end over @profile's events, @cpu's samples
 * and OS runtime calls and @metrics' samples (either may be NULL): what the
 * timeline spans and `info` reports.  A capture of CPU samples only has
 * nothing but those.  [0, 0] when there is nothing at all. */
void sl_capture_extent (const SlProfile     *profile,
                        const SlCpuActivity *cpu,
                        const SlGpuMetrics  *metrics,
                        gint64              *start,
                        gint64              *end);

G_END_DECLS
