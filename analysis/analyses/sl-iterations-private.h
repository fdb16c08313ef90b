/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-iterations-private.h: what the iteration methods share (sl-iterations.c,
 * and their parts: sl-iterations-kernels.c, -launches.c, -nvtx.c): GPU work
 * accumulators, launch counts, the kernel period. */
#pragma once

#include "sl-iterations.h"
#include "sl-gpu-ops.h"
#include "sl-intervals.h"

G_BEGIN_DECLS

/* Accumulators of one iteration while GPU operations stream in start order. */
typedef struct {
  SlUnion busy;
  SlUnion nccl;
} Acc;

void sl_iter_acc_init            (Acc *acc);
/* Widens [*lo, *hi] to cover [s, e]; the first time (*has FALSE) it is [s, e]. */
void sl_iter_widen               (gboolean *has, gint64 *lo, gint64 *hi, gint64 s, gint64 e);
void sl_iter_acc_op              (SlIteration *it, Acc *acc, SlGpuOpType type, gboolean nccl, gint64 s, gint64 e);
/* Adds the per-device unions of @acc[0, n) to the iteration's busy and NCCL time. */
void sl_iter_add_device_totals   (SlIteration *it, const Acc *acc, guint n);
/* The GPU operations of process @pid inside the filter (its GPUs and window). */
void sl_iter_add_process_sources (const SlProfile *profile, const SlFilter *filter, guint32 pid, SlMerge *merge);

/* GPU work of the NVTX iterations its[0, n) of one process (sorted by
 * start; n > 0): its operations whose launching call starts inside one,
 * device by device (busy and NCCL time are unions per device, summed over
 * the process's devices: GPU time, as a multi-GPU process spends it). */
void sl_iter_nvtx_gpu_work       (const SlProfile *profile, const SlFilter *filter, const guint8 *is_nccl,
                                  guint32 pid, SlIteration *its, guint n);

/* Steps of process @pid from its kernel sequence (sl-step-period.h),
 * appended to @full and @partial; fills the period fields of @self
 * (the first process with a period sets them).  FALSE when it has none. */
gboolean sl_iter_kernel_steps    (SlIterations *self, const SlProfile *profile, const SlFilter *filter,
                                  const guint8 *is_nccl, guint32 pid, GArray *full, GArray *partial);

/* GPU operations launched per process in CPU intervals (the launching
 * API call's start), over the GPUs and window of a filter. */
typedef struct _SlIterLaunches SlIterLaunches;

SlIterLaunches *sl_iter_launches_new   (const SlProfile *profile, const SlFilter *filter);
void            sl_iter_launches_free  (SlIterLaunches *launches);
/* Operations of process @pid launched in [s, e) (and in the window). */
guint64         sl_iter_launches_in    (const SlIterLaunches *launches, const SlProfile *profile, guint32 pid,
                                        gint64 s, gint64 e);
/* All of them (in the window). */
guint64         sl_iter_launches_total (const SlIterLaunches *launches, const SlProfile *profile, guint32 pid);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlIterLaunches, sl_iter_launches_free)

/* Only the period of process @pid's kernel sequence, into the period
 * fields of @self (the time ones for a step period only): what
 * sl_iter_kernel_steps() would set, without walking the GPU work.  FALSE
 * when there is none. */
gboolean sl_iter_kernel_period   (SlIterations *self, const SlProfile *profile, const SlFilter *filter,
                                  const guint8 *is_nccl, guint32 pid);

G_END_DECLS
