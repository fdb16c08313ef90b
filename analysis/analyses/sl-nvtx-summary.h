/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-nvtx-summary.h: CPU time and GPU projection per NVTX range name
 * ("sightline-cli nvtx"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-stats.h"

G_BEGIN_DECLS

typedef struct {
  char    *name;           /* the group name (sl-nvtx-name.h) unless exact names */
  guint32  name_id;        /* id in the naming's string table */
  SlStats  stats;          /* of CPU durations */
  double   time_pct;       /* share of all range time in the filter (nested ranges count twice) */
  gint64   gpu_total_ns;   /* sum over instances of their GPU projection (last end - first start) */
  guint64  gpu_instances;  /* instances that launched GPU work */
} SlNvtxRow;

typedef struct {
  gint64     total_ns;
  guint64    instances;
  guint      n_rows;
  SlNvtxRow *rows;         /* by total descending, then name */
  guint      n_names;
  gboolean   exact_names;
} SlNvtxSummary;

/* Push/pop and start/end ranges of the threads in @filter started inside its
 * window.  With GPUs in @filter, the projections count GPU work on those GPUs.
 * Rows are per group of names (sl-nvtx-name.h: PyTorch's op ids and argument
 * lists dropped), or per distinct name with @exact_names. */
SlNvtxSummary *sl_nvtx_summary_compute_names (const SlProfile *profile, const SlFilter *filter, guint top,
                                              gboolean exact_names);
/* The same without medians (stats.median 0), in about half the time: the
 * statistics pass only, for pages that show counts and totals. */
SlNvtxSummary *sl_nvtx_summary_compute_sums  (const SlProfile *profile, const SlFilter *filter, guint top,
                                              gboolean exact_names);
/* The same with exact names. */
SlNvtxSummary *sl_nvtx_summary_compute (const SlProfile *profile, const SlFilter *filter, guint top);
void           sl_nvtx_summary_free    (SlNvtxSummary *summary);
/* {"exact_names": bool, "ranges": [{"name", "instances", "total_ns", "avg_ns", "med_ns", "min_ns",
 *  "max_ns", "stddev_ns", "time_pct", "gpu_total_ns"}]} */
JsonNode      *sl_nvtx_summary_to_json (const SlNvtxSummary *summary);

/* Internal (the scope index shares it): ranks @keys by their @stats and
 * fills @self's rows, the first @top (0: all), with their GPU totals. */
void _sl_nvtx_summary_fill_rows (SlNvtxSummary *self, const SlStrings *strings,
                                 const SlNameKeys *keys, const SlStats *stats,
                                 const gint64 *gpu_total, const guint64 *gpu_n, guint top);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlNvtxSummary, sl_nvtx_summary_free)

G_END_DECLS
