/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-minimap.c: the minimap's data (every stream merged over the
 * whole run) and drawing it with the window of the current view. */
#include "sl-timeline-minimap.h"
#include "sl-timeline-columns.h"
#include "sl-timeline-render-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* The minimap's columns, kept with the layout while the body width holds. */
typedef struct {
  int      width;
  float   *value;
  guint8  *color;
} Overview;

static void
overview_clear (Overview *ov)
{
  g_clear_pointer (&ov->value, g_free);
  g_clear_pointer (&ov->color, g_free);
}

static void
overview_free (gpointer data)
{
  overview_clear (data);
  g_free (data);
}

/* Each column's colour: that of the row busiest there. */
static void
overview_colors (SlTimelineLayout *self, Overview *ov, int W, double t0, double px_ns)
{
  const SlTimelineModel *m = self->model;
  g_autofree float *best = g_new0 (float, W);

  for (guint r = 0; r < m->n_rows; r++)
    {
      SlRowColumns cols;

      if (m->rows[r].kind != SL_ROW_STREAM)
        continue;
      _sl_timeline_layout_track_summary (self, r, t0, px_ns, &cols);
      for (int c = 0; c < W; c++)
        if (MIN (cols.cov[c], 1.0f) > best[c])
          {
            best[c] = MIN (cols.cov[c], 1.0f);
            ov->color[c] = cols.color[c];
          }
    }
}

/* The height of each column is the GPUs' utilization there, resampled from
 * the model's bins (sl-timeline-model.c): a first frame never walks every
 * kernel, whatever else runs meanwhile (a staged load's CPU side). */
static void
overview_build (SlTimelineLayout *self, Overview *ov, int W)
{
  const SlTimelineModel *m = self->model;
  double px_ns = sl_timeline_layout_max_px_ns (self);
  double per = px_ns / m->busy_bin_ns;   /* bins per column */
  /* the bins may start later than the profile (those of its GPU rows) */
  double first = (double) (m->start_ns - m->busy_t0) / m->busy_bin_ns;

  overview_clear (ov);
  ov->value = g_new0 (float, W);
  ov->color = g_new0 (guint8, W);
  ov->width = W;
  overview_colors (self, ov, W, m->start_ns, px_ns);
  for (int c = 0; c < W; c++)
    {
      double a = first + c * per, b = a + per, sum = 0;

      for (gint64 k = MAX ((gint64) floor (a), 0); k < (gint64) ceil (b) && k < SL_TIMELINE_BUSY_BINS; k++)
        sum += (MIN (b, (double) (k + 1)) - MAX (a, (double) k)) * m->busy[k];
      ov->value[c] = (float) MIN (sum / per, 1.0);
    }
}

void
sl_timeline_layout_overview (SlTimelineLayout  *self,
                             const float      **values,
                             const guint8     **colors)
{
  Overview *ov = sl_view_cache_get (&self->overview, sizeof (Overview), overview_free);
  int W = sl_timeline_layout_body_width (self);

  if (ov->value == NULL || ov->width != W)
    overview_build (self, ov, W);
  *values = ov->value;
  *colors = ov->color;
}

void
_sl_timeline_minimap_write (SlFrame *f)
{
  const float *ov;
  const guint8 *ov_color;
  guint32 mbg = f->style->minimap_bg;
  guint32 *scan = f->renderer->scan;
  int hw = f->header_width, mh = f->layout->minimap_height;
  int top = (int) (3 * f->scale), bottom = mh - (int) (3 * f->scale);

  sl_timeline_layout_overview (f->layout, &ov, &ov_color);
  _sl_fill_span (scan, 0, hw, _sl_opaque (f->style->header_bg));
  _sl_fill_span (scan, hw, f->width, _sl_opaque (mbg));
  _sl_frame_copy_lines (f, 0, MIN (mh, f->height), scan);
  /* a bar per column, its top line a lighter trace of any activity */
  for (int y = top; y < bottom && y < f->height; y++)
    {
      guint32 *line = _sl_frame_line (f, y) + hw;
      double level = (double) (bottom - y) / (bottom - top);

      for (int c = 0; c < f->body_width; c++)
        if (ov[c] > 0 && ov[c] >= level - 1e-6)
          line[c] = _sl_opaque (sl_timeline_color_mix (mbg, sl_timeline_color_rgb (ov_color[c]), 0.85f));
        else if (ov[c] > 0 && y == bottom - 1)
          line[c] = _sl_opaque (sl_timeline_color_mix (mbg, sl_timeline_color_rgb (ov_color[c]), 0.5f));
    }
}

void
_sl_timeline_minimap_draw_overlay (SlFrame *f)
{
  SlTimelineLayout *l = f->layout;
  const SlTimelineFont *font = &f->renderer->small;
  guint32 accent = f->style->accent;
  double s = f->scale, hw = f->header_width;
  double x0 = hw + sl_timeline_layout_overview_x (l, l->t0);
  double x1 = hw + sl_timeline_layout_overview_x (l, l->t0 + l->px_ns * f->body_width);

  _sl_set_source_rgba (f->cr, f->style->fg_dim, 1);
  sl_timeline_font_show (f->cr, font, _("GPU utilization"), 6 * s,
                         (l->minimap_height + font->ascent - font->descent) / 2, hw - 12 * s);
  f->stats.n_labels++;

  /* the window of the current view */
  x0 = floor (MAX (x0, hw));
  x1 = ceil (MIN (MAX (x1, x0 + 3 * s), f->width));
  cairo_rectangle (f->cr, x0, 0, x1 - x0, l->minimap_height);
  _sl_set_source_rgba (f->cr, accent, 0.15);
  cairo_fill_preserve (f->cr);
  _sl_set_source_rgba (f->cr, accent, 1);
  cairo_set_line_width (f->cr, MAX (1, (int) s));
  cairo_stroke (f->cr);
  f->stats.n_cairo += 2;
}
