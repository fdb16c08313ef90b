/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-capture-extent.c: the time range of everything a capture holds. */
#include "sl-capture-extent.h"

static void
widen (gint64 *start, gint64 *end, gboolean *any, gint64 s, gint64 e)
{
  *start = *any ? MIN (*start, s) : s;
  *end = *any ? MAX (*end, e) : e;
  *any = TRUE;
}

void
sl_capture_extent (const SlProfile *profile, const SlCpuActivity *cpu, const SlGpuMetrics *metrics,
                   gint64 *start, gint64 *end)
{
  gboolean any = profile->end_ns > profile->start_ns;

  *start = profile->start_ns;
  *end = profile->end_ns;
  for (guint t = 0; cpu != NULL && t < cpu->n_threads; t++)
    {
      const SlCpuThread *th = &cpu->threads[t];

      if (th->samples.n > 0)
        widen (start, end, &any, th->samples.time[0], th->samples.time[th->samples.n - 1]);
      for (guint i = 0; i < th->osrt.spans.n; i++)
        widen (start, end, &any, th->osrt.spans.start[i], sl_spans_end (&th->osrt.spans, i));
    }
  for (guint s = 0; metrics != NULL && s < metrics->n_series; s++)
    if (metrics->series[s].n > 0)
      widen (start, end, &any, metrics->series[s].time[0], metrics->series[s].time[metrics->series[s].n - 1]);
}
