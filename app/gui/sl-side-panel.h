/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-side-panel.h: the pages beside the timeline (NVTX tree, search,
 * summary), one at a time under a switcher.  Every page is a widget with a
 * "session" property (SlSession, nullable) that it follows; the panel
 * hands the window's session to all of them and remembers the page shown
 * between runs. */
#pragma once

#include <gtk/gtk.h>

#include "sl-session.h"

G_BEGIN_DECLS

#define SL_TYPE_SIDE_PANEL (sl_side_panel_get_type ())
G_DECLARE_FINAL_TYPE (SlSidePanel, sl_side_panel, SL, SIDE_PANEL, GtkWidget)

GtkWidget  *sl_side_panel_new          (void);
void        sl_side_panel_set_session  (SlSidePanel *self,
                                        SlSession   *session);
/* The name of the page shown: "tree", "search" or "summary". */
const char *sl_side_panel_get_page     (SlSidePanel *self);
/* Shows page @name and moves the keyboard focus into it (its first
 * focusable widget: the search entry, the tree's filter). */
void        sl_side_panel_present_page (SlSidePanel *self,
                                        const char  *name);
/* (transfer none) (nullable): the page widget called @name. */
GtkWidget  *sl_side_panel_get_page_widget (SlSidePanel *self,
                                           const char  *name);

G_END_DECLS
