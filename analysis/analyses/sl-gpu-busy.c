/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gpu-busy.c: busy time of a device per time bin (the timeline's
 * activity strip), by the definition of sl_gpu_busy_counts(). */
#include "sl-gpu-busy.h"
#include "sl-intervals.h"
#include "sl-int.h"

#include <math.h>

/* Adds [s, e) to the bins it covers, as fractions of each bin.  @t0 is a
 * view's start, anywhere on the clock: the offsets saturate. */
static void
add_interval (gint64 s, gint64 e, gint64 t0, double bin_ns, guint n_bins, float *out)
{
  double a = sl_sat_sub (s, t0) / bin_ns, b = sl_sat_sub (e, t0) / bin_ns;
  gint64 first = sl_int64_from_double (floor (a)), last = sl_int64_from_double (floor (b));

  for (gint64 i = MAX (first, 0); i <= last && i < (gint64) n_bins; i++)
    {
      double lo = MAX (a, (double) i), hi = MIN (b, (double) (i + 1));
      if (hi > lo)
        out[i] += (float) (hi - lo);
    }
}

static void
add_device_sources (SlMerge *merge, const SlProfile *profile, const SlGpu *gpu, gboolean count_copies)
{
  for (guint i = 0; i < gpu->n_streams; i++)
    {
      guint32 s = gpu->streams[i];
      const SlStream *stream = &profile->streams[s];
      const SlSpans *lists[SL_GPU_OP_N_TYPES] = { &stream->kernels.spans, &stream->memcpy.spans,
                                                  &stream->memset.spans };

      for (guint type = 0; type < SL_GPU_OP_N_TYPES; type++)
        if (sl_gpu_busy_counts ((SlGpuOpType) type, count_copies))
          sl_merge_add (merge, lists[type], 0, lists[type]->n, s * SL_GPU_OP_N_TYPES + type);
    }
}

void
sl_gpu_busy_bins (const SlProfile *profile, guint32 device, gboolean count_copies,
                  gint64 t0, double bin_ns, guint n_bins, float *out)
{
  SlMerge merge;
  SlUnion u;
  guint tag, index;
  const SlSpans *spans;

  for (guint i = 0; i < n_bins; i++)
    out[i] = 0;
  if (bin_ns <= 0)
    return;
  sl_merge_init (&merge);
  for (guint g = 0; g < profile->n_gpus; g++)
    if (profile->gpus[g].device == device)
      add_device_sources (&merge, profile, &profile->gpus[g], count_copies);
  sl_merge_start (&merge);
  sl_union_init (&u);
  /* each closed interval of the union goes to its bins once: overlapping
   * kernels on several streams do not count twice */
  while (sl_merge_next (&merge, &tag, &spans, &index))
    {
      gint64 s = spans->start[index], e = sl_spans_end (spans, index);
      gint64 open_start = u.cur_start, open_end = u.cur_end;
      gboolean was_open = u.open;

      if (sl_union_add (&u, s, e) && was_open)
        add_interval (open_start, open_end, t0, bin_ns, n_bins, out);
    }
  if (u.open)
    add_interval (u.cur_start, u.cur_end, t0, bin_ns, n_bins, out);
  sl_merge_clear (&merge);
  for (guint i = 0; i < n_bins; i++)
    out[i] = MIN (out[i], 1.0f);
}
