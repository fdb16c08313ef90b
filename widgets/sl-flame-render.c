/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-render.c: a frame of the flame stack: boxes, hatched "N more"
 * blocks, labels on boxes wide enough to read. */
#include "sl-flame-render.h"
#include "sl-timeline-text.h"

#include <glib/gi18n.h>
#include <math.h>

#define LABEL_MIN_W 28.0
#define PAD 3.0

struct _SlFlameRenderer {
  SlTimelineFont   font;
  cairo_pattern_t *hatch;
  guint32          hatch_fg;
};

SlFlameRenderer *
sl_flame_renderer_new (void)
{
  SlFlameRenderer *self = g_new0 (SlFlameRenderer, 1);

  sl_timeline_font_init (&self->font, 11.0, FALSE);
  return self;
}

void
sl_flame_renderer_free (SlFlameRenderer *self)
{
  if (self == NULL)
    return;
  sl_timeline_font_clear (&self->font);
  g_clear_pointer (&self->hatch, cairo_pattern_destroy);
  g_free (self);
}

static void
set_rgb (cairo_t *cr, guint32 rgb)
{
  cairo_set_source_rgb (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0);
}

/* Diagonal stripes on the background: many nodes too narrow to draw. */
static cairo_pattern_t *
hatch_pattern (SlFlameRenderer *self, const SlTimelineStyle *style)
{
  cairo_surface_t *tile;
  cairo_t *cr;

  if (self->hatch != NULL && self->hatch_fg == style->fg_dim)
    return self->hatch;
  g_clear_pointer (&self->hatch, cairo_pattern_destroy);
  tile = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 6, 6);
  cr = cairo_create (tile);
  set_rgb (cr, sl_timeline_color_mix (style->bg, style->fg_dim, 0.25f));
  cairo_paint (cr);
  set_rgb (cr, sl_timeline_color_mix (style->bg, style->fg_dim, 0.7f));
  cairo_set_line_width (cr, 1.5);
  cairo_move_to (cr, -1, 7);
  cairo_line_to (cr, 7, -1);
  cairo_stroke (cr);
  cairo_destroy (cr);
  self->hatch = cairo_pattern_create_for_surface (tile);
  cairo_pattern_set_extend (self->hatch, CAIRO_EXTEND_REPEAT);
  cairo_surface_destroy (tile);
  self->hatch_fg = style->fg_dim;
  return self->hatch;
}

static const char *
prim_name (const SlFlameLayout *layout, const SlFlameViewport *vp, const SlFlamePrim *p,
           const char *root_label)
{
  if (vp->mode == SL_FLAME_MODE_STACK)
    return sl_flame_layout_box_name (layout, &layout->rows[p->node].boxes[p->box]);
  return layout->nodes[p->node].name ? layout->nodes[p->node].name : root_label;
}

static guint32
prim_rgb (const SlFlamePrim *p, const SlFlameViewport *vp, const SlFlameLayout *layout,
          const SlTimelineStyle *style)
{
  guint32 rgb;

  if (vp->mode == SL_FLAME_MODE_GRAPH && layout->nodes[p->node].kind == SL_FLAME_ROOT)
    rgb = sl_timeline_color_mix (style->bg, style->fg_dim, 0.35f);
  else
    rgb = sl_timeline_color_rgb (p->color);
  return p->dim ? sl_timeline_color_mix (rgb, style->bg, 0.75f) : rgb;
}

static gboolean
draw_label (SlFlameRenderer *self, cairo_t *cr, const char *text, double x, double w, double y,
            guint32 on)
{
  if (w < LABEL_MIN_W)
    return FALSE;
  set_rgb (cr, on);
  return sl_timeline_font_show (cr, &self->font, text, x + PAD,
                                y + (SL_FLAME_ROW_HEIGHT - 1 + self->font.ascent - self->font.descent) / 2,
                                w - 2 * PAD);
}

static void
draw_prim (SlFlameRenderer *self, cairo_t *cr, const SlFlameLayout *layout, const SlFlameViewport *vp,
           const SlTimelineStyle *style, const SlFlamePrim *p, const char *root_label,
           SlFlameRenderStats *stats)
{
  double x = floor (p->x0), w = MAX (1.0, round (p->x1) - x), y = p->row * SL_FLAME_ROW_HEIGHT;
  guint32 rgb;

  if (w > 3)
    w -= 1;   /* a pixel between neighbours of one colour */

  cairo_rectangle (cr, x, y, w, SL_FLAME_ROW_HEIGHT - 1);
  if (p->kind == SL_FLAME_PRIM_MORE)
    {
      cairo_set_source (cr, hatch_pattern (self, style));
      cairo_fill (cr);
      if (w >= 60)
        {
          g_autofree char *text = g_strdup_printf (_("%u more"), p->count);
          stats->n_labels += draw_label (self, cr, text, x, w, y, style->fg);
        }
      return;
    }
  rgb = prim_rgb (p, vp, layout, style);
  set_rgb (cr, rgb);
  cairo_fill (cr);
  if (w >= LABEL_MIN_W)
    stats->n_labels += draw_label (self, cr, prim_name (layout, vp, p, root_label), x, w, y,
                                   p->dim ? style->fg_dim : sl_timeline_color_text_on (rgb));
}

/* The stack's row labels in the gutter, where the timeline has its header. */
static void
draw_gutter (SlFlameRenderer *self, cairo_t *cr, const SlFlameLayout *layout, const SlFlameViewport *vp,
             const SlTimelineStyle *style, double height)
{
  set_rgb (cr, style->header_bg);
  cairo_rectangle (cr, 0, 0, vp->gutter, height);
  cairo_fill (cr);
  for (guint r = vp->first_row; r < layout->n_rows && r < vp->first_row + vp->n_rows; r++)
    {
      const SlFlameRow *row = &layout->rows[r];
      double y = (r - vp->first_row) * SL_FLAME_ROW_HEIGHT;
      g_autofree char *text = NULL;

      if (row->lane > 0)
        continue;
      if (row->depth == 0)
        text = g_strdup_printf (_("PID %u · depth %u"), row->pid, row->depth);
      else
        text = g_strdup_printf (_("depth %u"), row->depth);
      if (row->depth == 0 && r > vp->first_row)
        {
          set_rgb (cr, style->group_rule);
          cairo_rectangle (cr, 0, y - 1, vp->gutter + vp->width, 1);
          cairo_fill (cr);
        }
      draw_label (self, cr, text, row->depth == 0 ? 4 : 16, vp->gutter - 20, y,
                  row->depth == 0 ? style->fg : style->fg_dim);
    }
}

void
sl_flame_renderer_draw (SlFlameRenderer *self, cairo_t *cr, const SlFlameLayout *layout,
                        const SlFlameViewport *vp, const SlTimelineStyle *style, double height,
                        const char *root_label, GArray *prims, const SlFlamePrim *hovered,
                        SlFlameRenderStats *stats)
{
  SlFlameRenderStats local = { 0 };

  if (stats == NULL)
    stats = &local;
  *stats = local;
  cairo_save (cr);
  set_rgb (cr, style->bg);
  cairo_rectangle (cr, 0, 0, vp->gutter + vp->width, height);
  cairo_fill (cr);
  sl_flame_view_build (layout, vp, prims);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  if (vp->gutter > 0)
    draw_gutter (self, cr, layout, vp, style, height);
  cairo_rectangle (cr, vp->gutter, 0, vp->width, height);
  cairo_clip (cr);
  cairo_translate (cr, vp->gutter, 0);
  for (guint i = 0; i < prims->len; i++)
    draw_prim (self, cr, layout, vp, style, &g_array_index (prims, SlFlamePrim, i), root_label, stats);
  stats->n_prims = prims->len;
  for (guint i = 0; i < prims->len; i++)
    {
      const SlFlamePrim *p = &g_array_index (prims, SlFlamePrim, i);
      double x, w;

      if (!p->selected)
        continue;
      /* the session's selection, as the timeline outlines it */
      x = floor (p->x0);
      w = MAX (3.0, round (p->x1) - x);
      set_rgb (cr, style->accent);
      cairo_set_line_width (cr, 2.0);
      cairo_rectangle (cr, x + 1, p->row * SL_FLAME_ROW_HEIGHT + 1, w - 2, SL_FLAME_ROW_HEIGHT - 3);
      cairo_stroke (cr);
    }
  if (hovered != NULL)
    {
      double x = floor (hovered->x0), w = MAX (1.0, round (hovered->x1) - x);
      set_rgb (cr, style->hover);
      cairo_set_line_width (cr, 2.0);
      cairo_rectangle (cr, x + 1, hovered->row * SL_FLAME_ROW_HEIGHT + 1, w - 2, SL_FLAME_ROW_HEIGHT - 3);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}
