/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-launch.h: kernel launch overhead per kernel name ("sightline-cli launch"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-kernel-summary.h"

G_BEGIN_DECLS

/* A launch is one launching API call.  A cudaGraphLaunch runs several
 * kernels under one call: the totals count it once (its queue delay is its
 * first kernel's, its kernel time all of theirs), and a kernel name's row
 * counts each of its kernels with an equal share of the call's duration. */
typedef struct {
  char    *name;           /* NULL for the totals row */
  guint64  launches;       /* totals: launching calls; per name: its kernels with a known call */
  gint64   api_total_ns;   /* summed duration of the launching calls (shares per name) */
  double   api_mean_ns;
  double   queue_mean_ns;  /* kernel start - API call start */
  gint64   queue_p95_ns;   /* nearest-rank 95th percentile */
  double   kernel_mean_ns; /* totals: GPU time per launch */
  gboolean launch_bound;   /* kernels shorter on average than their launch call */
} SlLaunchRow;

typedef struct {
  SlLaunchRow  totals;
  guint64      unlinked;   /* kernels in the filter without a launching call */
  guint64      kernels;    /* kernels in the filter with a launching call */
  guint64      graph_launches;   /* launching calls that ran several kernels (CUDA graphs) */
  guint        n_launch_bound;   /* names flagged launch-bound (before --top) */
  guint        n_rows;
  SlLaunchRow *rows;       /* by launch API time descending, then name */
  guint        n_names;
} SlLaunch;

SlLaunch *sl_launch_compute (const SlProfile *profile, const SlFilter *filter,
                             SlNameStyle names, guint top);
void      sl_launch_free    (SlLaunch *launch);
/* {"totals": {"launches", "api_mean_ns", "queue_mean_ns", "queue_p95_ns",
 *  "kernel_mean_ns", "launch_bound_names", "unlinked_kernels", "kernels",
 *  "graph_launches"},
 *  "kernels": [{"name", "launches", "api_mean_ns", "queue_mean_ns",
 *  "queue_p95_ns", "kernel_mean_ns", "launch_bound"}]} */
JsonNode *sl_launch_to_json (const SlLaunch *launch);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlLaunch, sl_launch_free)

G_END_DECLS
