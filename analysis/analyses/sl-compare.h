/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare.h: several profiles side by side ("sightline-cli compare A B [C ...]"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-categories.h"
#include "sl-kernel-summary.h"

G_BEGIN_DECLS

typedef enum {
  SL_COMPARE_SAME,
  SL_COMPARE_FASTER,       /* less total time than in the first profile */
  SL_COMPARE_SLOWER,
  SL_COMPARE_ADDED,        /* absent from the first profile */
  SL_COMPARE_REMOVED,      /* absent from the last profile */
  SL_COMPARE_CALLS,        /* the same time per call, another number of calls */
} SlCompareStatus;

/* What kernel times are compared by: time per iteration (step) when every
 * profile has iterations, else the mean time per call. */
typedef enum {
  SL_COMPARE_PER_ITERATION,
  SL_COMPARE_PER_CALL,
} SlCompareBasis;

typedef enum {
  SL_COMPARE_NEUTRAL,
  SL_COMPARE_IMPROVED,
  SL_COMPARE_REGRESSED,
} SlCompareVerdict;

const char *sl_compare_basis_name   (SlCompareBasis basis);
const char *sl_compare_verdict_name (SlCompareVerdict verdict);

/* One profile's iterations (see "iterations"), durations only. */
typedef struct {
  gboolean    found;
  guint       count;       /* iterations of all processes */
  double      steps;       /* count / processes with iterations: steps per rank */
  gint64      median_ns;
  gint64      p10_ns;      /* linear interpolation between order statistics */
  gint64      p90_ns;
  const char *method;      /* "nvtx", "gaps" (static) */
} SlCompareIterations;

const char *sl_compare_status_name (SlCompareStatus status);
/* The status as people read it, translated ("slower", "call count"). */
const char *sl_compare_status_label (SlCompareStatus status);

typedef struct {
  char            *name;
  gint64          *total_ns;     /* per profile */
  guint64         *instances;
  double          *per_call_ns;  /* per profile; NAN without calls */
  double          *per_iteration_ns; /* per profile, total / steps; NULL unless per iteration */
  double           change_pct;   /* of the basis time, last against first; NAN when added / removed */
  /* the last profile against the first */
  gint64           delta_ns;
  gboolean         has_ratio;    /* FALSE when the first total is 0 */
  double           ratio;
  SlCompareStatus  status;       /* by the basis time (see SlCompareBasis) */
  /* each profile i >= 1 against the first (index i - 1) */
  gint64          *deltas_ns;
  double          *ratios;       /* NAN when the first total is 0 */
  SlCompareStatus *statuses;
} SlCompareKernel;

typedef struct {
  char   *name;
  gint64 *total_ns;              /* per profile */
} SlCompareCategory;

typedef struct {
  guint              n_profiles;
  char             **paths;
  gint64            *kernel_total_ns;      /* per profile */
  gboolean          *has_iterations;
  gint64            *iteration_median_ns;  /* per profile, when has_iterations */
  guint              n_categories;
  SlCompareCategory *categories;           /* rule order, non-empty in some profile */
  guint              n_kernels;
  SlCompareKernel   *kernels;              /* by |delta| descending, then name */
  guint              n_names;              /* before --top */
  SlCompareIterations *iterations;         /* per profile */
  SlCompareBasis     basis;
  gboolean           has_step;             /* every profile has iterations */
  double            *step_change_pct;      /* per profile, median step against the first's */
  SlCompareVerdict   verdict;              /* the last profile against the first */
  double             verdict_change_pct;   /* step time, or A's calls at each one's time per call */
  double             comparability;        /* 0..1 */
  char             **reasons;              /* why, NULL-terminated, translated */
} SlCompare;

/* @threshold: relative change counted as faster / slower (0.05 = ±5 %).
 * @rules: NULL, or one entry per profile (an entry NULL: the default
 * categories).  @top > 0 keeps the largest changes. */
SlCompare *sl_compare_compute (SlProfile *const *profiles, guint n_profiles,
                               const SlFilter *filter, const SlCategories *const *rules,
                               SlNameStyle names, double threshold, guint top);
void       sl_compare_free    (SlCompare *compare);
/* For sl_compare_compute (sl-compare-verdict.c): sets @compare's has_step,
 * step_change_pct, verdict, verdict_change_pct, comparability and reasons
 * from its iterations and all its @kernels (before --top), the last profile
 * against the first. */
void       sl_compare_judge   (SlCompare *compare, SlProfile *const *profiles,
                               const SlCompareKernel *kernels, guint n_kernels, double threshold);
/* {"profiles": [{"path", "iterations": {"count", "median_ns", "p10_ns",
 *  "p90_ns", "method"} | null}], "basis", "step": {"median_ns": [..],
 *  "change_pct": [..]} | null, "categories": [{"category", "total_ns": [..]}],
 *  "kernels": [{"name", "total_ns": [..], "instances": [..], "calls": [..],
 *  "per_call_ns": [..], "per_iteration_ns": [..] | null, "change_pct",
 *  "delta_ns", "ratio", "status"}], "iteration_median_ns": [..], "verdict",
 *  "comparability": {"score", "reasons": [str]}}; with three or more
 *  profiles kernels also carry "deltas_ns", "ratios", "statuses" (each
 *  profile after the first against the first). */
JsonNode  *sl_compare_to_json (const SlCompare *compare);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCompare, sl_compare_free)

G_END_DECLS
