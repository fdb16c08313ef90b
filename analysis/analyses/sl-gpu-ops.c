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
