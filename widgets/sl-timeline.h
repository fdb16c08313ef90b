/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline.h: the timeline widget.  It draws the session's profile and
 * reads and writes the session's view state (visible range, selection). */
#pragma once

#include <gtk/gtk.h>

#include "sl-session.h"
#include "sl-timeline-model.h"
#include "sl-timeline-layout.h"

G_BEGIN_DECLS

#define SL_TYPE_TIMELINE (sl_timeline_get_type ())
G_DECLARE_FINAL_TYPE (SlTimeline, sl_timeline, SL, TIMELINE, GtkWidget)

GtkWidget        *sl_timeline_new               (void);
/* (nullable): shows @session's profile and follows its view state. */
void              sl_timeline_set_session       (SlTimeline       *self,
                                                 SlSession        *session);
/* (nullable) (transfer none) */
SlSession        *sl_timeline_get_session       (SlTimeline       *self);
/* (nullable) (transfer none): the layout, for tests and the app's state dump. */
SlTimelineLayout *sl_timeline_get_layout        (SlTimeline       *self);

gboolean          sl_timeline_get_relative_time (SlTimeline       *self);
void              sl_timeline_set_relative_time (SlTimeline       *self,
                                                 gboolean          relative);
/* The ruler shows the local time of day: @utc_ns (the session start, UTC
 * ns since the epoch) is capture-clock time @origin_ns.  @utc_ns 0: the
 * profile has no session start; the ruler stays relative and its tooltip
 * says so.  @wall_clock FALSE: back to relative or absolute. */
void              sl_timeline_set_wall_clock    (SlTimeline       *self,
                                                 gboolean          wall_clock,
                                                 gint64            utc_ns,
                                                 gint64            origin_ns);
/* (nullable) (transfer none): the rows hidden, pinned and moved; NULL
 * without a profile.  "row-layout-changed" says when the user changes it. */
const SlRowLayout *sl_timeline_get_row_layout   (SlTimeline        *self);
/* Applies @rows (nullable: the default) to the profile shown, a saved
 * layout for instance: not a change of the user's, no signal. */
void              sl_timeline_set_row_layout    (SlTimeline        *self,
                                                 const SlRowLayout *rows);
/* The label column's width in logical px ("label-width"). */
int               sl_timeline_get_label_width   (SlTimeline       *self);
void              sl_timeline_set_label_width   (SlTimeline       *self,
                                                 int               width);
/* Stacked under a ruler shared with other timelines (the ranks window):
 * @show FALSE draws no minimap or ruler, the rows start at the top.
 * Default TRUE. */
void              sl_timeline_set_show_header   (SlTimeline       *self,
                                                 gboolean          show);
gboolean          sl_timeline_get_show_header   (SlTimeline       *self);
/* @natural TRUE: the timeline asks to be as tall as its rows and has no
 * scrollbar of its own (a scrolled window around it scrolls it), and a
 * plain vertical scroll goes to that window.  Default FALSE. */
void              sl_timeline_set_natural_height (SlTimeline      *self,
                                                  gboolean         natural);
/* Relative labels and the grid count from capture-clock time @origin_ns
 * (a job clock's zero) rather than the profile's start; @set FALSE: back
 * to the profile's start. */
void              sl_timeline_set_time_origin   (SlTimeline       *self,
                                                 gboolean          set,
                                                 gint64            origin_ns);
/* Time of the last frame drawn, in ms (for the app's own measurements). */
double            sl_timeline_get_last_frame_ms (SlTimeline       *self);
/* How many frames the timeline has handed to GTK: a test reading the screen
 * knows the frame it reads is the last one when this stays the same. */
guint64           sl_timeline_get_n_snapshots   (SlTimeline       *self);
/* The ruler's text as last drawn (see sl_timeline_renderer_dup_ruler_text). */
char            **sl_timeline_dup_ruler_text    (SlTimeline       *self);
const char       *sl_timeline_get_range_label   (SlTimeline       *self);
/* Where the rows' time axis lies, in the widget's logical px: from @x, right
 * of the label column, @width wide (the scrollbar excluded).  FALSE before
 * the first layout. */
gboolean          sl_timeline_get_body_extent   (SlTimeline       *self,
                                                 double           *x,
                                                 double           *width);

G_END_DECLS
