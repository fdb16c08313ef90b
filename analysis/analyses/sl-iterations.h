/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-iterations.h: training / inference steps ("sightline-cli iterations").
 *
 * Methods, tried in order unless one is forced: "nvtx", push/pop ranges at
 * depth 0 whose normalised name ("step 12" -> "step #") repeats in a process
 * and whose instances each launch a similar, large share of the GPU work
 * (per-op ranges never do); "kernels", the period of each process's kernel
 * sequence (sl-step-period.h), steps cut by the capture's edges apart;
 * "gaps", GPU activity split at large idle gaps.  An NVTX iteration's GPU
 * work is every GPU operation of its process whose launching API call starts
 * inside the range, whichever thread launched it; a kernels/gaps step's is
 * every operation of the process starting inside it. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-stats.h"
#include "sl-step-period.h"

G_BEGIN_DECLS

typedef enum {
  SL_ITERATIONS_NVTX,
  SL_ITERATIONS_GAPS,      /* GPU activity split at large idle gaps */
  SL_ITERATIONS_KERNELS,   /* the period of the kernel sequence */
  SL_ITERATIONS_AUTO,      /* only as a request: nvtx, else kernels, else gaps */
} SlIterationMethod;

typedef struct {
  guint    index;          /* from 0 within its process, by start */
  guint32  pid;
  char    *name;           /* the range's own name; NULL for gaps */
  guint32  thread;         /* NVTX: thread index and local range index, else SL_NONE */
  guint32  range;
  gboolean has_cpu;        /* gaps: FALSE when no launching API call was found */
  gint64   cpu_start_ns;
  gint64   cpu_end_ns;
  gboolean has_gpu;
  gint64   gpu_start_ns;
  gint64   gpu_end_ns;
  guint64  kernels;
  guint64  ops;            /* kernels + memcpy + memset */
  gint64   gpu_busy_ns;    /* union of its GPU operations on each device, summed over devices */
  gint64   nccl_ns;        /* same for its NCCL kernels */
  gint64   dur_ns;         /* NVTX: CPU duration; kernels and gaps: GPU span */
} SlIteration;

typedef struct {
  SlIterationMethod method;
  char             *name;          /* chosen normalised name or the regex; NULL for gaps */
  gint64            gap_threshold_ns; /* gaps: gaps of at least this split iterations */
  guint             n_iterations;
  SlIteration      *iterations;    /* by pid, then index */
  SlStats           summary;       /* of dur_ns */
  guint             slowest;       /* position in iterations[], G_MAXUINT when none */
  /* Steps cut by the capture's edges (kernels method): not in iterations[]. */
  guint             n_partial;
  SlIteration      *partial;
  /* The period: of the steps, or of the block repeating inside them when no
   * full step repeats (unit BLOCK); start to start, in ns. */
  SlStepUnit        period_unit;
  guint             period_kernels; /* kernels method: kernels per period on the main stream */
  gint64            period_median_ns, period_p10_ns, period_p90_ns;
  double            confidence;    /* 0..1 */
  char             *reason;        /* why this method and how sure (English, for JSON) */
  guint             n_named;       /* --name / --step-range: outermost ranges it matched */
} SlIterations;

typedef struct {
  SlIterationMethod method;        /* SL_ITERATIONS_AUTO by default */
  const char       *name_regex;    /* nullable: NVTX ranges matching it are the steps */
  const char       *step_range;    /* nullable: NVTX ranges of this name (or normalised name) */
  gint64            min_gap_ns;    /* gaps: > 0 fixes the split threshold */
} SlIterationsOptions;

/* Iterations by @options (NULL: automatic).  With no method forced, NVTX
 * ranges are steps only when they cover a large, similar share of the GPU
 * work (each instance launches at least a quarter of the median instance's
 * kernels and all together at least half of the process's) and, when the
 * kernel sequence has a step period, repeat with a period within 25 % of
 * it; per-op ranges never qualify.  NULL with @error for a bad regex. */
SlIterations *sl_iterations_compute_with (const SlProfile *profile, const SlFilter *filter,
                                          const SlIterationsOptions *options, GError **error);
/* @name_regex (nullable) overrides the choice of name (a GRegex, unanchored).
 * @min_gap_ns > 0 fixes the gaps split threshold, else it is found from
 * the distribution of gaps.  Returns NULL with @error only for a bad regex. */
SlIterations *sl_iterations_compute  (const SlProfile *profile, const SlFilter *filter,
                                      const char *name_regex, gint64 min_gap_ns, GError **error);
/* The same iterations and summary, without the GPU work of NVTX iterations
 * (their gpu_* fields, kernels, ops and nccl_ns stay 0): enough for their
 * durations, as "compare" needs, at a fraction of the cost. */
SlIterations *sl_iterations_compute_durations (const SlProfile *profile, const SlFilter *filter);
void          sl_iterations_free     (SlIterations *iterations);
/* See README ("iterations") for the JSON.  Was: {"method": "nvtx"|"gaps"|"kernels", "name": str|null, "iterations": [{"index", "pid",
 *  "name", "cpu_start_ns", "cpu_end_ns", "gpu_start_ns", "gpu_end_ns", "kernels",
 *  "gpu_busy_ns", "nccl_ns"}], "summary": {"count", "mean_ns", "median_ns",
 *  "min_ns", "max_ns", "stddev_ns", "slowest_index", "slowest_pid"}} */
JsonNode     *sl_iterations_to_json  (const SlIterations *iterations);

/* "nvtx", "kernels" or "gaps", as in the JSON. */
const char   *sl_iterations_method_name (SlIterationMethod method);

/* "step 12 / rank 3" -> "step # / rank #". (transfer full) */
char         *sl_iterations_normalize_name (const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlIterations, sl_iterations_free)

G_END_DECLS
