/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-name-stats.c: the options and the table of statistics per name of
 * `kernels`, `api` and `nvtx`. */
#include <glib/gi18n.h>

#include "sl-cli-name-stats.h"

static gboolean
check (const char *command, gpointer data)
{
  SlCliNameOptions *o = data;

  return sl_cli_parse_names (command, o->names, &o->style)
         && sl_cli_parse_count (command, "--top", o->top_text, &o->top);
}

int
sl_cli_name_stats_run (const char *name, const char *summary, gboolean with_names, SlParts parts,
                       SlCliShowFunc show, int argc, char **argv)
{
  return sl_cli_name_stats_run_full (name, summary, with_names, FALSE, parts, show, argc, argv);
}

int
sl_cli_name_stats_run_full (const char *name, const char *summary, gboolean with_names,
                            gboolean with_exact_names, SlParts parts, SlCliShowFunc show,
                            int argc, char **argv)
{
  const SlCliSpec spec = {
    .name = name, .parameter = N_("PROFILE"), .summary = summary,
    .wrong_args = N_("expected one PROFILE (see --help)"),
    .check = check, .show = show, .parts = parts,
  };
  SlCliNameOptions o = { .style = SL_NAMES_SHORT };
  GOptionEntry entries[] = {
    { "names", 0, 0, G_OPTION_ARG_STRING, &o.names, N_("Kernel names: short (default) or demangled"), "short|demangled" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &o.top_text, N_("Only the K largest"), "K" },
    { NULL },
    { NULL }
  };
  GOptionEntry exact = { "exact-names", 0, 0, G_OPTION_ARG_NONE, &o.exact_names,
                         N_("Keep NVTX names apart that differ only by PyTorch's op_id, seq or sizes"), NULL };

  if (with_exact_names)
    entries[2] = exact;
  return sl_cli_run (&spec, with_names ? entries : entries + 1, &o, argc, argv);
}

SlCliTable *
sl_cli_name_stats_new (gboolean with_gpu, guint name_max)
{
  SlCliTable *t;

  if (with_gpu)
    t = sl_cli_table_new (_(">Time"), _(">Total"), _(">Count"), _(">Avg"), _(">Med"), _(">Min"),
                          _(">Max"), _(">StdDev"), _(">GPU proj."), _("Name"), NULL);
  else
    t = sl_cli_table_new (_(">Time"), _(">Total"), _(">Count"), _(">Avg"), _(">Med"), _(">Min"),
                          _(">Max"), _(">StdDev"), _("Name"), NULL);
  if (name_max > 0)
    sl_cli_table_set_max (t, with_gpu ? 9 : 8, name_max);
  return t;
}

void
sl_cli_name_stats_add (SlCliTable *t, const char *name, const SlStats *s, double time_pct,
                       const gint64 *gpu_ns)
{
  char *cells[10];
  guint n = 0;

  cells[n++] = sl_format_percent (time_pct);
  cells[n++] = sl_format_duration_precise (s->total);
  cells[n++] = sl_format_count ((gint64) s->count);
  cells[n++] = sl_format_duration_precise (sl_round_ns (s->avg));
  cells[n++] = sl_format_duration_precise (sl_round_ns (s->median));
  cells[n++] = sl_format_duration_precise (s->min);
  cells[n++] = sl_format_duration_precise (s->max);
  cells[n++] = sl_format_duration_precise (sl_round_ns (s->stddev));
  if (gpu_ns != NULL)
    cells[n++] = sl_format_duration_precise (*gpu_ns);
  cells[n++] = g_strdup (name);
  sl_cli_table_add_cells (t, cells);
}

void
sl_cli_name_stats_print (const SlNameRow *rows, guint n_rows, guint name_max)
{
  g_autoptr(SlCliTable) t = sl_cli_name_stats_new (FALSE, name_max);

  for (guint r = 0; r < n_rows; r++)
    sl_cli_name_stats_add (t, rows[r].name, &rows[r].stats, rows[r].time_pct, NULL);
  sl_cli_table_print (t, stdout);
}
