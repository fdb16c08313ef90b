/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-minimap.h: the GPU activity of the whole run above the ruler
 * (no GTK). */
#pragma once

#include "sl-timeline-layout.h"

G_BEGIN_DECLS

/* The GPU activity of the whole run per minimap column, 0..1, and its
 * colour; cached in the layout while the body width holds. */
void sl_timeline_layout_overview (SlTimelineLayout  *layout,
                                  const float      **values,
                                  const guint8     **colors);

G_END_DECLS
