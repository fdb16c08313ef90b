/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-hit.c: hit testing, nearest event within a few pixels. */
#include "sl-timeline-hit.h"
#include "sl-int.h"
#include "sl-timeline-metrics.h"
#include "sl-timeline-samples.h"

#include <math.h>

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
      guint i = sl_times_lower_bound (marks->time, 0, marks->n, sl_int64_from_double (floor (t - tol)));

      for (; i < marks->n && marks->time[i] <= t + tol; i++)
        consider (best, SL_EVENT_MARK, row->index, i, marks->time[i], marks->time[i], t, tol);
      return;
    }
  if (row->kind == SL_ROW_SAMPLES)
    {
      const SlCpuSamples *samples = &self->model->cpu->threads[row->index].samples;
      guint32 i = sl_timeline_samples_nearest (samples, t, tol);

      if (i != SL_NONE)
        consider (best, SL_EVENT_SAMPLE, row->index, i, samples->time[i], samples->time[i], t, tol);
      return;
    }
  if (row->kind == SL_ROW_METRIC)
    {
      const SlMetricSeries *ser = &self->model->metrics->series[row->index];
      guint32 i = sl_timeline_metric_at (ser, t, tol);

      /* the value in effect under the pointer, however far its sample */
      if (i != SL_NONE)
        consider (best, SL_EVENT_METRIC, row->index, i, (gint64) t, (gint64) t, t, tol);
      return;
    }
  for (guint k = 0; k < row->n_segs; k++)
    {
      const SlSegment *seg = &row->segs[k];
      const SlSpans *spans = seg->spans;
      guint lo = seg->first;
      guint i = sl_spans_lower_bound_in (spans, lo, seg->first + seg->count,
                                         sl_sat_add (sl_int64_from_double (ceil (t + tol)), 1));
      guint steps = 0;

      while (i > lo && steps++ < 4096)
        {
          gint64 s, e;

          i--;
          s = spans->start[i];
          if (sl_sat_add (s, seg->max_dur) < t - tol)
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

  if (!sl_timeline_layout_is_group (self, r))
    hit_track (self, &m->rows[r], t, tol, &best);
  else if (self->collapsed[r])
    {
      guint end = sl_timeline_model_group_end (m, r);

      /* a collapsed group hits the events of its tracks */
      for (guint k = r + 1; k < end; k++)
        if (!sl_timeline_layout_is_group (self, k))
          hit_track (self, &m->rows[k], t, tol, &best);
    }

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
  if (sl_timeline_layout_row_hidden (self, r))
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
