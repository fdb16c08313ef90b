/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-render.h: draws the timeline into a cairo image surface.
 *
 * Needs only cairo and the model, no GTK, so the benchmark renders frames
 * exactly as the widget does.  Boxes and merged columns are written straight
 * into the surface's pixels one scanline per row; cairo draws only text and
 * a few outlines, so a frame costs about the same at any zoom. */
#pragma once

#include <cairo.h>

#include "sl-highlight.h"
#include "sl-timeline-colors.h"
#include "sl-timeline-layout.h"

G_BEGIN_DECLS

typedef struct {
  guint n_rows;            /* rows drawn */
  guint n_boxes;           /* whole events written as boxes */
  guint n_columns;         /* merged columns written */
  guint n_labels;          /* text runs shown */
  guint n_cairo;           /* cairo drawing calls (fills, strokes, glyph runs) */
  guint n_visited;         /* events and pyramid buckets read */
  double pixel_ms;         /* culling, merging and pixel writes */
  double text_ms;          /* cairo: labels, headers, ruler */
} SlRenderStats;

typedef struct _SlTimelineRenderer SlTimelineRenderer;

SlTimelineRenderer *sl_timeline_renderer_new     (void);
void                sl_timeline_renderer_free    (SlTimelineRenderer *renderer);

/* Draws minimap, ruler, row headers and rows of @layout into @image, an
 * ARGB32 image surface of layout->width x layout->height pixels.  @stats
 * may be NULL. */
void                sl_timeline_renderer_draw    (SlTimelineRenderer    *renderer,
                                                  SlTimelineLayout      *layout,
                                                  const SlTimelineStyle *style,
                                                  cairo_surface_t       *image,
                                                  SlRenderStats         *stats);

/* (nullable): the events to outline, the rest dimmed when @highlight
 * asks (sl-timeline-highlight-draw.c).  Takes a reference. */
void                sl_timeline_renderer_set_highlight (SlTimelineRenderer *renderer,
                                                        SlHighlight        *highlight);

/* With @ready, the per-row index of a highlight of many events is built in
 * a worker thread, not in the first frame that shows it (a search of
 * millions of kernels took ~50-80 ms of the main loop): frames until it is
 * ready draw no highlight, then @ready (@data) is called on the thread
 * default main context, to draw again.  Without (the default, for drawing
 * offscreen), the frame builds it. */
void                sl_timeline_renderer_set_highlight_ready (SlTimelineRenderer *renderer,
                                                              void              (*ready) (gpointer data),
                                                              gpointer            data);

/* The ruler's text in the last frame: its tick labels left to right, then
 * a note when there is no time to measure. */
char              **sl_timeline_renderer_dup_ruler_text (SlTimelineRenderer *renderer);
/* The selected range's length on the ruler in the last frame, or NULL. */
const char         *sl_timeline_renderer_get_range_label (SlTimelineRenderer *renderer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTimelineRenderer, sl_timeline_renderer_free)

G_END_DECLS
