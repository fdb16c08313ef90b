/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-api-summary.h: CPU time per CUDA API function ("sightline-cli api"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-stats.h"

G_BEGIN_DECLS

/* name: as stored, e.g. "cudaLaunchKernel_v7000"; stats: of call durations */
typedef SlNameRow SlApiRow;

typedef struct {
  gint64    total_ns;
  guint64   calls;
  guint     n_rows;
  SlApiRow *rows;          /* by total descending, then name */
  guint     n_names;
} SlApiSummary;

/* CUDA runtime and driver calls of the threads in @filter (processes; with
 * GPUs, the processes active on them), started inside its window. */
SlApiSummary *sl_api_summary_compute (const SlProfile *profile, const SlFilter *filter, guint top);
/* The same without medians (stats.median 0): one pass over the calls
 * instead of about three, for pages that show counts and totals. */
SlApiSummary *sl_api_summary_compute_sums (const SlProfile *profile, const SlFilter *filter, guint top);
void          sl_api_summary_free    (SlApiSummary *summary);
/* {"total_ns", "calls": [{"name", "instances", "total_ns", "avg_ns", "med_ns",
 *  "min_ns", "max_ns", "stddev_ns", "time_pct"}]} */
JsonNode     *sl_api_summary_to_json (const SlApiSummary *summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlApiSummary, sl_api_summary_free)

G_END_DECLS
