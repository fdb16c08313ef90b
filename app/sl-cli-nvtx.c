/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-nvtx.c: `sightline-cli nvtx`: CPU time and GPU projection per NVTX
 * range name. */
#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-cli-name-stats.h"

static void
print_table (const SlNvtxSummary *s)
{
  g_autoptr(SlCliTable) t = sl_cli_name_stats_new (TRUE, 100);

  for (guint r = 0; r < s->n_rows; r++)
    sl_cli_name_stats_add (t, s->rows[r].name, &s->rows[r].stats, s->rows[r].time_pct,
                           &s->rows[r].gpu_total_ns);
  sl_cli_table_print (t, stdout);
  printf (_("\n%" PRIu64 " ranges, %u names (Time: share of all range time; "
            "nested ranges count in each level)\n"), s->instances, s->n_names);
}

static int
show (const SlCliRun *run, gpointer data)
{
  SlCliNameOptions *o = data;
  g_autoptr(SlNvtxSummary) s = sl_nvtx_summary_compute_names (run->profile, run->common.filter, o->top,
                                                              o->exact_names);

  if (run->common.json)
    sl_cli_print_json (sl_nvtx_summary_to_json (s));
  else if (s->n_rows == 0)
    sl_cli_print_empty (run->common.filter, _("NVTX ranges"));
  else
    print_table (s);
  return SL_CLI_OK;
}

int
sl_cli_nvtx (int argc, char **argv)
{
  return sl_cli_name_stats_run_full ("nvtx", N_("CPU time and GPU projection per NVTX range name, largest first; "
                                        "names that differ only by PyTorch's op_id, seq or sizes are grouped."),
                                     FALSE, TRUE, SL_PART_NVTX | SL_PART_API | SL_PARTS_GPU, show, argc, argv);
}
