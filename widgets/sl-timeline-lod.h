/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-lod.h: the level-of-detail pyramid of a large track (no GTK).
 *
 * Level 0 has about one bucket per event; each level above merges four
 * buckets, so a zoomed-out frame reads a few buckets per pixel column
 * instead of every event (see sl-timeline-columns.c). */
#pragma once

#include "sl-timeline-model.h"

G_BEGIN_DECLS

/* Builds row->lod from the row's segments over the whole run. */
void _sl_timeline_lod_build (const SlTimelineModel *model,
                             SlTimelineRow         *row);
void _sl_timeline_lod_clear (SlLod                 *lod);

G_END_DECLS
