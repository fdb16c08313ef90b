/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-link.h: the line from an API call to the GPU work it launched,
 * drawn even when one end is off screen: clipped to the body's edge with an
 * arrow head pointing to where the far end is. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* An elbow from @api to @gpu (rectangles in widget coordinates, anywhere,
 * off the body too), clipped to @body (the caller's clip), with an arrow
 * head where the line leaves @body towards an end outside it. */
void     sl_timeline_link_snapshot (GtkSnapshot           *snapshot,
                                    const graphene_rect_t *body,
                                    const graphene_rect_t *api,
                                    const graphene_rect_t *gpu,
                                    const GdkRGBA         *color);

/* Where the polyline @pts (@n points, axis-aligned segments), walked from
 * pts[0] inside @body, first leaves it: the point on the edge and the unit
 * direction it was heading.  FALSE when pts[0] is outside or it never leaves. */
gboolean sl_timeline_link_exit     (const graphene_point_t *pts,
                                    guint                   n,
                                    const graphene_rect_t  *body,
                                    graphene_point_t       *at,
                                    graphene_vec2_t        *dir);

G_END_DECLS
