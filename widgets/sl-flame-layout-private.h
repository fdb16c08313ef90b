/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-layout-private.h: the layout being built, shared by its two halves
 * (sl-flame-graph.c merges paths, sl-flame-stack.c sorts boxes into rows). */
#pragma once

#include "sl-flame-layout.h"
#include "sl-nvtx-name.h"

G_BEGIN_DECLS

typedef struct {
  SlFlameLayout *layout;
  SlNvtxNaming   naming;
  GCancellable  *cancellable;
  /* the flame graph: nodes by creation, and (parent, kind, key) -> node */
  GArray        *nodes;
  guint64       *slot_key;
  guint32       *slot_node;
  guint          n_slots;      /* a power of two */
  /* the stack: boxes per (process band, depth) */
  GHashTable    *band_of_pid;
  GPtrArray     *bands;        /* GPtrArray of GArray (SlFlameBox), one per depth */
  GArray        *band_pids;
} Build;

guint32 _sl_flame_range_key   (SlFlameLayout *layout, const SlNvtxNaming *naming, guint32 name_id);

void    _sl_flame_graph_begin (Build *b);
/* The child of @parent of @kind and name @key, made when missing. */
guint32 _sl_flame_graph_child (Build *b, guint32 parent, SlFlameKind kind, guint32 key);
void    _sl_flame_graph_end   (Build *b);
void    _sl_flame_graph_abort (Build *b);

void    _sl_flame_stack_begin (Build *b);
void    _sl_flame_stack_add   (Build *b, guint32 pid, guint depth, gint64 start, gint64 end,
                               guint32 owner, guint32 index);
void    _sl_flame_stack_end   (Build *b);
void    _sl_flame_stack_abort (Build *b);

G_END_DECLS
