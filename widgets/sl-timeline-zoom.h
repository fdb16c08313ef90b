/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-zoom.h: how much a scroll delta zooms the timeline (no GTK). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Zoom per wheel notch: 2x, so 1 s to 10 us is 17 notches, not 50. */
#define SL_TIMELINE_ZOOM_STEP 2.0
/* Pixels of a touchpad's (surface-unit) delta that zoom as much as a notch. */
#define SL_TIMELINE_ZOOM_PX_PER_NOTCH 50.0

/* The factor the visible span is multiplied by for a scroll of @dy (down
 * and positive zoom out): STEP^dy for wheel units (fractional on
 * high-resolution wheels), STEP^(dy / PX_PER_NOTCH) for surface pixels. */
double sl_timeline_zoom_factor (double   dy,
                                gboolean wheel_unit);

G_END_DECLS
