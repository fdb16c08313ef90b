/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-layout.c: time <-> pixel mapping, culling, per-column merging,
 * hit testing and zoom anchoring of the timeline. */
#include "sl-timeline-layout.h"
#include "sl-timeline-colors.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Below this many visible events a row is drawn from the events even when a
 * pyramid level would do: exact boxes and labels are worth it. */
#define RAW_BUDGET(W) MAX (1024, (W))

SlTimelineLayout *
sl_timeline_layout_new (SlTimelineModel *model)
{
  SlTimelineLayout *self;

  g_return_val_if_fail (model != NULL, NULL);

  self = g_new0 (SlTimelineLayout, 1);
  self->model = sl_timeline_model_ref (model);
  self->collapsed = g_new0 (gboolean, MAX (model->n_rows, 1));
  self->row_y = g_new0 (int, MAX (model->n_rows, 1));
  self->boxes = g_array_new (FALSE, FALSE, sizeof (SlBox));
  self->relative_time = TRUE;
  self->width = 800;
  self->height = 600;
  sl_timeline_layout_set_scale (self, 1.0);
  self->px_ns = 1.0;
  self->t0 = model->profile->start_ns;
  return self;
}

void
sl_timeline_layout_free (SlTimelineLayout *self)
{
  if (self == NULL)
    return;
  sl_timeline_model_unref (self->model);
  g_free (self->collapsed);
  g_free (self->row_y);
  g_free (self->cov);
  g_free (self->best);
  g_free (self->color);
  g_free (self->overview);
  g_free (self->overview_color);
  g_array_unref (self->boxes);
  g_free (self);
}

static int
row_height (const SlTimelineLayout *self, const SlTimelineRow *row)
{
  switch (row->kind)
    {
    case SL_ROW_GPU:
    case SL_ROW_PROCESS:
      return self->group_height;
    case SL_ROW_THREAD:
      return self->thread_height;
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
  const SlProfile *p = self->model->profile;
  double dur = (double) MAX (p->end_ns - p->start_ns, 1);

  return MAX (dur / sl_timeline_layout_body_width (self), SL_TIMELINE_MIN_PX_NS);
}

void
sl_timeline_layout_set_size (SlTimelineLayout *self,
                             int               width,
                             int               height)
{
  double view_ns = self->px_ns * sl_timeline_layout_body_width (self);
  int W;

  self->width = MAX (width, 1);
  self->height = MAX (height, 1);
  W = sl_timeline_layout_body_width (self);
  if (W > self->n_alloc)
    {
      self->n_alloc = W;
      self->cov = g_renew (float, self->cov, W);
      self->best = g_renew (float, self->best, W);
      self->color = g_renew (guint8, self->color, W);
    }
  if (!self->sized)
    {
      self->sized = TRUE;
      sl_timeline_layout_fit_all (self);
    }
  else
    sl_timeline_layout_set_view (self, self->t0, view_ns / W);
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
  return (t - self->model->profile->start_ns) / sl_timeline_layout_max_px_ns (self);
}

double
sl_timeline_layout_overview_time (const SlTimelineLayout *self,
                                  double                  x)
{
  return self->model->profile->start_ns + x * sl_timeline_layout_max_px_ns (self);
}

void
sl_timeline_layout_set_view (SlTimelineLayout *self,
                             double            t0,
                             double            px_ns)
{
  const SlProfile *p = self->model->profile;
  double view_ns;

  if (!isfinite (px_ns) || !isfinite (t0))
    return;
  px_ns = CLAMP (px_ns, SL_TIMELINE_MIN_PX_NS, sl_timeline_layout_max_px_ns (self));
  view_ns = px_ns * sl_timeline_layout_body_width (self);
  if (view_ns >= (double) (p->end_ns - p->start_ns))
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
  sl_timeline_layout_set_view (self, self->model->profile->start_ns,
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
  return kind == SL_ROW_GPU || kind == SL_ROW_PROCESS || kind == SL_ROW_THREAD;
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

/* ---- culling and merging ------------------------------------------------ */

static inline guint
lower_bound (const gint64 *start, guint lo, guint hi, gint64 t)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (start[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static inline void
add_cov (SlTimelineLayout *self, int c, float amount, guint8 color)
{
  self->cov[c] += amount;
  if (amount > self->best[c])
    {
      self->best[c] = amount;
      self->color[c] = color;
    }
}

/* Adds the part of [x0, x1) in each column, scaled by @f. */
static inline void
cover (SlTimelineLayout *self, int W, double x0, double x1, float f, guint8 color)
{
  int c0, c1;

  if (x1 - x0 < 1e-3)
    x1 = x0 + 1e-3;
  if (x1 <= 0 || x0 >= W)
    return;
  c0 = x0 < 0 ? 0 : (int) x0;
  c1 = x1 >= W ? W - 1 : (int) x1;
  if (c0 == c1)
    {
      add_cov (self, c0, f * (float) (MIN (x1, c0 + 1) - MAX (x0, c0)), color);
      return;
    }
  add_cov (self, c0, f * (float) (c0 + 1 - MAX (x0, c0)), color);
  for (int c = c0 + 1; c < c1; c++)
    add_cov (self, c, f, color);
  add_cov (self, c1, f * (float) (MIN (x1, c1 + 1) - c1), color);
}

static guint32
event_rgb (const SlTimelineModel *m, const SlSegment *seg, guint i, guint8 color)
{
  const SlProfile *p = m->profile;
  guint32 argb = 0;

  /* NVTX ranges keep their exact colour when drawn whole */
  if (seg->kind == SL_EVENT_NVTX)
    argb = p->threads[seg->owner].nvtx.color[i];
  else if (seg->kind == SL_EVENT_NVTX_STARTEND)
    argb = p->threads[seg->owner].nvtx_startend.color[i];
  return argb ? (argb & 0xffffff) : sl_timeline_color_rgb (color);
}

static guint
count_visible (const SlTimelineRow *row, double t_left, double t_right)
{
  guint n = 0;

  for (guint k = 0; k < row->n_segs; k++)
    {
      const SlSegment *seg = &row->segs[k];
      guint lo = seg->first, hi = seg->first + seg->count;
      guint a = lower_bound (seg->spans->start, lo, hi, (gint64) floor (t_left) - seg->max_dur);
      guint b = lower_bound (seg->spans->start, lo, hi, (gint64) ceil (t_right));
      n += b - a;
    }
  return n;
}

static int
lod_level_for (const SlLod *lod, double px_ns)
{
  int l2;

  if (lod->n_levels == 0 || px_ns < 2.0)
    return -1;
  /* buckets of at most half a pixel: 2..8 of them merge into a column */
  l2 = (int) floor (log2 (px_ns / 2.0));
  if (l2 < (int) lod->shift0)
    return -1;
  return MIN ((l2 - (int) lod->shift0) / 2, (int) lod->n_levels - 1);
}

/* Sums the 2..8 buckets under each column: integer adds over whole buckets,
 * one multiply per partial edge bucket, no per-bucket float work. */
static guint
accumulate_lod (SlTimelineLayout *self, const SlLod *lod, int level, int W)
{
  double w = ldexp (1.0, (int) lod->shift0 + 2 * level);
  double bpp = self->px_ns / w;
  double fb = (self->t0 - lod->origin) / w;
  gint64 n = lod->n[level];
  const guint8 *cov = lod->cov[level];
  const guint8 *col = lod->color[level];
  float norm = (float) (1.0 / (bpp * 255.0));
  guint visited = 0;

  for (int c = 0; c < W; c++)
    {
      double a = fb + c * bpp, b = a + bpp;
      gint64 ia = (gint64) floor (a), ib = (gint64) floor (b);
      guint isum = 0, best = 0;
      float sum;
      guint8 color = 0;

      if (ib < 0 || ia >= n)
        continue;
      for (gint64 k = MAX (ia + 1, 0); k < MIN (ib, n); k++)
        {
          isum += cov[k];
          if (cov[k] > best)
            {
              best = cov[k];
              color = col[k];
            }
        }
      sum = (float) isum;
      if (ia >= 0 && cov[ia])
        {
          sum += cov[ia] * (float) (ia + 1 - a);
          if (cov[ia] > best)
            best = cov[ia], color = col[ia];
        }
      if (ib < n && ib > ia && cov[ib])
        {
          sum += cov[ib] * (float) (b - ib);
          if (cov[ib] > best)
            best = cov[ib], color = col[ib];
        }
      visited += (guint) (ib - ia + 1);
      if (sum <= 0)
        continue;
      self->cov[c] += sum * norm;
      if (sum * norm > self->best[c])
        {
          self->best[c] = sum * norm;
          self->color[c] = color;
        }
    }
  return visited;
}

static guint
accumulate_raw (SlTimelineLayout *self, const SlTimelineRow *row, int W, gboolean summary)
{
  const SlTimelineModel *m = self->model;
  double inv = 1.0 / self->px_ns;
  double t0 = self->t0;
  gint64 t_left = (gint64) floor (self->t0);
  gint64 t_right = (gint64) ceil (self->t0 + W * self->px_ns);
  guint visited = 0;

  for (guint k = 0; k < row->n_segs; k++)
    {
      const SlSegment *seg = &row->segs[k];
      const SlSpans *spans = seg->spans;
      guint lo = seg->first, hi = seg->first + seg->count;
      guint i0 = lower_bound (spans->start, lo, hi, t_left - seg->max_dur);
      guint i1 = lower_bound (spans->start, lo, hi, t_right);

      visited += i1 - i0;
      for (guint i = i0; i < i1; i++)
        {
          gint64 s = spans->start[i];
          gint64 e = s + sl_spans_dur (spans, i);
          double x0, x1;
          guint8 c;

          if (e < t_left)
            continue;
          x0 = ((double) s - t0) * inv;
          x1 = ((double) e - t0) * inv;
          c = sl_timeline_model_event_color (m, seg->kind, spans, seg->owner, i);
          if (!summary && x1 - x0 >= 1.0)
            {
              SlBox box;

              box.x0 = (int) MAX (floor (x0 + 0.5), 0);
              box.x1 = (int) MIN (floor (x1 + 0.5), W);
              if (box.x1 <= box.x0)
                {
                  if (box.x0 >= W)
                    continue;
                  box.x1 = box.x0 + 1;
                }
              box.rgb = event_rgb (m, seg, i, c);
              box.seg = k;
              box.index = i;
              g_array_append_val (self->boxes, box);
            }
          else
            cover (self, W, x0, x1, 1.0f, c);
        }
    }
  return visited;
}

static guint
accumulate_marks (SlTimelineLayout *self, const SlTimelineRow *row, int W, gboolean summary)
{
  const SlNvtxMarks *marks = &self->model->profile->threads[row->index].marks;
  double inv = 1.0 / self->px_ns;
  gint64 t_left = (gint64) floor (self->t0);
  gint64 t_right = (gint64) ceil (self->t0 + W * self->px_ns);
  guint i0 = lower_bound (marks->time, 0, marks->n, t_left);
  guint i1 = lower_bound (marks->time, 0, marks->n, t_right + 1);
  int half = MAX (1, (int) self->scale);

  /* a mark is drawn as a narrow tick; many of them merge per column */
  summary = summary || (i1 - i0) > (guint) W / 4;
  for (guint i = i0; i < i1; i++)
    {
      double x = (marks->time[i] - self->t0) * inv;

      if (summary)
        cover (self, W, x, x, 1.0f, SL_COLOR_MARK);
      else
        {
          SlBox box;

          box.x0 = MAX ((int) floor (x) - half, 0);
          box.x1 = MIN ((int) floor (x) + half + 1, W);
          if (box.x1 <= box.x0)
            continue;
          box.rgb = marks->color[i] ? marks->color[i] & 0xffffff
                                    : sl_timeline_color_rgb (SL_COLOR_MARK);
          box.seg = 0;
          box.index = i;
          g_array_append_val (self->boxes, box);
        }
    }
  return i1 - i0;
}

static guint
accumulate_track (SlTimelineLayout *self, const SlTimelineRow *row, int W,
                  gboolean summary, int *level_out)
{
  int level;

  *level_out = -1;
  if (row->kind == SL_ROW_MARKS)
    return accumulate_marks (self, row, W, summary);

  level = lod_level_for (&row->lod, self->px_ns);
  if (level >= 0 &&
      count_visible (row, self->t0, self->t0 + W * self->px_ns) > (guint) RAW_BUDGET (W))
    {
      *level_out = level;
      return accumulate_lod (self, &row->lod, level, W);
    }
  return accumulate_raw (self, row, W, summary);
}

void
sl_timeline_layout_row_columns (SlTimelineLayout *self,
                                guint             r,
                                SlRowColumns     *out)
{
  const SlTimelineModel *m = self->model;
  int W = sl_timeline_layout_body_width (self);

  g_return_if_fail (r < m->n_rows);
  g_return_if_fail (self->n_alloc >= W);

  memset (self->cov, 0, W * sizeof (float));
  memset (self->best, 0, W * sizeof (float));
  memset (self->color, 0, W);
  g_array_set_size (self->boxes, 0);
  memset (out, 0, sizeof *out);
  out->lod_level = -1;

  if (sl_timeline_layout_is_group (self, r))
    {
      /* a collapsed group shows the merged activity of its tracks */
      if (self->collapsed[r])
        for (guint k = r + 1; k < m->n_rows && m->rows[k].level > m->rows[r].level; k++)
          if (!sl_timeline_layout_is_group (self, k))
            {
              int level;
              out->n_visited += accumulate_track (self, &m->rows[k], W, TRUE, &level);
              out->lod_level = MAX (out->lod_level, level);
            }
    }
  else
    out->n_visited = accumulate_track (self, &m->rows[r], W, FALSE, &out->lod_level);

  out->n_cols = W;
  out->cov = self->cov;
  out->color = self->color;
  out->boxes = (const SlBox *) (void *) self->boxes->data;
  out->n_boxes = self->boxes->len;
}

void
sl_timeline_layout_overview (SlTimelineLayout *self,
                             const float     **values,
                             const guint8    **colors)
{
  const SlTimelineModel *m = self->model;
  int W = sl_timeline_layout_body_width (self);

  if (self->overview == NULL || self->overview_width != W)
    {
      double t0 = self->t0, px_ns = self->px_ns;
      float *best = g_new0 (float, W);
      float max = 0;

      g_free (self->overview);
      g_free (self->overview_color);
      self->overview = g_new0 (float, W);
      self->overview_color = g_new0 (guint8, W);
      self->overview_width = W;

      self->t0 = m->profile->start_ns;
      self->px_ns = sl_timeline_layout_max_px_ns (self);
      for (guint r = 0; r < m->n_rows; r++)
        {
          int level;

          if (m->rows[r].kind != SL_ROW_STREAM)
            continue;
          memset (self->cov, 0, W * sizeof (float));
          memset (self->best, 0, W * sizeof (float));
          memset (self->color, 0, W);
          accumulate_track (self, &m->rows[r], W, TRUE, &level);
          for (int c = 0; c < W; c++)
            {
              float v = MIN (self->cov[c], 1.0f);
              self->overview[c] += v;
              if (v > best[c])
                {
                  best[c] = v;
                  self->overview_color[c] = self->color[c];
                }
            }
        }
      for (int c = 0; c < W; c++)
        max = MAX (max, self->overview[c]);
      if (max > 0)
        for (int c = 0; c < W; c++)
          self->overview[c] /= max;
      self->t0 = t0;
      self->px_ns = px_ns;
      g_free (best);
    }
  *values = self->overview;
  *colors = self->overview_color;
}

/* ---- hit testing -------------------------------------------------------- */

typedef struct {
  double     dist;
  gint64     dur;
  SlEventRef ev;
} Candidate;

static void
consider (Candidate *best, SlEventKind kind, guint32 owner, guint index,
          gint64 s, gint64 e, double t, double tol)
{
  double dist = t < s ? s - t : t > e ? t - e : 0;

  if (dist > tol)
    return;
  /* prefer the event under the pointer, then the shortest (nested ones) */
  if (best->ev.kind != SL_EVENT_NONE &&
      (dist > best->dist || (dist == best->dist && e - s >= best->dur)))
    return;
  best->dist = dist;
  best->dur = e - s;
  best->ev.kind = kind;
  best->ev.owner = owner;
  best->ev.index = index;
}

static void
hit_track (const SlTimelineLayout *self, const SlTimelineRow *row, double t, double tol,
           Candidate *best)
{
  if (row->kind == SL_ROW_MARKS)
    {
      const SlNvtxMarks *marks = &self->model->profile->threads[row->index].marks;
      guint i = lower_bound (marks->time, 0, marks->n, (gint64) floor (t - tol));

      for (; i < marks->n && marks->time[i] <= t + tol; i++)
        consider (best, SL_EVENT_MARK, row->index, i, marks->time[i], marks->time[i], t, tol);
      return;
    }
  for (guint k = 0; k < row->n_segs; k++)
    {
      const SlSegment *seg = &row->segs[k];
      const SlSpans *spans = seg->spans;
      guint lo = seg->first;
      guint i = lower_bound (spans->start, lo, seg->first + seg->count, (gint64) ceil (t + tol) + 1);
      guint steps = 0;

      while (i > lo && steps++ < 4096)
        {
          gint64 s, e;

          i--;
          s = spans->start[i];
          if (s + seg->max_dur < t - tol)
            break;
          e = s + sl_spans_dur (spans, i);
          consider (best, seg->kind, seg->kind == SL_EVENT_API ? row->index : seg->owner,
                    i, s, e, t, tol);
        }
    }
}

gboolean
sl_timeline_layout_hit_test (SlTimelineLayout *self,
                             double            x,
                             double            y,
                             SlEventRef       *out)
{
  const SlTimelineModel *m = self->model;
  Candidate best = { 0 };
  guint r;
  double t, tol;

  out->kind = SL_EVENT_NONE;
  if (x < self->header_width)
    return FALSE;
  r = sl_timeline_layout_row_at (self, y);
  if (r == SL_NONE)
    return FALSE;
  t = sl_timeline_layout_x_to_time (self, x - self->header_width);
  tol = 3.0 * self->scale * self->px_ns;
  best.ev.kind = SL_EVENT_NONE;

  if (sl_timeline_layout_is_group (self, r))
    {
      if (!self->collapsed[r])
        return FALSE;
      for (guint k = r + 1; k < m->n_rows && m->rows[k].level > m->rows[r].level; k++)
        if (!sl_timeline_layout_is_group (self, k))
          hit_track (self, &m->rows[k], t, tol, &best);
    }
  else
    hit_track (self, &m->rows[r], t, tol, &best);

  *out = best.ev;
  return out->kind != SL_EVENT_NONE;
}

gboolean
sl_timeline_layout_event_rect (const SlTimelineLayout *self,
                               const SlEventRef       *event,
                               double                 *x0,
                               double                 *x1,
                               int                    *y,
                               int                    *height)
{
  const SlTimelineModel *m = self->model;
  guint r = sl_timeline_model_event_row (m, event);
  gint64 s, e;

  if (r == SL_NONE || !sl_timeline_model_event_span (m, event, &s, &e))
    return FALSE;
  /* an event inside a collapsed group points at the group's row */
  while (self->row_y[r] < 0 && m->rows[r].parent != SL_NONE)
    r = m->rows[r].parent;
  if (!sl_timeline_layout_row_rect (self, r, y, height))
    return FALSE;
  *x0 = self->header_width + sl_timeline_layout_time_to_x (self, s);
  *x1 = self->header_width + sl_timeline_layout_time_to_x (self, e);
  return TRUE;
}

/* ---- ruler and formatting ---------------------------------------------- */

gint64
sl_timeline_layout_tick_step (const SlTimelineLayout *self,
                              double                  min_px)
{
  double target = MAX (min_px * self->px_ns, 1.0);
  gint64 base = 1;

  while (base <= G_MAXINT64 / 10)
    {
      static const int mult[] = { 1, 2, 5 };
      for (guint k = 0; k < G_N_ELEMENTS (mult); k++)
        if ((double) base * mult[k] >= target)
          return base * mult[k];
      base *= 10;
    }
  return base;
}

char *
sl_timeline_layout_format_tick (const SlTimelineLayout *self,
                                gint64                  t,
                                gint64                  step)
{
  if (self->relative_time)
    {
      /* The unit follows the time's magnitude, the decimals the tick step:
       * deep inside a long run a label reads "16.305326 s", not
       * "16305326 µs". */
      gint64 rel = t - self->model->profile->start_ns;
      return sl_format_time_in_unit (rel, MAX (rel < 0 ? -rel : rel, step), step);
    }
  /* absolute capture-clock time reads best in seconds */
  return sl_format_time_in_unit (t, G_GINT64_CONSTANT (1000000000), step);
}
