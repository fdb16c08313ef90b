/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-scope-summary.h: everything the side panel's Summary page says about a
 * time range (the whole profile or a selection), in one bundle.
 *
 * Each part is the analysis the matching `sightline-cli` command runs, on the
 * same filter, so the page and `sightline-cli kernels|gaps|api|nvtx|overlap|
 * iterations --range A B` agree to the nanosecond: utilization and copy time
 * per GPU are `gaps`' (kernels busy), top kernels `kernels`', and so on. */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "sl-api-summary.h"
#include "sl-category-summary.h"
#include "sl-filter.h"
#include "sl-gaps.h"
#include "sl-iterations.h"
#include "sl-kernel-summary.h"
#include "sl-nvtx-summary.h"
#include "sl-overlap.h"
#include "sl-profile.h"

G_BEGIN_DECLS

/* One of the largest idle gaps of the scope, whichever GPU it is on. */
typedef struct {
  guint32      device;
  const SlGap *gap;          /* (transfer none): in the summary's gaps */
} SlScopeGap;

typedef struct _SlScopeSummary SlScopeSummary;

struct _SlScopeSummary {
  gboolean           has_range;   /* FALSE: the whole profile */
  gint64             start_ns;    /* the scope: the filter's window, else the profile's */
  gint64             end_ns;
  SlGaps            *gaps;        /* per GPU: utilization, copy time, longest gaps */
  SlKernelSummary   *kernels;     /* top kernels by total time (short names) */
  SlCategorySummary *categories;  /* default rules */
  SlApiSummary      *api;         /* top CUDA API calls */
  SlNvtxSummary     *nvtx;        /* top NVTX range names (grouped) */
  SlOverlap         *overlap;     /* NCCL / compute overlap per GPU */
  SlIterations      *iterations;  /* durations only (sl_iterations_compute_durations) */
  guint              n_top_gaps;
  SlScopeGap        *top_gaps;    /* every GPU's, longest first */
  gint               ref_count;
  /*< private >*/
  SlScopeSummary    *base;        /* owns the iterations when set */
  struct _SlScopeIndex *index;    /* while computing: the kernels and api tables' (nullable) */
};

/* How many rows of each list the summary keeps. */
#define SL_SCOPE_SUMMARY_TOP 10

/* The summary of @filter (nullable: everything) over @profile.  Checks
 * @cancellable (nullable) between parts and returns NULL with
 * G_IO_ERROR_CANCELLED when it is cancelled.  Uses what
 * sl_scope_summary_prepare () builds (building it if need be): all the
 * parts of any scope, the whole profile's (an empty filter) included, are
 * summed from the index, but the iterations: a range detects its own, the
 * whole profile's are kept with the profile.  Immutable, reference
 * counted. (transfer full) */
SlScopeSummary *sl_scope_summary_compute (const SlProfile *profile,
                                          const SlFilter  *filter,
                                          GCancellable    *cancellable,
                                          GError         **error);
/* The same numbers by the separate analyses alone (no index, nothing kept):
 * the route the index is checked against. (transfer full) */
SlScopeSummary *sl_scope_summary_compute_separate (const SlProfile *profile,
                                                   const SlFilter  *filter);
/* Builds what the Summary of any scope of @profile is made from, once per
 * profile: the scope index (sl-scope-index.h) and the whole profile's
 * iterations (not in the index).  For the app's loading worker; else done
 * by the first sl_scope_summary_compute (). */
void            sl_scope_summary_prepare         (const SlProfile *profile);
SlScopeSummary *sl_scope_summary_ref     (SlScopeSummary *summary);
void            sl_scope_summary_unref   (SlScopeSummary *summary);
/* {"start_ns", "end_ns", "whole", "gpus": [{"device", "span_ns", "kernel_busy_ns",
 *  "copy_busy_ns", "utilization_pct"}], "kernels": {"total_ns", "instances",
 *  "top": [{"name", "instances", "total_ns", "time_pct"}]}, "categories":
 *  [{"name", "total_ns", "pct", "instances"}], "api": {"total_ns", "calls",
 *  "top": [...]}, "nvtx": [{"name", "instances", "total_ns"}], "overlap":
 *  [{"device", "compute_ns", "nccl_ns", "overlap_ns", "overlap_pct"}],
 *  "iterations": {"method", "items": [{"pid",
 *  "index", "start_ns", "end_ns", "dur_ns"}]}, "gaps": [{"device",
 *  "start_ns", "end_ns", "dur_ns"}]} */
JsonNode       *sl_scope_summary_to_json (const SlScopeSummary *summary);

/* Where iteration @i of @iterations is on the timeline, the span its
 * dur_ns measures: the NVTX range (CPU), or the GPU span of a kernels or
 * gaps step. */
void            sl_scope_iteration_span  (const SlIterations *iterations,
                                          guint               i,
                                          gint64             *start_ns,
                                          gint64             *end_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlScopeSummary, sl_scope_summary_unref)

G_END_DECLS
