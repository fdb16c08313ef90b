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
} SlCompareStatus;

const char *sl_compare_status_name (SlCompareStatus status);

typedef struct {
  char            *name;
  gint64          *total_ns;     /* per profile */
  guint64         *instances;
  /* the last profile against the first */
  gint64           delta_ns;
  gboolean         has_ratio;    /* FALSE when the first total is 0 */
  double           ratio;
  SlCompareStatus  status;
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
} SlCompare;

/* @threshold: relative change counted as faster / slower (0.05 = ±5 %).
 * @rules NULL: the default categories.  @top > 0 keeps the largest changes. */
SlCompare *sl_compare_compute (SlProfile *const *profiles, guint n_profiles,
                               const SlFilter *filter, const SlCategories *rules,
                               SlNameStyle names, double threshold, guint top);
void       sl_compare_free    (SlCompare *compare);
/* {"profiles": [str], "categories": [{"category", "total_ns": [..]}],
 *  "kernels": [{"name", "total_ns": [..], "instances": [..], "delta_ns",
 *  "ratio", "status"}], "iteration_median_ns": [..]}; with three or more
 *  profiles kernels also carry "deltas_ns", "ratios", "statuses" (each
 *  profile after the first against the first). */
JsonNode  *sl_compare_to_json (const SlCompare *compare);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCompare, sl_compare_free)

G_END_DECLS
