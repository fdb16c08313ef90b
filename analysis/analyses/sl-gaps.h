/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gaps.h: GPU busy / idle time per device and its longest idle gaps
 * ("sightline-cli gaps"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"

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
  guint32   pid;           /* process of the operation before the gap */
  guint     n_cpu;
  SlGapCpu  cpu[3];        /* that process's API calls overlapping the gap, top 3 by overlap */
} SlGap;

typedef struct {
  guint32  device;
  gint64   first_start_ns;
  gint64   last_end_ns;
  gint64   span_ns;        /* last end - first start */
  gint64   busy_ns;        /* union of kernel, memcpy and memset intervals */
  gint64   idle_ns;        /* span - busy */
  double   utilization_pct;
  guint64  n_gaps;         /* gaps of at least min_gap */
  gint64   gaps_total_ns;  /* their summed length */
  guint    n_top;
  SlGap   *gaps;           /* the longest, by length descending */
} SlGapsDevice;

typedef struct {
  guint         n_devices;
  SlGapsDevice *devices;   /* by device id */
} SlGaps;

/* GPU operations inside @filter; gaps shorter than @min_gap_ns are ignored;
 * the @top (> 0) longest are described. */
SlGaps   *sl_gaps_compute (const SlProfile *profile, const SlFilter *filter,
                           gint64 min_gap_ns, guint top);
void      sl_gaps_free    (SlGaps *gaps);
/* {"devices": [{"device", "span_ns", "busy_ns", "idle_ns", "utilization_pct",
 *  "gaps": [{"start_ns", "end_ns", "dur_ns", "before", "after",
 *  "cpu": [{"name", "overlap_ns"}]}]}]} */
JsonNode *sl_gaps_to_json (const SlGaps *gaps);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlGaps, sl_gaps_free)

G_END_DECLS
