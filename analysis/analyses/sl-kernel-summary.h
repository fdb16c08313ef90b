/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-kernel-summary.h: GPU time per kernel name ("sightline-cli kernels"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-stats.h"

G_BEGIN_DECLS

typedef enum {
  SL_NAMES_SHORT,          /* shortName: "vectorized_elementwise_kernel" */
  SL_NAMES_DEMANGLED,      /* demangledName, with templates and arguments */
} SlNameStyle;

/* The string id naming kernel function @func in @style (falls back on the
 * other name when the preferred one is absent). */
guint32 sl_kernel_func_name_id (const SlProfile *profile, guint32 func, SlNameStyle style);

/* Dense name keys for kernel functions: returns (transfer full) the key
 * of each function in @keys (initialised here; two functions may share a
 * name). */
guint32 *sl_kernel_func_keys (const SlProfile *profile, SlNameStyle names, SlNameKeys *keys);

/* stats: of kernel durations (end - start); time_pct: share of total_ns */
typedef SlNameRow SlKernelRow;

typedef struct {
  gint64       total_ns;   /* all kernel time in the filter */
  guint64      instances;
  guint        n_rows;
  SlKernelRow *rows;       /* by total descending, then name */
  guint        n_names;    /* distinct names before --top */
} SlKernelSummary;

/* Statistics per kernel name of the kernels in @filter (may be NULL).
 * @top > 0 keeps the @top largest rows (totals still cover everything). */
SlKernelSummary *sl_kernel_summary_compute (const SlProfile *profile,
                                            const SlFilter  *filter,
                                            SlNameStyle      names,
                                            guint            top);
/* The same without medians (stats.median 0): one pass over the kernels
 * instead of about three, for pages that show counts and totals. */
SlKernelSummary *sl_kernel_summary_compute_sums (const SlProfile *profile,
                                                 const SlFilter  *filter,
                                                 SlNameStyle      names,
                                                 guint            top);
void             sl_kernel_summary_free    (SlKernelSummary *summary);
/* {"total_ns", "kernels": [{"name", "instances", "total_ns", "avg_ns",
 *  "med_ns", "min_ns", "max_ns", "stddev_ns", "time_pct"}]} */
JsonNode        *sl_kernel_summary_to_json (const SlKernelSummary *summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlKernelSummary, sl_kernel_summary_free)

G_END_DECLS
