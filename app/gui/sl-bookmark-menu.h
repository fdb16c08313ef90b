/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-menu.h: "Bookmark…" as the context menu of a span shown in a
 * list (an iteration, a gap, an NVTX tree row's instance). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Pops up a menu at (@x, @y) of @parent whose "Bookmark…" bookmarks
 * [@start, @end] (win.bookmark-range). */
void sl_bookmark_menu_popup       (GtkWidget *parent,
                                   double     x,
                                   double     y,
                                   gint64     start,
                                   gint64     end);
/* A right click (or long press) on @widget pops that menu up. */
void sl_bookmark_menu_attach_span (GtkWidget *widget,
                                   gint64     start,
                                   gint64     end);

G_END_DECLS
