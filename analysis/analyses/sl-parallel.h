/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-parallel.h: the analyses' second core: a piece of work in two parts
 * at once, the second on a thread of its own. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SL_PARALLEL_MAX_PARTS 2

/* The analyses' threads: SL_ANALYSIS_THREADS (1 or 2), else up to two cores. */
guint  sl_analysis_threads (void);

/* Part @part of @n_parts; parts > 0 run on other threads, at the same time
 * as part 0: they may only read what is shared and write their own. */
typedef void (*SlParallelFunc) (guint part, guint n_parts, gpointer data);

/* @func in @n_parts parts (at most SL_PARALLEL_MAX_PARTS; 1 runs it here),
 * returning when all are done.  Without a thread to be had, the parts run
 * one after the other here. */
void   sl_parallel_run     (guint n_parts, SlParallelFunc func, gpointer data);

G_END_DECLS
