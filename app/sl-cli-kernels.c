/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-kernels.c: `sightline-cli kernels`, `api` and `nvtx`: statistics per name. */
#include <glib/gi18n.h>

#include "sl-cli-analysis.h"

static gboolean
parse_names (const char *command, const char *text, SlNameStyle *out)
{
  if (text == NULL || g_str_equal (text, "short"))
    *out = SL_NAMES_SHORT;
  else if (g_str_equal (text, "demangled"))
    *out = SL_NAMES_DEMANGLED;
  else
    {
      sl_cli_error (command, _("--names expects short or demangled, not “%s”"), text);
      return FALSE;
    }
  return TRUE;
}

/* Shared by the three commands: the row shapes are the same. */
static void
add_stats_row (SlCliTable *t, const char *name, const SlStats *s, double pct, gint64 extra, gboolean with_extra)
{
  if (with_extra)
    sl_cli_table_add (t, sl_cli_fmt_pct (pct), sl_cli_fmt_dur (s->total), sl_cli_fmt_int ((gint64) s->count),
                      sl_cli_fmt_dur (sl_round_ns (s->avg)), sl_cli_fmt_dur (sl_round_ns (s->median)),
                      sl_cli_fmt_dur (s->min), sl_cli_fmt_dur (s->max), sl_cli_fmt_dur (sl_round_ns (s->stddev)),
                      sl_cli_fmt_dur (extra), g_strdup (name));
  else
    sl_cli_table_add (t, sl_cli_fmt_pct (pct), sl_cli_fmt_dur (s->total), sl_cli_fmt_int ((gint64) s->count),
                      sl_cli_fmt_dur (sl_round_ns (s->avg)), sl_cli_fmt_dur (sl_round_ns (s->median)),
                      sl_cli_fmt_dur (s->min), sl_cli_fmt_dur (s->max), sl_cli_fmt_dur (sl_round_ns (s->stddev)),
                      g_strdup (name));
}

static SlCliTable *
stats_table (gboolean with_gpu)
{
  if (with_gpu)
    return sl_cli_table_new (_(">Time"), _(">Total"), _(">Count"), _(">Avg"), _(">Med"), _(">Min"),
                             _(">Max"), _(">StdDev"), _(">GPU proj."), _("Name"), NULL);
  return sl_cli_table_new (_(">Time"), _(">Total"), _(">Count"), _(">Avg"), _(">Med"), _(">Min"),
                           _(">Max"), _(">StdDev"), _("Name"), NULL);
}

typedef enum { WHAT_KERNELS, WHAT_API, WHAT_NVTX } What;

static int
run (What what, int argc, char **argv)
{
  static const char *const commands[] = { "kernels", "api", "nvtx" };
  const char *command = commands[what];
  SlCliCommon common = { 0 };
  g_autofree char *names = NULL;
  g_autofree char *top_text = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SlProfile) profile = NULL;
  SlNameStyle style = SL_NAMES_SHORT;
  guint top = 0;
  int status = SL_CLI_OK;
  GOptionEntry kernel_entries[] = {
    { "names", 0, 0, G_OPTION_ARG_STRING, &names, N_("Kernel names: short (default) or demangled"), "short|demangled" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &top_text, N_("Only the K largest"), "K" },
    { NULL }
  };
  GOptionEntry other_entries[] = {
    { "top", 0, 0, G_OPTION_ARG_STRING, &top_text, N_("Only the K largest"), "K" },
    { NULL }
  };

  context = g_option_context_new (_("PROFILE"));
  g_option_context_set_summary (context,
                                what == WHAT_KERNELS ? _("GPU time per kernel name, largest first.")
                                : what == WHAT_API ? _("CPU time per CUDA API function, largest first.")
                                : _("CPU time and GPU projection per NVTX range name, largest first."));
  sl_cli_common_add (context, &common);
  g_option_context_add_main_entries (context, what == WHAT_KERNELS ? kernel_entries : other_entries,
                                     GETTEXT_PACKAGE);
  if (!sl_cli_common_parse (command, context, &common, &argc, &argv)
      || !parse_names (command, names, &style)
      || !sl_cli_parse_count (command, "--top", top_text, &top))
    {
      sl_cli_common_clear (&common);
      return SL_CLI_USAGE;
    }
  if (argc != 2)
    {
      sl_cli_error (command, _("expected one PROFILE (see --help)"));
      sl_cli_common_clear (&common);
      return SL_CLI_USAGE;
    }
  profile = sl_cli_open_profile (argv[1]);
  if (profile == NULL)
    {
      sl_cli_common_clear (&common);
      return SL_CLI_INPUT;
    }

  if (what == WHAT_KERNELS)
    {
      g_autoptr(SlKernelSummary) s = sl_kernel_summary_compute (profile, common.filter, style, top);
      if (common.json)
        {
          g_autoptr(JsonNode) node = sl_kernel_summary_to_json (s);
          sl_cli_print_json (node);
        }
      else if (s->n_rows == 0)
        sl_cli_print_empty (&common, _("kernels"));
      else
        {
          g_autoptr(SlCliTable) t = stats_table (FALSE);
          g_autofree char *total = sl_cli_fmt_dur (s->total_ns);
          for (guint r = 0; r < s->n_rows; r++)
            add_stats_row (t, s->rows[r].name, &s->rows[r].stats, s->rows[r].time_pct, 0, FALSE);
          sl_cli_table_set_max (t, 8, style == SL_NAMES_DEMANGLED ? 160 : 100);
          sl_cli_table_print (t, stdout);
          printf (_("\n%" G_GUINT64_FORMAT " kernels, %u names, %s of GPU time\n"),
                  s->instances, s->n_names, total);
        }
    }
  else if (what == WHAT_API)
    {
      g_autoptr(SlApiSummary) s = sl_api_summary_compute (profile, common.filter, top);
      if (common.json)
        {
          g_autoptr(JsonNode) node = sl_api_summary_to_json (s);
          sl_cli_print_json (node);
        }
      else if (s->n_rows == 0)
        sl_cli_print_empty (&common, _("CUDA API calls"));
      else
        {
          g_autoptr(SlCliTable) t = stats_table (FALSE);
          g_autofree char *total = sl_cli_fmt_dur (s->total_ns);
          for (guint r = 0; r < s->n_rows; r++)
            add_stats_row (t, s->rows[r].name, &s->rows[r].stats, s->rows[r].time_pct, 0, FALSE);
          sl_cli_table_print (t, stdout);
          printf (_("\n%" G_GUINT64_FORMAT " calls, %u functions, %s of CPU time\n"),
                  s->calls, s->n_names, total);
        }
    }
  else
    {
      g_autoptr(SlNvtxSummary) s = sl_nvtx_summary_compute (profile, common.filter, top);
      if (common.json)
        {
          g_autoptr(JsonNode) node = sl_nvtx_summary_to_json (s);
          sl_cli_print_json (node);
        }
      else if (s->n_rows == 0)
        sl_cli_print_empty (&common, _("NVTX ranges"));
      else
        {
          g_autoptr(SlCliTable) t = stats_table (TRUE);
          for (guint r = 0; r < s->n_rows; r++)
            add_stats_row (t, s->rows[r].name, &s->rows[r].stats, s->rows[r].time_pct,
                           s->rows[r].gpu_total_ns, TRUE);
          sl_cli_table_set_max (t, 9, 100);
          sl_cli_table_print (t, stdout);
          printf (_("\n%" G_GUINT64_FORMAT " ranges, %u names (Time: share of all range time; "
                    "nested ranges count in each level)\n"), s->instances, s->n_names);
        }
    }

  sl_cli_common_clear (&common);
  return status;
}

int
sl_cli_kernels (int argc, char **argv)
{
  return run (WHAT_KERNELS, argc, argv);
}

int
sl_cli_api (int argc, char **argv)
{
  return run (WHAT_API, argc, argv);
}

int
sl_cli_nvtx (int argc, char **argv)
{
  return run (WHAT_NVTX, argc, argv);
}
