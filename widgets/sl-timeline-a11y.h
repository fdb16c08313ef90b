/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-a11y.h: what the timeline tells assistive technologies. */
#pragma once

#include <gtk/gtk.h>

#include "sl-session.h"

G_BEGIN_DECLS

/* The text a screen reader gives for the timeline: the visible range and
 * the selected event, e.g. "Showing 1.2 ms to 3.4 ms (2.2 ms). Selected:
 * gemm_kernel, 120 µs at 2.5 ms.".  Times are relative to the profile
 * start.  @model and @selected may be NULL.  (transfer full) */
char *sl_timeline_a11y_describe (const SlTimelineModel *model,
                                 const SlTimeRange     *visible,
                                 const SlEventRef      *selected);
/* Puts that text in @widget's accessible description. */
void  sl_timeline_a11y_update   (GtkWidget             *widget,
                                 SlSession             *session);

G_END_DECLS
