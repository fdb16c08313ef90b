/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-render.c: the renderer, its fonts and scanlines, and the
 * order of the passes that draw a frame. */
#include "sl-timeline-render-private.h"

SlTimelineRenderer *
sl_timeline_renderer_new (void)
{
  SlTimelineRenderer *self = g_new0 (SlTimelineRenderer, 1);

  self->labels = g_array_new (FALSE, FALSE, sizeof (SlLabel));
  self->ticks = g_array_new (FALSE, FALSE, sizeof (gint64));
  _sl_timeline_ruler_init (self);
  return self;
}

static void
clear_fonts (SlTimelineRenderer *self)
{
  sl_timeline_font_clear (&self->label);
  sl_timeline_font_clear (&self->header);
  sl_timeline_font_clear (&self->bold);
  sl_timeline_font_clear (&self->small);
}

void
sl_timeline_renderer_free (SlTimelineRenderer *self)
{
  if (self == NULL)
    return;
  clear_fonts (self);
  _sl_timeline_highlight_clear (self);
  g_free (self->scan);
  g_free (self->band);
  g_free (self->bgscan);
  g_array_unref (self->labels);
  g_array_unref (self->ticks);
  _sl_timeline_ruler_clear (self);
  g_free (self);
}

static void
ensure_fonts (SlTimelineRenderer *self, double scale)
{
  if (self->label.font != NULL && self->scale == scale)
    return;
  clear_fonts (self);
  self->scale = scale;
  sl_timeline_font_init (&self->label, 11 * scale, FALSE);
  sl_timeline_font_init (&self->header, 12 * scale, FALSE);
  sl_timeline_font_init (&self->bold, 12 * scale, TRUE);
  sl_timeline_font_init (&self->small, 10.5 * scale, FALSE);
}

static void
ensure_scanlines (SlTimelineRenderer *self, int width)
{
  if (self->scan_len >= width)
    return;
  self->scan_len = width;
  self->scan = g_renew (guint32, self->scan, width);
  self->band = g_renew (guint32, self->band, width);
  self->bgscan = g_renew (guint32, self->bgscan, width);
}

void
_sl_set_source_rgba (cairo_t *cr,
                     guint32  rgb,
                     double   alpha)
{
  cairo_set_source_rgba (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                         (rgb & 0xff) / 255.0, alpha);
}

static void
frame_init (SlFrame *f, SlTimelineRenderer *self, SlTimelineLayout *layout,
            const SlTimelineStyle *style, cairo_surface_t *image)
{
  memset (f, 0, sizeof *f);
  f->renderer = self;
  f->layout = layout;
  f->style = style;
  f->scale = style->scale;
  f->data = cairo_image_surface_get_data (image);
  f->stride = cairo_image_surface_get_stride (image);
  f->width = layout->width;
  f->height = layout->height;
  f->header_width = layout->header_width;
  f->body_y = sl_timeline_layout_body_y (layout);
  f->body_width = sl_timeline_layout_body_width (layout);
}

void
sl_timeline_renderer_draw (SlTimelineRenderer    *self,
                           SlTimelineLayout      *layout,
                           const SlTimelineStyle *style,
                           cairo_surface_t       *image,
                           SlRenderStats         *stats)
{
  gint64 begin = g_get_monotonic_time ();
  SlFrame f;

  g_return_if_fail (cairo_image_surface_get_format (image) == CAIRO_FORMAT_ARGB32);
  g_return_if_fail (cairo_image_surface_get_width (image) >= layout->width);
  g_return_if_fail (cairo_image_surface_get_height (image) >= layout->height);

  ensure_fonts (self, style->scale);
  ensure_scanlines (self, layout->width);
  cairo_surface_flush (image);
  frame_init (&f, self, layout, style, image);

  /* pixels: the ticks place the grid, then every line is written once */
  _sl_timeline_ruler_collect_ticks (&f);
  if (!layout->hide_header)
    {
      _sl_timeline_minimap_write (&f);
      _sl_timeline_ruler_write (&f);
    }
  _sl_timeline_rows_write (&f);
  f.stats.pixel_ms = (g_get_monotonic_time () - begin) / 1000.0;

  /* text and outlines on top */
  cairo_surface_mark_dirty (image);
  f.cr = cairo_create (image);
  _sl_timeline_rows_draw_labels (&f);
  _sl_timeline_rows_draw_headers (&f);
  if (!layout->hide_header)
    {
      _sl_timeline_ruler_draw_labels (&f);
      _sl_timeline_minimap_draw_overlay (&f);
    }
  cairo_destroy (f.cr);

  /* the highlight's veil and outlines go over the text */
  cairo_surface_flush (image);
  _sl_timeline_highlight_write (&f);
  cairo_surface_mark_dirty (image);

  f.stats.n_cairo += f.stats.n_labels;
  f.stats.text_ms = (g_get_monotonic_time () - begin) / 1000.0 - f.stats.pixel_ms;
  if (stats)
    *stats = f.stats;
}
