/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-iterations.c: `sightline-cli iterations`: training / inference steps. */
#include <glib/gi18n.h>

#include "sl-cli-analysis.h"

static char *
fmt_opt_dur (gboolean has, gint64 ns)
{
  return has ? sl_cli_fmt_dur (ns) : g_strdup ("–");
}

int
sl_cli_iterations (int argc, char **argv)
{
  SlCliCommon common = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PROFILE"));
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlIterations) its = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL, *min_gap_text = NULL;
  gint64 min_gap = 0;
  int status;
  GOptionEntry entries[] = {
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, N_("NVTX ranges whose name matches REGEX are the iterations"), "REGEX" },
    { "min-gap", 0, 0, G_OPTION_ARG_STRING, &min_gap_text,
      N_("Without NVTX: split GPU activity at idle gaps of at least D (default: found from the gaps)"), "D" },
    { NULL }
  };

  g_option_context_set_summary (context, _("Training or inference steps, from repeated top-level NVTX "
                                           "ranges, or from large GPU idle gaps when there are none."));
  sl_cli_common_add (context, &common);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  status = sl_cli_prepare ("iterations", "PROFILE", context, &common, 0, &argc, &argv, &profile);
  if (status < 0 && !sl_cli_parse_dur ("iterations", "--min-gap", min_gap_text, &min_gap))
    status = SL_CLI_USAGE;
  if (status >= 0)
    {
      sl_cli_common_clear (&common);
      return status;
    }

  its = sl_iterations_compute (profile, common.filter, name, min_gap, &error);
  if (its == NULL)
    {
      sl_cli_error ("iterations", _("--name: %s"), error->message);
      sl_cli_common_clear (&common);
      return SL_CLI_USAGE;
    }
  if (common.json)
    {
      g_autoptr(JsonNode) node = sl_iterations_to_json (its);
      sl_cli_print_json (node);
    }
  else if (its->n_iterations == 0)
    sl_cli_print_empty (&common, name != NULL ? _("iterations (no NVTX range matches --name)") : _("iterations"));
  else
    {
      g_autoptr(SlCliTable) t = sl_cli_table_new (_(">PID"), _(">#"), _("Name"), _(">Duration"),
                                                  _(">CPU start (ns)"), _(">GPU span"), _(">GPU busy"),
                                                  _(">Kernels"), _(">NCCL"), NULL);
      const SlStats *s = &its->summary;
      g_autofree char *mean = sl_cli_fmt_dur (sl_round_ns (s->avg));
      g_autofree char *median = sl_cli_fmt_dur (sl_round_ns (s->median));
      g_autofree char *min = sl_cli_fmt_dur (s->min);
      g_autofree char *max = sl_cli_fmt_dur (s->max);
      g_autofree char *sd = sl_cli_fmt_dur (sl_round_ns (s->stddev));

      if (its->method == SL_ITERATIONS_NVTX)
        printf (_("Iterations from NVTX ranges “%s”\n\n"), its->name);
      else
        printf (_("No repeated top-level NVTX range: iterations are GPU activity split at idle gaps "
                  "(method gpu-gaps)\n\n"));
      for (guint i = 0; i < its->n_iterations; i++)
        {
          const SlIteration *it = &its->iterations[i];
          sl_cli_table_add (t, sl_cli_fmt_int (it->pid), sl_cli_fmt_int (it->index),
                            g_strdup (it->name != NULL ? it->name : "–"), sl_cli_fmt_dur (it->dur_ns),
                            it->has_cpu ? sl_cli_fmt_int (it->cpu_start_ns) : g_strdup ("–"),
                            fmt_opt_dur (it->has_gpu, it->gpu_end_ns - it->gpu_start_ns),
                            sl_cli_fmt_dur (it->gpu_busy_ns), sl_cli_fmt_int ((gint64) it->kernels),
                            sl_cli_fmt_dur (it->nccl_ns));
        }
      sl_cli_table_set_max (t, 2, 48);
      sl_cli_table_print (t, stdout);
      printf (_("\n%" G_GUINT64_FORMAT " iterations: mean %s, median %s, min %s, max %s, stddev %s; "
                "slowest: #%u of pid %u\n"), s->count, mean, median, min, max, sd,
              its->iterations[its->slowest].index, its->iterations[its->slowest].pid);
    }
  sl_cli_common_clear (&common);
  return SL_CLI_OK;
}
