/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-gaps.c: `sightline-cli gaps`: busy / idle time per device and the
 * longest idle gaps. */
#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-cli-cpu.h"
#include "sl-cli-run.h"
#include "sl-cli-table.h"

typedef struct {
  char   *min_gap_text;
  char   *top_text;
  gint64  min_gap;
  guint   top;
  gboolean count_copies;
  gboolean stacks;
} Options;

static void
print_top_gaps (const SlGapsDevice *dev)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_(">Gap"), _(">Start (ns)"), _(">Copies in it"), _("Before"),
                                              _("After"), _("CPU during the gap"), NULL);

  for (guint i = 0; i < dev->n_top; i++)
    {
      const SlGap *gap = &dev->gaps[i];
      sl_cli_table_add (t, sl_format_duration_precise (gap->dur_ns), sl_format_count (gap->start_ns),
                        sl_format_duration_precise (gap->copy_ns), g_strdup (gap->before), g_strdup (gap->after),
                        sl_cli_cell_named_durations (gap->cpu, gap->n_cpu, sizeof *gap->cpu,
                                                     G_STRUCT_OFFSET (SlGapCpu, name),
                                                     G_STRUCT_OFFSET (SlGapCpu, overlap_ns), FALSE));
    }
  sl_cli_table_set_max (t, 3, 40);
  sl_cli_table_set_max (t, 4, 40);
  sl_cli_table_print (t, stdout);
}

static void
print_device (const SlGapsDevice *dev, gboolean count_copies, gboolean first)
{
  g_autofree char *span = sl_format_duration_precise (dev->span_ns);
  g_autofree char *kernels = sl_format_duration_precise (dev->kernel_busy_ns);
  g_autofree char *copies = sl_format_duration_precise (dev->copy_busy_ns);
  g_autofree char *busy = sl_format_duration_precise (dev->busy_ns);
  g_autofree char *idle = sl_format_duration_precise (dev->idle_ns);

  /* the count in the plural its language needs ("1 gap", "2 gaps") */
  g_autofree char *gaps = count_copies
    ? g_strdup_printf (ngettext ("%" PRIu64 " gap", "%" PRIu64 " gaps", (gulong) dev->n_gaps), dev->n_gaps)
    : g_strdup_printf (ngettext ("%" PRIu64 " gap in kernel activity", "%" PRIu64 " gaps in kernel activity",
                                 (gulong) dev->n_gaps), dev->n_gaps);

  if (count_copies)
    printf (_("%sGPU %u: span %s, busy with any GPU work %s (%.1f%%), idle %s, %s\n"),
            first ? "" : "\n", dev->device, span, busy, dev->utilization_pct, idle, gaps);
  else
    printf (_("%sGPU %u: span %s, utilization %.1f%% (kernels %s), copies %s, any GPU work %s (%.1f%%), "
              "idle %s, %s\n"),
            first ? "" : "\n", dev->device, span, dev->utilization_pct, kernels, copies, busy,
            dev->any_busy_pct, idle, gaps);
  if (dev->n_top > 0)
    print_top_gaps (dev);
}

/* --stacks: the CPU side, read only then; a profile without samples is
 * told once, its gaps get empty stacks. */
static gboolean
load_stacks (const SlCliRun *run, SlCpuActivity **out)
{
  if ((*out = sl_cli_cpu_activity (run->command, run->profile)) == NULL)
    return FALSE;
  if ((*out)->n_samples == 0)
    {
      if (run->common.json)
        g_printerr ("%s\n", _("sightline-cli gaps: no CPU samples in this profile"));
      else
        printf ("%s\n\n", _("No CPU samples in this profile: no stacks to show."));
    }
  return TRUE;
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(SlGaps) gaps = NULL;
  g_autoptr(SlCpuActivity) cpu = NULL;

  if (!sl_cli_parse_dur (run->command, "--min-gap", o->min_gap_text, &o->min_gap)
      || !sl_cli_parse_count (run->command, "--top", o->top_text, &o->top))
    return SL_CLI_USAGE;
  if (o->stacks && !load_stacks (run, &cpu))
    return SL_CLI_INPUT;
  gaps = sl_gaps_compute_full (run->profile, run->common.filter, o->min_gap, o->top, o->count_copies);
  if (run->common.json)
    {
      JsonNode *node = sl_gaps_to_json (gaps);
      if (cpu != NULL)
        sl_cli_gap_stacks_json (cpu, run->profile, run->common.filter, gaps, node);
      sl_cli_print_json (node);
    }
  else if (gaps->n_devices == 0)
    sl_cli_print_empty (run->common.filter, _("GPU operations"));
  else
    for (guint d = 0; d < gaps->n_devices; d++)
      {
        print_device (&gaps->devices[d], gaps->count_copies, d == 0);
        if (cpu != NULL && cpu->n_samples > 0)
          sl_cli_gap_stacks_print (cpu, run->profile, run->common.filter, &gaps->devices[d]);
      }
  return SL_CLI_OK;
}

int
sl_cli_gaps (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "gaps", .parameter = N_("PROFILE"),
    .summary = N_("GPU utilization (time running kernels) and idle time per device, and the "
                  "longest gaps in kernel activity with the kernels around them, the copies "
                  "and the CUDA calls during them."),
    .show = show,
    .parts = SL_PARTS_GPU | SL_PART_API,
  };
  Options o = { .top = 10 };
  GOptionEntry entries[] = {
    { "min-gap", 0, 0, G_OPTION_ARG_STRING, &o.min_gap_text, N_("Ignore gaps shorter than D (default: any)"), "D" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &o.top_text, N_("Describe the K longest gaps (default 10)"), "K" },
    { "count-copies", 0, 0, G_OPTION_ARG_NONE, &o.count_copies,
      N_("Count memcpy and memset as busy too (any GPU work, as Nsight does)"), NULL },
    { "stacks", 0, 0, G_OPTION_ARG_NONE, &o.stacks,
      N_("Under each gap, the 5 CPU stacks sampled most often inside it, in the processes that own "
         "that GPU (all processes when unknown); with --json each gap gains \"samples\" and \"stacks\""), NULL },
    { NULL }
  };

  return sl_cli_run (&spec, entries, &o, argc, argv);
}
