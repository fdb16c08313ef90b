/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-details-pane.h: everything about the selected event. */
#pragma once

#include <gtk/gtk.h>

#include "sl-timeline-model.h"

G_BEGIN_DECLS

#define SL_TYPE_DETAILS_PANE (sl_details_pane_get_type ())
G_DECLARE_FINAL_TYPE (SlDetailsPane, sl_details_pane, SL, DETAILS_PANE, GtkBox)

GtkWidget *sl_details_pane_new      (void);
/* Shows @event of @model, or the placeholder when @event is NULL. */
void       sl_details_pane_show     (SlDetailsPane    *self,
                                     SlTimelineModel  *model,
                                     const SlEventRef *event);
/* Shows the selected time range's length (NULL model clears it). */
void       sl_details_pane_set_range (SlDetailsPane   *self,
                                      SlTimelineModel *model,
                                      gboolean         has_range,
                                      gint64           start,
                                      gint64           end);

G_END_DECLS
