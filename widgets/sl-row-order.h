/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-row-order.h: the order rows are shown in (no GTK): the model's tree,
 * each parent's children sorted by the user's ranks. */
#pragma once

#include "sl-row-layout.h"
#include "sl-timeline-model.h"

G_BEGIN_DECLS

/* Fills @order (n_rows) with every row of @model, parents before their
 * children and each subtree contiguous; siblings ranked in @rows come in
 * rank order at their rank's place, the others keep their place in the
 * model.  @keys holds each row's key. */
void sl_row_order_fill (const SlTimelineModel *model,
                        char *const           *keys,
                        const SlRowLayout     *rows,
                        guint                 *order);

G_END_DECLS
