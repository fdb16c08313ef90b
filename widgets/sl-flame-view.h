/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-view.h: what one frame of the flame stack shows (no GTK).
 *
 * The level of detail: a frame's primitives are the boxes at least a pixel
 * wide and, for runs of narrower ones, one hatched "N more" block each, so
 * the work per frame is bounded by the pixels shown, not by the events.
 * The same primitives are drawn (sl-flame-render.c) and hit (sl-flame-hit.c). */
#pragma once

#include "sl-flame-layout.h"
#include "sl-highlight.h"

G_BEGIN_DECLS

#define SL_FLAME_ROW_HEIGHT 18.0

typedef enum {
  SL_FLAME_PRIM_BOX,
  SL_FLAME_PRIM_MORE,     /* @count nodes, each narrower than a pixel */
} SlFlamePrimKind;

typedef struct {
  float   x0, x1;         /* pixels */
  guint   row;            /* row on screen, 0 at the top */
  guint8  kind;           /* SlFlamePrimKind */
  guint8  color;          /* palette index */
  guint8  dim;            /* not in the session's highlight */
  guint8  selected;       /* the session's selected event (stack) or its node (graph) */
  guint32 count;          /* MORE: nodes merged */
  guint32 node;           /* graph: node id; stack: the layout's row */
  guint32 box;            /* stack: box index in the row (MORE: the first) */
} SlFlamePrim;

typedef struct {
  SlFlameMode        mode;
  double             width;       /* pixels of the drawing, after the gutter */
  double             gutter;      /* pixels at the left for row labels (the timeline's header) */
  guint              first_row;   /* rows scrolled away at the top */
  guint              n_rows;      /* rows that fit */
  gint64             t0, t1;      /* stack: the visible time window */
  guint32            zoom;        /* graph: the node shown as the whole width */
  const SlHighlight *highlight;   /* nullable: dims what is not in it */
  const guint8      *matched;     /* graph, nullable: per node, holds a highlighted event */
  gboolean           has_selected;
  SlEventRef         selected;    /* stack: the session's selected event, outlined */
  guint32            selected_node; /* graph: the node holding it, SL_NONE: none */
} SlFlameViewport;

/* Primitives of one frame into @prims (SlFlamePrim, cleared first). */
void     sl_flame_view_build      (const SlFlameLayout   *layout,
                                   const SlFlameViewport *viewport,
                                   GArray                *prims);
/* Rows the frame would scroll through (stack: the layout's; graph: depths under the zoom). */
guint    sl_flame_view_n_rows     (const SlFlameLayout   *layout,
                                   const SlFlameViewport *viewport);
/* The primitive at (@x, @y) in pixels, or NULL. */
const SlFlamePrim *sl_flame_view_hit (GArray          *prims,
                                      double           x,
                                      double           y);
/* Per flame graph node, whether a highlighted event lies under it. (transfer full) */
guint8  *sl_flame_view_match      (const SlFlameLayout   *layout,
                                   const SlHighlight     *highlight);

G_END_DECLS
