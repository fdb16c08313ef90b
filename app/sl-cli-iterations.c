/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-iterations.c: `sightline-cli iterations`: training / inference steps. */
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-table.h"

typedef struct {
  char   *name;
  char   *min_gap_text;
  gint64  min_gap;
} Options;

static void
add_row (SlCliTable *t, const SlIteration *it)
{
  sl_cli_table_add (t, sl_format_count (it->pid), sl_format_count (it->index),
                    g_strdup (it->name != NULL ? it->name : "–"), sl_format_duration_precise (it->dur_ns),
                    it->has_cpu ? sl_format_count (it->cpu_start_ns) : g_strdup ("–"),
                    it->has_gpu ? sl_format_duration_precise (it->gpu_end_ns - it->gpu_start_ns) : g_strdup ("–"),
                    sl_format_duration_precise (it->gpu_busy_ns), sl_format_count ((gint64) it->kernels),
                    sl_format_duration_precise (it->nccl_ns));
}

static void
print_summary (const SlIterations *its)
{
  const SlStats *s = &its->summary;
  g_autofree char *mean = sl_format_duration_precise (sl_round_ns (s->avg));
  g_autofree char *median = sl_format_duration_precise (sl_round_ns (s->median));
  g_autofree char *min = sl_format_duration_precise (s->min);
  g_autofree char *max = sl_format_duration_precise (s->max);
  g_autofree char *sd = sl_format_duration_precise (sl_round_ns (s->stddev));

  printf (_("\n%" G_GUINT64_FORMAT " iterations: mean %s, median %s, min %s, max %s, stddev %s; "
            "slowest: #%u of pid %u\n"), s->count, mean, median, min, max, sd,
          its->iterations[its->slowest].index, its->iterations[its->slowest].pid);
}

static void
print_table (const SlIterations *its)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_(">PID"), _(">#"), _("Name"), _(">Duration"),
                                              _(">CPU start (ns)"), _(">GPU span"), _(">GPU busy"),
                                              _(">Kernels"), _(">NCCL"), NULL);

  if (its->method == SL_ITERATIONS_NVTX)
    printf (_("Iterations from NVTX ranges “%s”\n\n"), its->name);
  else
    printf (_("No repeated top-level NVTX range: iterations are GPU activity split at idle gaps "
              "(method gpu-gaps)\n\n"));
  for (guint i = 0; i < its->n_iterations; i++)
    add_row (t, &its->iterations[i]);
  sl_cli_table_set_max (t, 2, 48);
  sl_cli_table_print (t, stdout);
  print_summary (its);
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlIterations) its = NULL;

  if (!sl_cli_parse_dur (run->command, "--min-gap", o->min_gap_text, &o->min_gap))
    return SL_CLI_USAGE;
  its = sl_iterations_compute (run->profile, run->common.filter, o->name, o->min_gap, &error);
  if (its == NULL)
    {
      sl_cli_error (run->command, _("--name: %s"), error->message);
      return SL_CLI_USAGE;
    }
  if (run->common.json)
    sl_cli_print_json (sl_iterations_to_json (its));
  else if (its->n_iterations == 0)
    sl_cli_print_empty (run->common.filter, o->name != NULL ? _("iterations (no NVTX range matches --name)")
                                                           : _("iterations"));
  else
    print_table (its);
  return SL_CLI_OK;
}

int
sl_cli_iterations (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "iterations", .parameter = N_("PROFILE"),
    .summary = N_("Training or inference steps, from repeated top-level NVTX "
                  "ranges, or from large GPU idle gaps when there are none."),
    .show = show,
  };
  Options o = { 0 };
  GOptionEntry entries[] = {
    { "name", 0, 0, G_OPTION_ARG_STRING, &o.name, N_("NVTX ranges whose name matches REGEX are the iterations"), "REGEX" },
    { "min-gap", 0, 0, G_OPTION_ARG_STRING, &o.min_gap_text,
      N_("Without NVTX: split GPU activity at idle gaps of at least D (default: found from the gaps)"), "D" },
    { NULL }
  };

  return sl_cli_run (&spec, entries, &o, argc, argv);
}
