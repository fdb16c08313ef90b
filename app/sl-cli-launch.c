/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-launch.c: `sightline-cli launch`: kernel launch overhead per name. */
#include <glib/gi18n.h>

#include "sl-cli-analysis.h"

int
sl_cli_launch (int argc, char **argv)
{
  SlCliCommon common = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PROFILE"));
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlLaunch) launch = NULL;
  g_autofree char *names = NULL, *top_text = NULL;
  SlNameStyle style = SL_NAMES_SHORT;
  guint top = 0;
  int status;
  GOptionEntry entries[] = {
    { "names", 0, 0, G_OPTION_ARG_STRING, &names, N_("Kernel names: short (default) or demangled"), "short|demangled" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &top_text, N_("Only the K names with the most launch time"), "K" },
    { NULL }
  };

  g_option_context_set_summary (context, _("Launch overhead per kernel name: launch call duration, queue "
                                           "delay (kernel start - call start), kernel duration; names whose "
                                           "kernels are shorter than their launch call are flagged."));
  sl_cli_common_add (context, &common);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  status = sl_cli_prepare ("launch", "PROFILE", context, &common, 0, &argc, &argv, &profile);
  if (status < 0)
    {
      if (names != NULL && g_str_equal (names, "demangled"))
        style = SL_NAMES_DEMANGLED;
      else if (names != NULL && !g_str_equal (names, "short"))
        {
          sl_cli_error ("launch", _("--names expects short or demangled, not “%s”"), names);
          status = SL_CLI_USAGE;
        }
      if (!sl_cli_parse_count ("launch", "--top", top_text, &top))
        status = SL_CLI_USAGE;
    }
  if (status >= 0)
    {
      sl_cli_common_clear (&common);
      return status;
    }

  launch = sl_launch_compute (profile, common.filter, style, top);
  if (common.json)
    {
      g_autoptr(JsonNode) node = sl_launch_to_json (launch);
      sl_cli_print_json (node);
    }
  else if (launch->n_rows == 0)
    {
      if (launch->unlinked > 0)
        printf (_("None of the %" G_GUINT64_FORMAT " kernels has a launching CUDA API call in the profile.\n"),
                launch->unlinked);
      else
        sl_cli_print_empty (&common, _("kernels"));
    }
  else
    {
      g_autoptr(SlCliTable) t = sl_cli_table_new (_(">Launches"), _(">Launch call"), _(">Queue avg"),
                                                  _(">Queue p95"), _(">Kernel avg"), _("Flag"), _("Name"), NULL);
      const SlLaunchRow *tot = &launch->totals;
      g_autofree char *api = sl_cli_fmt_dur (sl_round_ns (tot->api_mean_ns));
      g_autofree char *queue = sl_cli_fmt_dur (sl_round_ns (tot->queue_mean_ns));
      g_autofree char *p95 = sl_cli_fmt_dur (tot->queue_p95_ns);
      g_autofree char *kernel = sl_cli_fmt_dur (sl_round_ns (tot->kernel_mean_ns));

      for (guint r = 0; r < launch->n_rows; r++)
        {
          const SlLaunchRow *row = &launch->rows[r];
          sl_cli_table_add (t, sl_cli_fmt_int ((gint64) row->launches),
                            sl_cli_fmt_dur (sl_round_ns (row->api_mean_ns)),
                            sl_cli_fmt_dur (sl_round_ns (row->queue_mean_ns)),
                            sl_cli_fmt_dur (row->queue_p95_ns),
                            sl_cli_fmt_dur (sl_round_ns (row->kernel_mean_ns)),
                            g_strdup (row->launch_bound ? _("launch-bound") : ""),
                            g_strdup (row->name));
        }
      sl_cli_table_set_max (t, 6, 100);
      sl_cli_table_print (t, stdout);
      printf (_("\n%" G_GUINT64_FORMAT " launches: launch call %s, queue %s (p95 %s), kernel %s on average; "
                "%u names launch-bound"), tot->launches, api, queue, p95, kernel, launch->n_launch_bound);
      if (launch->unlinked > 0)
        printf (_("; %" G_GUINT64_FORMAT " kernels without a launching call"), launch->unlinked);
      printf ("\n");
    }
  sl_cli_common_clear (&common);
  return SL_CLI_OK;
}
