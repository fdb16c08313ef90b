/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline.h: the timeline widget. */
#pragma once

#include <gtk/gtk.h>

#include "sl-timeline-model.h"
#include "sl-timeline-layout.h"

G_BEGIN_DECLS

#define SL_TYPE_TIMELINE (sl_timeline_get_type ())
G_DECLARE_FINAL_TYPE (SlTimeline, sl_timeline, SL, TIMELINE, GtkWidget)

GtkWidget        *sl_timeline_new               (void);
void              sl_timeline_set_model         (SlTimeline       *self,
                                                 SlTimelineModel  *model);
SlTimelineModel  *sl_timeline_get_model         (SlTimeline       *self);
/* (nullable) (transfer none): the layout, for tests and the app's state dump. */
SlTimelineLayout *sl_timeline_get_layout        (SlTimeline       *self);

gboolean          sl_timeline_get_selected      (SlTimeline       *self,
                                                 SlEventRef       *out);
void              sl_timeline_select            (SlTimeline       *self,
                                                 const SlEventRef *event);
/* The selected time range (Shift+drag or drag on the ruler). */
gboolean          sl_timeline_get_range         (SlTimeline       *self,
                                                 gint64           *start,
                                                 gint64           *end);
void              sl_timeline_get_view          (SlTimeline       *self,
                                                 double           *start,
                                                 double           *end);
void              sl_timeline_set_view          (SlTimeline       *self,
                                                 double            start,
                                                 double            end);
gboolean          sl_timeline_get_relative_time (SlTimeline       *self);
void              sl_timeline_set_relative_time (SlTimeline       *self,
                                                 gboolean          relative);
/* Time of the last frame drawn, in ms (for the app's own measurements). */
double            sl_timeline_get_last_frame_ms (SlTimeline       *self);

G_END_DECLS
