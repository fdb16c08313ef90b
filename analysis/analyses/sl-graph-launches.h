/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-graph-launches.h: API calls that launched more than one kernel.
 *
 * A cudaGraphLaunch runs every kernel of the graph under its one
 * correlationId, so several kernels link to the same call.  Launch
 * overhead counts such a call once, and shares its duration among its
 * kernels.  Built once per profile over all its kernels. */
#pragma once

#include "sl-profile.h"

G_BEGIN_DECLS

typedef struct {
  guint32 *is_graph;       /* bitmap over profile->api: launched several kernels */
  guint    n_api;
  guint64  n_calls;        /* calls with the bit set */
  GHashTable *kernels;     /* api index -> number of kernels it launched (>= 2) */
  GHashTable *first;       /* api index -> gint64* start of its earliest kernel */
} SlGraphLaunches;

/* (transfer none): lives with @profile. */
const SlGraphLaunches *sl_graph_launches_get (const SlProfile *profile);

static inline gboolean
sl_graph_launches_contains (const SlGraphLaunches *g, guint32 api)
{
  return api < g->n_api && (g->is_graph[api >> 5] >> (api & 31)) & 1;
}

/* Number of kernels API call @api launched (1 for a call not in the set). */
guint  sl_graph_launches_kernels (const SlGraphLaunches *g, guint32 api);
/* Start of the earliest kernel API call @api launched (a call in the set). */
gint64 sl_graph_launches_first   (const SlGraphLaunches *g, guint32 api);

G_END_DECLS
