/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-rows.c: the rows: their titles, their headers, and writing
 * each row's merged columns, boxes and labels into the frame. */
#include "sl-timeline-rows.h"
#include "sl-timeline-columns.h"
#include "sl-timeline-render-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

char *
sl_timeline_row_title (const SlTimelineModel *model,
                       guint                  r)
{
  const SlProfile *p = model->profile;
  const SlTimelineRow *row = &model->rows[r];

  switch (row->kind)
    {
    case SL_ROW_GPU:
      {
        const SlGpu *gpu = &p->gpus[row->index];
        if (gpu->name && *gpu->name)
          return g_strdup_printf (_("GPU %u · %s"), gpu->device, gpu->name);
        return g_strdup_printf (_("GPU %u"), gpu->device);
      }
    case SL_ROW_PROCESS:
      return g_strdup_printf (_("%s · pid %u"), sl_profile_process_name (p, row->index),
                              p->processes[row->index].pid);
    case SL_ROW_THREAD:
      return g_strdup_printf (_("%s · tid %u"), sl_profile_thread_name (p, row->index),
                              p->threads[row->index].tid);
    case SL_ROW_STREAM:
      {
        const SlStream *st = &p->streams[row->index];
        const SlGpu *gpu = &p->gpus[st->gpu];
        gboolean many_pids = FALSE;

        for (guint k = 0; k < gpu->n_streams; k++)
          if (p->streams[gpu->streams[k]].pid != st->pid)
            many_pids = TRUE;
        if (many_pids)
          return g_strdup_printf (_("Stream %u · pid %u"), st->stream, st->pid);
        return g_strdup_printf (_("Stream %u"), st->stream);
      }
    case SL_ROW_API:
      return g_strdup (_("CUDA API"));
    case SL_ROW_NVTX:
      if (row->depth == 0)
        return g_strdup (_("NVTX"));
      return g_strdup_printf (_("NVTX · level %u"), row->depth + 1);
    case SL_ROW_NVTX_STARTEND:
      if (row->depth == 0)
        return g_strdup (_("NVTX start/end"));
      return g_strdup_printf (_("NVTX start/end · lane %u"), row->depth + 1);
    case SL_ROW_MARKS:
      return g_strdup (_("NVTX marks"));
    case SL_ROW_GPU_UTIL:
      return g_strdup (_("Utilization"));
    case SL_ROW_NVTX_PROJECTED:
      if (row->depth == 0)
        return g_strdup (_("NVTX (projected)"));
      return g_strdup_printf (_("NVTX (projected) · %u"), row->depth + 1);
    case SL_ROW_OSRT:
    case SL_ROW_SAMPLES:
    case SL_ROW_METRIC:
    case SL_ROW_CPU_PROCESS:
    case SL_ROW_CPU_THREAD:
    case SL_ROW_METRIC_DEVICE:
      return sl_timeline_cpu_row_title (model, r);
    default:
      return g_strdup ("");
    }
}

static const char *
box_text (const SlTimelineModel *m, const SlTimelineRow *row, const SlBox *box)
{
  SlEventRef ev;

  if (row->kind == SL_ROW_MARKS || row->kind == SL_ROW_SAMPLES)
    {
      ev.kind = row->kind == SL_ROW_MARKS ? SL_EVENT_MARK : SL_EVENT_SAMPLE;
      ev.owner = row->index;
    }
  else
    {
      ev.kind = row->segs[box->seg].kind;
      ev.owner = row->segs[box->seg].owner;
    }
  ev.index = box->index;
  return sl_timeline_model_event_name (m, &ev);
}

/* The body's background line: header column, its edge, the grid under
 * every major tick. */
static void
fill_background (SlFrame *f)
{
  const SlTimelineStyle *style = f->style;
  guint32 *bgscan = f->renderer->bgscan;
  GArray *ticks = f->renderer->ticks;
  int hw = f->header_width;

  _sl_fill_span (bgscan, 0, hw, _sl_opaque (style->header_bg));
  _sl_fill_span (bgscan, hw, f->width, _sl_opaque (style->bg));
  if (hw > 0)
    bgscan[hw - 1] = _sl_opaque (style->grid);
  for (guint k = 0; k < ticks->len; k++)
    {
      int x = (int) floor (sl_timeline_layout_time_to_x (f->layout, g_array_index (ticks, gint64, k)));
      if (x >= 0 && x < f->body_width)
        bgscan[f->header_width + x] = _sl_opaque (style->grid);
    }
}

/* Merged columns: the row's colour, denser where more is busy. */
static void
write_columns (SlFrame *f, const SlRowColumns *cols, guint32 base)
{
  guint32 *scan = f->renderer->scan + f->header_width;

  for (int c = 0; c < cols->n_cols; c++)
    if (cols->cov[c] > 0)
      {
        float a = 0.4f + 0.6f * MIN (cols->cov[c], 1.0f);
        scan[c] = _sl_opaque (sl_timeline_color_mix (base, sl_timeline_color_rgb (cols->color[c]), a));
        f->stats.n_columns++;
      }
}

static void
queue_label (SlFrame *f, const SlTimelineRow *row, const SlBox *b, int y, int h, int top)
{
  const SlTimelineFont *font = &f->renderer->label;
  double s = f->scale;
  SlLabel l;

  l.text = box_text (f->layout->model, row, b);
  l.x = f->header_width + b->x0 + 3 * s;
  l.max_w = b->x1 - b->x0 - 5 * s;
  l.baseline = y + (h + font->ascent - font->descent) / 2;
  l.rgb = sl_timeline_color_text_on (b->rgb);
  l.top = top;
  g_array_append_val (f->renderer->labels, l);
}

/* Whole events: a box each, wide ones with a label. */
static void
write_boxes (SlFrame *f, const SlTimelineRow *row, const SlRowColumns *cols, gboolean group,
             int y, int h, int top)
{
  guint32 *scan = f->renderer->scan + f->header_width;
  double s = f->scale;

  for (guint k = 0; k < cols->n_boxes; k++)
    {
      const SlBox *b = &cols->boxes[k];
      int wd = b->x1 - b->x0;

      _sl_fill_span (scan, b->x0, b->x1, _sl_opaque (b->rgb));
      /* a darker left edge separates back-to-back events */
      if (wd >= 3 * s)
        scan[b->x0] = _sl_opaque (sl_timeline_color_mix (b->rgb, 0x000000, 0.35f));
      if (wd >= 24 * s && !group)
        queue_label (f, row, b, y, h, top);
    }
  f->stats.n_boxes += cols->n_boxes;
}

/* Row @r at widget y @y, height @h: lines [top, bottom) are in the frame. */
static void
write_row (SlFrame *f, guint r, int y, int h, int top, int bottom)
{
  SlTimelineRenderer *rd = f->renderer;
  const SlTimelineStyle *style = f->style;
  gboolean group = sl_timeline_layout_is_group (f->layout, r);
  const guint32 *plain = group ? rd->band : rd->bgscan;
  int pad = group ? (int) (6 * f->scale) : MAX (1, (int) (2 * f->scale));
  int y0 = CLAMP (y + pad, top, bottom);
  int y1 = CLAMP (y + h - pad, y0, bottom);
  SlRowColumns cols;

  if (f->layout->model->rows[r].kind == SL_ROW_GPU_UTIL)
    {
      _sl_timeline_util_row_write (f, r, y, h, top, bottom);
      return;
    }
  if (f->layout->model->rows[r].kind == SL_ROW_METRIC)
    {
      _sl_timeline_metrics_write (f, r, y, h, top, bottom);
      return;
    }
  if (group)
    _sl_fill_span (rd->band, 0, f->width, _sl_opaque (style->group_bg));
  memcpy (rd->scan, plain, f->width * sizeof (guint32));

  sl_timeline_layout_row_columns (f->layout, r, &cols);
  f->stats.n_visited += cols.n_visited;
  write_columns (f, &cols, group ? style->group_bg : style->bg);
  write_boxes (f, &f->layout->model->rows[r], &cols, group, y, h,
               sl_timeline_layout_row_clip_top (f->layout, r));

  _sl_frame_copy_lines (f, top, y0, plain);
  _sl_frame_copy_lines (f, y0, y1, rd->scan);
  _sl_frame_copy_lines (f, y1, bottom, plain);
  if (group && y >= top && y < f->height)
    _sl_fill_span (_sl_frame_line (f, y), 0, f->width, _sl_opaque (style->group_rule));
}

/* A firm line under the pinned band: the rows below it scroll. */
static void
draw_band_edge (SlFrame *f)
{
  int band = sl_timeline_layout_band_height (f->layout);
  int t = MAX (1, (int) f->scale);
  int y = f->body_y + band;

  if (band <= 0)
    return;
  for (int k = 0; k < t && y - 1 - k >= f->body_y && y - 1 - k < f->height; k++)
    _sl_fill_span (_sl_frame_line (f, y - 1 - k), 0, f->width, _sl_opaque (f->style->accent));
}

void
_sl_timeline_rows_write (SlFrame *f)
{
  SlTimelineLayout *l = f->layout;
  int next_line = MIN (f->body_y, f->height);

  fill_background (f);
  g_array_set_size (f->renderer->labels, 0);
  /* every body line is written exactly once, one scanline per row: the
   * pinned band's rows, then the scrolled ones below it */
  for (guint i = 0; i < sl_timeline_layout_n_shown (l); i++)
    {
      guint r = sl_timeline_layout_shown_row (l, i);
      int y, h, top, bottom, clip = sl_timeline_layout_row_clip_top (l, r);

      if (!sl_timeline_layout_row_rect (l, r, &y, &h) || y + h <= clip)
        continue;
      if (y >= f->height)
        break;
      f->stats.n_rows++;
      top = MAX (y, clip);
      bottom = MIN (y + h, f->height);
      if (top > next_line)
        _sl_frame_copy_lines (f, next_line, top, f->renderer->bgscan);
      next_line = MAX (next_line, bottom);
      write_row (f, r, y, h, top, bottom);
    }
  if (next_line < f->height)
    _sl_frame_copy_lines (f, next_line, f->height, f->renderer->bgscan);
  draw_band_edge (f);
}

void
_sl_timeline_rows_draw_labels (SlFrame *f)
{
  GArray *labels = f->renderer->labels;
  int band_end = f->body_y + sl_timeline_layout_band_height (f->layout);
  int clip = -1;

  cairo_save (f->cr);
  for (guint k = 0; k < labels->len; k++)
    {
      const SlLabel *l = &g_array_index (labels, SlLabel, k);

      if (l->text == NULL || *l->text == '\0')
        continue;
      /* the band's labels come first, then the scrolled rows' below it */
      if (l->top != clip)
        {
          int bottom = l->top == f->body_y && band_end > f->body_y ? band_end : f->height;

          clip = l->top;
          cairo_reset_clip (f->cr);
          cairo_rectangle (f->cr, f->header_width, clip, f->body_width, MAX (bottom - clip, 0));
          cairo_clip (f->cr);
        }
      _sl_set_source_rgba (f->cr, l->rgb, 1);
      if (sl_timeline_font_show (f->cr, &f->renderer->label, l->text, l->x, l->baseline, l->max_w))
        f->stats.n_labels++;
    }
  cairo_restore (f->cr);
}

/* A group's triangle: pointing right when folded, down when open. */
static void
draw_disclosure (SlFrame *f, double cx, double cy, gboolean collapsed)
{
  cairo_t *cr = f->cr;
  double s = f->scale;

  if (collapsed)
    {
      cairo_move_to (cr, cx - 2.5 * s, cy - 4 * s);
      cairo_line_to (cr, cx + 2.5 * s, cy);
      cairo_line_to (cr, cx - 2.5 * s, cy + 4 * s);
    }
  else
    {
      cairo_move_to (cr, cx - 4 * s, cy - 2.5 * s);
      cairo_line_to (cr, cx + 4 * s, cy - 2.5 * s);
      cairo_line_to (cr, cx, cy + 2.5 * s);
    }
  cairo_close_path (cr);
  cairo_fill (cr);
  f->stats.n_cairo++;
}

/* A pinned row away from its group says whose it is ("GPU 0 · NVIDIA H100
 * · Stream 15"): in the band, "Stream 15" alone names no GPU. */
static char *
header_title (const SlTimelineLayout *l, guint r)
{
  const SlTimelineModel *m = l->model;
  guint32 parent = m->rows[r].parent;
  g_autofree char *own = sl_timeline_row_title (m, r);
  g_autofree char *up = NULL;

  if (!sl_timeline_layout_row_pinned (l, r) || parent == SL_NONE || sl_timeline_layout_row_in_band (l, parent))
    return g_steal_pointer (&own);
  up = sl_timeline_row_title (m, parent);
  /* Translators: a pinned row's label: its group's title · its own */
  return g_strdup_printf (C_("pinned row", "%s · %s"), up, own);
}

static void
draw_header (SlFrame *f, guint r, int y, int h)
{
  SlTimelineRenderer *rd = f->renderer;
  const SlTimelineRow *row = &f->layout->model->rows[r];
  gboolean group = sl_timeline_layout_is_group (f->layout, r);
  const SlTimelineFont *font = row->level == 0 ? &rd->bold : &rd->header;
  double s = f->scale;
  double indent = (6 + 14 * row->level) * s;
  double baseline = y + (h + font->ascent - font->descent) / 2;
  g_autofree char *text = NULL;

  if (sl_timeline_layout_row_pinned (f->layout, r))
    {
      /* a pinned row's mark: the band's colour down its label's edge */
      _sl_set_source_rgba (f->cr, f->style->accent, 1);
      cairo_rectangle (f->cr, 0, y, 3 * s, h);
      cairo_fill (f->cr);
      f->stats.n_cairo++;
    }
  _sl_set_source_rgba (f->cr, group ? f->style->fg : f->style->fg_dim, 1);
  if (group)
    {
      draw_disclosure (f, indent + 4 * s, y + h / 2.0,
                       sl_timeline_layout_get_collapsed (f->layout, r));
      indent += 13 * s;
    }
  text = header_title (f->layout, r);
  if (sl_timeline_font_show_middle (f->cr, font, text, indent, baseline, f->header_width - indent - 6 * s))
    f->stats.n_labels++;
}

void
_sl_timeline_rows_draw_headers (SlFrame *f)
{
  SlTimelineLayout *l = f->layout;

  for (guint i = 0; i < sl_timeline_layout_n_shown (l); i++)
    {
      guint r = sl_timeline_layout_shown_row (l, i);
      int y, h, clip = sl_timeline_layout_row_clip_top (l, r);

      if (!sl_timeline_layout_row_rect (l, r, &y, &h) || y + h <= clip)
        continue;
      if (y >= f->height)
        break;
      cairo_save (f->cr);
      cairo_rectangle (f->cr, 0, clip, f->header_width, f->height - clip);
      cairo_clip (f->cr);
      draw_header (f, r, y, h);
      cairo_restore (f->cr);
    }
}
