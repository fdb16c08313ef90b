/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-hit.h: which event is under the pointer, and where an event
 * is drawn (no GTK). */
#pragma once

#include "sl-timeline-layout.h"

G_BEGIN_DECLS

/* The event under widget point (@x, @y), within a few pixels. */
gboolean sl_timeline_layout_hit_test   (SlTimelineLayout       *layout,
                                        double                  x,
                                        double                  y,
                                        SlEventRef             *out);
/* Widget rectangle of an event (x may extend beyond the body). */
gboolean sl_timeline_layout_event_rect (const SlTimelineLayout *layout,
                                        const SlEventRef       *event,
                                        double                 *x0,
                                        double                 *x1,
                                        int                    *y,
                                        int                    *height);

G_END_DECLS
