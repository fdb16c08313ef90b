/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-overlap.c: `sightline-cli overlap`: NCCL / compute overlap per device. */
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-table.h"

static void
print_table (const SlOverlap *overlap)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_(">GPU"), _(">Compute"), _(">NCCL"), _(">Overlap"),
                                              _(">Compute only"), _(">NCCL only"), _(">Overlap %"), NULL);

  for (guint d = 0; d < overlap->n_devices; d++)
    {
      const SlOverlapDevice *dev = &overlap->devices[d];
      sl_cli_table_add (t, sl_format_count (dev->device), sl_format_duration_precise (dev->compute_ns),
                        sl_format_duration_precise (dev->nccl_ns), sl_format_duration_precise (dev->overlap_ns),
                        sl_format_duration_precise (dev->compute_only_ns),
                        sl_format_duration_precise (dev->nccl_only_ns),
                        dev->nccl_ns > 0 ? sl_format_percent (dev->overlap_pct) : g_strdup ("–"));
    }
  sl_cli_table_print (t, stdout);
}

static int
show (const SlCliRun *run, gpointer data)
{
  g_autoptr(SlOverlap) overlap = sl_overlap_compute (run->profile, run->common.filter);

  if (run->common.json)
    sl_cli_print_json (sl_overlap_to_json (overlap));
  else if (overlap->n_devices == 0)
    sl_cli_print_empty (run->common.filter, _("kernels"));
  else
    print_table (overlap);
  return SL_CLI_OK;
}

int
sl_cli_overlap (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "overlap", .parameter = N_("PROFILE"),
    .summary = N_("Per device: time in NCCL kernels, in other kernels, and how "
                  "much of the NCCL time overlaps compute."),
    .show = show,
    .parts = SL_PART_KERNELS,
  };

  return sl_cli_run (&spec, NULL, NULL, argc, argv);
}
