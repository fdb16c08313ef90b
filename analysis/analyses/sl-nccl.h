/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-nccl.h: NCCL kernels by device, stream and collective, and the calls of
 * NCCL's NVTX domain ("sightline-cli nccl"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-stats.h"

G_BEGIN_DECLS

typedef enum {
  SL_NCCL_ALL_REDUCE,
  SL_NCCL_ALL_GATHER,
  SL_NCCL_REDUCE_SCATTER,
  SL_NCCL_BROADCAST,
  SL_NCCL_REDUCE,
  SL_NCCL_SEND_RECV,
  SL_NCCL_ALL_TO_ALL,
  SL_NCCL_OTHER,
  SL_NCCL_N_COLLECTIVES,
} SlNcclCollective;

/* TRUE when a kernel name contains "nccl" in any case. */
gboolean          sl_nccl_is_nccl_name     (const char *name);
/* Per kernel function: 1 when its short or demangled name is NCCL.
 * (transfer full), profile->n_funcs entries (NULL when none). */
guint8           *sl_nccl_func_mask        (const SlProfile *profile);
/* TRUE when an NVTX range name is that of an NCCL API call: "nccl" then a
 * capital ("ncclAllReduce", "ncclGroupStart"); not PyTorch's "nccl:all_reduce". */
gboolean          sl_nccl_is_api_name      (const char *name);
/* The collective named in a kernel name ("ncclDevKernel_AllReduce_Sum_f32_RING_LL"). */
SlNcclCollective  sl_nccl_collective_of    (const char *name);
/* "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "SendRecv",
 * "AllToAll", "other". */
const char       *sl_nccl_collective_name  (SlNcclCollective collective);

typedef struct {
  guint32          device;
  guint32          pid;
  guint32          stream;       /* CUDA stream id */
  SlNcclCollective collective;
  SlStats          stats;        /* median not computed */
  double           time_pct;     /* share of all NCCL kernel time in the filter */
} SlNcclRow;

typedef struct {
  char    *name;                 /* "ncclAllReduce", "ncclGroupStart", ... */
  char    *domain;               /* its name, "" when no row names it */
  guint32  domain_id;            /* domainId of the first range seen */
  SlStats  stats;                /* of CPU durations; median not computed */
} SlNcclNvtxRow;

typedef struct {
  gint64         total_ns;
  guint64        count;
  guint          n_rows;
  SlNcclRow     *rows;           /* by device, pid, stream, then total descending */
  guint          n_nvtx;
  SlNcclNvtxRow *nvtx;           /* by total descending */
} SlNccl;

SlNccl   *sl_nccl_compute (const SlProfile *profile, const SlFilter *filter);
void      sl_nccl_free    (SlNccl *nccl);
/* {"total_ns", "count", "collectives": [{"device", "pid", "stream", "collective",
 *  "count", "total_ns", "avg_ns", "min_ns", "max_ns", "time_pct"}],
 *  "nvtx": [{"name", "domain", "domain_id", "count", "total_ns", "avg_ns", "min_ns", "max_ns"}]} */
JsonNode *sl_nccl_to_json (const SlNccl *nccl);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlNccl, sl_nccl_free)

G_END_DECLS
