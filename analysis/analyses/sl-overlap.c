/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-overlap.c: NCCL / compute overlap per device. */
#include "sl-overlap.h"
#include "sl-intervals.h"
#include "sl-nccl.h"
#include "sl-stats.h"

SlOverlap *
sl_overlap_compute (const SlProfile *profile, const SlFilter *filter)
{
  SlOverlap *self = g_new0 (SlOverlap, 1);
  g_autofree guint8 *is_nccl = sl_nccl_func_mask (profile);

  self->devices = g_new0 (SlOverlapDevice, MAX (profile->n_gpus, 1));
  for (guint g = 0; g < profile->n_gpus; g++)
    {
      const SlGpu *gpu = &profile->gpus[g];
      SlOverlapDevice *dev;
      SlMerge merge;
      SlUnion all, nccl, compute;
      const SlSpans *spans;
      guint tag, at, end;
      gint64 limit;

      if (!sl_filter_match_device (filter, gpu->device))
        continue;
      sl_merge_init (&merge);
      for (guint i = 0; i < gpu->n_streams; i++)
        {
          const SlStream *stream = &profile->streams[gpu->streams[i]];
          guint first, last;

          if (!sl_filter_match_stream (filter, stream))
            continue;
          sl_filter_span_bounds (filter, &stream->kernels.spans, 0, stream->kernels.spans.n, &first, &last);
          sl_merge_add (&merge, &stream->kernels.spans, first, last, gpu->streams[i]);
        }
      sl_merge_start (&merge);

      /* One pass in start order feeds three unions; the intersection is
       * |A| + |B| - |A u B|. */
      sl_union_init (&all);
      sl_union_init (&nccl);
      sl_union_init (&compute);
      while (sl_merge_run_start (&merge, &tag, &spans, &at, &end, &limit))
        {
          const guint32 *func = profile->streams[tag].kernels.func;
          const gint64 *start = spans->start;
          const guint32 *dur = spans->dur;
          guint n_funcs = profile->n_funcs;

          do
            {
              gint64 s = start[at];
              gint64 e = s + (G_LIKELY (dur[at] != SL_LONG_DUR) ? (gint64) dur[at] : _sl_spans_long_dur (spans, at));

              guint32 f = func[at];
              /* no branch on the kind: NCCL and compute kernels alternate */
              gboolean nc = (f < n_funcs) & (is_nccl[f < n_funcs ? f : 0] != 0);

              sl_union_add (&all, s, e);
              if (nc)
                sl_union_add (&nccl, s, e);
              else
                sl_union_add (&compute, s, e);
            }
          while (++at < end && start[at] < limit);
          sl_merge_run_stop (&merge, at);
        }
      sl_merge_clear (&merge);
      if (all.n_intervals == 0)
        continue;

      dev = &self->devices[self->n_devices++];
      dev->device = gpu->device;
      dev->compute_ns = sl_union_total (&compute);
      dev->nccl_ns = sl_union_total (&nccl);
      dev->overlap_ns = dev->compute_ns + dev->nccl_ns - sl_union_total (&all);
      dev->compute_only_ns = dev->compute_ns - dev->overlap_ns;
      dev->nccl_only_ns = dev->nccl_ns - dev->overlap_ns;
      dev->overlap_pct = sl_percent (dev->overlap_ns, dev->nccl_ns);
    }
  return self;
}

void
sl_overlap_free (SlOverlap *self)
{
  if (self == NULL)
    return;
  g_free (self->devices);
  g_free (self);
}

JsonNode *
sl_overlap_to_json (const SlOverlap *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint d = 0; d < self->n_devices; d++)
    {
      const SlOverlapDevice *dev = &self->devices[d];
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "device");
      json_builder_add_int_value (b, dev->device);
      json_builder_set_member_name (b, "compute_ns");
      json_builder_add_int_value (b, dev->compute_ns);
      json_builder_set_member_name (b, "nccl_ns");
      json_builder_add_int_value (b, dev->nccl_ns);
      json_builder_set_member_name (b, "overlap_ns");
      json_builder_add_int_value (b, dev->overlap_ns);
      json_builder_set_member_name (b, "compute_only_ns");
      json_builder_add_int_value (b, dev->compute_only_ns);
      json_builder_set_member_name (b, "nccl_only_ns");
      json_builder_add_int_value (b, dev->nccl_only_ns);
      json_builder_set_member_name (b, "overlap_pct");
      json_builder_add_double_value (b, dev->overlap_pct);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
