/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-loader.h: reading the CPU side (OS runtime, CPU samples,
 * scheduling) and the GPU metrics of an export, after its profile: they
 * live in their own objects (sl-cpu-activity.h, sl-gpu-metrics.h) so that
 * opening a profile and its cache stay as fast as before. */
#pragma once

#include "sl-cpu-activity.h"
#include "sl-gpu-metrics.h"

G_BEGIN_DECLS

/* Reads the CPU side of the file @profile was loaded from (its source
 * descriptor).  A file without these tables gives an empty activity, not
 * an error; NULL and @error only when the file cannot be read or
 * @cancellable fired.  Blocks on I/O: call it from a worker. */
SlCpuActivity *sl_cpu_activity_load         (SlProfile           *profile,
                                             GCancellable        *cancellable,
                                             GError             **error);
void           sl_cpu_activity_load_async   (SlProfile           *profile,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
SlCpuActivity *sl_cpu_activity_load_finish  (GAsyncResult        *result,
                                             GError             **error);

/* Reads the GPU metrics of the file @profile was loaded from.  A file
 * without them gives an empty set, not an error; NULL and @error only when
 * the file cannot be read or @cancellable fired.  Blocks on I/O. */
SlGpuMetrics *sl_gpu_metrics_load   (SlProfile     *profile,
                                     GCancellable  *cancellable,
                                     GError       **error);
G_END_DECLS
