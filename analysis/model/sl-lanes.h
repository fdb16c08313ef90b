/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-lanes.h: lanes for ranges that may overlap (NVTX start/end ranges), so
 * that a timeline row never draws two ranges at once, as Perfetto lays out
 * async slices. */
#pragma once

#include "sl-spans.h"

G_BEGIN_DECLS

/* Assigns each span of @spans (sorted by start) a lane in @lane (n entries)
 * by greedy interval colouring: a span takes the lowest lane whose last
 * span has ended by its start (touching spans share a lane), else a new
 * one.  The spans of one lane never overlap, and the number of lanes is the
 * most spans open at one instant, the fewest possible.  A span of zero
 * duration counts as 1 ns long (it is drawn too).  O(n log n).
 * Beyond @max_lanes (>= 1) spans share the last lane, which may then
 * overlap.  Returns the number of lanes (0 when @spans is empty). */
guint sl_lanes_assign (const SlSpans *spans,
                       guint          max_lanes,
                       guint16       *lane);

G_END_DECLS
