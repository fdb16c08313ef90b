/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-layout.c: time <-> pixel mapping, zoom anchoring and the
 * places of the rows. */
#include "sl-timeline-layout.h"
#include "sl-row-key.h"
#include "sl-row-order.h"
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
  self->rows = sl_row_layout_new ();
  self->keys = g_new0 (char *, model->n_rows + 1);
  for (guint r = 0; r < model->n_rows; r++)
    self->keys[r] = sl_row_key (model, r);
  self->order = g_new (guint, MAX (model->n_rows, 1));
  self->shown = g_new (guint, MAX (model->n_rows, 1));
  self->state = g_new0 (guint8, MAX (model->n_rows, 1));
  sl_row_order_fill (model, self->keys, self->rows, self->order);
  self->label_width = SL_TIMELINE_LABEL_WIDTH_DEFAULT;
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
  sl_row_layout_free (self->rows);
  g_strfreev (self->keys);
  g_free (self->order);
  g_free (self->shown);
  g_free (self->state);
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
  self->wall_utc_ns = from->wall_utc_ns;
  self->wall_origin_ns = from->wall_origin_ns;
  self->has_range = from->has_range;
  self->range_start = from->range_start;
  self->range_end = from->range_end;
  carry_folding (self, from);
  self->label_width = from->label_width;
  sl_timeline_layout_set_row_layout (self, from->rows);
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

enum {
  ROW_HIDDEN  = 1 << 0,   /* by the user: the row or a group around it */
  ROW_IN_BAND = 1 << 1,   /* pinned, or inside a pinned group */
  ROW_FOLDED  = 1 << 2,   /* inside a collapsed group */
};

/* Flags from the parent down: the order lists parents first. */
static void
mark_rows (SlTimelineLayout *self)
{
  const SlTimelineModel *m = self->model;

  for (guint i = 0; i < m->n_rows; i++)
    {
      guint r = self->order[i];
      guint32 p = m->rows[r].parent;
      guint8 st = 0;

      if (sl_row_layout_get_hidden (self->rows, self->keys[r]))
        st |= ROW_HIDDEN;
      if (sl_row_layout_get_pin_position (self->rows, self->keys[r]) >= 0)
        st |= ROW_IN_BAND;
      if (p < m->n_rows)
        {
          st |= self->state[p] & (ROW_HIDDEN | ROW_IN_BAND);
          if (self->collapsed[p] || (self->state[p] & ROW_FOLDED))
            st |= ROW_FOLDED;
        }
      self->state[r] = st;
    }
}

static gboolean
is_below (const SlTimelineModel *m, guint r, guint ancestor)
{
  for (guint32 p = m->rows[r].parent; p < m->n_rows; p = m->rows[p].parent)
    if (p == ancestor)
      return TRUE;
  return FALSE;
}

static void
place_row (SlTimelineLayout *self, guint r, int *y)
{
  self->row_y[r] = *y;
  self->shown[self->n_shown++] = r;
  *y += row_height (self, &self->model->rows[r]);
}

/* The band: each pinned row in the pins' order with the open part of its
 * subtree (shown even when a group around it is folded). */
static void
layout_band (SlTimelineLayout *self, const guint *pos)
{
  const SlTimelineModel *m = self->model;
  int y = 0;

  for (guint k = 0; k < sl_row_layout_get_n_pinned (self->rows); k++)
    {
      guint r = sl_timeline_layout_find_key (self, sl_row_layout_get_pinned_key (self->rows, k));
      guint32 p;

      if (r == SL_NONE || (self->state[r] & ROW_HIDDEN))
        continue;
      p = m->rows[r].parent;
      if (p < m->n_rows && (self->state[p] & ROW_IN_BAND))
        continue;   /* drawn with its pinned group */
      place_row (self, r, &y);
      for (guint i = pos[r] + 1; i < m->n_rows && is_below (m, self->order[i], r); i++)
        {
          guint c = self->order[i];
          guint32 cp = m->rows[c].parent;
          gboolean folded = FALSE;

          for (guint32 a = cp; a != r && a < m->n_rows; a = m->rows[a].parent)
            folded |= self->collapsed[a];
          if (!(self->state[c] & ROW_HIDDEN) && !folded && !self->collapsed[r])
            place_row (self, c, &y);
        }
    }
  self->n_band = self->n_shown;
  self->band_height = y;
}

static void
relayout_rows (SlTimelineLayout *self)
{
  const SlTimelineModel *m = self->model;
  g_autofree guint *pos = g_new (guint, MAX (m->n_rows, 1));
  int y = 0;

  mark_rows (self);
  for (guint i = 0; i < m->n_rows; i++)
    {
      pos[self->order[i]] = i;
      self->row_y[self->order[i]] = -1;
    }
  self->n_shown = 0;
  layout_band (self, pos);
  for (guint i = 0; i < m->n_rows; i++)
    {
      guint r = self->order[i];

      if (self->state[r] == 0)
        place_row (self, r, &y);
    }
  self->content_height = y;
  sl_timeline_layout_scroll_to (self, self->scroll_y);
}

void
sl_timeline_layout_set_scale (SlTimelineLayout *self,
                              double            scale)
{
  self->scale = scale > 0 ? scale : 1.0;
  self->header_width = (int) (self->label_width * self->scale);
  self->minimap_height = self->hide_header ? 0 : (int) (40 * self->scale);
  self->ruler_height = self->hide_header ? 0 : (int) (26 * self->scale);
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
  return MAX (0, self->content_height - MAX (sl_timeline_layout_body_height (self) - self->band_height, 0));
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
  *y = sl_timeline_layout_body_y (self) + self->row_y[row];
  if (!(self->state[row] & ROW_IN_BAND))
    *y += self->band_height - (int) self->scroll_y;
  *height = row_height (self, &self->model->rows[row]);
  return TRUE;
}

guint
sl_timeline_layout_row_at (const SlTimelineLayout *self,
                           double                  y)
{
  int by = sl_timeline_layout_body_y (self);
  gboolean band = y < by + self->band_height;
  guint lo = band ? 0 : self->n_band, hi = band ? self->n_band : self->n_shown;
  double cy;

  if (y < by || y >= self->height)
    return SL_NONE;
  cy = band ? y - by : y - by - self->band_height + (int) self->scroll_y;
  /* the shown rows of each part are top-down: a binary search */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2, r = self->shown[mid];

      if (cy < self->row_y[r])
        hi = mid;
      else if (cy >= self->row_y[r] + row_height (self, &self->model->rows[r]))
        lo = mid + 1;
      else
        return r;
    }
  return SL_NONE;
}

int
sl_timeline_layout_fit_header_width (int    width,
                                     double scale)
{
  return (int) (MAX (width / scale * 0.3, 120) * scale);
}

void
sl_timeline_layout_set_header_width (SlTimelineLayout *self,
                                     int               header_width)
{
  double view_ns = self->px_ns * sl_timeline_layout_body_width (self);

  if (header_width == self->header_width)
    return;
  self->header_width = header_width;
  if (self->sized)
    sl_timeline_layout_set_view (self, self->t0, view_ns / sl_timeline_layout_body_width (self));
}

void
sl_timeline_layout_set_label_width (SlTimelineLayout *self,
                                    int               width)
{
  int max = MAX ((int) (self->width / self->scale) - 120, SL_TIMELINE_LABEL_WIDTH_MIN);

  /* before the first size the window's width is not known yet */
  if (!self->sized)
    max = MAX (max, 1200);
  self->label_width = CLAMP (width, SL_TIMELINE_LABEL_WIDTH_MIN, max);
  self->header_width = (int) (self->label_width * self->scale);
  if (self->sized)
    sl_timeline_layout_set_view (self, self->t0, self->px_ns);
}

int
sl_timeline_layout_band_height (const SlTimelineLayout *self)
{
  return self->band_height;
}

int
sl_timeline_layout_row_clip_top (const SlTimelineLayout *self,
                                 guint                   row)
{
  int by = sl_timeline_layout_body_y (self);

  return row < self->model->n_rows && (self->state[row] & ROW_IN_BAND) ? by : by + self->band_height;
}

guint
sl_timeline_layout_n_shown (const SlTimelineLayout *self)
{
  return self->n_shown;
}

guint
sl_timeline_layout_shown_row (const SlTimelineLayout *self,
                              guint                   i)
{
  g_return_val_if_fail (i < self->n_shown, SL_NONE);
  return self->shown[i];
}

const char *
sl_timeline_layout_row_key (const SlTimelineLayout *self,
                            guint                   row)
{
  g_return_val_if_fail (row < self->model->n_rows, NULL);
  return self->keys[row];
}

/* Rows are few thousand at most and this runs on user actions. */
guint
sl_timeline_layout_find_key (const SlTimelineLayout *self,
                             const char             *key)
{
  for (guint r = 0; r < self->model->n_rows; r++)
    if (g_str_equal (self->keys[r], key))
      return r;
  return SL_NONE;
}

gboolean
sl_timeline_layout_row_hidden (const SlTimelineLayout *self,
                               guint                   row)
{
  return row < self->model->n_rows && (self->state[row] & ROW_HIDDEN);
}

gboolean
sl_timeline_layout_row_pinned (const SlTimelineLayout *self,
                               guint                   row)
{
  return row < self->model->n_rows && sl_row_layout_get_pin_position (self->rows, self->keys[row]) >= 0;
}

gboolean
sl_timeline_layout_row_in_band (const SlTimelineLayout *self,
                                guint                   row)
{
  return row < self->model->n_rows && (self->state[row] & ROW_IN_BAND);
}

void
sl_timeline_layout_set_row_hidden (SlTimelineLayout *self,
                                   guint             row,
                                   gboolean          hidden)
{
  g_return_if_fail (row < self->model->n_rows);
  sl_row_layout_set_hidden (self->rows, self->keys[row], hidden);
  relayout_rows (self);
}

void
sl_timeline_layout_set_row_pinned (SlTimelineLayout *self,
                                   guint             row,
                                   gboolean          pinned)
{
  g_return_if_fail (row < self->model->n_rows);
  sl_row_layout_set_pinned (self->rows, self->keys[row], pinned);
  relayout_rows (self);
}

gboolean
sl_timeline_layout_move_row (SlTimelineLayout *self,
                             guint             row,
                             guint             target)
{
  const SlTimelineModel *m = self->model;
  g_autoptr(GPtrArray) siblings = g_ptr_array_new ();
  guint32 parent;
  int from = -1, to = -1;

  g_return_val_if_fail (row < m->n_rows, FALSE);
  parent = m->rows[row].parent;
  /* a drop on a row inside a sibling group counts as on that group */
  while (target < m->n_rows && m->rows[target].parent != parent)
    target = m->rows[target].parent;
  if (target >= m->n_rows || target == row)
    return FALSE;
  for (guint i = 0; i < m->n_rows; i++)
    if (m->rows[self->order[i]].parent == parent)
      {
        if (self->order[i] == row)
          from = (int) siblings->len;
        if (self->order[i] == target)
          to = (int) siblings->len;
        g_ptr_array_add (siblings, self->keys[self->order[i]]);
      }
  /* the row takes the target's place; the ones between shift by one */
  g_ptr_array_remove_index (siblings, from);
  g_ptr_array_insert (siblings, to, self->keys[row]);
  sl_row_layout_set_order (self->rows, (const char *const *) siblings->pdata, siblings->len);
  sl_row_order_fill (m, self->keys, self->rows, self->order);
  relayout_rows (self);
  return TRUE;
}

const SlRowLayout *
sl_timeline_layout_get_row_layout (const SlTimelineLayout *self)
{
  return self->rows;
}

void
sl_timeline_layout_set_row_layout (SlTimelineLayout  *self,
                                   const SlRowLayout *rows)
{
  if (rows != self->rows)
    {
      sl_row_layout_free (self->rows);
      self->rows = rows != NULL ? sl_row_layout_copy (rows) : sl_row_layout_new ();
    }
  sl_row_order_fill (self->model, self->keys, self->rows, self->order);
  relayout_rows (self);
}
