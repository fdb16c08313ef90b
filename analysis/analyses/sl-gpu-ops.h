/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gpu-ops.h: the GPU operations of streams (kernels, memcpy, memset) as
 * sources of one merge, each tagged stream * 3 + type, so that a walk in
 * start order can tell where an operation comes from, which API call
 * launched it and what to call it. */
#pragma once

#include <glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-intervals.h"

G_BEGIN_DECLS

typedef enum {
  SL_GPU_OP_KERNEL,
  SL_GPU_OP_MEMCPY,
  SL_GPU_OP_MEMSET,
  SL_GPU_OP_N_TYPES,
} SlGpuOpType;

static inline guint32
sl_gpu_op_stream (guint tag)
{
  return tag / SL_GPU_OP_N_TYPES;
}

static inline SlGpuOpType
sl_gpu_op_type (guint tag)
{
  return (SlGpuOpType) (tag % SL_GPU_OP_N_TYPES);
}

/* Adds the kernels, memcpy and memset of stream @stream to @merge: those
 * starting inside the window of @filter, or all when @filter is NULL. */
void     sl_gpu_ops_add_stream (SlMerge *merge, const SlProfile *profile, guint32 stream,
                                const SlFilter *filter);

/* Where the GPUs split into two parts of about as many kernels, for an
 * analysis whose devices are independent to measure them on two cores:
 * the first GPU of the second part, or 0 (one part) below @min_kernels
 * kernels, with one GPU or on one core (a thread costs ~0.1 ms). */
guint    sl_gpu_ops_split_gpus (const SlProfile *profile, guint64 min_kernels);

/* The launching API call of each operation of the tagged source (SL_NONE: unknown). */
static inline const guint32 *
sl_gpu_op_api (const SlProfile *profile, guint tag)
{
  const SlStream *stream = &profile->streams[sl_gpu_op_stream (tag)];

  switch (sl_gpu_op_type (tag))
    {
    case SL_GPU_OP_KERNEL: return stream->kernels.api;
    case SL_GPU_OP_MEMCPY: return stream->memcpy.api;
    default: return stream->memset.api;
    }
}

/* Whether operation @index of the tagged source is an NCCL kernel
 * (@is_nccl: see sl_nccl_func_mask). */
static inline gboolean
sl_gpu_op_is_nccl (const SlProfile *profile, const guint8 *is_nccl, guint tag, guint index)
{
  guint32 f;

  if (sl_gpu_op_type (tag) != SL_GPU_OP_KERNEL)
    return FALSE;
  f = profile->streams[sl_gpu_op_stream (tag)].kernels.func[index];
  return f < profile->n_funcs && is_nccl[f];
}

/* Display name of a GPU operation: kernel short name, "[memcpy HtoD]", "[memset]".
 * (transfer full) */
char    *sl_gpu_op_name        (const SlProfile *profile, guint32 stream, SlGpuOpType type, guint index);

G_END_DECLS
