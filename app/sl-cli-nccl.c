/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-nccl.c: `sightline-cli nccl`: NCCL kernels by device, stream and
 * collective, and the calls of NCCL's NVTX domain. */
#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-table.h"

static void
print_kernels (const SlNccl *nccl)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_(">GPU"), _(">PID"), _(">Stream"), _("Collective"),
                                              _(">Count"), _(">Total"), _(">Avg"), _(">Min"),
                                              _(">Max"), _(">Share"), NULL);
  g_autofree char *total = sl_format_duration_precise (nccl->total_ns);

  for (guint r = 0; r < nccl->n_rows; r++)
    {
      const SlNcclRow *row = &nccl->rows[r];
      sl_cli_table_add (t, sl_format_count (row->device), sl_format_count (row->pid),
                        sl_format_count (row->stream), g_strdup (sl_nccl_collective_name (row->collective)),
                        sl_format_count ((gint64) row->stats.count), sl_format_duration_precise (row->stats.total),
                        sl_format_duration_precise (sl_round_ns (row->stats.avg)),
                        sl_format_duration_precise (row->stats.min),
                        sl_format_duration_precise (row->stats.max), sl_format_percent (row->time_pct));
    }
  sl_cli_table_print (t, stdout);
  printf (_("\n%" PRIu64 " NCCL kernels, %s\n"), nccl->count, total);
}

static void
print_nvtx_calls (const SlNccl *nccl)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_("NVTX call"), _("Domain"), _(">Count"), _(">Total"),
                                              _(">Avg"), _(">Min"), _(">Max"), NULL);

  for (guint n = 0; n < nccl->n_nvtx; n++)
    {
      const SlNcclNvtxRow *row = &nccl->nvtx[n];
      /* sliced captures may lack the row that names the domain */
      char *domain = row->domain[0] != '\0' ? g_strdup (row->domain)
                     : g_strdup_printf (_("unnamed (id %u)"), row->domain_id);

      sl_cli_table_add (t, g_strdup (row->name), domain,
                        sl_format_count ((gint64) row->stats.count), sl_format_duration_precise (row->stats.total),
                        sl_format_duration_precise (sl_round_ns (row->stats.avg)),
                        sl_format_duration_precise (row->stats.min), sl_format_duration_precise (row->stats.max));
    }
  printf ("\n");
  sl_cli_table_print (t, stdout);
}

static int
show (const SlCliRun *run, gpointer data)
{
  g_autoptr(SlNccl) nccl = sl_nccl_compute (run->profile, run->common.filter);

  if (run->common.json)
    {
      sl_cli_print_json (sl_nccl_to_json (nccl));
      return SL_CLI_OK;
    }
  if (nccl->n_rows == 0)
    sl_cli_print_empty (run->common.filter, _("NCCL kernels"));
  else
    print_kernels (nccl);
  if (nccl->n_nvtx > 0)
    print_nvtx_calls (nccl);
  return SL_CLI_OK;
}

int
sl_cli_nccl (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "nccl", .parameter = N_("PROFILE"),
    .summary = N_("NCCL kernels by device, stream and collective, and the "
                  "calls of the NCCL NVTX domain."),
    .show = show,
    .parts = SL_PART_KERNELS | SL_PART_NVTX,
  };

  return sl_cli_run (&spec, NULL, NULL, argc, argv);
}
