/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gaps.h: GPU busy / idle time per device and its longest idle gaps
 * ("sightline-cli gaps"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-overlap.h"

G_BEGIN_DECLS

typedef struct {
  char   *name;            /* CUDA API function */
  gint64  overlap_ns;      /* summed overlap of its calls with the gap */
} SlGapCpu;

typedef struct {
  gint64    start_ns;      /* end of the last GPU operation before the gap */
  gint64    end_ns;        /* start of the first one after it */
  gint64    dur_ns;
  char     *before;        /* kernel name, or "[memcpy HtoD]", "[memset]" */
  char     *after;
  gint64    copy_ns;       /* memcpy / memset time inside the gap (union) */
  guint32   pid;           /* process of the operation before the gap */
  guint     n_cpu;
  SlGapCpu  cpu[3];        /* that process's API calls overlapping the gap, top 3 by overlap */
} SlGap;

typedef struct {
  guint32  device;
  gint64   first_start_ns;
  gint64   last_end_ns;
  gint64   span_ns;        /* last end - first start */
  gint64   kernel_busy_ns; /* union of kernel intervals */
  gint64   copy_busy_ns;   /* union of memcpy and memset intervals */
  gint64   busy_ns;        /* union of kernel, memcpy and memset intervals */
  gint64   idle_ns;        /* span - busy */
  double   utilization_pct;  /* kernel busy / span (any busy with count_copies) */
  double   any_busy_pct;     /* busy / span */
  guint64  n_gaps;         /* gaps in what counts as busy, of at least min_gap */
  gint64   gaps_total_ns;  /* their summed length */
  guint    n_top;
  SlGap   *gaps;           /* the longest, by length descending */
} SlGapsDevice;

typedef struct {
  gboolean      count_copies;  /* copies count as busy (Nsight's "any GPU work") */
  guint         n_devices;
  SlGapsDevice *devices;   /* by device id */
} SlGaps;

/* GPU operations inside @filter; gaps shorter than @min_gap_ns are ignored;
 * the @top (> 0) longest are described.  Busy means running a kernel
 * (see sl-gpu-busy.h): gaps are gaps in kernel activity. */
SlGaps   *sl_gaps_compute (const SlProfile *profile, const SlFilter *filter,
                           gint64 min_gap_ns, guint top);
/* The same; with @count_copies any GPU operation is busy time. */
SlGaps   *sl_gaps_compute_full (const SlProfile *profile, const SlFilter *filter,
                                gint64 min_gap_ns, guint top, gboolean count_copies);
/* sl_gaps_compute() and, from the same walk over the kernels,
 * sl_overlap_compute() of the same filter into *@overlap (transfer full):
 * one merge of every device's kernels in start order instead of two. */
SlGaps   *sl_gaps_compute_with_overlap (const SlProfile *profile, const SlFilter *filter,
                                        gint64 min_gap_ns, guint top, SlOverlap **overlap);
void      sl_gaps_free    (SlGaps *gaps);

/* The GPUs are measured in two parts on two cores from this many kernels
 * (default 500 000); tests lower it to compare the parts with one pass. */
void      _sl_gaps_set_parallel_kernels (guint64 kernels);
/* {"busy": "kernels"|"any", "devices": [{"device", "span_ns", "kernel_busy_ns",
 *  "copy_busy_ns", "busy_ns", "idle_ns", "utilization_pct", "any_busy_pct",
 *  "gaps": [{"start_ns", "end_ns", "dur_ns", "copy_ns", "before", "after",
 *  "cpu": [{"name", "overlap_ns"}]}]}]} */
JsonNode *sl_gaps_to_json (const SlGaps *gaps);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlGaps, sl_gaps_free)

G_END_DECLS
