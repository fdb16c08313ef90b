/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-api.c: `sightline-cli api`: CPU time per CUDA API function. */
#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-cli-name-stats.h"

static void
print_table (const SlApiSummary *s)
{
  g_autofree char *total = sl_format_duration_precise (s->total_ns);

  sl_cli_name_stats_print (s->rows, s->n_rows, 0);
  printf (_("\n%" PRIu64 " calls, %u functions, %s of CPU time\n"),
          s->calls, s->n_names, total);
}

static int
show (const SlCliRun *run, gpointer data)
{
  SlCliNameOptions *o = data;
  g_autoptr(SlApiSummary) s = sl_api_summary_compute (run->profile, run->common.filter, o->top);

  if (run->common.json)
    sl_cli_print_json (sl_api_summary_to_json (s));
  else if (s->n_rows == 0)
    sl_cli_print_empty (run->common.filter, _("CUDA API calls"));
  else
    print_table (s);
  return SL_CLI_OK;
}

int
sl_cli_api (int argc, char **argv)
{
  return sl_cli_name_stats_run ("api", N_("CPU time per CUDA API function, largest first."), FALSE,
                                SL_PART_API, show, argc, argv);
}
