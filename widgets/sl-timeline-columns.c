/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-columns.c: culling, per-pixel merging and the choice between
 * the events and their level-of-detail pyramid. */
#include "sl-timeline-columns.h"
#include "sl-timeline-colors.h"
#include "sl-timeline-lod.h"
#include "sl-timeline-samples.h"
#include "sl-int.h"

#include <math.h>
#include <string.h>

/* Below this many visible events a row is drawn from the events even when a
 * pyramid level would do: exact boxes and labels are worth it. */
#define RAW_BUDGET(W) MAX (1024, (W))

/* The merge's buffers, kept with the layout and reused between frames. */
typedef struct {
  int         n_alloc;
  SlCoverage  cov;
  GArray     *boxes;       /* of SlBox */
} ColumnBuffers;

static void
column_buffers_free (gpointer data)
{
  ColumnBuffers *b = data;

  g_free (b->cov.busy);
  g_free (b->cov.best);
  g_free (b->cov.color);
  if (b->boxes != NULL)
    g_array_unref (b->boxes);
  g_free (b);
}

/* One merge: the view it is for and the buffers it adds to. */
typedef struct {
  const SlTimelineModel *model;
  double                 t0, px_ns;
  int                    width;      /* columns */
  int                    mark_half;  /* half width of a mark's tick */
  SlCoverage             cov;
  GArray                *boxes;
} Merge;

static void
merge_begin (Merge *mg, SlTimelineLayout *layout, double t0, double px_ns)
{
  ColumnBuffers *b = sl_view_cache_get (&layout->columns, sizeof (ColumnBuffers), column_buffers_free);
  int W = sl_timeline_layout_body_width (layout);

  if (W > b->n_alloc)
    {
      b->n_alloc = W;
      b->cov.busy = g_renew (float, b->cov.busy, W);
      b->cov.best = g_renew (float, b->cov.best, W);
      b->cov.color = g_renew (guint8, b->cov.color, W);
    }
  if (b->boxes == NULL)
    b->boxes = g_array_new (FALSE, FALSE, sizeof (SlBox));
  memset (b->cov.busy, 0, W * sizeof (float));
  memset (b->cov.best, 0, W * sizeof (float));
  memset (b->cov.color, 0, W);
  g_array_set_size (b->boxes, 0);

  mg->model = layout->model;
  mg->t0 = t0;
  mg->px_ns = px_ns;
  mg->width = W;
  mg->mark_half = MAX (1, (int) layout->scale);
  mg->cov = b->cov;
  mg->boxes = b->boxes;
}

static void
merge_end (const Merge *mg, SlRowColumns *out)
{
  out->n_cols = mg->width;
  out->cov = mg->cov.busy;
  out->color = mg->cov.color;
  out->boxes = (const SlBox *) (void *) mg->boxes->data;
  out->n_boxes = mg->boxes->len;
}

/* Adds the part of [x0, x1) in each column, scaled by @f. */
static inline void
cover (Merge *mg, double x0, double x1, float f, guint8 color)
{
  int W = mg->width;
  int c0, c1;

  if (x1 - x0 < 1e-3)
    x1 = x0 + 1e-3;
  if (x1 <= 0 || x0 >= W)
    return;
  c0 = x0 < 0 ? 0 : (int) x0;
  c1 = x1 >= W ? W - 1 : (int) x1;
  if (c0 == c1)
    {
      sl_coverage_add (&mg->cov, c0, f * (float) (MIN (x1, c0 + 1) - MAX (x0, c0)), color);
      return;
    }
  sl_coverage_add (&mg->cov, c0, f * (float) (c0 + 1 - MAX (x0, c0)), color);
  for (int c = c0 + 1; c < c1; c++)
    sl_coverage_add (&mg->cov, c, f, color);
  sl_coverage_add (&mg->cov, c1, f * (float) (MIN (x1, c1 + 1) - c1), color);
}

static guint32
event_rgb (const SlTimelineModel *m, const SlSegment *seg, guint i, guint8 color)
{
  const SlProfile *p = m->profile;
  guint32 argb = 0;

  /* NVTX ranges keep their exact colour when drawn whole */
  if (seg->kind == SL_EVENT_NVTX)
    argb = sl_nvtx_ranges_color (&p->threads[seg->owner].nvtx, i);
  else if (seg->kind == SL_EVENT_NVTX_STARTEND)
    argb = sl_nvtx_ranges_color (&p->threads[seg->owner].nvtx_startend, i);
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
      guint a = sl_spans_lower_bound_in (seg->spans, lo, hi, sl_sat_sub (sl_int64_from_double (floor (t_left)), seg->max_dur));
      guint b = sl_spans_lower_bound_in (seg->spans, lo, hi, sl_int64_from_double (ceil (t_right)));
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
accumulate_lod (Merge *mg, const SlLod *lod, int level)
{
  double w = ldexp (1.0, (int) lod->shift0 + 2 * level);
  double bpp = mg->px_ns / w;
  double fb = (mg->t0 - lod->origin) / w;
  gint64 n = lod->n[level];
  const guint8 *cov = lod->cov[level];
  const guint8 *col = lod->color[level];
  float norm = (float) (1.0 / (bpp * 255.0));
  guint visited = 0;

  for (int c = 0; c < mg->width; c++)
    {
      double a = fb + c * bpp, b = a + bpp;
      gint64 ia = sl_int64_from_double (floor (a)), ib = sl_int64_from_double (floor (b));
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
      if (sum > 0)
        sl_coverage_add (&mg->cov, c, sum * norm, color);
    }
  return visited;
}

static inline void
push_box (Merge *mg, int x0, int x1, guint32 rgb, guint seg, guint index)
{
  SlBox box;

  box.x0 = x0;
  box.x1 = x1;
  box.rgb = rgb;
  box.seg = seg;
  box.index = index;
  g_array_append_val (mg->boxes, box);
}

/* The box of an event at least a pixel wide, snapped to whole pixels. */
static inline void
add_event_box (Merge *mg, double x0, double x1, guint32 rgb, guint seg, guint index)
{
  int b0 = (int) MAX (floor (x0 + 0.5), 0);
  int b1 = (int) MIN (floor (x1 + 0.5), mg->width);

  if (b1 <= b0)
    {
      if (b0 >= mg->width)
        return;
      b1 = b0 + 1;
    }
  push_box (mg, b0, b1, rgb, seg, index);
}

static guint
accumulate_segment (Merge *mg, const SlSegment *seg, guint k, gboolean summary)
{
  const SlSpans *spans = seg->spans;
  double inv = 1.0 / mg->px_ns;
  double t0 = mg->t0;
  gint64 t_left = sl_int64_from_double (floor (mg->t0));
  gint64 t_right = sl_int64_from_double (ceil (mg->t0 + mg->width * mg->px_ns));
  guint lo = seg->first, hi = seg->first + seg->count;
  /* an event of 2^63 - 1 ns starts that far before the view */
  guint i0 = sl_spans_lower_bound_in (spans, lo, hi, sl_sat_sub (t_left, seg->max_dur));
  guint i1 = sl_spans_lower_bound_in (spans, lo, hi, t_right);

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
      c = sl_timeline_model_event_color (mg->model, seg->kind, spans, seg->owner, i);
      if (!summary && x1 - x0 >= 1.0)
        add_event_box (mg, x0, x1, event_rgb (mg->model, seg, i, c), k, i);
      else
        cover (mg, x0, x1, 1.0f, c);
    }
  return i1 - i0;
}

static guint
accumulate_marks (Merge *mg, const SlTimelineRow *row, gboolean summary)
{
  const SlNvtxMarks *marks = &mg->model->profile->threads[row->index].marks;
  int W = mg->width;
  double inv = 1.0 / mg->px_ns;
  gint64 t_left = sl_int64_from_double (floor (mg->t0));
  gint64 t_right = sl_int64_from_double (ceil (mg->t0 + W * mg->px_ns));
  guint i0 = sl_times_lower_bound (marks->time, 0, marks->n, t_left);
  guint i1 = sl_times_lower_bound (marks->time, 0, marks->n, sl_sat_add (t_right, 1));
  int half = mg->mark_half;

  /* a mark is drawn as a narrow tick; many of them merge per column */
  summary = summary || (i1 - i0) > (guint) W / 4;
  for (guint i = i0; i < i1; i++)
    {
      double x = (marks->time[i] - mg->t0) * inv;
      int x0, x1;

      if (summary)
        {
          cover (mg, x, x, 1.0f, SL_COLOR_MARK);
          continue;
        }
      x0 = MAX ((int) floor (x) - half, 0);
      x1 = MIN ((int) floor (x) + half + 1, W);
      if (x1 > x0)
        push_box (mg, x0, x1, marks->color[i] ? marks->color[i] & 0xffffff
                                              : sl_timeline_color_rgb (SL_COLOR_MARK), 0, i);
    }
  return i1 - i0;
}

static guint
accumulate_samples (Merge *mg, const SlTimelineRow *row, gboolean summary)
{
  g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (SlSampleTick));
  guint n = sl_timeline_samples_merge (&mg->model->cpu->threads[row->index].samples, mg->t0, mg->px_ns,
                                       mg->width, mg->mark_half, summary, &mg->cov, ticks);

  for (guint k = 0; k < ticks->len; k++)
    {
      const SlSampleTick *t = &g_array_index (ticks, SlSampleTick, k);
      push_box (mg, t->x0, t->x1, t->rgb, 0, t->index);
    }
  return n;
}

static guint
accumulate_track (Merge *mg, const SlTimelineRow *row, gboolean summary, int *level_out)
{
  int level;
  guint visited = 0;

  *level_out = -1;
  if (row->kind == SL_ROW_MARKS)
    return accumulate_marks (mg, row, summary);
  if (row->kind == SL_ROW_SAMPLES)
    return accumulate_samples (mg, row, summary);
  if (row->kind == SL_ROW_METRIC)
    return 0;   /* drawn as a chart by sl-timeline-metrics.c */

  level = lod_level_for (&row->lod, mg->px_ns);
  if (level >= 0 &&
      count_visible (row, mg->t0, mg->t0 + mg->width * mg->px_ns) > (guint) RAW_BUDGET (mg->width))
    {
      *level_out = level;
      return accumulate_lod (mg, &row->lod, level);
    }
  for (guint k = 0; k < row->n_segs; k++)
    visited += accumulate_segment (mg, &row->segs[k], k, summary);
  return visited;
}

void
sl_timeline_layout_row_columns (SlTimelineLayout *self,
                                guint             r,
                                SlRowColumns     *out)
{
  const SlTimelineModel *m = self->model;
  Merge mg;

  g_return_if_fail (r < m->n_rows);

  merge_begin (&mg, self, self->t0, self->px_ns);
  memset (out, 0, sizeof *out);
  out->lod_level = -1;

  if (!sl_timeline_layout_is_group (self, r))
    out->n_visited = accumulate_track (&mg, &m->rows[r], FALSE, &out->lod_level);
  else if (self->collapsed[r])
    {
      guint end = sl_timeline_model_group_end (m, r);

      /* a collapsed group shows the merged activity of its tracks */
      for (guint k = r + 1; k < end; k++)
        if (!sl_timeline_layout_is_group (self, k))
          {
            int level;
            out->n_visited += accumulate_track (&mg, &m->rows[k], TRUE, &level);
            out->lod_level = MAX (out->lod_level, level);
          }
    }
  merge_end (&mg, out);
}

void
_sl_timeline_layout_track_summary (SlTimelineLayout *self,
                                   guint             r,
                                   double            t0,
                                   double            px_ns,
                                   SlRowColumns     *out)
{
  Merge mg;

  g_return_if_fail (r < self->model->n_rows);

  merge_begin (&mg, self, t0, px_ns);
  memset (out, 0, sizeof *out);
  out->n_visited = accumulate_track (&mg, &self->model->rows[r], TRUE, &out->lod_level);
  merge_end (&mg, out);
}
