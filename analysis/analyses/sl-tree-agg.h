/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree-agg.h: the NVTX tree (sl-tree.h) with identical paths merged.
 *
 * Every range instance of the tree is filed under its path of (grouped or
 * exact) names; kernels become leaves grouped by kernel name under their
 * range's path.  Each aggregated node counts its instances, sums their CPU
 * time (ranges), their GPU time (ranges: the GPU projection, first start
 * to last end of the work launched inside, as `sightline-cli tree` prints
 * it; kernels: their durations) and the kernels of its subtree, and keeps
 * the list of its instances so that a view can point each one out.
 * Plain C, no GTK: the side panel's NVTX page shows it. */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-tree.h"

G_BEGIN_DECLS

typedef struct {
  SlTreeKind  kind;         /* a range path, or a kernel name under one */
  const char *name;         /* owned by the aggregate */
  guint32     parent;       /* node index, SL_NONE for a root */
  guint32     depth;        /* 0 for a root */
  guint32     first_child;  /* children are nodes[first_child .. + n_children) */
  guint32     n_children;
  guint64     instances;
  gint64      cpu_ns;       /* ranges: summed CPU durations; kernels: 0 */
  gint64      gpu_ns;       /* ranges: summed GPU projections; kernels: summed durations */
  guint64     kernels;      /* kernel instances in the subtree (a kernel node: its instances) */
  gint64      kernel_ns;    /* their summed durations */
} SlTreeAggNode;

typedef struct _SlTreeAgg SlTreeAgg;

/* Aggregates sl_tree_compute_names (@profile, @filter, @exact_names).
 * Returns NULL when @cancellable (nullable) is cancelled.  The instances of
 * a kernel node are sorted by start. (transfer full) */
SlTreeAgg           *sl_tree_agg_compute        (const SlProfile *profile, const SlFilter *filter,
                                                 gboolean exact_names, GCancellable *cancellable);
SlTreeAgg           *sl_tree_agg_ref            (SlTreeAgg *self);
void                 sl_tree_agg_unref          (SlTreeAgg *self);

gboolean             sl_tree_agg_get_exact_names (const SlTreeAgg *self);
guint                sl_tree_agg_get_n_nodes    (const SlTreeAgg *self);
/* Roots are nodes 0 .. n_roots - 1. */
guint                sl_tree_agg_get_n_roots    (const SlTreeAgg *self);
const SlTreeAggNode *sl_tree_agg_get_node       (const SlTreeAgg *self, guint i);
/* Kernels in the whole tree and their summed durations: what a node's
 * share of the GPU time is taken of. */
guint64              sl_tree_agg_get_kernels    (const SlTreeAgg *self);
gint64               sl_tree_agg_get_kernel_ns  (const SlTreeAgg *self);
/* The instances of node @i, each packed owner << 32 | index: a range is
 * (thread index, index in the thread's push/pop ranges), a kernel (stream
 * index, index in the stream).  (transfer none), *n_out of them. */
const guint64       *sl_tree_agg_get_instances  (const SlTreeAgg *self, guint i, guint64 *n_out);

/* {"exact_names": bool, "kernels", "kernel_ns", "roots": [node...]}; a node
 * is {"kind": "range"|"kernel", "name", "instances", "cpu_ns", "gpu_ns",
 * "kernels", "kernel_ns", "children": [...]}. */
JsonNode            *sl_tree_agg_to_json        (const SlTreeAgg *self);
/* The node one of whose instances is push/pop range @index of thread
 * @owner (@kind SL_TREE_RANGE) or kernel @index of stream @owner
 * (SL_TREE_KERNEL) of @profile, the profile the aggregate was computed on:
 * its path of names from the root, then the instance checked; SL_NONE when
 * the aggregate (its scope) does not hold it. */
guint                sl_tree_agg_find           (const SlTreeAgg *self, const SlProfile *profile,
                                                 SlTreeKind kind, guint32 owner, guint32 index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTreeAgg, sl_tree_agg_unref)

G_END_DECLS
