/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-layout.h: what the flame stack draws, computed once per scope (no GTK).
 *
 * Both modes come from one walk of the NVTX tree (sl-tree.h, the tree of
 * "sightline-cli tree": a kernel under the innermost range of its launching
 * thread holding its launching call):
 *  - the stack (time-ordered): every range at its GPU projection and every
 *    kernel at its GPU time, in rows by process and depth; where boxes of
 *    one depth overlap (streams run side by side) they take extra lanes, so
 *    a row never overlaps itself and the level of detail stays exact;
 *  - the flame graph (aggregated): identical paths merged, a node's width
 *    its kernels' GPU time.
 * Building walks every kernel of the scope: run it in a worker. */
#pragma once

#include <gio/gio.h>

#include "sl-timeline-model.h"
#include "sl-tree.h"

G_BEGIN_DECLS

typedef enum {
  SL_FLAME_MODE_STACK,
  SL_FLAME_MODE_GRAPH,
} SlFlameMode;

/* Node kinds; the flame graph's node 0 is the scope itself. */
typedef enum {
  SL_FLAME_ROOT,
  SL_FLAME_RANGE,
  SL_FLAME_KERNEL,
} SlFlameKind;

/* One node of the flame graph: a path of the NVTX tree with all its instances. */
typedef struct {
  const char *name;        /* points into the profile, or static text for the root */
  guint32     parent;      /* SL_NONE for the root */
  guint32     first_child; /* children are contiguous, widest first */
  guint32     n_children;
  guint32     key;         /* the name's identity (same text, same key) within its kind */
  guint16     depth;       /* 0: the root */
  guint8      kind;        /* SlFlameKind */
  guint8      color;       /* palette index (sl-timeline-colors.h) */
  gint64      total_gpu;   /* ns: the GPU time of the kernels under it */
  gint64      self_gpu;    /* ns: of the kernels right under it (a kernel: its own) */
  gint64      cpu;         /* ns: its ranges' CPU time (0 for kernels) */
  gint64      offset;      /* ns from the root's left edge on the GPU-time axis */
  guint64     instances;
} SlFlameNode;

#define SL_FLAME_BOX_KERNEL 0x80000000u

/* A box of the stack: a range (index into its thread's nvtx) or a kernel
 * (index | SL_FLAME_BOX_KERNEL, owner a stream). */
typedef struct {
  gint64  start;
  gint64  end;
  guint32 owner;
  guint32 index;
} SlFlameBox;

/* One row of the stack: boxes sorted by start that never overlap. */
typedef struct {
  guint32     pid;
  guint16     depth;
  guint16     lane;
  guint       n;
  SlFlameBox *boxes;
  gint64      max_dur;
} SlFlameRow;

typedef struct {
  SlTimelineModel *model;       /* a reference */
  gboolean         exact_names;
  guint32          pid;         /* SL_NONE: every process */
  gboolean         has_range;
  gint64           start;       /* the scope, when has_range */
  gint64           end;
  guint            n_nodes;
  SlFlameNode     *nodes;       /* [0] is the root */
  guint            n_rows;
  SlFlameRow      *rows;        /* by pid, depth, lane */
  guint64          n_kernels;   /* kernels of the scope */
  guint64          n_ranges;
  guint32         *func_key;    /* per kernel function: SlFlameNode.key of its name */
  GHashTable      *range_key;   /* name id (+1) -> key, for highlights */
  GHashTable      *key_of_text; /* range name text -> key */
  GMutex           key_lock;    /* both grow on lookups, from a highlight's worker too */
  gint             ref_count;   /* a highlight's worker may hold it past its view */
  SlTree          *tree;        /* the NVTX tree walked, for a node's instances */
} SlFlameLayout;

/* (transfer full) the layout of the kernels starting in [@start, @end)
 * (@has_range FALSE: all) of process @pid (SL_NONE: all), names grouped as
 * the NVTX summaries do unless @exact_names.  NULL when cancelled. */
SlFlameLayout *sl_flame_layout_new      (SlTimelineModel *model,
                                         gboolean         has_range,
                                         gint64           start,
                                         gint64           end,
                                         guint32          pid,
                                         gboolean         exact_names,
                                         GCancellable    *cancellable);
/* Drops a reference (the layout comes with one); the last frees it. */
void           sl_flame_layout_free     (SlFlameLayout   *layout);
SlFlameLayout *sl_flame_layout_ref      (SlFlameLayout   *layout);

/* The event a stack box stands for. */
SlEventRef     sl_flame_box_event       (const SlFlameBox *box);
/* Display name of a stack box (never NULL). */
const char    *sl_flame_layout_box_name (const SlFlameLayout *layout,
                                         const SlFlameBox    *box);
/* Palette index of a stack box. */
guint8         sl_flame_layout_box_color (const SlFlameLayout *layout,
                                          const SlFlameBox    *box);
/* The flame graph node that stands for @event (a kernel or a push/pop
 * range of the layout), SL_NONE when none. */
guint32        sl_flame_layout_find_event (const SlFlameLayout *layout,
                                           const SlEventRef    *event);
/* Every instance of flame graph node @node (at most @max), appended to @out
 * (SlEventRef): the NVTX tree walked again along its path. */
void           sl_flame_layout_instances (const SlFlameLayout *layout,
                                          guint32              node,
                                          guint                max,
                                          GArray              *out);
/* Whether @node is @ancestor or lies under it. */
gboolean       sl_flame_layout_is_under  (const SlFlameLayout *layout,
                                          guint32              node,
                                          guint32              ancestor);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlFlameLayout, sl_flame_layout_free)

G_END_DECLS
