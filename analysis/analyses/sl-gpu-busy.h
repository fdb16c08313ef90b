/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gpu-busy.h: what "a busy GPU" means, in one place.  Utilization is
 * compute: a GPU that only copies data is not doing the work the user paid
 * for, so by default only kernels count as busy; @count_copies restores
 * Nsight's "any GPU work" (kernels, memcpy, memset).  `gaps`, its
 * utilization and the timeline's activity strip all use this. */
#pragma once

#include <glib.h>
#include "sl-profile.h"
#include "sl-gpu-ops.h"

G_BEGIN_DECLS

/* Whether an operation of @type is busy time. */
static inline gboolean
sl_gpu_busy_counts (SlGpuOpType type, gboolean count_copies)
{
  return type == SL_GPU_OP_KERNEL || count_copies;
}

/* The busy fraction (0..1, union of the device's busy intervals) of each of
 * @n_bins bins of @bin_ns from @t0, for device @device; @out is overwritten. */
void sl_gpu_busy_bins (const SlProfile *profile, guint32 device, gboolean count_copies,
                       gint64 t0, double bin_ns, guint n_bins, float *out);

G_END_DECLS
