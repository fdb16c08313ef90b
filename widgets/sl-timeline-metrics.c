/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-metrics.c: counter rows: per-column min/max/mean and the
 * area chart written into the frame's pixels. */
#include "sl-timeline-metrics.h"
#include "sl-timeline-render-private.h"
#include "sl-int.h"

#include <math.h>

float
sl_timeline_metric_scale (const SlMetricSeries *ser)
{
  if (ser->percent)
    return 100.0f;
  return ser->max > 0 ? ser->max : 1.0f;
}

guint32
sl_timeline_metric_at (const SlMetricSeries *ser,
                       double                t,
                       double                tol)
{
  guint i = sl_metric_series_lower_bound (ser, sl_int64_from_double (floor (t)) + 1);

  if (i == 0)
    return ser->n > 0 && ser->time[0] - t <= tol ? 0 : SL_NONE;
  if (i == ser->n && t - ser->time[ser->n - 1] > tol)
    return SL_NONE;
  return i - 1;
}

guint
sl_timeline_metric_columns (const SlMetricSeries *ser,
                            double                t0,
                            double                px_ns,
                            int                   width,
                            float                *min,
                            float                *max,
                            float                *mean)
{
  guint i = sl_metric_series_lower_bound (ser, sl_int64_from_double (floor (t0)));
  guint first = i;
  float held = i > 0 ? ser->value[i - 1] : NAN;
  gint64 last = ser->n > 0 ? ser->time[ser->n - 1] : 0;

  for (int c = 0; c < width; c++)
    {
      double end = t0 + (c + 1) * px_ns;
      float lo = INFINITY, hi = -INFINITY;
      double sum = 0;
      guint n = 0;

      for (; i < ser->n && ser->time[i] < end; i++, n++)
        {
          float v = ser->value[i];
          lo = MIN (lo, v);
          hi = MAX (hi, v);
          sum += v;
        }
      if (n > 0)
        {
          min[c] = lo, max[c] = hi, mean[c] = (float) (sum / n);
          held = ser->value[i - 1];
        }
      else if (t0 + c * px_ns <= last)
        min[c] = max[c] = mean[c] = held;
      else
        min[c] = max[c] = mean[c] = NAN;
    }
  return i - first;
}

/* Line (frame y) of value @v in a chart from @y0 (top, @scale) to @y1 (bottom, 0). */
static inline int
value_line (float v, float scale, int y0, int y1)
{
  double f = CLAMP (v / scale, 0.0, 1.0);
  return (int) floor (y1 - f * (y1 - y0) + 0.5);
}

/* Per column: the lines of max, min and mean (INT_MAX: nothing drawn). */
static void
chart_lines (const SlMetricSeries *ser, SlFrame *f, int y0, int y1, int *top, int *bot, int *mid)
{
  int W = f->body_width;
  g_autofree float *mn = g_new (float, 3 * (gsize) W);
  float *mx = mn + W, *me = mn + 2 * W;
  float scale = sl_timeline_metric_scale (ser);

  sl_timeline_metric_columns (ser, f->layout->t0, f->layout->px_ns, W, mn, mx, me);
  for (int c = 0; c < W; c++)
    {
      if (isnan (me[c]))
        {
          top[c] = bot[c] = mid[c] = G_MAXINT;
          continue;
        }
      top[c] = value_line (mx[c], scale, y0, y1);
      bot[c] = value_line (mn[c], scale, y0, y1);
      mid[c] = value_line (me[c], scale, y0, y1);
    }
}

/* Counter row @r at widget y @y, height @h, lines [top, bottom) in the frame:
 * a light band from min to max per column, the area under the mean, and
 * the mean's line on top. */
void
_sl_timeline_metrics_write (SlFrame *f, guint r, int y, int h, int top, int bottom)
{
  const SlTimelineModel *m = f->layout->model;
  const SlMetricSeries *ser = &m->metrics->series[m->rows[r].index];
  guint32 color = sl_timeline_color_rgb (SL_COLOR_HASHED_FIRST + ser->metric_id % SL_N_HASHED_COLORS);
  guint32 bg = f->style->bg;
  guint32 band = _sl_opaque (sl_timeline_color_mix (bg, color, 0.35f));
  guint32 area = _sl_opaque (sl_timeline_color_mix (bg, color, 0.75f));
  guint32 line = _sl_opaque (sl_timeline_color_mix (color, 0x000000, 0.35f));
  int W = f->body_width, pad = MAX (1, (int) (2 * f->scale));
  int y0 = y + pad, y1 = y + h - pad - 1;
  g_autofree int *lines = g_new (int, 3 * (gsize) MAX (W, 1));
  int *tp = lines, *bt = lines + W, *md = lines + 2 * W;

  chart_lines (ser, f, y0, y1, tp, bt, md);
  for (int ly = top; ly < bottom; ly++)
    {
      guint32 *px = _sl_frame_line (f, ly);

      memcpy (px, f->renderer->bgscan, f->width * sizeof (guint32));
      if (ly < y0 || ly > y1)
        continue;
      px += f->header_width;
      for (int c = 0; c < W; c++)
        {
          if (md[c] == G_MAXINT)
            continue;
          if (ly == md[c])
            px[c] = line;
          else if (ly > md[c])
            px[c] = area;
          else if (ly >= tp[c] && ly <= bt[c])
            px[c] = band;
        }
    }
  f->stats.n_columns += W;
}
