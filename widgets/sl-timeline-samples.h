/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-samples.h: a thread's CPU samples on the timeline (no GTK):
 * zoomed out a density strip per pixel column coloured by the dominant
 * thread state, zoomed in a tick per sample coloured by its state. */
#pragma once

#include "sl-cpu-activity.h"
#include "sl-timeline-lod.h"

G_BEGIN_DECLS

/* Palette index (sl-timeline-colors.h) and 0xRRGGBB of a thread state:
 * Running green, sleeping and waiting greys, blocked on I/O orange,
 * in an OS runtime call blue, runnable but not scheduled yellow. */
guint8   sl_timeline_sample_state_color (guint8 state);
guint32  sl_timeline_sample_state_rgb   (guint8 state);

/* One sample drawn whole: columns [x0, x1) of the body, its state's colour. */
typedef struct {
  int     x0, x1;
  guint32 rgb;
  guint   index;           /* into the samples */
} SlSampleTick;

/* Samples are drawn as ticks when they are at least this many columns apart
 * apart on average, else as density. */
#define SL_SAMPLES_TICK_SPACING 4

/* Adds @samples for a view from @t0 at @px_ns per column, @width columns:
 * ticks (SlSampleTick, @tick_half columns either side of the sample)
 * appended to @ticks when they are sparse enough and not @summary, else
 * each column's share of sampled time in @cov with the colour of its most
 * frequent state.  Returns how many samples were read. */
guint    sl_timeline_samples_merge      (const SlCpuSamples *samples,
                                         double              t0,
                                         double              px_ns,
                                         int                 width,
                                         int                 tick_half,
                                         gboolean            summary,
                                         const SlCoverage   *cov,
                                         GArray             *ticks);
/* The sample nearest @t within @tol ns, SL_NONE when none. */
guint32  sl_timeline_samples_nearest    (const SlCpuSamples *samples,
                                         double              t,
                                         double              tol);

G_END_DECLS
