/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-name-stats.h: what `kernels`, `api` and `nvtx` share: their options
 * (--top K, and --names for kernels) and their table of statistics per name
 * (share, total, count, avg, med, min, max, stddev, (GPU projection,) name). */
#pragma once

#include <glib.h>
#include "sl-cli.h"
#include "sl-cli-run.h"
#include "sl-cli-table.h"

G_BEGIN_DECLS

typedef struct {
  char        *names;
  char        *top_text;
  SlNameStyle  style;      /* from --names */
  guint        top;        /* from --top, 0: all */
  gboolean     exact_names;  /* from --exact-names (nvtx) */
} SlCliNameOptions;

/* Runs the command @name with the --help paragraph @summary (N_() text);
 * @show gets an SlCliNameOptions. */
int         sl_cli_name_stats_run   (const char *name, const char *summary, gboolean with_names,
                                     SlParts parts, SlCliShowFunc show, int argc, char **argv);
/* The same, @with_exact_names adding --exact-names (NVTX names not grouped). */
int         sl_cli_name_stats_run_full (const char *name, const char *summary, gboolean with_names,
                                        gboolean with_exact_names, SlParts parts, SlCliShowFunc show,
                                        int argc, char **argv);

/* @with_gpu adds the "GPU proj." column; @name_max > 0 cuts longer names. */
SlCliTable *sl_cli_name_stats_new   (gboolean with_gpu, guint name_max);
/* @gpu_ns: the GPU projection, for a table made @with_gpu, else NULL. */
void        sl_cli_name_stats_add   (SlCliTable *table, const char *name, const SlStats *stats,
                                     double time_pct, const gint64 *gpu_ns);
/* Prints the table of @rows (no GPU column). */
void        sl_cli_name_stats_print (const SlNameRow *rows, guint n_rows, guint name_max);

G_END_DECLS
