/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gpu-ops.c: the GPU operations of streams as tagged merge sources. */
#include "sl-gpu-ops.h"

void
sl_gpu_ops_add_stream (SlMerge *merge, const SlProfile *profile, guint32 stream, const SlFilter *filter)
{
  const SlStream *s = &profile->streams[stream];
  const SlSpans *lists[SL_GPU_OP_N_TYPES] = { &s->kernels.spans, &s->memcpy.spans, &s->memset.spans };

  for (guint type = 0; type < SL_GPU_OP_N_TYPES; type++)
    {
      guint first = 0, last = lists[type]->n;

      if (filter != NULL)
        sl_filter_span_bounds (filter, lists[type], 0, lists[type]->n, &first, &last);
      sl_merge_add (merge, lists[type], first, last, stream * SL_GPU_OP_N_TYPES + type);
    }
}

static guint64
gpu_kernels (const SlProfile *profile, guint g)
{
  guint64 n = 0;

  for (guint i = 0; i < profile->gpus[g].n_streams; i++)
    n += profile->streams[profile->gpus[g].streams[i]].kernels.spans.n;
  return n;
}

guint
sl_gpu_ops_split_gpus (const SlProfile *profile, guint64 min_kernels)
{
  guint64 total = 0, so_far = 0;
  guint g = 0;

  for (guint i = 0; i < profile->n_gpus; i++)
    total += gpu_kernels (profile, i);
  if (total < min_kernels || profile->n_gpus < 2 || g_get_num_processors () < 2)
    return 0;
  while (g + 1 < profile->n_gpus && (so_far += gpu_kernels (profile, g)) < total / 2)
    g++;
  return g + 1;
}

char *
sl_gpu_op_name (const SlProfile *profile, guint32 stream, SlGpuOpType type, guint index)
{
  const SlStream *s = &profile->streams[stream];

  switch (type)
    {
    case SL_GPU_OP_KERNEL:
      return g_strdup (sl_profile_kernel_name (profile, s->kernels.func[index], FALSE));
    case SL_GPU_OP_MEMCPY:
      return g_strdup_printf ("[memcpy %s]", sl_memcpy_kind_name (s->memcpy.kind[index]));
    default:
      return g_strdup ("[memset]");
    }
}
