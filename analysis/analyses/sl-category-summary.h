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
  char   *name;
  gint64  total_ns;
  guint64 instances;
} SlCategoryKernel;

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
void               sl_category_summary_free    (SlCategorySummary *summary);
/* {"total_ns", "categories": [{"category", "total_ns", "pct", "instances",
 *  "top": [{"name", "total_ns"}]}]} */
JsonNode          *sl_category_summary_to_json (const SlCategorySummary *summary);

/* Kernel time and count per function (indexes into profile->funcs) inside
 * @filter: two new arrays of profile->n_funcs entries.  The cheap core of the
 * per-name analyses when no median is wanted. */
void               sl_kernel_func_totals       (const SlProfile *profile, const SlFilter *filter,
                                                gint64 **totals, guint64 **counts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCategorySummary, sl_category_summary_free)

G_END_DECLS
