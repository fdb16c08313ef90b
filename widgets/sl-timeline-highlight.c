/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-highlight.c: the highlight indexed by row, and the stretches
 * of a row to outline in the visible window. */
#include "sl-timeline-highlight.h"

#include <math.h>
#include <string.h>

struct _SlHighlightIndex {
  SlTimelineModel *model;
  SlHighlight     *highlight;
  guint            n_rows;
  guint           *first;      /* n_rows + 1: row r's events are [first[r], first[r + 1]) */
  gint64          *start;      /* by start within a row */
  gint64          *end;
  gint64          *max_end;    /* the largest end so far in the row: bounds the search */
};

static guint64
row_key (SlRowKind kind, guint32 index, guint depth)
{
  return ((guint64) kind << 48) | ((guint64) depth << 32) | index;
}

/* The key of the row that draws @ev, as sl_timeline_model_event_row()
 * finds it, without its walk over every row. */
static guint64
event_key (const SlTimelineModel *model, const SlEventRef *ev)
{
  const SlProfile *p = model->profile;

  switch (ev->kind)
    {
    case SL_EVENT_KERNEL:
    case SL_EVENT_MEMCPY:
    case SL_EVENT_MEMSET:
      return row_key (SL_ROW_STREAM, ev->owner, 0);
    case SL_EVENT_API:
      return row_key (SL_ROW_API, sl_profile_api_thread (p, ev->index), 0);
    case SL_EVENT_NVTX:
      return row_key (SL_ROW_NVTX, ev->owner, sl_nvtx_ranges_depth (&p->threads[ev->owner].nvtx, ev->index));
    case SL_EVENT_NVTX_STARTEND:
      return row_key (SL_ROW_NVTX_STARTEND, ev->owner,
                      sl_nvtx_ranges_depth (&p->threads[ev->owner].nvtx_startend, ev->index));
    case SL_EVENT_MARK:
      return row_key (SL_ROW_MARKS, ev->owner, 0);
    case SL_EVENT_OSRT:
      return row_key (SL_ROW_OSRT, ev->owner, model->cpu->threads[ev->owner].osrt.depth[ev->index]);
    case SL_EVENT_SAMPLE:
      return row_key (SL_ROW_SAMPLES, ev->owner, 0);
    case SL_EVENT_METRIC:
      return row_key (SL_ROW_METRIC, ev->owner, 0);
    case SL_EVENT_NONE:
    default:
      return G_MAXUINT64;
    }
}

/* Each highlighted event's row (SL_NONE when no row draws it). */
static guint *
rows_of_events (const SlTimelineModel *model, const SlHighlight *highlight)
{
  guint n = sl_highlight_get_n (highlight);
  guint *rows = g_new (guint, MAX (n, 1));
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  guint64 last_key = G_MAXUINT64;
  guint last_row = SL_NONE;

  for (guint r = 0; r < model->n_rows; r++)
    {
      const SlTimelineRow *row = &model->rows[r];
      gboolean depth = row->kind == SL_ROW_NVTX || row->kind == SL_ROW_NVTX_STARTEND;
      guint64 *key = g_new (guint64, 1);

      *key = row_key (row->kind, row->index, depth ? row->depth : 0);
      g_hash_table_insert (by_key, key, GUINT_TO_POINTER (r + 1));
    }
  /* neighbours by time are often on one row: the last answer first */
  for (guint i = 0; i < n; i++)
    {
      guint64 key = event_key (model, sl_highlight_get (highlight, i));

      if (key != last_key)
        {
          last_key = key;
          last_row = GPOINTER_TO_UINT (g_hash_table_lookup (by_key, &key)) - 1;
        }
      rows[i] = last_row;
    }
  return rows;
}

SlHighlightIndex *
sl_highlight_index_new (SlTimelineModel *model, SlHighlight *highlight)
{
  SlHighlightIndex *self = g_new0 (SlHighlightIndex, 1);
  guint n = sl_highlight_get_n (highlight);
  g_autofree guint *rows = rows_of_events (model, highlight);
  g_autofree guint *fill = NULL;

  self->model = sl_timeline_model_ref (model);
  self->highlight = sl_highlight_ref (highlight);
  self->n_rows = model->n_rows;
  self->first = g_new0 (guint, self->n_rows + 1);
  for (guint i = 0; i < n; i++)
    if (rows[i] != SL_NONE)
      self->first[rows[i] + 1]++;
  for (guint r = 0; r < self->n_rows; r++)
    self->first[r + 1] += self->first[r];
  fill = g_memdup2 (self->first, sizeof (guint) * (self->n_rows + 1));
  self->start = g_new (gint64, MAX (self->first[self->n_rows], 1));
  self->end = g_new (gint64, MAX (self->first[self->n_rows], 1));
  self->max_end = g_new (gint64, MAX (self->first[self->n_rows], 1));
  /* the highlight is by start, so each row's slice is too */
  for (guint i = 0; i < n; i++)
    if (rows[i] != SL_NONE)
      {
        guint at = fill[rows[i]]++;

        self->start[at] = sl_highlight_get_start (highlight, i);
        self->end[at] = sl_highlight_get_end (highlight, i);
      }
  for (guint r = 0; r < self->n_rows; r++)
    for (guint i = self->first[r]; i < self->first[r + 1]; i++)
      self->max_end[i] = i > self->first[r] ? MAX (self->max_end[i - 1], self->end[i]) : self->end[i];
  return self;
}

void
sl_highlight_index_free (SlHighlightIndex *self)
{
  if (self == NULL)
    return;
  sl_timeline_model_unref (self->model);
  sl_highlight_unref (self->highlight);
  g_free (self->first);
  g_free (self->start);
  g_free (self->end);
  g_free (self->max_end);
  g_free (self);
}

gboolean
sl_highlight_index_is_for (const SlHighlightIndex *self, const SlTimelineModel *model,
                           const SlHighlight *highlight)
{
  return self != NULL && self->model == model && self->highlight == highlight;
}

guint
sl_highlight_index_row_count (const SlHighlightIndex *self, guint row)
{
  return row < self->n_rows ? self->first[row + 1] - self->first[row] : 0;
}

/* The first i in [lo, hi) with v[i] >= t (v sorted), galloping from lo:
 * stepping through a window column by column costs the log of each step. */
static guint
gallop (const gint64 *v, guint lo, guint hi, gint64 t)
{
  guint step = 1, a = lo, b;

  while (lo + step < hi && v[lo + step] < t)
    {
      a = lo + step;
      step *= 2;
    }
  b = MIN (lo + step, hi);
  while (a < b)
    {
      guint mid = a + (b - a) / 2;

      if (v[mid] < t)
        a = mid + 1;
      else
        b = mid;
    }
  return a;
}

/* The first i of the row whose running maximum end reaches past @t. */
static guint
first_reaching (const SlHighlightIndex *self, guint lo, guint hi, gint64 t)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->max_end[mid] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
push_span (GArray *out, guint base, int x0, int x1, int min_width, int width)
{
  SlHighlightSpan s;

  if (x1 - x0 < min_width)
    {
      x0 = (x0 + x1 - min_width) / 2;
      x1 = x0 + min_width;
    }
  s.x0 = CLAMP (x0, -min_width, width + min_width);
  s.x1 = CLAMP (x1, -min_width, width + min_width);
  /* overlapping stretches become one; touching ones stay apart */
  if (out->len > base && s.x0 < g_array_index (out, SlHighlightSpan, out->len - 1).x1)
    {
      SlHighlightSpan *last = &g_array_index (out, SlHighlightSpan, out->len - 1);
      last->x1 = MAX (last->x1, s.x1);
      return;
    }
  g_array_append_val (out, s);
}

/* Few events (a quarter of the pixels): one stretch per event. */
static void
spans_by_event (const SlHighlightIndex *self, const SlTimelineLayout *l, guint a, guint b,
                int min_width, GArray *out)
{
  int width = sl_timeline_layout_body_width (l);
  guint base = out->len;

  for (guint i = a; i < b; i++)
    {
      double x0 = floor ((self->start[i] - l->t0) / l->px_ns);
      double x1 = ceil ((self->end[i] - l->t0) / l->px_ns);

      if (self->end[i] < l->t0)
        continue;
      push_span (out, base, (int) MAX (x0, -1e6), (int) MIN (x1, 1e6), min_width, width);
    }
}

/* More events than pixels: a column is covered when an event overlaps it
 * (the last event starting before its end reaches into it, by the
 * running maximum of ends); runs of covered columns become stretches. */
static void
spans_by_column (const SlHighlightIndex *self, const SlTimelineLayout *l, guint lo, guint a, guint b,
                 int min_width, GArray *out)
{
  int width = sl_timeline_layout_body_width (l);
  guint base = out->len, k = a;
  int run = -1;

  for (int c = 0; c <= width; c++)
    {
      gboolean covered = FALSE;

      if (c < width)
        {
          double tc = l->t0 + c * l->px_ns;

          k = gallop (self->start, k, b, (gint64) ceil (tc + l->px_ns));
          covered = k > lo && (self->max_end[k - 1] > tc || self->start[k - 1] >= tc);
        }
      if (covered && run < 0)
        run = c;
      else if (!covered && run >= 0)
        {
          push_span (out, base, run, c, min_width, width);
          run = -1;
        }
    }
}

/* One row's stretches, appended to @out. */
static void
track_spans (const SlHighlightIndex *self, const SlTimelineLayout *l, guint r, int min_width, GArray *out)
{
  guint lo = self->first[r], hi = self->first[r + 1], a, b;
  int width = sl_timeline_layout_body_width (l);
  double t1 = l->t0 + width * l->px_ns;

  if (lo == hi)
    return;
  a = first_reaching (self, lo, hi, (gint64) floor (l->t0) - 1);
  b = gallop (self->start, a, hi, (gint64) ceil (t1));
  /* one outline per event only while they lie a few pixels apart */
  if (b - a <= (guint) width / 4)
    spans_by_event (self, l, a, b, min_width, out);
  else
    spans_by_column (self, l, lo, a, b, min_width, out);
}

static int
compare_spans (gconstpointer pa, gconstpointer pb)
{
  const SlHighlightSpan *a = pa, *b = pb;

  return (a->x0 > b->x0) - (a->x0 < b->x0);
}

guint
sl_highlight_index_row_spans (const SlHighlightIndex *self, const SlTimelineLayout *layout, guint row,
                              int min_width, GArray *out)
{
  guint base = out->len, end;
  g_autoptr(GArray) all = NULL;

  g_return_val_if_fail (self != NULL && row < self->n_rows, 0);
  if (!sl_timeline_layout_is_group (layout, row))
    {
      track_spans (self, layout, row, min_width, out);
      return out->len - base;
    }
  if (!sl_timeline_layout_get_collapsed (layout, row))
    return 0;
  /* a folded group shows its tracks' stretches, merged */
  end = sl_timeline_model_group_end (layout->model, row);
  all = g_array_new (FALSE, FALSE, sizeof (SlHighlightSpan));
  for (guint r = row + 1; r < end; r++)
    track_spans (self, layout, r, min_width, all);
  g_array_sort (all, compare_spans);
  for (guint i = 0; i < all->len; i++)
    {
      const SlHighlightSpan *s = &g_array_index (all, SlHighlightSpan, i);
      push_span (out, base, s->x0, s->x1, min_width, sl_timeline_layout_body_width (layout));
    }
  return out->len - base;
}
