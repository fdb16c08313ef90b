/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-lod.h: the level-of-detail pyramid of a large track (no GTK).
 *
 * Level 0 has about one bucket per event; each level above merges four
 * buckets, so a zoomed-out frame reads a few buckets per pixel column
 * instead of every event (see sl-timeline-columns.c).  The pyramid sees
 * events only as intervals with a palette index: the model feeds it the
 * events of a track (sl-timeline-model.c). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Busy time per bucket or pixel column and the colour of its largest single
 * share: how both the pyramid and the per-pixel merge summarise events. */
typedef struct {
  float  *busy;
  float  *best;
  guint8 *color;
} SlCoverage;

static inline void
sl_coverage_add (const SlCoverage *cov, guint i, float amount, guint8 color)
{
  cov->busy[i] += amount;
  if (amount > cov->best[i])
    {
      cov->best[i] = amount;
      cov->color[i] = color;
    }
}

/* Level-of-detail pyramid: level l has buckets of 2^(shift0 + 2l) ns starting
 * at origin; each bucket holds the busy fraction (0..255, never 0 when
 * anything ran in it) and the palette index of its dominant event. */
typedef struct {
  guint    n_levels;
  guint    shift0;
  gint64   origin;
  guint   *n;
  guint8 **cov;
  guint8 **color;
} SlLod;

/* A pyramid being built: level 0 as busy ns per bucket of 2^shift ns. */
typedef struct {
  SlLod      *lod;
  SlCoverage  base;
  guint       shift;
  gint64      span;
} SlLodBuilder;

/* Sizes @lod for @n_events (> 0) events over [@origin, @origin + @span). */
void _sl_timeline_lod_begin (SlLodBuilder *builder,
                             SlLod        *lod,
                             gint64        origin,
                             gint64        span,
                             guint         n_events);
/* Builds the levels from the events added; frees the builder's buffers. */
void _sl_timeline_lod_end   (SlLodBuilder *builder);
void _sl_timeline_lod_clear (SlLod        *lod);
/* @to becomes a copy of @from (its own buffers). */
void _sl_timeline_lod_copy  (SlLod        *to,
                             const SlLod  *from);

/* Adds the event at @start (absolute ns) lasting @dur to level 0: spread
 * over the buckets it covers.  Inline: it runs once per event of a track. */
static inline void
_sl_timeline_lod_add (SlLodBuilder *builder,
                      gint64        start,
                      gint64        dur,
                      guint8        color)
{
  guint shift = builder->shift;
  gint64 s = start - builder->lod->origin;
  gint64 e = s + dur;
  gint64 b0, b1;

  if (s < 0)
    s = 0;
  if (e > builder->span)
    e = builder->span;
  if (e <= s)
    {
      /* instants and clipped events still show as a trace */
      sl_coverage_add (&builder->base, (guint) (MIN (s, builder->span - 1) >> shift), 1.0f, color);
      return;
    }
  b0 = s >> shift;
  b1 = (e - 1) >> shift;
  if (b0 == b1)
    {
      sl_coverage_add (&builder->base, (guint) b0, (float) (e - s), color);
      return;
    }
  sl_coverage_add (&builder->base, (guint) b0, (float) (((b0 + 1) << shift) - s), color);
  for (gint64 b = b0 + 1; b < b1; b++)
    sl_coverage_add (&builder->base, (guint) b, (float) ((gint64) 1 << shift), color);
  sl_coverage_add (&builder->base, (guint) b1, (float) (e - (b1 << shift)), color);
}

G_END_DECLS
