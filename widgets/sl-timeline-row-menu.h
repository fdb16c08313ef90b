/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-row-menu.h: the context menu of a row's label. */
#pragma once

#include <gio/gio.h>

#include "sl-timeline-layout.h"

G_BEGIN_DECLS

/* (transfer full): Hide Row, Pin to Top or Unpin, Show Hidden Rows (one
 * item per hidden row), Show All Rows, Reset Row Layout, for @row
 * (SL_NONE: only the entries about every row).  The items activate the
 * timeline's timeline.* row actions. */
GMenuModel *sl_timeline_row_menu_new (const SlTimelineLayout *layout,
                                      guint                   row);

G_END_DECLS
