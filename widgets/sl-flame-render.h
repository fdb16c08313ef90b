/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-render.h: drawing a frame of the flame stack with cairo (no GTK),
 * the same for the widget and the benchmark. */
#pragma once

#include <cairo.h>

#include "sl-flame-view.h"
#include "sl-timeline-colors.h"

G_BEGIN_DECLS

typedef struct _SlFlameRenderer SlFlameRenderer;

typedef struct {
  guint n_prims;          /* primitives drawn */
  guint n_labels;
} SlFlameRenderStats;

SlFlameRenderer *sl_flame_renderer_new  (void);
void             sl_flame_renderer_free (SlFlameRenderer *renderer);

/* Builds the primitives of @viewport into @prims (kept for hit tests) and
 * draws them on @cr over @width x @height pixels at @scale device pixels per
 * pixel; @root_label names the whole scope; @hovered/@selected (nullable)
 * are outlined.  @stats (nullable) gets the counts. */
void             sl_flame_renderer_draw (SlFlameRenderer       *renderer,
                                         cairo_t               *cr,
                                         const SlFlameLayout   *layout,
                                         const SlFlameViewport *viewport,
                                         const SlTimelineStyle *style,
                                         double                 height,
                                         const char            *root_label,
                                         GArray                *prims,
                                         const SlFlamePrim     *hovered,
                                         SlFlameRenderStats    *stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlFlameRenderer, sl_flame_renderer_free)

G_END_DECLS
