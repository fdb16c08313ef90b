/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-stacks.h: what the CPU was doing in a time range, from its
 * samples: the top functions (self and total, bottom-up) and the top
 * stacks.  Used by `sightline-cli cpu`, `gaps --stacks` and the GUI. */
#pragma once

#include "sl-cpu-activity.h"

G_BEGIN_DECLS

typedef struct {
  guint32 symbol;          /* index into SlCpuActivity.names */
  guint64 self;            /* samples with it as their leaf */
  guint64 total;           /* samples with it anywhere in the stack (once per sample even when recursive) */
} SlCpuFunction;

typedef struct {
  guint32 stack;           /* index of the stack in the activity */
  guint64 samples;
} SlCpuStackCount;

/* Samples in [@start, @end) of the threads whose pid is in @pids (NULL or
 * @n_pids 0: all threads).  Functions sorted by self, then total (then
 * name id), at most @limit (0: all); samples without a stack count in
 * sl_cpu_count_samples() only. */
GArray  *sl_cpu_top_functions (const SlCpuActivity *a, gint64 start, gint64 end,
                               const guint32 *pids, guint n_pids, guint limit);
/* Stacks sorted by samples (then stack index), at most @limit (0: all). */
GArray  *sl_cpu_top_stacks    (const SlCpuActivity *a, gint64 start, gint64 end,
                               const guint32 *pids, guint n_pids, guint limit);
guint64  sl_cpu_count_samples (const SlCpuActivity *a, gint64 start, gint64 end,
                               const guint32 *pids, guint n_pids);

/* The processes whose streams run on GPU @device, sorted (guint32 pids):
 * whose samples tell what the CPU did while that GPU sat idle. */
GArray  *sl_cpu_gpu_pids       (const SlProfile *profile, guint32 device);

G_END_DECLS
