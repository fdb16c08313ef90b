/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-layout.c: time <-> pixel mapping, zoom anchoring and the
 * places of the rows. */
#include "sl-timeline-layout.h"
#include "sl-int.h"

#include <math.h>

SlTimelineLayout *
sl_timeline_layout_new (SlTimelineModel *model)
{
  SlTimelineLayout *self;

  g_return_val_if_fail (model != NULL, NULL);

  self = g_new0 (SlTimelineLayout, 1);
  self->model = sl_timeline_model_ref (model);
  self->collapsed = g_new0 (gboolean, MAX (model->n_rows, 1));
  self->row_y = g_new0 (int, MAX (model->n_rows, 1));
  self->relative_time = TRUE;
  self->width = 800;
  self->height = 600;
  sl_timeline_layout_set_scale (self, 1.0);
  self->px_ns = 1.0;
  self->t0 = model->start_ns;
  return self;
}

static void
view_cache_clear (SlViewCache *cache)
{
  if (cache->destroy != NULL)
    cache->destroy (cache->data);
  cache->data = NULL;
  cache->destroy = NULL;
}

void
sl_timeline_layout_free (SlTimelineLayout *self)
{
  if (self == NULL)
    return;
  sl_timeline_model_unref (self->model);
  g_free (self->collapsed);
  g_free (self->row_y);
  view_cache_clear (&self->columns);
  view_cache_clear (&self->overview);
  g_free (self);
}

static gboolean
same_row (const SlTimelineRow *a, const SlTimelineRow *b)
{
  return a->kind == b->kind && a->index == b->index && a->depth == b->depth;
}

/* Groups are few (GPUs, processes, threads): a plain search is enough. */
static void
carry_folding (SlTimelineLayout *self, const SlTimelineLayout *from)
{
  const SlTimelineModel *m = self->model, *fm = from->model;

  for (guint r = 0; r < m->n_rows; r++)
    {
      if (!sl_timeline_layout_is_group (self, r))
        continue;
      for (guint f = 0; f < fm->n_rows; f++)
        if (same_row (&m->rows[r], &fm->rows[f]))
          {
            self->collapsed[r] = from->collapsed[f];
            break;
          }
    }
}

void
sl_timeline_layout_carry_view (SlTimelineLayout       *self,
                               const SlTimelineLayout *from)
{
  g_return_if_fail (self != NULL && from != NULL);

  self->relative_time = from->relative_time;
  self->has_range = from->has_range;
  self->range_start = from->range_start;
  self->range_end = from->range_end;
  carry_folding (self, from);
  sl_timeline_layout_set_scale (self, from->scale);
  if (!from->sized)
    return;
  self->width = from->width;
  self->height = from->height;
  self->sized = TRUE;
  sl_timeline_layout_set_view (self, from->t0, from->px_ns);
  sl_timeline_layout_scroll_to (self, from->scroll_y);
}

static int
row_height (const SlTimelineLayout *self, const SlTimelineRow *row)
{
  switch (row->kind)
    {
    case SL_ROW_GPU:
    case SL_ROW_PROCESS:
    case SL_ROW_CPU_PROCESS:
    case SL_ROW_METRIC_DEVICE:
      return self->group_height;
    case SL_ROW_THREAD:
    case SL_ROW_CPU_THREAD:
      return self->thread_height;
    case SL_ROW_METRIC:
      return self->row_height * 3 / 2;   /* a chart wants some height */
    case SL_ROW_STREAM:
    case SL_ROW_API:
    case SL_ROW_NVTX:
    case SL_ROW_NVTX_STARTEND:
    case SL_ROW_MARKS:
    default:
      return self->row_height;
    }
}

static gboolean
row_hidden (const SlTimelineLayout *self, guint r)
{
  const SlTimelineModel *m = self->model;

  for (guint32 p = m->rows[r].parent; p != SL_NONE; p = m->rows[p].parent)
    if (self->collapsed[p])
      return TRUE;
  return FALSE;
}

static void
relayout_rows (SlTimelineLayout *self)
{
  int y = 0;

  for (guint r = 0; r < self->model->n_rows; r++)
    {
      if (row_hidden (self, r))
        {
          self->row_y[r] = -1;
          continue;
        }
      self->row_y[r] = y;
      y += row_height (self, &self->model->rows[r]);
    }
  self->content_height = y;
  sl_timeline_layout_scroll_to (self, self->scroll_y);
}

void
sl_timeline_layout_set_scale (SlTimelineLayout *self,
                              double            scale)
{
  self->scale = scale > 0 ? scale : 1.0;
  self->header_width = (int) (220 * self->scale);
  self->minimap_height = (int) (40 * self->scale);
  self->ruler_height = (int) (26 * self->scale);
  self->row_height = (int) (22 * self->scale);
  self->group_height = (int) (24 * self->scale);
  self->thread_height = (int) (18 * self->scale);
  relayout_rows (self);
}

int
sl_timeline_layout_body_y (const SlTimelineLayout *self)
{
  return self->minimap_height + self->ruler_height;
}

int
sl_timeline_layout_body_width (const SlTimelineLayout *self)
{
  return MAX (self->width - self->header_width, 1);
}

int
sl_timeline_layout_body_height (const SlTimelineLayout *self)
{
  return MAX (self->height - sl_timeline_layout_body_y (self), 0);
}

double
sl_timeline_layout_max_px_ns (const SlTimelineLayout *self)
{
  double dur = (double) MAX (sl_span (self->model->start_ns, self->model->end_ns), 1);

  return MAX (dur / sl_timeline_layout_body_width (self), SL_TIMELINE_MIN_PX_NS);
}

void
sl_timeline_layout_set_size (SlTimelineLayout *self,
                             int               width,
                             int               height)
{
  double view_ns = self->px_ns * sl_timeline_layout_body_width (self);

  self->width = MAX (width, 1);
  self->height = MAX (height, 1);
  if (!self->sized)
    {
      self->sized = TRUE;
      sl_timeline_layout_fit_all (self);
    }
  else
    sl_timeline_layout_set_view (self, self->t0, view_ns / sl_timeline_layout_body_width (self));
  sl_timeline_layout_scroll_to (self, self->scroll_y);
}

double
sl_timeline_layout_time_to_x (const SlTimelineLayout *self,
                              double                  t)
{
  return (t - self->t0) / self->px_ns;
}

double
sl_timeline_layout_x_to_time (const SlTimelineLayout *self,
                              double                  x)
{
  return self->t0 + x * self->px_ns;
}

double
sl_timeline_layout_overview_x (const SlTimelineLayout *self,
                               double                  t)
{
  return (t - self->model->start_ns) / sl_timeline_layout_max_px_ns (self);
}

double
sl_timeline_layout_overview_time (const SlTimelineLayout *self,
                                  double                  x)
{
  return self->model->start_ns + x * sl_timeline_layout_max_px_ns (self);
}

void
sl_timeline_layout_set_view (SlTimelineLayout *self,
                             double            t0,
                             double            px_ns)
{
  const SlTimelineModel *p = self->model;   /* its start_ns, end_ns: the time drawn */
  double view_ns;

  if (!isfinite (px_ns) || !isfinite (t0))
    return;
  px_ns = CLAMP (px_ns, SL_TIMELINE_MIN_PX_NS, sl_timeline_layout_max_px_ns (self));
  view_ns = px_ns * sl_timeline_layout_body_width (self);
  if (view_ns >= (double) sl_span (p->start_ns, p->end_ns))
    t0 = p->start_ns;
  else
    t0 = CLAMP (t0, (double) p->start_ns, (double) p->end_ns - view_ns);
  self->t0 = t0;
  self->px_ns = px_ns;
}

void
sl_timeline_layout_zoom_at (SlTimelineLayout *self,
                            double            x,
                            double            factor)
{
  double anchor = sl_timeline_layout_x_to_time (self, x);
  double px_ns = CLAMP (self->px_ns * factor, SL_TIMELINE_MIN_PX_NS,
                        sl_timeline_layout_max_px_ns (self));

  sl_timeline_layout_set_view (self, anchor - x * px_ns, px_ns);
}

void
sl_timeline_layout_pan (SlTimelineLayout *self,
                        double            dx)
{
  sl_timeline_layout_set_view (self, self->t0 + dx * self->px_ns, self->px_ns);
}

void
sl_timeline_layout_fit_all (SlTimelineLayout *self)
{
  sl_timeline_layout_set_view (self, self->model->start_ns,
                               sl_timeline_layout_max_px_ns (self));
}

void
sl_timeline_layout_zoom_to (SlTimelineLayout *self,
                            double            start,
                            double            end,
                            double            margin)
{
  double len = MAX (end - start, 0);
  double W = sl_timeline_layout_body_width (self);
  double px_ns;

  start -= len * margin;
  end += len * margin;
  px_ns = MAX ((end - start) / W, SL_TIMELINE_MIN_PX_NS);
  /* centre when the range is shorter than the closest zoom */
  sl_timeline_layout_set_view (self, (start + end) / 2 - W * px_ns / 2, px_ns);
}

void
sl_timeline_layout_center_on (SlTimelineLayout *self,
                              double            t)
{
  sl_timeline_layout_set_view (self, t - sl_timeline_layout_body_width (self) * self->px_ns / 2,
                               self->px_ns);
}

double
sl_timeline_layout_max_scroll (const SlTimelineLayout *self)
{
  return MAX (0, self->content_height - sl_timeline_layout_body_height (self));
}

void
sl_timeline_layout_scroll_to (SlTimelineLayout *self,
                              double            y)
{
  self->scroll_y = CLAMP (y, 0, sl_timeline_layout_max_scroll (self));
}

guint
sl_timeline_layout_n_rows (const SlTimelineLayout *self)
{
  return self->model->n_rows;
}

gboolean
sl_timeline_layout_is_group (const SlTimelineLayout *self,
                             guint                   row)
{
  SlRowKind kind;

  g_return_val_if_fail (row < self->model->n_rows, FALSE);
  kind = self->model->rows[row].kind;
  return kind == SL_ROW_GPU || kind == SL_ROW_PROCESS || kind == SL_ROW_THREAD ||
         kind == SL_ROW_CPU_PROCESS || kind == SL_ROW_CPU_THREAD || kind == SL_ROW_METRIC_DEVICE;
}

gboolean
sl_timeline_layout_get_collapsed (const SlTimelineLayout *self,
                                  guint                   row)
{
  g_return_val_if_fail (row < self->model->n_rows, FALSE);
  return self->collapsed[row];
}

void
sl_timeline_layout_set_collapsed (SlTimelineLayout *self,
                                  guint             row,
                                  gboolean          collapsed)
{
  g_return_if_fail (row < self->model->n_rows);
  if (!sl_timeline_layout_is_group (self, row) || self->collapsed[row] == !!collapsed)
    return;
  self->collapsed[row] = !!collapsed;
  relayout_rows (self);
}

int
sl_timeline_layout_content_height (const SlTimelineLayout *self)
{
  return self->content_height;
}

gboolean
sl_timeline_layout_row_rect (const SlTimelineLayout *self,
                             guint                   row,
                             int                    *y,
                             int                    *height)
{
  if (row >= self->model->n_rows || self->row_y[row] < 0)
    return FALSE;
  *y = sl_timeline_layout_body_y (self) + self->row_y[row] - (int) self->scroll_y;
  *height = row_height (self, &self->model->rows[row]);
  return TRUE;
}

guint
sl_timeline_layout_row_at (const SlTimelineLayout *self,
                           double                  y)
{
  double cy;
  guint lo = 0, hi = self->model->n_rows;

  if (y < sl_timeline_layout_body_y (self) || y >= self->height)
    return SL_NONE;
  cy = y - sl_timeline_layout_body_y (self) + (int) self->scroll_y;
  if (cy < 0 || cy >= self->content_height)
    return SL_NONE;
  /* row_y is increasing over visible rows; hidden rows (-1) are skipped */
  for (guint r = lo; r < hi; r++)
    {
      int ry = self->row_y[r];
      if (ry < 0)
        continue;
      if (cy >= ry && cy < ry + row_height (self, &self->model->rows[r]))
        return r;
      if (ry > cy)
        break;
    }
  return SL_NONE;
}
