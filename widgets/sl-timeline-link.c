/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-link.c: the API-to-GPU connecting line and its arrow heads. */
#include "sl-timeline-link.h"

#include <math.h>

static gboolean
inside (const graphene_rect_t *r, const graphene_point_t *p)
{
  return p->x >= r->origin.x && p->x <= r->origin.x + r->size.width &&
         p->y >= r->origin.y && p->y <= r->origin.y + r->size.height;
}

gboolean
sl_timeline_link_exit (const graphene_point_t *pts,
                       guint                   n,
                       const graphene_rect_t  *body,
                       graphene_point_t       *at,
                       graphene_vec2_t        *dir)
{
  float x0 = body->origin.x, x1 = x0 + body->size.width;
  float y0 = body->origin.y, y1 = y0 + body->size.height;

  if (n == 0 || !inside (body, &pts[0]))
    return FALSE;
  for (guint k = 0; k + 1 < n; k++)
    {
      const graphene_point_t *p = &pts[k], *q = &pts[k + 1];
      float dx = q->x - p->x, dy = q->y - p->y;

      if (inside (body, q))
        continue;
      /* segments are horizontal or vertical: the edge it crosses is clear */
      if (fabsf (dx) >= fabsf (dy))
        *at = GRAPHENE_POINT_INIT (dx > 0 ? x1 : x0, p->y);
      else
        *at = GRAPHENE_POINT_INIT (p->x, dy > 0 ? y1 : y0);
      graphene_vec2_init (dir, fabsf (dx) >= fabsf (dy) ? (dx > 0 ? 1 : -1) : 0,
                          fabsf (dx) >= fabsf (dy) ? 0 : (dy > 0 ? 1 : -1));
      return TRUE;
    }
  return FALSE;
}

static void
snapshot_arrow (GtkSnapshot *snapshot, const graphene_point_t *at, const graphene_vec2_t *dir,
                const GdkRGBA *color)
{
  float dx = graphene_vec2_get_x (dir), dy = graphene_vec2_get_y (dir);
  const float len = 9, half = 5;
  cairo_t *cr;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (at->x - 12, at->y - 12, 24, 24));
  gdk_cairo_set_source_rgba (cr, color);
  /* the tip on the edge, the base inside the body */
  cairo_move_to (cr, at->x, at->y);
  cairo_line_to (cr, at->x - dx * len - dy * half, at->y - dy * len + dx * half);
  cairo_line_to (cr, at->x - dx * len + dy * half, at->y - dy * len - dx * half);
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_destroy (cr);
}

/* An axis-aligned segment as a 2 px box, cut to @body first: an end far
 * off screen is far beyond what a float box should hold. */
static void
snapshot_segment (GtkSnapshot *snapshot, const graphene_rect_t *body, const graphene_point_t *p,
                  const graphene_point_t *q, const GdkRGBA *color)
{
  float bx0 = body->origin.x - 4, bx1 = body->origin.x + body->size.width + 4;
  float by0 = body->origin.y - 4, by1 = body->origin.y + body->size.height + 4;
  float x0 = CLAMP (MIN (p->x, q->x), bx0, bx1), x1 = CLAMP (MAX (p->x, q->x), bx0, bx1);
  float y0 = CLAMP (MIN (p->y, q->y), by0, by1), y1 = CLAMP (MAX (p->y, q->y), by0, by1);

  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (x0 - 1, y0 - 1, x1 - x0 + 2, y1 - y0 + 2));
}

void
sl_timeline_link_snapshot (GtkSnapshot           *snapshot,
                           const graphene_rect_t *body,
                           const graphene_rect_t *a,
                           const graphene_rect_t *b,
                           const GdkRGBA         *color)
{
  graphene_point_t pts[4], rev[4], at;
  graphene_vec2_t dir;
  float xa = a->origin.x + MIN (a->size.width / 2, 3), xb = b->origin.x + MIN (b->size.width / 2, 3);
  float ya, yb, ym;

  /* an elbow: down (or up) from the call, across, to the GPU operation */
  if (a->origin.y > b->origin.y)
    {
      ya = a->origin.y;
      yb = b->origin.y + b->size.height;
    }
  else
    {
      ya = a->origin.y + a->size.height;
      yb = b->origin.y;
    }
  ym = (ya + yb) / 2;
  pts[0] = GRAPHENE_POINT_INIT (xa, ya);
  pts[1] = GRAPHENE_POINT_INIT (xa, ym);
  pts[2] = GRAPHENE_POINT_INIT (xb, ym);
  pts[3] = GRAPHENE_POINT_INIT (xb, yb);
  for (guint k = 0; k < 3; k++)
    snapshot_segment (snapshot, body, &pts[k], &pts[k + 1], color);
  for (guint k = 0; k < 4; k++)
    rev[k] = pts[3 - k];
  /* an arrow where the line leaves towards the end out of sight */
  if (sl_timeline_link_exit (pts, 4, body, &at, &dir) || sl_timeline_link_exit (rev, 4, body, &at, &dir))
    snapshot_arrow (snapshot, &at, &dir, color);
}
