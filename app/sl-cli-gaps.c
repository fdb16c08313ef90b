/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-gaps.c: `sightline-cli gaps` (busy / idle per device and the longest
 * idle gaps) and `sightline-cli overlap` (NCCL / compute overlap). */
#include <glib/gi18n.h>

#include "sl-cli-analysis.h"

int
sl_cli_gaps (int argc, char **argv)
{
  SlCliCommon common = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PROFILE"));
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlGaps) gaps = NULL;
  g_autofree char *min_gap_text = NULL, *top_text = NULL;
  gint64 min_gap = 0;
  guint top = 10;
  int status;
  GOptionEntry entries[] = {
    { "min-gap", 0, 0, G_OPTION_ARG_STRING, &min_gap_text, N_("Ignore gaps shorter than D (default: any)"), "D" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &top_text, N_("Describe the K longest gaps (default 10)"), "K" },
    { NULL }
  };

  g_option_context_set_summary (context, _("GPU busy and idle time per device, and the longest idle gaps "
                                           "with the kernels around them and the CUDA calls during them."));
  sl_cli_common_add (context, &common);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  status = sl_cli_prepare ("gaps", "PROFILE", context, &common, 0, &argc, &argv, &profile);
  if (status < 0 && (!sl_cli_parse_dur ("gaps", "--min-gap", min_gap_text, &min_gap)
                     || !sl_cli_parse_count ("gaps", "--top", top_text, &top)))
    status = SL_CLI_USAGE;
  if (status >= 0)
    {
      sl_cli_common_clear (&common);
      return status;
    }

  gaps = sl_gaps_compute (profile, common.filter, min_gap, top);
  if (common.json)
    {
      g_autoptr(JsonNode) node = sl_gaps_to_json (gaps);
      sl_cli_print_json (node);
    }
  else if (gaps->n_devices == 0)
    sl_cli_print_empty (&common, _("GPU operations"));
  else
    for (guint d = 0; d < gaps->n_devices; d++)
      {
        const SlGapsDevice *dev = &gaps->devices[d];
        g_autofree char *span = sl_cli_fmt_dur (dev->span_ns);
        g_autofree char *busy = sl_cli_fmt_dur (dev->busy_ns);
        g_autofree char *idle = sl_cli_fmt_dur (dev->idle_ns);

        printf (_("%sGPU %u: span %s, busy %s (%.1f%%), idle %s, %" G_GUINT64_FORMAT " gaps\n"),
                d > 0 ? "\n" : "", dev->device, span, busy, dev->utilization_pct, idle, dev->n_gaps);
        if (dev->n_top > 0)
          {
            g_autoptr(SlCliTable) t = sl_cli_table_new (_(">Gap"), _(">Start (ns)"), _("Before"), _("After"),
                                                        _("CPU during the gap"), NULL);
            for (guint i = 0; i < dev->n_top; i++)
              {
                const SlGap *gap = &dev->gaps[i];
                GString *cpu = g_string_new (NULL);
                for (guint c = 0; c < gap->n_cpu; c++)
                  {
                    g_autofree char *o = sl_cli_fmt_dur (gap->cpu[c].overlap_ns);
                    g_string_append_printf (cpu, "%s%s %s", c ? ", " : "", gap->cpu[c].name, o);
                  }
                sl_cli_table_add (t, sl_cli_fmt_dur (gap->dur_ns), sl_cli_fmt_int (gap->start_ns),
                                  g_strdup (gap->before), g_strdup (gap->after),
                                  g_string_free (cpu, FALSE));
              }
            sl_cli_table_set_max (t, 2, 40);
            sl_cli_table_set_max (t, 3, 40);
            sl_cli_table_print (t, stdout);
          }
      }
  sl_cli_common_clear (&common);
  return SL_CLI_OK;
}

int
sl_cli_overlap (int argc, char **argv)
{
  SlCliCommon common = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PROFILE"));
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlOverlap) overlap = NULL;
  int status;

  g_option_context_set_summary (context, _("Per device: time in NCCL kernels, in other kernels, and how "
                                           "much of the NCCL time overlaps compute."));
  sl_cli_common_add (context, &common);
  status = sl_cli_prepare ("overlap", "PROFILE", context, &common, 0, &argc, &argv, &profile);
  if (status >= 0)
    {
      sl_cli_common_clear (&common);
      return status;
    }

  overlap = sl_overlap_compute (profile, common.filter);
  if (common.json)
    {
      g_autoptr(JsonNode) node = sl_overlap_to_json (overlap);
      sl_cli_print_json (node);
    }
  else if (overlap->n_devices == 0)
    sl_cli_print_empty (&common, _("kernels"));
  else
    {
      g_autoptr(SlCliTable) t = sl_cli_table_new (_(">GPU"), _(">Compute"), _(">NCCL"), _(">Overlap"),
                                                  _(">Compute only"), _(">NCCL only"), _(">Overlap %"), NULL);
      for (guint d = 0; d < overlap->n_devices; d++)
        {
          const SlOverlapDevice *dev = &overlap->devices[d];
          sl_cli_table_add (t, sl_cli_fmt_int (dev->device), sl_cli_fmt_dur (dev->compute_ns),
                            sl_cli_fmt_dur (dev->nccl_ns), sl_cli_fmt_dur (dev->overlap_ns),
                            sl_cli_fmt_dur (dev->compute_only_ns), sl_cli_fmt_dur (dev->nccl_only_ns),
                            dev->nccl_ns > 0 ? sl_cli_fmt_pct (dev->overlap_pct) : g_strdup ("–"));
        }
      sl_cli_table_print (t, stdout);
    }
  sl_cli_common_clear (&common);
  return SL_CLI_OK;
}
