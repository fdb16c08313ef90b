/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-highlight-draw.c: the renderer's last pass: a veil over
 * what is not highlighted (when the highlight asks) and an outline in the
 * strong colour around what is, written into the frame's pixels after its
 * text so labels are veiled too.  Per row: the stretches of
 * sl_highlight_index_row_spans(), so a frame costs the same whatever the
 * size of the highlight. */
#include "sl-timeline-highlight.h"
#include "sl-timeline-render-private.h"

#include <gio/gio.h>
#include <math.h>

/* How much of the background the veil lets through, of 256. */
#define VEIL 170

/* The outline: a magenta no kernel category uses (the theme's blue accent
 * vanishes around GEMM kernels, which are blue). */
#define OUTLINE_LIGHT 0xd0157fu
#define OUTLINE_DARK  0xff5ac8u

static void forget_index_build (SlTimelineRenderer *self);

void
sl_timeline_renderer_set_highlight (SlTimelineRenderer *self,
                                    SlHighlight        *highlight)
{
  g_return_if_fail (self != NULL);
  if (self->highlight == highlight)
    return;
  forget_index_build (self);
  g_clear_pointer (&self->highlight, sl_highlight_unref);
  if (highlight != NULL)
    self->highlight = sl_highlight_ref (highlight);
}

/* Fewer events than this are indexed in the frame (a few ms at most). */
#define INDEX_IN_FRAME 50000

/* An index being built in a worker; the renderer forgets it (renderer =
 * NULL) when it no longer wants it. */
typedef struct _SlIndexBuild {
  SlTimelineRenderer *renderer;
  SlTimelineModel    *model;
  SlHighlight        *highlight;
} SlIndexBuild;

static void
index_build_free (SlIndexBuild *build)
{
  sl_timeline_model_unref (build->model);
  sl_highlight_unref (build->highlight);
  g_free (build);
}

static void
index_build_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  SlIndexBuild *build = data;

  g_task_return_pointer (task, sl_highlight_index_new (build->model, build->highlight),
                         (GDestroyNotify) sl_highlight_index_free);
}

static void
index_built_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  SlIndexBuild *build = g_task_get_task_data (G_TASK (result));
  SlHighlightIndex *index = g_task_propagate_pointer (G_TASK (result), NULL);
  SlTimelineRenderer *self = build->renderer;

  if (self == NULL)
    {
      sl_highlight_index_free (index);
      return;
    }
  self->index_build = NULL;
  g_clear_pointer (&self->highlight_index, sl_highlight_index_free);
  self->highlight_index = index;
  self->index_ready (self->index_ready_data);
}

static void
forget_index_build (SlTimelineRenderer *self)
{
  if (self->index_build != NULL)
    self->index_build->renderer = NULL;
  self->index_build = NULL;
}

/* Starts building @highlight's index for @model, unless that one is
 * being built already. */
static void
build_index_async (SlTimelineRenderer *self, SlTimelineModel *model, SlHighlight *highlight)
{
  g_autoptr(GTask) task = NULL;
  SlIndexBuild *build;

  if (self->index_build != NULL && self->index_build->model == model && self->index_build->highlight == highlight)
    return;
  forget_index_build (self);
  build = g_new0 (SlIndexBuild, 1);
  build->renderer = self;
  build->model = sl_timeline_model_ref (model);
  build->highlight = sl_highlight_ref (highlight);
  self->index_build = build;
  task = g_task_new (NULL, NULL, index_built_cb, NULL);
  g_task_set_task_data (task, build, (GDestroyNotify) index_build_free);
  g_task_run_in_thread (task, index_build_thread);
}

void
sl_timeline_renderer_set_highlight_ready (SlTimelineRenderer *self,
                                          void              (*ready) (gpointer data),
                                          gpointer            data)
{
  g_return_if_fail (self != NULL);
  self->index_ready = ready;
  self->index_ready_data = data;
}

void
_sl_timeline_highlight_clear (SlTimelineRenderer *self)
{
  forget_index_build (self);
  g_clear_pointer (&self->highlight, sl_highlight_unref);
  g_clear_pointer (&self->highlight_index, sl_highlight_index_free);
  g_clear_pointer (&self->highlight_spans, g_array_unref);
}

/* Whether the frame has @rd's highlight indexed for @model (building it
 * now, or starting a worker on it). */
static gboolean
ensure_index (SlTimelineRenderer *rd, SlTimelineModel *model)
{
  if (sl_highlight_index_is_for (rd->highlight_index, model, rd->highlight))
    return TRUE;
  if (rd->index_ready != NULL && sl_highlight_get_n (rd->highlight) >= INDEX_IN_FRAME)
    {
      build_index_async (rd, model, rd->highlight);
      return FALSE;
    }
  g_clear_pointer (&rd->highlight_index, sl_highlight_index_free);
  rd->highlight_index = sl_highlight_index_new (model, rd->highlight);
  return TRUE;
}

static inline guint32
veil_pixel (guint32 p, guint32 bg)
{
  guint32 rb = ((p & 0xff00ffu) * (256 - VEIL) + (bg & 0xff00ffu) * VEIL) >> 8;
  guint32 g = ((p & 0x00ff00u) * (256 - VEIL) + (bg & 0x00ff00u) * VEIL) >> 8;

  return 0xff000000u | (rb & 0xff00ffu) | (g & 0x00ff00u);
}

/* The background veiled is itself: most of an empty row is skipped. */
static void
veil_span (guint32 *line, int x0, int x1, guint32 bg)
{
  guint32 bg_px = 0xff000000u | bg;

  for (int x = x0; x < x1; x++)
    if (line[x] != bg_px)
      line[x] = veil_pixel (line[x], bg);
}

/* Veils lines [y0, y1) of the body, all of it but the stretches @spans
 * (body x, sorted) when @spans is not NULL. */
static void
veil_lines (SlFrame *f, int y0, int y1, const GArray *spans)
{
  int hw = f->header_width;
  guint32 bg = f->style->bg;

  for (int y = MAX (y0, f->body_y); y < MIN (y1, f->height); y++)
    {
      guint32 *line = _sl_frame_line (f, y);
      int x = hw;

      for (guint i = 0; spans != NULL && i < spans->len; i++)
        {
          const SlHighlightSpan *s = &g_array_index (spans, SlHighlightSpan, i);
          int a = CLAMP (hw + s->x0, hw, f->width), b = CLAMP (hw + s->x1, hw, f->width);

          veil_span (line, x, MAX (a, x), bg);
          x = MAX (x, b);
        }
      veil_span (line, x, f->width, bg);
    }
}

static void
fill_rect (SlFrame *f, int x0, int x1, int y0, int y1, int clip_top, int clip_bottom, guint32 px)
{
  x0 = MAX (x0, f->header_width);
  x1 = MIN (x1, f->width);
  y0 = MAX (y0, clip_top);
  y1 = MIN (y1, clip_bottom);
  for (int y = y0; y < y1; y++)
    _sl_fill_span (_sl_frame_line (f, y), x0, x1, px);
}

/* An outline of width @w around each stretch of the box [y0, y1), drawn
 * outside it within the row's lines [top, bottom); stretches too narrow to
 * show a box are filled as well. */
static void
outline_spans (SlFrame *f, const GArray *spans, int y0, int y1, int top, int bottom, int w)
{
  guint32 px = _sl_opaque (f->style->dark ? OUTLINE_DARK : OUTLINE_LIGHT);
  int hw = f->header_width;

  for (guint i = 0; i < spans->len; i++)
    {
      const SlHighlightSpan *s = &g_array_index (spans, SlHighlightSpan, i);
      int x0 = hw + s->x0, x1 = hw + s->x1;

      if (x1 - x0 <= w)
        fill_rect (f, x0, x1, y0, y1, top, bottom, px);
      fill_rect (f, x0 - w, x1 + w, y0 - w, y0, top, bottom, px);
      fill_rect (f, x0 - w, x1 + w, y1, y1 + w, top, bottom, px);
      fill_rect (f, x0 - w, x0, y0, y1, top, bottom, px);
      fill_rect (f, x1, x1 + w, y0, y1, top, bottom, px);
    }
}

/* Row @r at [y, y + h): lines [top, bottom) are in the frame. */
static void
write_row (SlFrame *f, guint r, int y, int h, int top, int bottom, gboolean dim)
{
  SlTimelineRenderer *rd = f->renderer;
  gboolean group = sl_timeline_layout_is_group (f->layout, r);
  int pad = group ? (int) (6 * f->scale) : MAX (1, (int) (2 * f->scale));
  int w = MAX (2, (int) lround (2 * f->scale));
  int y0 = y + pad, y1 = MAX (y + h - pad, y0);

  g_array_set_size (rd->highlight_spans, 0);
  sl_highlight_index_row_spans (rd->highlight_index, f->layout, r, w, rd->highlight_spans);
  if (dim)
    {
      veil_lines (f, top, MIN (y0, bottom), NULL);
      veil_lines (f, MAX (y0, top), MIN (y1, bottom), rd->highlight_spans);
      veil_lines (f, MAX (y1, top), bottom, NULL);
    }
  outline_spans (f, rd->highlight_spans, y0, y1, top, bottom, w);
}

void
_sl_timeline_highlight_write (SlFrame *f)
{
  SlTimelineRenderer *rd = f->renderer;
  SlTimelineLayout *l = f->layout;
  gboolean dim;
  int next_line = f->body_y;

  if (rd->highlight == NULL || sl_highlight_get_n (rd->highlight) == 0)
    return;
  if (!ensure_index (rd, l->model))
    return;
  if (rd->highlight_spans == NULL)
    rd->highlight_spans = g_array_new (FALSE, FALSE, sizeof (SlHighlightSpan));
  dim = sl_highlight_get_dim_others (rd->highlight);
  for (guint i = 0; i < sl_timeline_layout_n_shown (l); i++)
    {
      guint r = sl_timeline_layout_shown_row (l, i);
      int y, h, top, bottom, clip = sl_timeline_layout_row_clip_top (l, r);

      if (!sl_timeline_layout_row_rect (l, r, &y, &h) || y + h <= clip)
        continue;
      if (y >= f->height)
        break;
      top = MAX (y, clip);
      bottom = MIN (y + h, f->height);
      if (dim && top > next_line)
        veil_lines (f, next_line, top, NULL);
      next_line = MAX (next_line, bottom);
      write_row (f, r, y, h, top, bottom, dim);
    }
  if (dim)
    veil_lines (f, next_line, f->height, NULL);
}
