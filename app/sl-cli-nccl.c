/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-nccl.c: `sightline-cli nccl`: NCCL kernels by device, stream and
 * collective, and the calls of NCCL's NVTX domain. */
#include <glib/gi18n.h>

#include "sl-cli-analysis.h"

int
sl_cli_nccl (int argc, char **argv)
{
  SlCliCommon common = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PROFILE"));
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlNccl) nccl = NULL;
  int status;

  g_option_context_set_summary (context, _("NCCL kernels by device, stream and collective, and the "
                                           "calls of the NCCL NVTX domain."));
  sl_cli_common_add (context, &common);
  status = sl_cli_prepare ("nccl", "PROFILE", context, &common, 0, &argc, &argv, &profile);
  if (status >= 0)
    {
      sl_cli_common_clear (&common);
      return status;
    }

  nccl = sl_nccl_compute (profile, common.filter);
  if (common.json)
    {
      g_autoptr(JsonNode) node = sl_nccl_to_json (nccl);
      sl_cli_print_json (node);
      sl_cli_common_clear (&common);
      return SL_CLI_OK;
    }
  if (nccl->n_rows == 0)
    sl_cli_print_empty (&common, _("NCCL kernels"));
  else
    {
      g_autoptr(SlCliTable) t = sl_cli_table_new (_(">GPU"), _(">PID"), _(">Stream"), _("Collective"),
                                                  _(">Count"), _(">Total"), _(">Avg"), _(">Min"),
                                                  _(">Max"), _(">Share"), NULL);
      g_autofree char *total = sl_cli_fmt_dur (nccl->total_ns);
      for (guint r = 0; r < nccl->n_rows; r++)
        {
          const SlNcclRow *row = &nccl->rows[r];
          sl_cli_table_add (t, sl_cli_fmt_int (row->device), sl_cli_fmt_int (row->pid),
                            sl_cli_fmt_int (row->stream), g_strdup (sl_nccl_collective_name (row->collective)),
                            sl_cli_fmt_int ((gint64) row->stats.count), sl_cli_fmt_dur (row->stats.total),
                            sl_cli_fmt_dur (sl_round_ns (row->stats.avg)), sl_cli_fmt_dur (row->stats.min),
                            sl_cli_fmt_dur (row->stats.max), sl_cli_fmt_pct (row->time_pct));
        }
      sl_cli_table_print (t, stdout);
      printf (_("\n%" G_GUINT64_FORMAT " NCCL kernels, %s\n"), nccl->count, total);
    }
  if (nccl->n_nvtx > 0)
    {
      g_autoptr(SlCliTable) t = sl_cli_table_new (_("NVTX call"), _("Domain"), _(">Count"), _(">Total"),
                                                  _(">Avg"), _(">Min"), _(">Max"), NULL);
      for (guint n = 0; n < nccl->n_nvtx; n++)
        {
          const SlNcclNvtxRow *row = &nccl->nvtx[n];
          sl_cli_table_add (t, g_strdup (row->name), g_strdup (row->domain),
                            sl_cli_fmt_int ((gint64) row->stats.count), sl_cli_fmt_dur (row->stats.total),
                            sl_cli_fmt_dur (sl_round_ns (row->stats.avg)), sl_cli_fmt_dur (row->stats.min),
                            sl_cli_fmt_dur (row->stats.max));
        }
      printf ("\n");
      sl_cli_table_print (t, stdout);
    }
  sl_cli_common_clear (&common);
  return SL_CLI_OK;
}
