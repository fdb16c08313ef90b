/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-highlight.h: the session's highlight on the timeline.
 *
 * Highlighted events are outlined (at least a few pixels wide, so one
 * kernel among millions is found when zoomed out), and when the highlight
 * asks for it everything else is dimmed under a veil.  The highlight is
 * indexed once per row (its events by start, with the running maximum of
 * their ends); a frame then binary-searches each visible row's window and,
 * when its events lie closer than a few pixels, asks per pixel column, so a
 * frame costs the same with ten or ten million highlighted events.
 * Plain C and cairo image pixels, no GTK: tested without a display. */
#pragma once

#include "sl-highlight.h"
#include "sl-timeline-layout.h"

G_BEGIN_DECLS

typedef struct _SlHighlightIndex SlHighlightIndex;

/* A horizontal stretch of a row to outline: body x in [x0, x1). */
typedef struct {
  int x0, x1;
} SlHighlightSpan;

/* (transfer full): @highlight's events by the row of @model that draws them. */
SlHighlightIndex *sl_highlight_index_new        (SlTimelineModel  *model,
                                                 SlHighlight      *highlight);
void              sl_highlight_index_free       (SlHighlightIndex *index);
gboolean          sl_highlight_index_is_for     (const SlHighlightIndex *index,
                                                 const SlTimelineModel  *model,
                                                 const SlHighlight      *highlight);
/* Highlighted events on model row @row. */
guint             sl_highlight_index_row_count  (const SlHighlightIndex *index,
                                                 guint                   row);

/* The stretches of layout row @row (a track, or a collapsed group: its
 * hidden tracks') to outline in the visible window, appended to @out
 * (SlHighlightSpan) left to right: one per event when the window holds
 * fewer events than a quarter of its pixels, else one per run of covered
 * pixel columns.
 * Each is at least @min_width px wide; x is body-relative and may extend
 * a little outside [0, body width).  Returns the number appended. */
guint             sl_highlight_index_row_spans  (const SlHighlightIndex *index,
                                                 const SlTimelineLayout *layout,
                                                 guint                   row,
                                                 int                     min_width,
                                                 GArray                 *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlHighlightIndex, sl_highlight_index_free)

G_END_DECLS
