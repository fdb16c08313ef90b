/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-memcpy.c: `sightline-cli memcpy`: copies and memsets per kind. */
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-table.h"

static void
print_table (const SlMemcpySummary *s)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_("Kind"), _(">Count"), _(">Bytes"), _(">Total"),
                                              _(">Avg"), _(">GB/s"), NULL);

  for (guint r = 0; r < s->n_rows; r++)
    {
      const SlMemcpyRow *row = &s->rows[r];
      sl_cli_table_add (t, g_strdup (row->kind), sl_format_count ((gint64) row->count),
                        sl_format_bytes (row->bytes), sl_format_duration_precise (row->total_ns),
                        sl_format_duration_precise (sl_round_ns ((double) row->total_ns / (double) row->count)),
                        g_strdup_printf ("%.2f", row->gbps));
    }
  sl_cli_table_print (t, stdout);
}

static int
show (const SlCliRun *run, gpointer data)
{
  g_autoptr(SlMemcpySummary) s = sl_memcpy_summary_compute (run->profile, run->common.filter);

  if (run->common.json)
    sl_cli_print_json (sl_memcpy_summary_to_json (s));
  else if (s->n_rows == 0)
    sl_cli_print_empty (run->common.filter, _("memory copies or memsets"));
  else
    print_table (s);
  return SL_CLI_OK;
}

int
sl_cli_memcpy (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "memcpy", .parameter = N_("PROFILE"),
    .summary = N_("Memory copies and memsets per kind: count, bytes, time, throughput."),
    .show = show,
    .parts = SL_PART_COPIES,
  };

  return sl_cli_run (&spec, NULL, NULL, argc, argv);
}
