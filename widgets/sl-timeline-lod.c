/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-lod.c: sizing a track's level-of-detail pyramid and building
 * its levels from the events added to level 0. */
#include "sl-timeline-lod.h"

#include <string.h>

void
_sl_timeline_lod_copy (SlLod *to, const SlLod *from)
{
  *to = *from;
  to->n = g_memdup2 (from->n, MAX (from->n_levels, 1u) * sizeof (guint));
  to->cov = g_new0 (guint8 *, MAX (from->n_levels, 1u));
  to->color = g_new0 (guint8 *, MAX (from->n_levels, 1u));
  for (guint l = 0; l < from->n_levels; l++)
    {
      to->cov[l] = g_memdup2 (from->cov[l], from->n[l]);
      to->color[l] = g_memdup2 (from->color[l], from->n[l]);
    }
}

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

/* Level 0 as a fraction 1..255 of each bucket's width. */
static void
lod_quantise_base (SlLodBuilder *builder)
{
  SlLod *lod = builder->lod;
  float width = (float) ((gint64) 1 << lod->shift0);

  for (guint b = 0; b < lod->n[0]; b++)
    {
      float busy = builder->base.busy[b];

      if (busy <= 0.0f)
        continue;
      if (busy >= width)
        lod->cov[0][b] = 255;
      else
        lod->cov[0][b] = (guint8) CLAMP ((int) (busy * 255.0f / width + 0.5f), 1, 255);
    }
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
_sl_timeline_lod_begin (SlLodBuilder *builder,
                        SlLod        *lod,
                        gint64        origin,
                        gint64        span,
                        guint         n_events)
{
  guint shift = 0;
  guint n0, levels;

  /* About one event per base bucket keeps the pyramid at ~2.7 bytes per event. */
  while (((span - 1) >> shift) + 1 > (gint64) MAX (n_events, 64u))
    shift++;
  n0 = (guint) (((span - 1) >> shift) + 1);
  for (levels = 1; ((guint64) (span - 1) >> (shift + 2 * (levels - 1))) + 1 > 1; levels++)
    ;

  memset (lod, 0, sizeof *lod);
  lod->origin = origin;
  lod->shift0 = shift;
  lod->n_levels = levels;
  lod->n = g_new0 (guint, levels);
  lod->cov = g_new0 (guint8 *, levels);
  lod->color = g_new0 (guint8 *, levels);
  lod->n[0] = n0;
  lod->cov[0] = g_malloc0 (n0);
  lod->color[0] = g_malloc0 (n0);

  builder->lod = lod;
  builder->base.busy = g_new0 (float, n0);
  builder->base.best = g_new0 (float, n0);
  builder->base.color = lod->color[0];
  builder->shift = shift;
  builder->span = span;
}

void
_sl_timeline_lod_end (SlLodBuilder *builder)
{
  lod_quantise_base (builder);
  g_clear_pointer (&builder->base.busy, g_free);
  g_clear_pointer (&builder->base.best, g_free);
  for (guint l = 1; l < builder->lod->n_levels; l++)
    lod_build_level (builder->lod, l);
}
