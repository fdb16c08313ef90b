/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-session-info.h: what a profile says about its place in a job: the
 * session start (wall clock, and the capture clock at that moment) and the
 * rank its environment names.  Read straight from the export, apart from
 * the profile (and its cache): a few rows, needed only to line up ranks. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  gint64    utc_ns;        /* TARGET_INFO_SESSION_START_TIME.utcEpochNs; 0 when absent */
  gboolean  has_clock;     /* systemClockNs known (nsys 2026.1+) */
  gint64    clock_ns;      /* the capture clock at the session start */
  int       rank;          /* -1: the environment names none */
  char     *rank_source;   /* "env:RANK" ...; NULL without a rank */
} SlSessionInfo;

/* Reads @path (an SQLite export); FALSE with @error when it cannot be
 * opened.  Missing tables leave the defaults (utc 0, no clock, rank -1).
 * The rank is the first of RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID,
 * PMI_RANK found among the captured process's environment variables. */
gboolean sl_session_info_read  (const char *path, SlSessionInfo *info, GError **error);
void     sl_session_info_clear (SlSessionInfo *info);

G_END_DECLS
