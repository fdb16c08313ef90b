/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-event-info.h: what the tooltip and the details pane say about an event
 * (no GTK). */
#pragma once

#include "sl-timeline-model.h"
#include "sl-format.h"
#include "sl-kernel-details.h"

G_BEGIN_DECLS

typedef struct {
  char *label;             /* translated, e.g. "Duration" */
  char *value;
} SlEventField;

/* The fields of @event in display order: (transfer full) array of
 * SlEventField*, freed with g_ptr_array_unref.  @details (nullable) is a
 * kernel's launch configuration, read by the caller off the main thread
 * (sl_kernel_details_read_async); without it those fields are left out. */
GPtrArray *sl_event_info_fields        (SlTimelineModel       *model,
                                        const SlEventRef      *event,
                                        const SlKernelDetails *details);
/* Pango markup for a tooltip: the name in bold, then a few fields. */
char      *sl_event_info_tooltip       (SlTimelineModel       *model,
                                        const SlEventRef      *event,
                                        const SlKernelDetails *details);
/* NVTX ranges open on @thread at time @t, outermost first: "train › step 3". */
char      *sl_event_info_nvtx_path     (const SlTimelineModel *model,
                                        guint32                thread,
                                        gint64                 t);

G_END_DECLS
