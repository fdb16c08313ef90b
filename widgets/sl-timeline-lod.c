/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-lod.c: building a track's level-of-detail pyramid. */
#include "sl-timeline-lod.h"

#include <string.h>

void
_sl_timeline_lod_clear (SlLod *lod)
{
  for (guint l = 0; l < lod->n_levels; l++)
    {
      g_free (lod->cov[l]);
      g_free (lod->color[l]);
    }
  g_clear_pointer (&lod->cov, g_free);
  g_clear_pointer (&lod->color, g_free);
  g_clear_pointer (&lod->n, g_free);
  lod->n_levels = 0;
}

/* Level 0 under construction: busy ns per bucket of 2^shift ns. */
typedef struct {
  SlCoverage cov;
  guint      shift;
  gint64     span;
} LodBase;

/* Spreads event [s, e) (relative to the origin) over the buckets it covers. */
static void
lod_add_event (LodBase *base, gint64 s, gint64 e, guint8 c)
{
  guint shift = base->shift;
  gint64 b0, b1;

  if (s < 0)
    s = 0;
  if (e > base->span)
    e = base->span;
  if (e <= s)
    {
      /* instants and clipped events still show as a trace */
      sl_coverage_add (&base->cov, (guint) (MIN (s, base->span - 1) >> shift), 1.0f, c);
      return;
    }
  b0 = s >> shift;
  b1 = (e - 1) >> shift;
  if (b0 == b1)
    {
      sl_coverage_add (&base->cov, (guint) b0, (float) (e - s), c);
      return;
    }
  sl_coverage_add (&base->cov, (guint) b0, (float) (((b0 + 1) << shift) - s), c);
  for (gint64 b = b0 + 1; b < b1; b++)
    sl_coverage_add (&base->cov, (guint) b, (float) ((gint64) 1 << shift), c);
  sl_coverage_add (&base->cov, (guint) b1, (float) (e - (b1 << shift)), c);
}

/* Fills level 0: every event's busy time per bucket, as a fraction 1..255. */
static void
lod_fill_base (SlLod *lod, const SlTimelineModel *model, const SlTimelineRow *row, gint64 span)
{
  guint n0 = lod->n[0];
  float width = (float) ((gint64) 1 << lod->shift0);
  LodBase base = { { g_new0 (float, n0), g_new0 (float, n0), lod->color[0] }, lod->shift0, span };

  for (guint k = 0; k < row->n_segs; k++)
    {
      const SlSegment *seg = &row->segs[k];
      const SlSpans *spans = seg->spans;

      for (guint i = seg->first; i < seg->first + seg->count; i++)
        {
          gint64 s = spans->start[i] - lod->origin;
          gint64 e = s + sl_spans_dur (spans, i);

          lod_add_event (&base, s, e,
                         sl_timeline_model_event_color (model, seg->kind, spans, seg->owner, i));
        }
    }
  for (guint b = 0; b < n0; b++)
    {
      if (base.cov.busy[b] <= 0.0f)
        continue;
      if (base.cov.busy[b] >= width)
        lod->cov[0][b] = 255;
      else
        lod->cov[0][b] = (guint8) CLAMP ((int) (base.cov.busy[b] * 255.0f / width + 0.5f), 1, 255);
    }
  g_free (base.cov.busy);
  g_free (base.cov.best);
}

/* Level @l from level @l - 1: four buckets each, their mean coverage and
 * the colour of the busiest. */
static void
lod_build_level (SlLod *lod, guint l)
{
  guint np = lod->n[l - 1];
  guint n = (np + 3) / 4;
  const guint8 *pc = lod->cov[l - 1];
  const guint8 *pk = lod->color[l - 1];
  guint8 *cov = g_malloc0 (n);
  guint8 *col = g_malloc0 (n);

  for (guint j = 0; j < n; j++)
    {
      guint sum = 0, bestc = 0;
      guint8 c = 0;

      for (guint q = 4 * j; q < MIN (4 * j + 4, np); q++)
        {
          sum += pc[q];
          if (pc[q] > bestc)
            {
              bestc = pc[q];
              c = pk[q];
            }
        }
      cov[j] = (guint8) ((sum + 3) / 4);
      col[j] = c;
    }
  lod->n[l] = n;
  lod->cov[l] = cov;
  lod->color[l] = col;
}

void
_sl_timeline_lod_build (const SlTimelineModel *model,
                        SlTimelineRow         *row)
{
  SlLod *lod = &row->lod;
  gint64 origin = model->profile->start_ns;
  gint64 span = MAX (model->profile->end_ns - origin, 1);
  guint n_events = 0;
  guint shift = 0;
  guint n0, levels;

  memset (lod, 0, sizeof *lod);
  for (guint k = 0; k < row->n_segs; k++)
    n_events += row->segs[k].count;
  if (n_events == 0)
    return;

  /* About one event per base bucket keeps the pyramid at ~2.7 bytes per event. */
  while (((span - 1) >> shift) + 1 > (gint64) MAX (n_events, 64u))
    shift++;
  n0 = (guint) (((span - 1) >> shift) + 1);
  for (levels = 1; ((guint64) (span - 1) >> (shift + 2 * (levels - 1))) + 1 > 1; levels++)
    ;

  lod->origin = origin;
  lod->shift0 = shift;
  lod->n_levels = levels;
  lod->n = g_new0 (guint, levels);
  lod->cov = g_new0 (guint8 *, levels);
  lod->color = g_new0 (guint8 *, levels);
  lod->n[0] = n0;
  lod->cov[0] = g_malloc0 (n0);
  lod->color[0] = g_malloc0 (n0);

  lod_fill_base (lod, model, row, span);
  for (guint l = 1; l < levels; l++)
    lod_build_level (lod, l);
}
