/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-bookmarks.c: flags on the ruler and bands over the rows.
 *
 * Few bookmarks, so plain render nodes on top of the cached frame: adding,
 * renaming or recolouring one never re-renders the rows. */
#include "sl-timeline-bookmarks.h"

#define FLAG_PAD 4.0

typedef struct {
  const SlBookmark *bookmark;
  double            x0, x1;     /* the band, logical px, unclipped */
  double            flag_x, flag_w;
} Placed;

static GdkRGBA
parse_color (const char *color)
{
  GdkRGBA rgba = { 0.2f, 0.5f, 0.9f, 1 };

  gdk_rgba_parse (&rgba, color);
  return rgba;
}

static PangoLayout *
flag_layout (GtkWidget *widget, const char *name)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, *name ? name : "\u2691");
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_scale_new (0.85));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  return layout;
}

static int
by_flag_x (gconstpointer a, gconstpointer b)
{
  double d = ((const Placed *) a)->flag_x - ((const Placed *) b)->flag_x;

  return (d > 0) - (d < 0);
}

/* The bookmarks in view, by start, each flag as wide as its name but
 * never over the next flag (the name then ends in an ellipsis). */
static GArray *
place (GtkWidget *widget, const SlTimelineLayout *l, SlBookmarkStore *store, double s, int width)
{
  GPtrArray *all = sl_bookmark_store_get_bookmarks (store);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Placed));
  double left = l->header_width / s;

  for (guint i = 0; i < all->len; i++)
    {
      const SlBookmark *b = all->pdata[i];
      Placed p = { b, (l->header_width + sl_timeline_layout_time_to_x (l, b->start)) / s,
                   (l->header_width + sl_timeline_layout_time_to_x (l, b->end)) / s, 0, 0 };
      g_autoptr(PangoLayout) layout = NULL;
      int tw, th;

      if (p.x1 < left || p.x0 > width)
        continue;
      layout = flag_layout (widget, b->name);
      pango_layout_get_pixel_size (layout, &tw, &th);
      p.flag_x = MAX (p.x0, left);
      p.flag_w = tw + 2 * FLAG_PAD;
      g_array_append_val (out, p);
    }
  g_array_sort (out, by_flag_x);
  for (guint i = 0; i + 1 < out->len; i++)
    {
      Placed *p = &g_array_index (out, Placed, i);
      double room = g_array_index (out, Placed, i + 1).flag_x - p->flag_x - 1;
      p->flag_w = MAX (MIN (p->flag_w, room), 2 * FLAG_PAD);
    }
  return out;
}

static void
flag_rect (const SlTimelineLayout *l, double s, const Placed *p, graphene_rect_t *r)
{
  double top = l->minimap_height / s, h = l->ruler_height / s;

  graphene_rect_init (r, p->flag_x, top + h * 0.42, p->flag_w, h * 0.58);
}

static void
snapshot_flag (GtkWidget *widget, GtkSnapshot *snapshot, const SlTimelineLayout *l, double s, const Placed *p)
{
  GdkRGBA color = parse_color (p->bookmark->color);
  GdkRGBA ink = (0.299 * color.red + 0.587 * color.green + 0.114 * color.blue) > 0.6
                ? (GdkRGBA) { 0, 0, 0, 1 } : (GdkRGBA) { 1, 1, 1, 1 };
  g_autoptr(PangoLayout) layout = flag_layout (widget, p->bookmark->name);
  graphene_rect_t r;
  int tw, th;

  flag_rect (l, s, p, &r);
  gtk_snapshot_append_color (snapshot, &color, &r);
  pango_layout_set_width (layout, (int) ((p->flag_w - 2 * FLAG_PAD) * PANGO_SCALE));
  pango_layout_get_pixel_size (layout, &tw, &th);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_push_clip (snapshot, &r);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (r.origin.x + FLAG_PAD,
                                                          r.origin.y + (r.size.height - th) / 2));
  gtk_snapshot_append_layout (snapshot, layout, &ink);
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_restore (snapshot);
}

static void
snapshot_band (GtkSnapshot *snapshot, const SlTimelineLayout *l, double s, const Placed *p, int height)
{
  GdkRGBA color = parse_color (p->bookmark->color);
  double top = l->minimap_height / s;
  double x0 = p->x0, x1 = MAX (p->x1, p->x0 + 1);
  GdkRGBA fill = color, edge = color;

  fill.alpha = 0.14f;
  edge.alpha = 0.7f;
  gtk_snapshot_append_color (snapshot, &fill, &GRAPHENE_RECT_INIT (x0, top, x1 - x0, height - top));
  gtk_snapshot_append_color (snapshot, &edge, &GRAPHENE_RECT_INIT (x0, top, 1, height - top));
  if (x1 - x0 > 2)
    gtk_snapshot_append_color (snapshot, &edge, &GRAPHENE_RECT_INIT (x1 - 1, top, 1, height - top));
}

void
sl_timeline_bookmarks_snapshot (GtkWidget              *widget,
                                GtkSnapshot            *snapshot,
                                const SlTimelineLayout *layout,
                                SlBookmarkStore        *store,
                                double                  scale,
                                int                     width,
                                int                     height)
{
  g_autoptr(GArray) placed = NULL;

  if (store == NULL || layout == NULL)
    return;
  placed = place (widget, layout, store, scale, width);
  for (guint i = 0; i < placed->len; i++)
    snapshot_band (snapshot, layout, scale, &g_array_index (placed, Placed, i), height);
  for (guint i = 0; i < placed->len; i++)
    snapshot_flag (widget, snapshot, layout, scale, &g_array_index (placed, Placed, i));
}

const SlBookmark *
sl_timeline_bookmarks_flag_at (GtkWidget              *widget,
                               const SlTimelineLayout *layout,
                               SlBookmarkStore        *store,
                               double                  scale,
                               double                  x,
                               double                  y)
{
  g_autoptr(GArray) placed = NULL;
  const SlBookmark *hit = NULL;

  if (store == NULL || layout == NULL)
    return NULL;
  placed = place (widget, layout, store, scale, gtk_widget_get_width (widget));
  for (guint i = 0; i < placed->len && hit == NULL; i++)
    {
      graphene_rect_t r;

      flag_rect (layout, scale, &g_array_index (placed, Placed, i), &r);
      if (graphene_rect_contains_point (&r, &GRAPHENE_POINT_INIT (x, y)))
        hit = g_array_index (placed, Placed, i).bookmark;
    }
  return hit;
}
