/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-category-summary.h: GPU time per kernel category ("sightline-cli categories"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-categories.h"
#include "sl-kernel-summary.h"

G_BEGIN_DECLS

typedef struct {
  char       *name;
  gint64      total_ns;      /* by the summary's time basis (sum or elapsed) */
  guint64     instances;
  gint64      duration_ns;   /* sum of durations, whatever the basis */
  const char *category;      /* in SlCategorySummary.kernels: its row's name */
} SlCategoryKernel;

/* How a category's time is counted. */
typedef enum {
  SL_CATEGORY_TIME_DEFAULT,   /* elapsed with gputrc2graph rules, else sum */
  SL_CATEGORY_TIME_SUM,       /* sum of the records' durations */
  SL_CATEGORY_TIME_ELAPSED,   /* gputrc2graph's non-overlapped time: all GPUs' and
                               * streams' records by start (ties: end, then name),
                               * each counting only its part past the latest end so far */
} SlCategoryTime;

typedef struct {
  SlNameStyle    names;         /* ignored with gputrc2graph rules: demangled */
  guint          top_names;
  SlCategoryTime time;
  gint64         wall_time_ns;  /* < 0: none; else CPU(non-GPU) = wall - GPU time */
} SlCategoryOptions;

typedef struct {
  guint             category;      /* index in the rule set */
  char             *name;
  gint64            total_ns;
  guint64           instances;
  double            pct;           /* of all kernel time in the filter */
  guint             n_names;       /* distinct kernel names in it */
  guint             n_top;
  SlCategoryKernel *top;           /* its largest kernel names */
} SlCategoryRow;

typedef struct {
  gint64         total_ns;
  guint64        instances;
  guint          n_rows;
  SlCategoryRow *rows;             /* non-empty categories, by total descending */
  SlCategoryTime time;             /* SUM or ELAPSED, as used */
  gboolean       gputrc2graph;     /* gputrc2graph rules: copies classified too */
  guint             n_kernels;
  SlCategoryKernel *kernels;       /* every name, by row then total descending */
  gint64         wall_time_ns;     /* -1 when not given */
  gint64         cpu_non_gpu_ns;   /* max (0, wall - total_ns); -1 without a wall time */
} SlCategorySummary;

/* Kernel time per category of @rules (NULL: the default rules).  Each kernel
 * function is classified by its short name, then its demangled name (see
 * sl_categories_classify_func()); kernels are listed under @names style.
 * @top_names: how many kernel names to list per category. */
SlCategorySummary *sl_category_summary_compute (const SlProfile    *profile,
                                                const SlFilter     *filter,
                                                const SlCategories *rules,
                                                SlNameStyle         names,
                                                guint               top_names);
/* The same with every option.  With gputrc2graph rules (see
 * sl_categories_is_gputrc2graph()) kernels go by their demangled name and
 * memcpy/memset records are classified too, named as `nsys stats` names
 * them ("[CUDA memcpy HtoD]", "[CUDA memset]"); with ours, kernels only. */
SlCategorySummary *sl_category_summary_compute_full (const SlProfile          *profile,
                                                     const SlFilter           *filter,
                                                     const SlCategories       *rules,
                                                     const SlCategoryOptions  *options);
void               sl_category_summary_free    (SlCategorySummary *summary);
/* The summed-time summary (our rules, not gputrc2graph's) of kernel names
 * already totalled: @kernels[i] (name borrowed, total_ns = duration_ns,
 * instances; those without instances skipped) in category @categories[i]
 * of @rules.  What sl_category_summary_compute () makes of the same totals:
 * the scope index's route (sl-scope-index.h). */
SlCategorySummary *sl_category_summary_from_kernels (const SlCategories     *rules,
                                                     const SlCategoryKernel *kernels,
                                                     const guint            *categories,
                                                     guint                   n,
                                                     guint                   top_names);
/* {"total_ns", "categories": [{"category", "total_ns", "pct", "instances",
 *  "top": [{"name", "total_ns"}]}], "time": "sum"|"elapsed", "rules":
 *  "sightline"|"gputrc2graph", "kernels": [{"name", "category", "instances",
 *  "total_ns", "duration_ns"}], "wall_time_ns", "cpu_non_gpu_ns"} */
JsonNode          *sl_category_summary_to_json (const SlCategorySummary *summary);

/* Kernel time and count per function (indexes into profile->funcs) inside
 * @filter: two new arrays of profile->n_funcs entries.  The cheap core of the
 * per-name analyses when no median is wanted. */
void               sl_kernel_func_totals       (const SlProfile *profile, const SlFilter *filter,
                                                gint64 **totals, guint64 **counts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCategorySummary, sl_category_summary_free)

G_END_DECLS
