/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-render.c: drawing the timeline into an image surface. */
#include "sl-timeline-render.h"
#include "sl-timeline-colors.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define N_ASCII 95
#define MAX_GLYPHS 200

typedef struct {
  cairo_scaled_font_t *font;
  unsigned long        glyph[N_ASCII];
  double               adv[N_ASCII];
  unsigned long        ell_glyph;
  double               ell_adv;
  double               ascent, descent;
} Font;

typedef struct {
  const char *text;
  double      x, baseline, max_w;
  guint32     rgb;
} Label;

struct _SlTimelineRenderer {
  double   scale;
  Font     label, header, bold, small;
  guint32 *scan, *band, *bgscan;
  int      scan_len;
  GArray  *labels;
  GArray  *ticks;
};

static void
font_init (Font *f, double size, gboolean bold)
{
  cairo_font_face_t *face;
  cairo_font_options_t *options;
  cairo_matrix_t fm, ctm;
  cairo_glyph_t *glyphs = NULL;
  cairo_font_extents_t fe;
  cairo_text_extents_t te;
  char ascii[N_ASCII + 1];
  int n = 0;

  face = cairo_toy_font_face_create ("Sans", CAIRO_FONT_SLANT_NORMAL,
                                     bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  options = cairo_font_options_create ();
  cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_ON);
  cairo_matrix_init_scale (&fm, size, size);
  cairo_matrix_init_identity (&ctm);
  f->font = cairo_scaled_font_create (face, &fm, &ctm, options);
  cairo_font_options_destroy (options);
  cairo_font_face_destroy (face);

  for (int i = 0; i < N_ASCII; i++)
    ascii[i] = (char) (32 + i);
  ascii[N_ASCII] = '\0';
  memset (f->glyph, 0, sizeof f->glyph);
  memset (f->adv, 0, sizeof f->adv);
  if (cairo_scaled_font_text_to_glyphs (f->font, 0, 0, ascii, N_ASCII, &glyphs, &n,
                                        NULL, NULL, NULL) == CAIRO_STATUS_SUCCESS && n == N_ASCII)
    for (int i = 0; i < N_ASCII; i++)
      {
        f->glyph[i] = glyphs[i].index;
        cairo_scaled_font_glyph_extents (f->font, &glyphs[i], 1, &te);
        f->adv[i] = te.x_advance;
      }
  cairo_glyph_free (glyphs);
  glyphs = NULL;
  f->ell_glyph = f->glyph['.' - 32];
  f->ell_adv = f->adv['.' - 32];
  if (cairo_scaled_font_text_to_glyphs (f->font, 0, 0, "…", -1, &glyphs, &n,
                                        NULL, NULL, NULL) == CAIRO_STATUS_SUCCESS && n == 1)
    {
      f->ell_glyph = glyphs[0].index;
      cairo_scaled_font_glyph_extents (f->font, glyphs, 1, &te);
      f->ell_adv = te.x_advance;
    }
  cairo_glyph_free (glyphs);
  cairo_scaled_font_extents (f->font, &fe);
  f->ascent = fe.ascent;
  f->descent = fe.descent;
}

static void
font_clear (Font *f)
{
  g_clear_pointer (&f->font, cairo_scaled_font_destroy);
}

SlTimelineRenderer *
sl_timeline_renderer_new (void)
{
  SlTimelineRenderer *self = g_new0 (SlTimelineRenderer, 1);

  self->labels = g_array_new (FALSE, FALSE, sizeof (Label));
  self->ticks = g_array_new (FALSE, FALSE, sizeof (gint64));
  return self;
}

void
sl_timeline_renderer_free (SlTimelineRenderer *self)
{
  if (self == NULL)
    return;
  font_clear (&self->label);
  font_clear (&self->header);
  font_clear (&self->bold);
  font_clear (&self->small);
  g_free (self->scan);
  g_free (self->band);
  g_free (self->bgscan);
  g_array_unref (self->labels);
  g_array_unref (self->ticks);
  g_free (self);
}

static void
ensure_fonts (SlTimelineRenderer *self, double scale)
{
  if (self->label.font != NULL && self->scale == scale)
    return;
  font_clear (&self->label);
  font_clear (&self->header);
  font_clear (&self->bold);
  font_clear (&self->small);
  self->scale = scale;
  font_init (&self->label, 11 * scale, FALSE);
  font_init (&self->header, 12 * scale, FALSE);
  font_init (&self->bold, 12 * scale, TRUE);
  font_init (&self->small, 10.5 * scale, FALSE);
}

/* Shows @text from (x, baseline) cut with an ellipsis to @max_w.  Returns
 * FALSE when not even one character fits. */
static gboolean
draw_text (cairo_t *cr, const Font *f, const char *text, double x, double baseline,
           double max_w)
{
  cairo_glyph_t glyphs[MAX_GLYPHS + 1];
  double adv[MAX_GLYPHS];
  double pen = 0;
  int n = 0;
  gboolean cut = FALSE;

  for (const guchar *p = (const guchar *) text; *p; p++)
    {
      int idx;

      if (*p >= 0x80)
        {
          /* rare non-ASCII names: let cairo map the whole string */
          cairo_glyph_t *gl = NULL;
          int ng = 0;
          double end = x + max_w;

          if (cairo_scaled_font_text_to_glyphs (f->font, x, baseline, text, -1, &gl, &ng,
                                                NULL, NULL, NULL) != CAIRO_STATUS_SUCCESS)
            return FALSE;
          n = 0;
          while (n < ng && n < MAX_GLYPHS)
            {
              double next = n + 1 < ng ? gl[n + 1].x : gl[n].x + f->ell_adv;
              if (next > end)
                break;
              n++;
            }
          if (n < ng)
            {
              while (n > 0 && gl[n].x + f->ell_adv > end)
                n--;
              if (n == 0)
                {
                  cairo_glyph_free (gl);
                  return FALSE;
                }
              memcpy (glyphs, gl, n * sizeof (cairo_glyph_t));
              glyphs[n].index = f->ell_glyph;
              glyphs[n].x = gl[n].x;
              glyphs[n].y = baseline;
              n++;
            }
          else
            memcpy (glyphs, gl, n * sizeof (cairo_glyph_t));
          cairo_glyph_free (gl);
          cairo_set_scaled_font (cr, f->font);
          cairo_show_glyphs (cr, glyphs, n);
          return TRUE;
        }
      if (n == MAX_GLYPHS)
        {
          cut = TRUE;
          break;
        }
      idx = (*p < 32 || *p == 127) ? 0 : *p - 32;
      if (pen + f->adv[idx] > max_w)
        {
          cut = TRUE;
          break;
        }
      glyphs[n].index = f->glyph[idx];
      glyphs[n].x = x + pen;
      glyphs[n].y = baseline;
      adv[n] = f->adv[idx];
      pen += adv[n];
      n++;
    }
  if (cut)
    {
      while (n > 0 && pen + f->ell_adv > max_w)
        pen -= adv[--n];
      if (n == 0)
        return FALSE;
      glyphs[n].index = f->ell_glyph;
      glyphs[n].x = x + pen;
      glyphs[n].y = baseline;
      n++;
    }
  if (n == 0)
    return FALSE;
  cairo_set_scaled_font (cr, f->font);
  cairo_show_glyphs (cr, glyphs, n);
  return TRUE;
}

static inline guint32
opaque (guint32 rgb)
{
  return 0xff000000u | rgb;
}

static void
fill_span (guint32 *line, int x0, int x1, guint32 px)
{
  for (int x = x0; x < x1; x++)
    line[x] = px;
}

static void
copy_lines (guchar *data, int stride, int y0, int y1, const guint32 *scan, int n)
{
  for (int y = y0; y < y1; y++)
    memcpy (data + (gsize) y * stride, scan, n * sizeof (guint32));
}

static void
set_rgb (cairo_t *cr, guint32 rgb)
{
  cairo_set_source_rgb (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                        (rgb & 0xff) / 255.0);
}

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
      return g_strdup (_("NVTX start/end"));
    case SL_ROW_MARKS:
      return g_strdup (_("NVTX marks"));
    default:
      return g_strdup ("");
    }
}

static const char *
box_text (const SlTimelineModel *m, const SlTimelineRow *row, const SlBox *box)
{
  SlEventRef ev;

  if (row->kind == SL_ROW_MARKS)
    {
      ev.kind = SL_EVENT_MARK;
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

void
sl_timeline_renderer_draw (SlTimelineRenderer    *self,
                           SlTimelineLayout      *layout,
                           const SlTimelineStyle *style,
                           cairo_surface_t       *image,
                           SlRenderStats         *stats)
{
  const SlTimelineModel *m = layout->model;
  const SlProfile *p = m->profile;
  SlRenderStats st = { 0 };
  double s = style->scale;
  int W = layout->width, H = layout->height;
  int hw = layout->header_width, bw = sl_timeline_layout_body_width (layout);
  int by = sl_timeline_layout_body_y (layout);
  int mh = layout->minimap_height, rh = layout->ruler_height;
  int stride, pad_track = MAX (1, (int) (2 * s)), pad_group = (int) (6 * s);
  guchar *data;
  gint64 step, origin, t;
  const float *ov;
  const guint8 *ov_color;
  double min_label = 24 * s;
  cairo_t *cr;
  char *text;

  gint64 begin = g_get_monotonic_time ();

  g_return_if_fail (cairo_image_surface_get_format (image) == CAIRO_FORMAT_ARGB32);
  g_return_if_fail (cairo_image_surface_get_width (image) >= W);
  g_return_if_fail (cairo_image_surface_get_height (image) >= H);

  ensure_fonts (self, s);
  if (self->scan_len < W)
    {
      self->scan_len = W;
      self->scan = g_renew (guint32, self->scan, W);
      self->band = g_renew (guint32, self->band, W);
      self->bgscan = g_renew (guint32, self->bgscan, W);
    }
  g_array_set_size (self->labels, 0);
  g_array_set_size (self->ticks, 0);

  cairo_surface_flush (image);
  data = cairo_image_surface_get_data (image);
  stride = cairo_image_surface_get_stride (image);

  /* ticks: multiples of the step from the time origin */
  step = sl_timeline_layout_tick_step (layout, 110 * s);
  origin = layout->relative_time ? p->start_ns : 0;
  t = origin + (gint64) ceil ((layout->t0 - origin) / (double) step) * step;
  for (; sl_timeline_layout_time_to_x (layout, t) < bw; t += step)
    g_array_append_val (self->ticks, t);

  /* background of the body: header column, separator, grid lines */
  fill_span (self->bgscan, 0, hw, opaque (style->header_bg));
  fill_span (self->bgscan, hw, W, opaque (style->bg));
  if (hw > 0)
    self->bgscan[hw - 1] = opaque (style->grid);
  for (guint k = 0; k < self->ticks->len; k++)
    {
      int x = (int) floor (sl_timeline_layout_time_to_x (layout, g_array_index (self->ticks, gint64, k)));
      if (x >= 0 && x < bw)
        self->bgscan[hw + x] = opaque (style->grid);
    }
  /* body lines are written once, row by row, below */

  /* minimap: GPU activity over the whole run */
  sl_timeline_layout_overview (layout, &ov, &ov_color);
  {
    guint32 mbg = style->minimap_bg;
    int top = (int) (3 * s), bottom = mh - (int) (3 * s);

    fill_span (self->scan, 0, hw, opaque (style->header_bg));
    fill_span (self->scan, hw, W, opaque (mbg));
    copy_lines (data, stride, 0, MIN (mh, H), self->scan, W);
    for (int y = top; y < bottom && y < H; y++)
      {
        guint32 *line = (guint32 *) (void *) (data + (gsize) y * stride);
        double level = (double) (bottom - y) / (bottom - top);
        for (int c = 0; c < bw; c++)
          if (ov[c] > 0 && ov[c] >= level - 1e-6)
            line[hw + c] = opaque (sl_timeline_color_mix (mbg, sl_timeline_color_rgb (ov_color[c]), 0.85f));
          else if (ov[c] > 0 && y == bottom - 1)
            line[hw + c] = opaque (sl_timeline_color_mix (mbg, sl_timeline_color_rgb (ov_color[c]), 0.5f));
      }
  }

  /* ruler */
  fill_span (self->scan, 0, W, opaque (style->header_bg));
  copy_lines (data, stride, MIN (mh, H), MIN (mh + rh, H), self->scan, W);
  if (mh + rh - 1 < H)
    {
      guint32 *line = (guint32 *) (void *) (data + (gsize) (mh + rh - 1) * stride);
      fill_span (line, 0, W, opaque (style->rule));
    }
  if (mh < H)
    {
      guint32 *line = (guint32 *) (void *) (data + (gsize) mh * stride);
      fill_span (line, 0, W, opaque (style->rule));
    }
  for (int minor = 0; minor < 2; minor++)
    {
      gint64 mstep = minor ? step / (step % 5 == 0 && (step / 5) % 2 == 0 ? 5 : 2) : step;
      int len = minor ? (int) (4 * s) : (int) (9 * s);
      gint64 tt;

      if (mstep <= 0)
        continue;
      tt = origin + (gint64) ceil ((layout->t0 - origin) / (double) mstep) * mstep;
      for (; ; tt += mstep)
        {
          double x = sl_timeline_layout_time_to_x (layout, tt);
          if (x >= bw)
            break;
          if (x < 0)
            continue;
          for (int y = mh + rh - 1 - len; y < mh + rh - 1 && y < H; y++)
            ((guint32 *) (void *) (data + (gsize) y * stride))[hw + (int) x] =
              opaque (minor ? style->tick_minor : style->tick);
        }
    }

  /* rows: every body line is written exactly once, one scanline per row */
  {
    int next_line = MIN (by, H);

    for (guint r = 0; r < m->n_rows; r++)
      {
        const SlTimelineRow *row = &m->rows[r];
        gboolean group = sl_timeline_layout_is_group (layout, r);
        guint32 base = group ? style->group_bg : style->bg;
        const guint32 *plain = group ? self->band : self->bgscan;
        SlRowColumns cols;
        int y, h, pad, y0, y1, top, bottom;

        if (!sl_timeline_layout_row_rect (layout, r, &y, &h))
          continue;
        if (y + h <= by)
          continue;
        if (y >= H)
          break;
        st.n_rows++;
        top = MAX (y, by);
        bottom = MIN (y + h, H);
        if (top > next_line)
          copy_lines (data, stride, next_line, top, self->bgscan, W);
        next_line = MAX (next_line, bottom);

        if (group)
          fill_span (self->band, 0, W, opaque (style->group_bg));
        memcpy (self->scan, plain, W * sizeof (guint32));

        sl_timeline_layout_row_columns (layout, r, &cols);
        st.n_visited += cols.n_visited;

        for (int c = 0; c < cols.n_cols; c++)
          if (cols.cov[c] > 0)
            {
              float a = 0.4f + 0.6f * MIN (cols.cov[c], 1.0f);
              self->scan[hw + c] = opaque (sl_timeline_color_mix (base, sl_timeline_color_rgb (cols.color[c]), a));
              st.n_columns++;
            }
        for (guint k = 0; k < cols.n_boxes; k++)
          {
            const SlBox *b = &cols.boxes[k];
            int wd = b->x1 - b->x0;

            fill_span (self->scan, hw + b->x0, hw + b->x1, opaque (b->rgb));
            /* a darker left edge separates back-to-back events */
            if (wd >= 3 * s)
              self->scan[hw + b->x0] = opaque (sl_timeline_color_mix (b->rgb, 0x000000, 0.35f));
            if (wd >= min_label && !group)
              {
                Label l;
                l.text = box_text (m, row, b);
                l.x = hw + b->x0 + 3 * s;
                l.max_w = wd - 5 * s;
                l.baseline = y + (h + self->label.ascent - self->label.descent) / 2;
                l.rgb = sl_timeline_color_text_on (b->rgb);
                g_array_append_val (self->labels, l);
              }
          }
        st.n_boxes += cols.n_boxes;

        pad = group ? pad_group : pad_track;
        y0 = CLAMP (y + pad, top, bottom);
        y1 = CLAMP (y + h - pad, y0, bottom);
        copy_lines (data, stride, top, y0, plain, W);
        copy_lines (data, stride, y0, y1, self->scan, W);
        copy_lines (data, stride, y1, bottom, plain, W);
        if (group && y >= by && y < H)
          fill_span ((guint32 *) (void *) (data + (gsize) y * stride), 0, W,
                     opaque (style->group_rule));
      }
    if (next_line < H)
      copy_lines (data, stride, next_line, H, self->bgscan, W);
  }
  st.pixel_ms = (g_get_monotonic_time () - begin) / 1000.0;

  cairo_surface_mark_dirty (image);
  cr = cairo_create (image);

  /* labels inside wide boxes */
  cairo_save (cr);
  cairo_rectangle (cr, hw, by, bw, H - by);
  cairo_clip (cr);
  for (guint k = 0; k < self->labels->len; k++)
    {
      const Label *l = &g_array_index (self->labels, Label, k);
      if (l->text == NULL || *l->text == '\0')
        continue;
      set_rgb (cr, l->rgb);
      if (draw_text (cr, &self->label, l->text, l->x, l->baseline, l->max_w))
        st.n_labels++;
    }
  cairo_restore (cr);

  /* row headers */
  cairo_save (cr);
  cairo_rectangle (cr, 0, by, hw, H - by);
  cairo_clip (cr);
  for (guint r = 0; r < m->n_rows; r++)
    {
      const SlTimelineRow *row = &m->rows[r];
      gboolean group = sl_timeline_layout_is_group (layout, r);
      const Font *f = row->level == 0 ? &self->bold : &self->header;
      double indent = (6 + 14 * row->level) * s;
      double baseline;
      int y, h;

      if (!sl_timeline_layout_row_rect (layout, r, &y, &h) || y + h <= by)
        continue;
      if (y >= H)
        break;
      baseline = y + (h + f->ascent - f->descent) / 2;
      set_rgb (cr, group ? style->fg : style->fg_dim);
      if (group)
        {
          double cx = indent + 4 * s, cy = y + h / 2.0;
          if (sl_timeline_layout_get_collapsed (layout, r))
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
          st.n_cairo++;
          indent += 13 * s;
        }
      text = sl_timeline_row_title (m, r);
      if (draw_text (cr, f, text, indent, baseline, hw - indent - 6 * s))
        st.n_labels++;
      g_free (text);
    }
  cairo_restore (cr);

  /* ruler labels */
  set_rgb (cr, style->fg);
  for (guint k = 0; k < self->ticks->len; k++)
    {
      gint64 tk = g_array_index (self->ticks, gint64, k);
      double x = hw + sl_timeline_layout_time_to_x (layout, tk);
      double baseline = mh + rh - 10 * s - self->small.descent;

      text = sl_timeline_layout_format_tick (layout, tk, step);
      if (draw_text (cr, &self->small, text, x + 3 * s, baseline, MIN (W - x - 3 * s, 105 * s)))
        st.n_labels++;
      g_free (text);
    }

  /* corner texts and the visible window on the minimap */
  {
    gint64 span = (gint64) (layout->px_ns * bw);
    char *dur = sl_format_duration (span);

    set_rgb (cr, style->fg_dim);
    draw_text (cr, &self->small, _("GPU activity"), 6 * s,
               (mh + self->small.ascent - self->small.descent) / 2, hw - 12 * s);
    text = g_strdup_printf (layout->relative_time ? _("%s shown · relative") : _("%s shown · absolute"), dur);
    draw_text (cr, &self->small, text, 6 * s,
               mh + (rh + self->small.ascent - self->small.descent) / 2, hw - 12 * s);
    g_free (text);
    g_free (dur);
    st.n_labels += 2;
  }
  {
    double x0 = hw + sl_timeline_layout_overview_x (layout, layout->t0);
    double x1 = hw + sl_timeline_layout_overview_x (layout, layout->t0 + layout->px_ns * bw);

    x0 = floor (MAX (x0, hw));
    x1 = ceil (MIN (MAX (x1, x0 + 3 * s), W));
    cairo_rectangle (cr, x0, 0, x1 - x0, mh);
    cairo_set_source_rgba (cr, ((style->accent >> 16) & 0xff) / 255.0,
                           ((style->accent >> 8) & 0xff) / 255.0, (style->accent & 0xff) / 255.0,
                           0.15);
    cairo_fill_preserve (cr);
    set_rgb (cr, style->accent);
    cairo_set_line_width (cr, MAX (1, (int) s));
    cairo_stroke (cr);
    st.n_cairo += 2;
  }

  cairo_destroy (cr);
  st.n_cairo += st.n_labels;
  st.text_ms = (g_get_monotonic_time () - begin) / 1000.0 - st.pixel_ms;
  if (stats)
    *stats = st;
}
