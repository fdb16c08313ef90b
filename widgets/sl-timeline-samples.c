/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-samples.c: CPU samples as ticks or a density strip. */
#include "sl-timeline-samples.h"
#include "sl-timeline-colors.h"
#include "sl-int.h"

#include <math.h>
#include <string.h>

/* Exact entries of the palette's colour cube, so that a column of the
 * level-of-detail path and a tick show the same colour. */
static const guint32 state_rgb[SL_THREAD_STATE_COUNT] = {
  [SL_THREAD_STATE_UNKNOWN]         = 0x999999,
  [SL_THREAD_STATE_RUNNING]         = 0x33cc66,
  [SL_THREAD_STATE_INTERRUPTIBLE]   = 0x999999,
  [SL_THREAD_STATE_UNINTERRUPTIBLE] = 0xff9933,
  [SL_THREAD_STATE_STOPPED]         = 0x666666,
  [SL_THREAD_STATE_TERMINATED]      = 0x666666,
  [SL_THREAD_STATE_UNSCHEDULED]     = 0xffcc33,
  [SL_THREAD_STATE_WAITING]         = 0xcccccc,
  [SL_THREAD_STATE_OS_RUNTIME]      = 0x6699cc,
  [SL_THREAD_STATE_INITIALIZED]     = 0x999999,
  [SL_THREAD_STATE_TRANSITION]      = 0x999999,
};

guint32
sl_timeline_sample_state_rgb (guint8 state)
{
  return state < SL_THREAD_STATE_COUNT ? state_rgb[state] : state_rgb[0];
}

guint8
sl_timeline_sample_state_color (guint8 state)
{
  return sl_timeline_colors_quantize (sl_timeline_sample_state_rgb (state));
}

static guint
lower_bound (const SlCpuSamples *s, gint64 t)
{
  return sl_times_lower_bound (s->time, 0, s->n, t);
}

/* The time one sample stands for: the mean spacing of the thread's
 * samples, within 1 µs .. 10 ms (a thread sampled in bursts). */
static double
sample_period (const SlCpuSamples *s)
{
  if (s->n < 2)
    return 1e6;
  return CLAMP ((double) (s->time[s->n - 1] - s->time[0]) / (s->n - 1), 1e3, 1e7);
}

static void
add_density_column (const SlCoverage *cov, int c, const guint *counts, guint n, double share)
{
  guint best = 0;

  for (guint k = 1; k < SL_THREAD_STATE_COUNT; k++)
    if (counts[k] > counts[best])
      best = k;
  sl_coverage_add (cov, c, (float) MIN (n * share, 1.0), sl_timeline_sample_state_color (best));
}

static void
merge_density (const SlCpuSamples *s, guint i0, guint i1, double t0, double px_ns, int width,
               const SlCoverage *cov)
{
  guint counts[SL_THREAD_STATE_COUNT] = { 0 };
  double share = sample_period (s) / px_ns;
  int col = -1;
  guint n = 0;

  /* samples are sorted: a column's are consecutive */
  for (guint i = i0; i < i1; i++)
    {
      int c = (int) floor ((s->time[i] - t0) / px_ns);

      if (c < 0 || c >= width)
        continue;
      if (c != col)
        {
          if (n > 0)
            add_density_column (cov, col, counts, n, share);
          memset (counts, 0, sizeof counts);
          n = 0;
          col = c;
        }
      counts[s->state[i] < SL_THREAD_STATE_COUNT ? s->state[i] : 0]++;
      n++;
    }
  if (n > 0)
    add_density_column (cov, col, counts, n, share);
}

guint
sl_timeline_samples_merge (const SlCpuSamples *s,
                           double              t0,
                           double              px_ns,
                           int                 width,
                           int                 tick_half,
                           gboolean            summary,
                           const SlCoverage   *cov,
                           GArray             *ticks)
{
  guint i0 = lower_bound (s, sl_int64_from_double (floor (t0)));
  guint i1 = lower_bound (s, sl_sat_add (sl_int64_from_double (ceil (t0 + width * px_ns)), 1));

  if (summary || (gint64) (i1 - i0) * SL_SAMPLES_TICK_SPACING > width)
    {
      merge_density (s, i0, i1, t0, px_ns, width, cov);
      return i1 - i0;
    }
  for (guint i = i0; i < i1; i++)
    {
      int x = (int) floor ((s->time[i] - t0) / px_ns);
      SlSampleTick tick;

      tick.x0 = MAX (x - tick_half, 0);
      tick.x1 = MIN (x + tick_half + 1, width);
      if (tick.x1 <= tick.x0)
        continue;
      tick.rgb = sl_timeline_sample_state_rgb (s->state[i]);
      tick.index = i;
      g_array_append_val (ticks, tick);
    }
  return i1 - i0;
}

guint32
sl_timeline_samples_nearest (const SlCpuSamples *s,
                             double              t,
                             double              tol)
{
  guint i = lower_bound (s, sl_int64_from_double (floor (t)));
  guint32 best = SL_NONE;
  double best_d = tol;

  /* the candidates are the samples on either side of t */
  if (i < s->n && s->time[i] - t <= best_d)
    {
      best = i;
      best_d = s->time[i] - t;
    }
  if (i > 0 && t - s->time[i - 1] <= best_d)
    best = i - 1;
  return best;
}
