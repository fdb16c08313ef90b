/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-duration-histogram.h: the distribution of a set of durations (one
 * kernel's instances, the iterations) on log-scale bins, with the
 * percentiles the CLI's statistics use (nearest rank, sl_percentile_rank). */
#pragma once

#include <glib.h>

#include "sl-filter.h"
#include "sl-profile.h"

G_BEGIN_DECLS

typedef struct {
  guint64  n;              /* values */
  gint64   min_ns;
  gint64   max_ns;
  gint64   p50_ns;         /* nearest-rank percentiles; 0 when n == 0 */
  gint64   p90_ns;
  gint64   p99_ns;
  guint    n_bins;
  gint64  *edges;          /* n_bins + 1 integer edges: bin i holds [edges[i], edges[i + 1]) */
  guint64 *counts;         /* n_bins */
} SlDurationHistogram;

/* At most @max_bins (> 0) bins, equal in log scale, from the smallest value
 * to just past the largest; integer edges (so a value's bin is exact), fewer
 * bins when the values span too few nanoseconds for distinct edges.
 * @values are not changed. (transfer full) */
SlDurationHistogram *sl_duration_histogram_new    (const gint64 *values,
                                                   gsize         n,
                                                   guint         max_bins);
void                 sl_duration_histogram_free   (SlDurationHistogram *histogram);
/* The bin holding @value, or G_MAXUINT when it is outside every bin. */
guint                sl_duration_histogram_bin_of (const SlDurationHistogram *histogram,
                                                   gint64                     value);

/* One kernel instance: its stream (index into profile->streams), its index
 * in the stream's kernels, and its duration. */
typedef struct {
  guint32 stream;
  guint32 index;
  gint64  dur_ns;
} SlKernelInstance;

/* The kernels inside @filter (nullable) whose short or demangled name is
 * @name, by stream then start. (transfer full): an array of SlKernelInstance. */
GArray              *sl_kernel_instances_named    (const SlProfile *profile,
                                                   const SlFilter  *filter,
                                                   const char      *name);
/* The durations of @instances, a new array of gint64. (transfer full) */
gint64              *sl_kernel_instances_durations (GArray *instances);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlDurationHistogram, sl_duration_histogram_free)

G_END_DECLS
