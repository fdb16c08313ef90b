/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-overlap.c: NCCL / compute overlap per device. */
#include "sl-overlap.h"
#include "sl-gpu-ops.h"
#include "sl-intervals.h"
#include "sl-json.h"
#include "sl-nccl.h"
#include "sl-stats.h"

static void
add_kernel_sources (SlMerge *merge, const SlProfile *profile, const SlFilter *filter, const SlGpu *gpu)
{
  for (guint i = 0; i < gpu->n_streams; i++)
    {
      const SlStream *stream = &profile->streams[gpu->streams[i]];
      guint first, last;

      if (!sl_filter_match_stream (filter, stream))
        continue;
      sl_filter_span_bounds (filter, &stream->kernels.spans, 0, stream->kernels.spans.n, &first, &last);
      sl_merge_add (merge, &stream->kernels.spans, first, last, gpu->streams[i]);
    }
}

/* One pass in start order feeds three unions: all kernels, NCCL ones, the
 * others.  The merge's tags are stream indexes. */
static void
measure_unions (SlMerge *merge, const SlProfile *profile, const guint8 *is_nccl,
                SlUnion *all_out, SlUnion *nccl_out, SlUnion *compute_out)
{
  SlUnion all, nccl, compute;
  const SlSpans *spans;
  guint tag, at, end;
  gint64 limit;

  sl_union_init (&all);
  sl_union_init (&nccl);
  sl_union_init (&compute);
  while (sl_merge_run_start (merge, &tag, &spans, &at, &end, &limit))
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
      sl_merge_run_stop (merge, at);
    }
  *all_out = all;
  *nccl_out = nccl;
  *compute_out = compute;
}

/* The intersection is |A| + |B| - |A u B|, summed in 128 bits: each union
 * fits in 63 bits, their sum need not, the intersection does. */
void
sl_overlap_device_set (SlOverlapDevice *dev, guint32 device, gint64 all_ns, gint64 nccl_ns,
                       gint64 compute_ns)
{
  dev->device = device;
  dev->compute_ns = compute_ns;
  dev->nccl_ns = nccl_ns;
  dev->overlap_ns = (gint64) ((__int128) dev->compute_ns + dev->nccl_ns - all_ns);
  dev->compute_only_ns = dev->compute_ns - dev->overlap_ns;
  dev->nccl_only_ns = dev->nccl_ns - dev->overlap_ns;
  dev->overlap_pct = sl_percent (dev->overlap_ns, dev->nccl_ns);
}

/* GPU @g's unions into @dev; FALSE when it ran no kernel of the filter. */
static gboolean
measure_gpu (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl, guint g,
             SlOverlapDevice *dev)
{
  const SlGpu *gpu = &profile->gpus[g];
  SlMerge merge;
  SlUnion all, nccl, compute;

  if (!sl_filter_match_device (filter, gpu->device))
    return FALSE;
  sl_merge_init (&merge);
  add_kernel_sources (&merge, profile, filter, gpu);
  sl_merge_start (&merge);
  measure_unions (&merge, profile, is_nccl, &all, &nccl, &compute);
  sl_merge_clear (&merge);
  if (all.n_intervals == 0)
    return FALSE;
  sl_overlap_device_set (dev, gpu->device, sl_union_total (&all), sl_union_total (&nccl),
                         sl_union_total (&compute));
  return TRUE;
}

/* GPUs [first, last) into their slots of @devices, marking @measured. */
typedef struct {
  const SlProfile *profile;
  const SlFilter  *filter;
  const guint8    *is_nccl;
  guint            first, last;
  SlOverlapDevice *devices;
  gboolean        *measured;
} GpuPart;

static gpointer
measure_part (gpointer data)
{
  GpuPart *part = data;

  for (guint g = part->first; g < part->last; g++)
    part->measured[g] = measure_gpu (part->profile, part->filter, part->is_nccl, g, &part->devices[g]);
  return NULL;
}

/* From this many kernels the GPUs are measured in two parts on two cores
 * (sl_gpu_ops_split_gpus): on a big profile the second core halves the
 * time. */
static guint64 parallel_kernels = 500000;

void
_sl_overlap_set_parallel_kernels (guint64 kernels)
{
  parallel_kernels = kernels;
}

SlOverlap *
sl_overlap_compute (const SlProfile *profile, const SlFilter *filter)
{
  SlOverlap *self = g_new0 (SlOverlap, 1);
  g_autofree guint8 *is_nccl = sl_nccl_func_mask (profile);
  g_autofree SlOverlapDevice *slots = g_new0 (SlOverlapDevice, MAX (profile->n_gpus, 1));
  g_autofree gboolean *measured = g_new0 (gboolean, MAX (profile->n_gpus, 1));
  guint mid = sl_gpu_ops_split_gpus (profile, parallel_kernels);
  GpuPart parts[2] = {
    { profile, filter, is_nccl, 0, mid > 0 ? mid : profile->n_gpus, slots, measured },
    { profile, filter, is_nccl, mid, profile->n_gpus, slots, measured },
  };
  GThread *other = mid > 0 ? g_thread_new ("sl-overlap", measure_part, &parts[1]) : NULL;

  measure_part (&parts[0]);
  if (other != NULL)
    g_thread_join (other);
  self->devices = g_new0 (SlOverlapDevice, MAX (profile->n_gpus, 1));
  for (guint g = 0; g < profile->n_gpus; g++)
    if (measured[g])
      self->devices[self->n_devices++] = slots[g];
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

static void
add_device_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlOverlapDevice *dev = item;

  json_builder_begin_object (b);
  sl_json_member_int (b, "device", dev->device);
  sl_json_member_int (b, "compute_ns", dev->compute_ns);
  sl_json_member_int (b, "nccl_ns", dev->nccl_ns);
  sl_json_member_int (b, "overlap_ns", dev->overlap_ns);
  sl_json_member_int (b, "compute_only_ns", dev->compute_only_ns);
  sl_json_member_int (b, "nccl_only_ns", dev->nccl_only_ns);
  sl_json_member_double (b, "overlap_pct", dev->overlap_pct);
  json_builder_end_object (b);
}

JsonNode *
sl_overlap_to_json (const SlOverlap *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_array (b, "devices", self->devices, self->n_devices, sizeof (SlOverlapDevice),
                        add_device_json, NULL);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
