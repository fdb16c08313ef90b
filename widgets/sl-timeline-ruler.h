/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-ruler.h: the time ruler's ticks and their labels (no GTK). */
#pragma once

#include "sl-timeline-layout.h"

G_BEGIN_DECLS

/* Tick spacing (ns, 1-2-5 steps) for at least @min_px pixels. */
gint64  sl_timeline_layout_tick_step   (const SlTimelineLayout *layout,
                                        double                  min_px);
/* Label of tick time @t (absolute ns) for spacing @step: "1.25 ms". */
char   *sl_timeline_layout_format_tick (const SlTimelineLayout *layout,
                                        gint64                  t,
                                        gint64                  step);

/* The local time of day of @utc_ns to the decimals @step_ns needs:
 * "14:32:05.25". */
char   *sl_ruler_wall_clock_label      (gint64                  utc_ns,
                                        gint64                  step_ns);

/* Width in pixels of @text as it will be drawn. */
typedef double (*SlRulerMeasure) (const char *text,
                                  gpointer    data);

/* What the ruler shows: a view of @width px from @t0 at @px_ns. */
typedef struct {
  double         t0, px_ns;
  int            width;
  gint64         origin;          /* time 0 of relative labels */
  gboolean       relative;        /* FALSE: capture-clock seconds */
  gint64         wall_utc_ns;     /* != 0: time of day, @origin being this UTC */
  double         min_px;          /* ticks at least this far apart */
  double         pad_px;          /* a label starts this far right of its tick */
  double         gap_px;          /* and ends this far before the next label */
  double         keep_x0, keep_x1;   /* no label over [x0, x1) (the range badge); empty if x1 <= x0 */
  SlRulerMeasure measure;
  gpointer       measure_data;
} SlRulerSpec;

typedef struct {
  gint64  t;
  double  x;                      /* of the tick, px from the view's left */
  char   *text;                   /* NULL: the tick has no label (edge, badge) */
  double  text_w;
} SlRulerTick;

/* The major ticks of @spec into @out (SlRulerTick, cleared first; free with
 * sl_ruler_ticks_clear).  All labels share one unit, chosen from the largest
 * time the view shows, and never overlap, are never cut, and keep out of the
 * keep-out span: the step grows until the widest label fits.  Returns the
 * step (ns). */
gint64  sl_ruler_ticks                 (const SlRulerSpec      *spec,
                                        GArray                 *out);
void    sl_ruler_ticks_clear           (GArray                 *ticks);
/* Where a badge @w px wide goes over the span [x0, x1): centred on it, kept
 * inside [0, width). */
double  sl_ruler_badge_x               (double                  x0,
                                        double                  x1,
                                        double                  w,
                                        int                     width);

G_END_DECLS
