/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-private.h: the flame stack widget's state, shared by its files
 * (sl-flame.c: session, layout, drawing; sl-flame-header.c: the header bar
 * and breadcrumb; sl-flame-input.c: pointer, scrolling, tooltips). */
#pragma once

#include "sl-flame.h"
#include "sl-flame-render.h"

G_BEGIN_DECLS

/* The stack's row labels without a timeline to line up with: the width of
 * the timeline's default row headers (sl-timeline-layout.c). */
#define SL_FLAME_GUTTER 220.0

struct _SlFlame {
  GtkWidget        parent_instance;

  SlSession       *session;
  SlTimeline      *axis;         /* (weak) the stack's time axis lies under its rows' */
  SlFlameMode      mode;
  guint32          pid;          /* SL_NONE: every process */

  SlFlameLayout   *layout;       /* NULL while computing */
  GCancellable    *cancellable;  /* of the layout being computed */
  guint            rebuild_id;
  gboolean         stale;        /* the layout waits until the widget is shown */   /* a pending rebuild (scope changes come in bursts) */
  guint8          *matched;      /* graph: per node, holds a highlighted event */
  struct _SlFlameMatch *matching; /* a worker finding them (a big highlight), NULL: none */

  SlFlameRenderer *renderer;
  GArray          *prims;        /* SlFlamePrim of the last frame */
  const SlFlameLayout *prims_layout; /* the layout and mode that frame drew */
  SlFlameMode      prims_mode;
  SlFlameRenderStats stats;
  guint            first_row;
  guint32          zoom;         /* graph: the node shown as the whole width */
  GArray          *stack_crumbs; /* stack: SlTimeRange shown before each zoom */
  GPtrArray       *stack_names;  /* stack: the name of each zoom */
  gboolean         has_hover;
  SlFlamePrim      hover;
  char            *selected;     /* name of the node clicked last, for the probe */
  GArray          *selected_events; /* SlEventRef: what "Show in timeline" selects */

  /* drag to pan (stack) */
  SlTimeRange      drag_range;
  gboolean         dragging;

  char            *probe_state;

  GtkWidget       *header;
  GtkWidget       *stack_button;
  GtkWidget       *graph_button;
  GtkWidget       *process_dropdown;
  GtkStringList   *process_names;
  GtkWidget       *crumbs;
  GtkWidget       *show_button;
  GtkWidget       *status;
  GtkWidget       *canvas;

  /* the context menu (sl-flame-menu.c) */
  GtkWidget       *menu;
  GActionMap      *menu_actions;
  SlFlamePrim      menu_target;
  gboolean         has_menu_target;
  const SlFlameLayout *menu_layout; /* the layout menu_target indexes */
  SlFlameMode      menu_mode;       /* and in which mode (nodes or rows) */
};

/* sl-flame.c */
void  _sl_flame_queue_rebuild     (SlFlame *self);
void  _sl_flame_changed           (SlFlame *self);   /* redraw, breadcrumb and probe */
void  _sl_flame_viewport          (SlFlame *self, SlFlameViewport *vp);
/* The time axis on the canvas: from x = gutter, width px wide (graph mode:
 * the whole canvas). */
void  _sl_flame_axis              (SlFlame *self, double *gutter, double *width);
void  _sl_flame_update_probe      (SlFlame *self);

/* sl-flame-header.c */
void  _sl_flame_header_init       (SlFlame *self);
void  _sl_flame_header_set_model  (SlFlame *self);
void  _sl_flame_header_sync       (SlFlame *self);
/* The breadcrumb's entries, from the whole scope down (transfer full). */
GPtrArray *_sl_flame_crumb_names  (SlFlame *self);

/* sl-flame-input.c */
void  _sl_flame_input_init        (SlFlame *self);
void  _sl_flame_activate          (SlFlame *self, const SlFlamePrim *prim);
void  _sl_flame_show_in_timeline  (SlFlame *self);
/* What "Show in timeline" selects becomes @prim's instances; no zoom. */
void  _sl_flame_pick              (SlFlame *self, const SlFlamePrim *prim);
/* The primitive under a point of the canvas (nullable). */
const SlFlamePrim *_sl_flame_hit  (SlFlame *self, double x, double y);
/* @prim's node name, NULL for a "N more" block (transfer full). */
char *_sl_flame_prim_name         (SlFlame *self, const SlFlamePrim *prim);

/* sl-flame-menu.c */
void  _sl_flame_menu_init         (SlFlame *self);
void  _sl_flame_menu_dispose      (SlFlame *self);
gboolean _sl_flame_menu_open      (SlFlame *self);
gboolean _sl_flame_menu_target_valid (SlFlame *self);

G_END_DECLS
