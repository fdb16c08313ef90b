/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-probe-bounds.h: where a widget is on screen, for the GUI test probe:
 * tests click what they see with xdotool, in surface coordinates. */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Member @name: [x, y, width, height] of @widget in its surface, or null
 * when it is not in a window (not mapped yet). */
void sl_probe_add_bounds (JsonBuilder *builder, const char *name, GtkWidget *widget);

G_END_DECLS
