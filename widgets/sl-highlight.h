/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-highlight.h: a set of events the views point out together.
 *
 * What a search matched, every instance of an NVTX tree row, the kernels of
 * a histogram's bins: the timeline outlines them (and, when asked, dims the
 * rest), the flame stack dims what is not in it, and F3 / Shift+F3 step
 * through them in time order.  Immutable and reference counted, so the
 * session hands the same set to every view; held in time order of start. */
#pragma once

#include <glib-object.h>

#include "sl-timeline-model.h"

G_BEGIN_DECLS

typedef struct _SlHighlight SlHighlight;

#define SL_TYPE_HIGHLIGHT (sl_highlight_get_type ())
GType             sl_highlight_get_type    (void) G_GNUC_CONST;

/* A set of the @n_events of @events (SlEventRef) that @model has (others
 * are dropped), sorted by start time, ties by kind, owner and index.
 * @label says what it is ("search: gemm"); @dim_others asks views to dim
 * every event that is not in it. (transfer full) */
SlHighlight      *sl_highlight_new         (SlTimelineModel  *model,
                                            const SlEventRef *events,
                                            guint             n_events,
                                            const char       *label,
                                            gboolean          dim_others);
SlHighlight      *sl_highlight_ref         (SlHighlight      *self);
void              sl_highlight_unref       (SlHighlight      *self);

guint             sl_highlight_get_n       (const SlHighlight *self);
/* The @i-th event by start time. */
const SlEventRef *sl_highlight_get         (const SlHighlight *self,
                                            guint              i);
gint64            sl_highlight_get_start   (const SlHighlight *self,
                                            guint              i);
gint64            sl_highlight_get_end     (const SlHighlight *self,
                                            guint              i);
const char       *sl_highlight_get_label   (const SlHighlight *self);
gboolean          sl_highlight_get_dim_others (const SlHighlight *self);
/* Whether @event is in the set (a binary search by its start). */
gboolean          sl_highlight_contains    (const SlHighlight *self,
                                            SlTimelineModel   *model,
                                            const SlEventRef  *event);
/* The first event starting at or after @t: its position, or n when none. */
guint             sl_highlight_first_at    (const SlHighlight *self,
                                            gint64             t);
/* The position of @event in the set, or G_MAXUINT. */
guint             sl_highlight_find        (const SlHighlight *self,
                                            SlTimelineModel   *model,
                                            const SlEventRef  *event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlHighlight, sl_highlight_unref)

G_END_DECLS
