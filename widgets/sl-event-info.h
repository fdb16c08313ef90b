/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-event-info.h: what the tooltip and the details pane say about an event
 * (no GTK, no file I/O). */
#pragma once

#include "sl-timeline-model.h"
#include "sl-kernel-details.h"
#include "sl-format.h"

G_BEGIN_DECLS

typedef struct {
  char   *label;           /* translated, e.g. "Duration" */
  char   *value;
  /* (nullable) the value as Pango markup whose <a href="N"> parts link to
   * links[N] (SlEventRef): a launching call, a graph's kernels, the ranges
   * of an NVTX path */
  char   *markup;
  GArray *links;
} SlEventField;

/* The fields of @event in display order: (transfer full) array of
 * SlEventField*, freed with g_ptr_array_unref.  @details (nullable) are the
 * cold columns of a kernel that the caller read, usually asynchronously
 * with sl_kernel_details_read_async(); without them the launch
 * configuration (grid, block, registers, shared memory) is left out.
 * @loading: the rest of the profile is on its way (sl_session_get_loading):
 * what it lacks, say the launching call of GPU work in a profile without
 * SL_PART_API, is "still loading" rather than "not loaded". */
GPtrArray *sl_event_info_fields        (SlTimelineModel       *model,
                                        const SlEventRef      *event,
                                        const SlKernelDetails *details,
                                        gboolean               loading);
/* Details to pass to sl_event_info_fields() while a kernel's are being
 * read: the launch configuration's rows say so, where they will be, so the
 * rows below (the launching call's link) do not move when they arrive. */
const SlKernelDetails *sl_event_info_details_reading (void);
/* Pango markup for a tooltip: the name in bold, then a few fields. */
char      *sl_event_info_tooltip       (SlTimelineModel       *model,
                                        const SlEventRef      *event,
                                        const SlKernelDetails *details,
                                        gboolean               loading);
/* NVTX ranges open on @thread at time @t, outermost first: "train › step 3". */
char      *sl_event_info_nvtx_path     (const SlTimelineModel *model,
                                        guint32                thread,
                                        gint64                 t);

G_END_DECLS
