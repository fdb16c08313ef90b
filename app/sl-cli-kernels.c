/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-kernels.c: `sightline-cli kernels`: GPU time per kernel name. */
#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-cli-name-stats.h"

static void
print_table (const SlKernelSummary *s, SlNameStyle style)
{
  g_autofree char *total = sl_format_duration_precise (s->total_ns);
  g_autofree char *kernels = g_strdup_printf (ngettext ("%" PRIu64 " kernel", "%" PRIu64 " kernels",
                                                        (gulong) MIN (s->instances, G_MAXULONG)),
                                              s->instances);
  g_autofree char *names = g_strdup_printf (ngettext ("%u name", "%u names", s->n_names), s->n_names);

  sl_cli_name_stats_print (s->rows, s->n_rows, style == SL_NAMES_DEMANGLED ? 160 : 100);
  /* TRANSLATORS: "3442 kernels, 15 names, 44.830 ms of GPU time" */
  printf (_("\n%s, %s, %s of GPU time\n"), kernels, names, total);
}

static int
show (const SlCliRun *run, gpointer data)
{
  SlCliNameOptions *o = data;
  g_autoptr(SlKernelSummary) s = sl_kernel_summary_compute (run->profile, run->common.filter,
                                                            o->style, o->top);

  if (run->common.json)
    sl_cli_print_json (sl_kernel_summary_to_json (s));
  else if (s->n_rows == 0)
    sl_cli_print_empty (run->common.filter, _("kernels"));
  else
    print_table (s, o->style);
  return SL_CLI_OK;
}

int
sl_cli_kernels (int argc, char **argv)
{
  return sl_cli_name_stats_run ("kernels", N_("GPU time per kernel name, largest first."), TRUE,
                                SL_PART_KERNELS, show, argc, argv);
}
