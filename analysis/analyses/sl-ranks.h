/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks.h: the ranks of one job side by side ("sightline-cli ranks"):
 * a rank x iteration table of step times on one clock, the straggler of
 * each iteration and each rank's NCCL wait.  Works from summaries
 * (sl-rank-summary.h), so a profile needs loading only to summarize it. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-rank-summary.h"

G_BEGIN_DECLS

typedef struct {
  gboolean present;
  gint64   start_ns;       /* job clock: ns since the earliest session start */
  gint64   end_ns;
  gint64   nccl_wait_ns;
} SlRanksCell;

typedef struct {
  int          rank;       /* -1: unknown */
  const char  *path;       /* the summary's */
  gint64       offset_ns;  /* session start - earliest one + manual offset */
  guint        n_steps;          /* 0: no iterations found, no median */
  gint64       step_median_ns;   /* of its step durations (end - start); 0 without steps */
  gint64       nccl_wait_ns;     /* over its steps */
  SlRanksCell *cells;      /* n_iterations */
} SlRanksRow;

typedef struct {
  guint   rank;            /* row of the rank whose step ends last; G_MAXUINT when all end together */
  gint64  median_end_ns;   /* median of the rows' ends */
  gint64  late_ns;         /* last end - median end */
} SlRanksStraggler;

typedef struct {
  guint             n_rows;
  SlRanksRow       *rows;          /* by rank, unknown ranks last (input order) */
  guint             n_iterations;  /* the most any rank has */
  SlRanksStraggler *stragglers;    /* per iteration */
} SlRanks;

/* @offsets_ns: nullable, one manual offset per summary (added to its clock). */
SlRanks  *sl_ranks_compute (SlRankSummary *const *summaries, guint n, const gint64 *offsets_ns);
void      sl_ranks_free    (SlRanks *ranks);
/* {"ranks": [{"rank", "path", "offset_ns", "step_median_ns" (null without steps), "nccl_wait_ns",
 *  "steps": [{"index", "start_ns", "end_ns", "dur_ns", "nccl_wait_ns"} | null]}],
 *  "iterations": [{"index", "median_end_ns", "straggler": {"rank", "path",
 *  "late_ns"} | null}]} */
JsonNode *sl_ranks_to_json (const SlRanks *ranks);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlRanks, sl_ranks_free)

G_END_DECLS
