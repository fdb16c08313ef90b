/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-legend.h: the colours used on the timeline and what they mean. */
#pragma once

#include <gtk/gtk.h>

#include "sl-timeline-model.h"

G_BEGIN_DECLS

#define SL_TYPE_TIMELINE_LEGEND (sl_timeline_legend_get_type ())
G_DECLARE_FINAL_TYPE (SlTimelineLegend, sl_timeline_legend, SL, TIMELINE_LEGEND, GtkWidget)

GtkWidget *sl_timeline_legend_new       (void);
/* (nullable): shows the categories, copy kinds and API classes @model draws. */
void       sl_timeline_legend_set_model (SlTimelineLegend *self,
                                         SlTimelineModel  *model);

G_END_DECLS
