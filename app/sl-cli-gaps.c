/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-gaps.c: `sightline-cli gaps`: busy / idle time per device and the
 * longest idle gaps. */
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-table.h"

typedef struct {
  char   *min_gap_text;
  char   *top_text;
  gint64  min_gap;
  guint   top;
} Options;

static void
print_top_gaps (const SlGapsDevice *dev)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_(">Gap"), _(">Start (ns)"), _("Before"), _("After"),
                                              _("CPU during the gap"), NULL);

  for (guint i = 0; i < dev->n_top; i++)
    {
      const SlGap *gap = &dev->gaps[i];
      sl_cli_table_add (t, sl_format_duration_precise (gap->dur_ns), sl_format_count (gap->start_ns),
                        g_strdup (gap->before), g_strdup (gap->after),
                        sl_cli_cell_named_durations (gap->cpu, gap->n_cpu, sizeof *gap->cpu,
                                                     G_STRUCT_OFFSET (SlGapCpu, name),
                                                     G_STRUCT_OFFSET (SlGapCpu, overlap_ns), FALSE));
    }
  sl_cli_table_set_max (t, 2, 40);
  sl_cli_table_set_max (t, 3, 40);
  sl_cli_table_print (t, stdout);
}

static void
print_device (const SlGapsDevice *dev, gboolean first)
{
  g_autofree char *span = sl_format_duration_precise (dev->span_ns);
  g_autofree char *busy = sl_format_duration_precise (dev->busy_ns);
  g_autofree char *idle = sl_format_duration_precise (dev->idle_ns);

  printf (_("%sGPU %u: span %s, busy %s (%.1f%%), idle %s, %" G_GUINT64_FORMAT " gaps\n"),
          first ? "" : "\n", dev->device, span, busy, dev->utilization_pct, idle, dev->n_gaps);
  if (dev->n_top > 0)
    print_top_gaps (dev);
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(SlGaps) gaps = NULL;

  if (!sl_cli_parse_dur (run->command, "--min-gap", o->min_gap_text, &o->min_gap)
      || !sl_cli_parse_count (run->command, "--top", o->top_text, &o->top))
    return SL_CLI_USAGE;
  gaps = sl_gaps_compute (run->profile, run->common.filter, o->min_gap, o->top);
  if (run->common.json)
    sl_cli_print_json (sl_gaps_to_json (gaps));
  else if (gaps->n_devices == 0)
    sl_cli_print_empty (run->common.filter, _("GPU operations"));
  else
    for (guint d = 0; d < gaps->n_devices; d++)
      print_device (&gaps->devices[d], d == 0);
  return SL_CLI_OK;
}

int
sl_cli_gaps (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "gaps", .parameter = N_("PROFILE"),
    .summary = N_("GPU busy and idle time per device, and the longest idle gaps "
                  "with the kernels around them and the CUDA calls during them."),
    .show = show,
  };
  Options o = { .top = 10 };
  GOptionEntry entries[] = {
    { "min-gap", 0, 0, G_OPTION_ARG_STRING, &o.min_gap_text, N_("Ignore gaps shorter than D (default: any)"), "D" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &o.top_text, N_("Describe the K longest gaps (default 10)"), "K" },
    { NULL }
  };

  return sl_cli_run (&spec, entries, &o, argc, argv);
}
