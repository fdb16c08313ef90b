/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree.h: the NVTX hierarchy with kernels as leaves ("sightline-cli tree").
 *
 * A kernel hangs under the innermost push/pop range of its launching thread
 * that contains the start of its launching API call (ranges of any domain;
 * start/end ranges are not part of the stack).  Kernels with no launching
 * call or no enclosing range sit at the top level.  Children are computed on
 * demand, so a GUI can expand a huge tree lazily. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"

G_BEGIN_DECLS

typedef enum {
  SL_TREE_RANGE,
  SL_TREE_KERNEL,
} SlTreeKind;

typedef struct {
  SlTreeKind kind;
  guint32    owner;        /* range: thread index; kernel: stream index */
  guint32    index;        /* range: index in the thread's push/pop ranges; kernel: index in the stream */
} SlTreeNode;

typedef struct {
  const char *name;        /* points into the profile (or its NVTX name groups) */
  gint64      start_ns;    /* range: CPU interval; kernel: GPU interval */
  gint64      end_ns;
  gboolean    has_gpu;
  gint64      gpu_start_ns;
  gint64      gpu_end_ns;
  guint32     pid;
  guint32     tid;         /* kernel: launching thread, 0 when unknown */
  gboolean    has_tid;
  guint32     device;      /* kernels only */
  guint32     stream;      /* CUDA stream id */
  guint32     correlation_id;
  guint       depth;       /* range depth in its thread (0 = outermost) */
} SlTreeNodeInfo;

typedef struct _SlTree SlTree;

/* Called for each node of a walk, with its info; @level is 1 for a root. */
typedef void (*SlTreeVisitFunc) (const SlTreeNode *node, const SlTreeNodeInfo *info, guint level,
                                 gpointer user_data);

/* Kernels starting (on the GPU) in the window of @filter, on its GPUs and
 * processes, each under its whole NVTX path as computed on the whole profile:
 * the ranges of the filter's threads that hold such a kernel, wherever their
 * CPU interval lies, and those overlapping the window.  Range names are
 * grouped (sl-nvtx-name.h: PyTorch's op ids and argument lists dropped), or
 * exact with @exact_names. (transfer full) */
SlTree     *sl_tree_compute_names (const SlProfile *profile, const SlFilter *filter, gboolean exact_names);
/* The same with exact names. */
SlTree     *sl_tree_compute       (const SlProfile *profile, const SlFilter *filter);
void        sl_tree_free          (SlTree *tree);
guint       sl_tree_get_n_roots   (const SlTree *tree);
SlTreeNode  sl_tree_get_root      (const SlTree *tree, guint i);
/* Children of @node sorted by start: (transfer full) GArray of SlTreeNode. */
GArray     *sl_tree_get_children  (const SlTree *tree, const SlTreeNode *node);
void        sl_tree_get_info      (const SlTree *tree, const SlTreeNode *node, SlTreeNodeInfo *info);
/* Walks the tree depth first, children by start: @enter (nullable) before a
 * node's children, @leave (nullable) after them.  @max_depth > 0 stops after
 * that many levels; nodes shorter than @min_dur_ns are left out with their
 * subtrees.  The one walk behind sl_tree_to_json() and the CLI's text tree. */
void        sl_tree_walk          (const SlTree *tree, guint max_depth, gint64 min_dur_ns,
                                   SlTreeVisitFunc enter, SlTreeVisitFunc leave, gpointer user_data);
/* The same over roots [@first_root, @first_root + @n_roots) only: walks of
 * disjoint roots may run in threads at once.  With @brief, the info handed
 * to @enter and @leave holds only the name, the times, the GPU projection and
 * a range's depth (pid, tid, device, stream and correlation id are 0), for a
 * third less time. */
void        sl_tree_walk_roots    (const SlTree *tree, guint first_root, guint n_roots,
                                   guint max_depth, gint64 min_dur_ns, gboolean brief,
                                   SlTreeVisitFunc enter, SlTreeVisitFunc leave, gpointer user_data);
/* The widest label of a full walk in terminal columns (sl-text-width.h), at most @cap: @indent per
 * level below the roots, the name, and on kernels @kernel_suffix[stream
 * index] more; found without walking.  Only for a tree of a whole profile
 * (no filter, not a scoped subset), whose full walk shows every node: FALSE
 * otherwise. */
gboolean    sl_tree_widest_label  (const SlTree *tree, guint indent, const guint *kernel_suffix,
                                   guint cap, guint *chars);
/* The whole tree as {"exact_names": bool, "roots": [node...]}; a node is {"kind": "range"|"kernel",
 * "name", "start_ns", "end_ns", "gpu_start_ns", "gpu_end_ns", "pid", "tid",
 * "children": [...]}, kernels add "device", "stream", "correlation_id".
 * @max_depth > 0 stops after that many levels; nodes shorter than
 * @min_dur_ns are left out. */
JsonNode   *sl_tree_to_json       (const SlTree *tree, guint max_depth, gint64 min_dur_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTree, sl_tree_free)

G_END_DECLS
