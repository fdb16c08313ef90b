/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-launch.c: `sightline-cli launch`: kernel launch overhead per name. */
#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-table.h"

typedef struct {
  char        *names;
  char        *top_text;
  SlNameStyle  style;
  guint        top;
} Options;

static void
add_row (SlCliTable *t, const SlLaunchRow *row)
{
  sl_cli_table_add (t, sl_format_count ((gint64) row->launches),
                    sl_format_duration_precise (sl_round_ns (row->api_mean_ns)),
                    sl_format_duration_precise (sl_round_ns (row->queue_mean_ns)),
                    sl_format_duration_precise (row->queue_p95_ns),
                    sl_format_duration_precise (sl_round_ns (row->kernel_mean_ns)),
                    g_strdup (row->launch_bound ? _("launch-bound") : ""),
                    g_strdup (row->name));
}

static void
print_totals (const SlLaunch *launch)
{
  const SlLaunchRow *tot = &launch->totals;
  g_autofree char *api = sl_format_duration_precise (sl_round_ns (tot->api_mean_ns));
  g_autofree char *queue = sl_format_duration_precise (sl_round_ns (tot->queue_mean_ns));
  g_autofree char *p95 = sl_format_duration_precise (tot->queue_p95_ns);
  g_autofree char *kernel = sl_format_duration_precise (sl_round_ns (tot->kernel_mean_ns));

  printf (_("\n%" PRIu64 " launches: launch call %s, queue %s (p95 %s), kernel %s on average; "
            "%u names launch-bound"), tot->launches, api, queue, p95, kernel, launch->n_launch_bound);
  if (launch->unlinked > 0)
    printf (_("; %" PRIu64 " kernels without a launching call"), launch->unlinked);
  if (launch->graph_launches > 0)
    printf (_("; %" PRIu64 " CUDA graph launches (%" PRIu64 " kernels in all)"),
            launch->graph_launches, launch->kernels);
  printf ("\n");
}

static void
print_table (const SlLaunch *launch)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_(">Launches"), _(">Launch call"), _(">Queue avg"),
                                              _(">Queue p95"), _(">Kernel avg"), _("Flag"), _("Name"), NULL);

  for (guint r = 0; r < launch->n_rows; r++)
    add_row (t, &launch->rows[r]);
  sl_cli_table_set_max (t, 6, 100);
  sl_cli_table_print (t, stdout);
  print_totals (launch);
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  /* both checked, so that both mistakes are reported at once */
  gboolean names_ok = sl_cli_parse_names (run->command, o->names, &o->style);
  gboolean top_ok = sl_cli_parse_count (run->command, "--top", o->top_text, &o->top);
  g_autoptr(SlLaunch) launch = NULL;

  if (!names_ok || !top_ok)
    return SL_CLI_USAGE;
  launch = sl_launch_compute (run->profile, run->common.filter, o->style, o->top);
  if (run->common.json)
    sl_cli_print_json (sl_launch_to_json (launch));
  else if (launch->n_rows > 0)
    print_table (launch);
  else if (launch->unlinked > 0)
    printf (_("None of the %" PRIu64 " kernels has a launching CUDA API call in the profile.\n"),
            launch->unlinked);
  else
    sl_cli_print_empty (run->common.filter, _("kernels"));
  return SL_CLI_OK;
}

int
sl_cli_launch (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "launch", .parameter = N_("PROFILE"),
    .summary = N_("Launch overhead per kernel name: launch call duration, queue "
                  "delay (kernel start - call start), kernel duration; names whose "
                  "kernels are shorter than their launch call are flagged."),
    .show = show,
    .parts = SL_PART_KERNELS | SL_PART_API,
  };
  Options o = { .style = SL_NAMES_SHORT };
  GOptionEntry entries[] = {
    { "names", 0, 0, G_OPTION_ARG_STRING, &o.names, N_("Kernel names: short (default) or demangled"), "short|demangled" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &o.top_text, N_("Only the K names with the most launch time"), "K" },
    { NULL }
  };

  return sl_cli_run (&spec, entries, &o, argc, argv);
}
