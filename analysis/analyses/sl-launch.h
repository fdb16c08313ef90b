/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-launch.h: kernel launch overhead per kernel name ("sightline-cli launch"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-kernel-summary.h"

G_BEGIN_DECLS

typedef struct {
  char    *name;           /* NULL for the totals row */
  guint64  launches;       /* kernels whose launching API call is known */
  gint64   api_total_ns;   /* summed duration of the launching calls */
  double   api_mean_ns;
  double   queue_mean_ns;  /* kernel start - API call start */
  gint64   queue_p95_ns;   /* nearest-rank 95th percentile */
  double   kernel_mean_ns;
  gboolean launch_bound;   /* kernels shorter on average than their launch call */
} SlLaunchRow;

typedef struct {
  SlLaunchRow  totals;
  guint64      unlinked;   /* kernels in the filter without a launching call */
  guint        n_launch_bound;   /* names flagged launch-bound (before --top) */
  guint        n_rows;
  SlLaunchRow *rows;       /* by launch API time descending, then name */
  guint        n_names;
} SlLaunch;

SlLaunch *sl_launch_compute (const SlProfile *profile, const SlFilter *filter,
                             SlNameStyle names, guint top);
void      sl_launch_free    (SlLaunch *launch);
/* {"totals": {"launches", "api_mean_ns", "queue_mean_ns", "queue_p95_ns",
 *  "kernel_mean_ns", "launch_bound_names", "unlinked_kernels"},
 *  "kernels": [{"name", "launches", "api_mean_ns", "queue_mean_ns",
 *  "queue_p95_ns", "kernel_mean_ns", "launch_bound"}]} */
JsonNode *sl_launch_to_json (const SlLaunch *launch);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlLaunch, sl_launch_free)

G_END_DECLS
