/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-details-pane.h: everything about the session's selected event and the
 * length of its selected range. */
#pragma once

#include <gtk/gtk.h>

#include "sl-session.h"

G_BEGIN_DECLS

#define SL_TYPE_DETAILS_PANE (sl_details_pane_get_type ())
G_DECLARE_FINAL_TYPE (SlDetailsPane, sl_details_pane, SL, DETAILS_PANE, GtkBox)

GtkWidget *sl_details_pane_new         (void);
/* With @utc_ns != 0 the pane adds the event's local time of day
 * (@utc_ns is capture-clock time @origin_ns); 0 leaves it out. */
void       sl_details_pane_set_wall_clock (SlDetailsPane *self,
                                           gint64         utc_ns,
                                           gint64         origin_ns);
/* (nullable): follows @session's selected event and range. */
void       sl_details_pane_set_session (SlDetailsPane *self,
                                        SlSession     *session);
/* The labels shown, in order, and their values (for the app's test
 * probe): (transfer full). */
GStrv      sl_details_pane_get_labels  (SlDetailsPane *self);
GStrv      sl_details_pane_get_values  (SlDetailsPane *self);
/* (transfer container): the value labels that hold links (GtkWidget), in
 * order, for the probe to say where they are. */
GPtrArray *sl_details_pane_get_link_widgets (SlDetailsPane *self);
/* The label of the field whose value is @value (the grid's column 0 beside it). */
const char *sl_details_pane_get_field_label (SlDetailsPane *self,
                                             GtkWidget     *value);

G_END_DECLS
