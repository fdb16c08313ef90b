/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-ruler.h: the time ruler's ticks and their labels (no GTK). */
#pragma once

#include "sl-timeline-layout.h"

G_BEGIN_DECLS

/* Tick spacing (ns, 1-2-5 steps) for at least @min_px pixels. */
gint64  sl_timeline_layout_tick_step   (const SlTimelineLayout *layout,
                                        double                  min_px);
/* Label of tick time @t (absolute ns) for spacing @step: "1.25 ms". */
char   *sl_timeline_layout_format_tick (const SlTimelineLayout *layout,
                                        gint64                  t,
                                        gint64                  step);

G_END_DECLS
