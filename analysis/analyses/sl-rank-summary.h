/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-rank-summary.h: a compact summary of one rank's profile
 * ("sightline-cli summarize"): enough to compare the ranks of a job
 * without loading their profiles together (sl-ranks.h).
 *
 * Step times are on the session clock: ns since the session start, so
 * that ranks line up through their wall-clock session starts. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"

G_BEGIN_DECLS

#define SL_RANK_SUMMARY_FORMAT 1
#define SL_RANK_SUMMARY_FORMAT_NAME "sightline-rank-summary"

/* What a summary file may hold (sl_rank_summary_from_json refuses more):
 * summaries come from other machines and are read by the thousand, so
 * no value may make ranks allocate without bound or overflow its sums. */
#define SL_RANK_SUMMARY_MAX_STEPS   (1u << 20)                 /* iteration indices 0 .. this - 1 */
#define SL_RANK_SUMMARY_MAX_SPAN_NS (G_GINT64_CONSTANT (30) * 86400 * G_GINT64_CONSTANT (1000000000)) /* 30 days */
#define SL_RANK_SUMMARY_MAX_GPUS    1024
#define SL_RANK_SUMMARY_MAX_UTC_NS  G_GINT64_CONSTANT (4102444800000000000) /* 2100-01-01 */

typedef struct {
  guint   index;           /* the iteration's index (the same in every process) */
  gint64  start_ns;        /* GPU work (or the CPU range without GPU work), session clock */
  gint64  end_ns;
  gint64  busy_ns;         /* union of its GPU operations per device, summed over devices */
  gint64  nccl_ns;         /* same for its NCCL kernels */
  gint64  nccl_wait_ns;    /* NCCL kernel time not overlapped with compute kernels */
  gint64  idle_ns;         /* (end - start) x GPUs - busy, >= 0 */
  guint64 kernels;
} SlRankStep;

typedef struct {
  char    *name;
  gint64   total_ns;
  guint64  instances;
} SlRankKernel;

typedef struct {
  char   *name;
  gint64  total_ns;
} SlRankCategory;

typedef struct {
  guint32  device;
  char    *name;           /* nullable */
} SlRankGpu;

typedef struct {
  char           *path;
  int             rank;           /* -1: unknown */
  char           *rank_source;    /* "env:RANK", "file name"; NULL when unknown */
  gint64          session_utc_ns; /* 0: unknown */
  char           *method;         /* iterations: "nvtx", "kernels", "gaps"; NULL: none */
  guint           n_steps;
  SlRankStep     *steps;          /* by index */
  gint64          kernel_total_ns;
  guint           n_kernels;
  SlRankKernel   *kernels;        /* top kernel names by total */
  guint           n_categories;
  SlRankCategory *categories;     /* default rules, non-empty, by total */
  guint           n_gpus;
  SlRankGpu      *gpus;           /* GPUs with kernels */
} SlRankSummary;

/* @rank < 0: a number in @profile's file name, if any (the last run of
 * digits of its base name).  @clock_origin_ns: the capture clock at the
 * session start (nsys 2026's systemClockNs; else pass the profile's
 * start_ns).  @top: kernel names kept. */
SlRankSummary *sl_rank_summary_compute (const SlProfile *profile, int rank, const char *rank_source,
                                        gint64 session_utc_ns, gint64 clock_origin_ns, guint top);
void           sl_rank_summary_free    (SlRankSummary *summary);

/* {"format": "sightline-rank-summary", "version": 1, "path", "rank",
 *  "rank_source", "session_start_utc_ns", "iterations": {"method", "steps":
 *  [{"index", "start_ns", "end_ns", "busy_ns", "nccl_ns", "nccl_wait_ns",
 *  "idle_ns", "kernels"}]}, "kernel_total_ns", "top_kernels": [{"name",
 *  "total_ns", "instances"}], "categories": [{"name", "total_ns"}], "gpus":
 *  [{"device", "name"}]} */
JsonNode      *sl_rank_summary_to_json   (const SlRankSummary *summary);
/* NULL with @error (G_FILE_ERROR_INVAL) naming the member and what is
 * wrong with it ("iterations.steps[3].end_ns: expected an integer, found a
 * string") when @node is not a summary of a known version, lacks a member,
 * or holds a value of the wrong type or out of the limits above.  @node
 * NULL: an empty file. */
SlRankSummary *sl_rank_summary_from_json (JsonNode *node, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlRankSummary, sl_rank_summary_free)

G_END_DECLS
