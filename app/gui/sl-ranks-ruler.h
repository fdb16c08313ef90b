/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks-ruler.h: the one time ruler over the ranks' timelines, on the
 * job clock (ns since the earliest session start). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_RANKS_RULER (sl_ranks_ruler_get_type ())
G_DECLARE_FINAL_TYPE (SlRanksRuler, sl_ranks_ruler, SL, RANKS_RULER, GtkWidget)

GtkWidget *sl_ranks_ruler_new      (void);
/* Job time [start, end) spans the ruler's x [body_x, body_x + body_w)
 * (logical px: where the timelines' bodies are); body_w <= 0: no view. */
void       sl_ranks_ruler_set_view (SlRanksRuler *self,
                                    gint64        start,
                                    gint64        end,
                                    double        body_x,
                                    double        body_w);
/* The view last set, for the probe. */
void       sl_ranks_ruler_get_view (SlRanksRuler *self,
                                    gint64       *start,
                                    gint64       *end,
                                    double       *body_x,
                                    double       *body_w);
/* The tick labels last drawn ("0 ms", "5 ms"...), NULL-terminated. */
char     **sl_ranks_ruler_dup_labels (SlRanksRuler *self);

G_END_DECLS
