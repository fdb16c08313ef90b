/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-row-key.h: a timeline row's stable name (no GTK).
 *
 * The user's row layout (hidden, pinned, order) outlives the model's row
 * indexes: a staged load's complete model has more rows than its GPU-only
 * one, and a reopened profile builds its model again.  So rows are named
 * by what they show: "gpu/0", "stream/0/1234/7", "thread/1234/5678",
 * "nvtx/1234/5678/2" ... from device, pid, tid, stream id and depth. */
#pragma once

#include "sl-timeline-model.h"

G_BEGIN_DECLS

/* (transfer full): the key of @model's row @row. */
char *sl_row_key (const SlTimelineModel *model,
                  guint                  row);

G_END_DECLS
