/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-rank-input.h: one rank's summary from a profile or a summary file
 * (summarize, ranks). */
#pragma once

#include <glib.h>
#include "sightline.h"

G_BEGIN_DECLS

/* What summarize loads of a profile: GPU work, the API calls that launch
 * it and NVTX (iterations). */
#define SL_CLI_RANK_PARTS (SL_PARTS_GPU | SL_PART_API | SL_PART_NVTX)

/* The summary of @path: read when it is a summary file (JSON), else
 * computed from the profile (@top kernel names) loaded by @threads
 * threads (SlLoadOptions.threads: 0 for the default, 1 when loading
 * several at once).  NULL with @error.  Safe to call from several
 * threads at once. */
SlRankSummary *sl_cli_rank_input_load (const char *path, guint top, guint threads, GError **error);

G_END_DECLS
