/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-scope-busy.h: the GPU part of the scope index (sl-scope-index.h):
 * per GPU busy time, longest idle gaps and NCCL / compute overlap of any
 * scope, without walking the scope's kernels.
 *
 * A scope takes the operations that START inside it (sl_filter_span_bounds),
 * whole.  Per GPU and per class of operations (all kernels, NCCL kernels,
 * the others, copies) the index keeps the components of the whole
 * profile's union (merged as sl-gaps.c merges, touching intervals joined)
 * with prefix sums of their lengths, the gaps between components with
 * their TOP longest per block of gaps, and per stream the prefix maximum
 * of the operations' ends per block of operations.  The union of the
 * operations starting in [a, b) is then, exactly:
 *  - those starting before the first component that starts at or after a:
 *    they belong to the component cut by a.  Dropping the operations
 *    before a can split it only while an operation starts at or before
 *    PM (a), the latest end of the operations starting before a: those are
 *    walked; the ones after make a single interval up to PM of where they
 *    stop (past PM (a) the union goes as the whole profile's does);
 *  - the components starting inside, whole (sums, and the gaps' block
 *    tops), but the last, which ends at PM (b) (a prefix of a component is
 *    one interval). */
#pragma once

#include "sl-filter.h"
#include "sl-gaps.h"
#include "sl-overlap.h"
#include "sl-profile.h"

G_BEGIN_DECLS

#define SL_SCOPE_BUSY_TOP 10   /* the most gaps a query can list per GPU */

typedef struct _SlScopeBusy SlScopeBusy;

/* Prefix maxima every @pm_block operations of a stream, gap tops every
 * @gap_block gaps (the index: 256 and 1024; tests take small ones). */
SlScopeBusy *sl_scope_busy_build (const SlProfile *profile, guint pm_block, guint gap_block);
void         sl_scope_busy_free  (SlScopeBusy *busy);
/* The Summary's view of sl_gaps_compute_with_overlap (@profile, @filter, 0,
 * @top, @overlap): the same devices, span_ns, first_start_ns, last_end_ns,
 * kernel_busy_ns, copy_busy_ns, utilization_pct and top gaps' start, end
 * and dur, and the same @overlap; the rest of SlGaps is left zero (the
 * any-work union, the gap count, the operations around a gap and the CPU
 * calls during it: the `gaps` command's, not shown by the Summary).  NULL
 * when it cannot answer: a process filter, or @top above
 * SL_SCOPE_BUSY_TOP. */
SlGaps      *sl_scope_busy_query (const SlScopeBusy *busy, const SlProfile *profile,
                                  const SlFilter *filter, guint top, SlOverlap **overlap);

G_END_DECLS
