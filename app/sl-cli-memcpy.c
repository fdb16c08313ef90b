/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-memcpy.c: `sightline-cli memcpy`: copies and memsets per kind. */
#include <glib/gi18n.h>

#include "sl-cli-analysis.h"

int
sl_cli_memcpy (int argc, char **argv)
{
  SlCliCommon common = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PROFILE"));
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlMemcpySummary) s = NULL;
  int status;

  g_option_context_set_summary (context, _("Memory copies and memsets per kind: count, bytes, time, throughput."));
  sl_cli_common_add (context, &common);
  status = sl_cli_prepare ("memcpy", "PROFILE", context, &common, 0, &argc, &argv, &profile);
  if (status >= 0)
    {
      sl_cli_common_clear (&common);
      return status;
    }

  s = sl_memcpy_summary_compute (profile, common.filter);
  if (common.json)
    {
      g_autoptr(JsonNode) node = sl_memcpy_summary_to_json (s);
      sl_cli_print_json (node);
    }
  else if (s->n_rows == 0)
    sl_cli_print_empty (&common, _("memory copies or memsets"));
  else
    {
      g_autoptr(SlCliTable) t = sl_cli_table_new (_("Kind"), _(">Count"), _(">Bytes"), _(">Total"),
                                                  _(">Avg"), _(">GB/s"), NULL);
      for (guint r = 0; r < s->n_rows; r++)
        {
          const SlMemcpyRow *row = &s->rows[r];
          sl_cli_table_add (t, g_strdup (row->kind), sl_cli_fmt_int ((gint64) row->count),
                            sl_cli_fmt_bytes (row->bytes), sl_cli_fmt_dur (row->total_ns),
                            sl_cli_fmt_dur (sl_round_ns ((double) row->total_ns / (double) row->count)),
                            g_strdup_printf ("%.2f", row->gbps));
        }
      sl_cli_table_print (t, stdout);
    }
  sl_cli_common_clear (&common);
  return SL_CLI_OK;
}
