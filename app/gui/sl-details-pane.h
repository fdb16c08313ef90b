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
/* (nullable): follows @session's selected event and range. */
void       sl_details_pane_set_session (SlDetailsPane *self,
                                        SlSession     *session);
/* The labels shown, in order, and their values (for the app's test
 * probe): (transfer full). */
GStrv      sl_details_pane_get_labels  (SlDetailsPane *self);
GStrv      sl_details_pane_get_values  (SlDetailsPane *self);

G_END_DECLS
