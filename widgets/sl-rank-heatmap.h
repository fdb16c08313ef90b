/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-rank-heatmap.h: the ranks of one job as a rank x iteration grid
 * (sl-ranks.h): each cell coloured by how late that rank's step ends
 * after the iteration's median end, the straggler of each iteration
 * outlined, each rank's median step and NCCL wait beside its row. */
#pragma once

#include <gtk/gtk.h>

#include "sl-ranks.h"

G_BEGIN_DECLS

#define SL_TYPE_RANK_HEATMAP (sl_rank_heatmap_get_type ())
G_DECLARE_FINAL_TYPE (SlRankHeatmap, sl_rank_heatmap, SL, RANK_HEATMAP, GtkWidget)

GtkWidget *sl_rank_heatmap_new       (void);
/* Shows @ranks (nullable; (transfer none): the caller keeps it alive until
 * the next call) with one label per row (@labels, nullable: "Rank N"). */
void       sl_rank_heatmap_set_ranks (SlRankHeatmap *self,
                                      const SlRanks *ranks,
                                      const char    *const *labels);
/* Where cell (@row, @iteration) is drawn, in widget coordinates: FALSE
 * when there is no such cell or no room yet. */
gboolean   sl_rank_heatmap_cell_rect (SlRankHeatmap   *self,
                                      guint            row,
                                      guint            iteration,
                                      graphene_rect_t *rect);
/* How late the cell's step ends after the iteration's median end (>= 0). */
gint64     sl_rank_heatmap_cell_late (const SlRanks   *ranks,
                                      guint            row,
                                      guint            iteration);

G_END_DECLS
