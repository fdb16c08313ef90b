/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-rows.h: the rows' headers and bodies (no GTK). */
#pragma once

#include "sl-timeline-model.h"

G_BEGIN_DECLS

/* Header text of a row ("GPU 0 · NVIDIA H100", "Stream 7", "CUDA API"). */
char *sl_timeline_row_title     (const SlTimelineModel *model,
                                 guint                  row);
/* The titles of the CPU side's and the GPU counters' rows ("OS runtime",
 * "CPU samples", "SM Active (%)"), in sl-timeline-cpu-rows.c. */
char *sl_timeline_cpu_row_title (const SlTimelineModel *model,
                                 guint                  row);

G_END_DECLS
