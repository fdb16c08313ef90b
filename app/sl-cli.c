/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli.c: sightline-cli entry point and subcommand table. */
#include <locale.h>
#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"

static const SlCliCommand commands[] = {
  { "info", sl_cli_info, N_("Summary of a profile: GPUs, processes, event counts") },
  /* Analysis commands (issue 3) go here. */
  { "kernels", sl_cli_kernels, N_("GPU time per kernel name") },
  { "api", sl_cli_api, N_("CPU time per CUDA API function") },
  { "nvtx", sl_cli_nvtx, N_("CPU time and GPU projection per NVTX range name") },
  { "memcpy", sl_cli_memcpy, N_("Memory copies and memsets per kind") },
  { "gaps", sl_cli_gaps, N_("GPU busy and idle time, longest idle gaps") },
  { "overlap", sl_cli_overlap, N_("NCCL / compute overlap per device") },
  { "nccl", sl_cli_nccl, N_("NCCL kernels by device, stream and collective") },
  { "iterations", sl_cli_iterations, N_("Training or inference steps") },
  { "launch", sl_cli_launch, N_("Kernel launch overhead per kernel name") },
  { "categories", sl_cli_categories, N_("GPU time per kernel category") },
  { "compare", sl_cli_compare, N_("Several profiles side by side") },
  { "tree", sl_cli_tree, N_("NVTX hierarchy with kernels as leaves") },
  { "search", sl_cli_search, N_("Find kernels and NVTX ranges by name") },
  { "cpu", sl_cli_cpu, N_("Top functions of the CPU samples (self and total)") },
  { "summarize", sl_cli_summarize, N_("A compact per-rank summary (JSON) for ranks") },
  { "ranks", sl_cli_ranks, N_("The ranks of one job: step times, stragglers, NCCL wait") },
  { "bookmarks", sl_cli_bookmarks, N_("List, add or remove a profile's bookmarks (named ranges)") },
  { "export", sl_cli_export, N_("HTML report, CSV tables or Perfetto trace to share") },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n\n%s\n", _("Usage: sightline-cli COMMAND [OPTIONS] PROFILE"), _("Commands:"));
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-12s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, "\n%s\n", _("Run 'sightline-cli COMMAND --help' for the options of a command."));
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  /* messages in the user's language, numbers always C: tables and --json
   * read the same under every locale, and scripts parse both */
  setlocale (LC_NUMERIC, "C");
  /* SIGHTLINE_LOCALEDIR: the build tree's catalogues (meson devenv, the GUI test),
     so translations can be seen without installing. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("SIGHTLINE_LOCALEDIR") ? g_getenv ("SIGHTLINE_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* stdout holds the answer (JSON for scripts): debug messages go to stderr. */
  g_log_writer_default_set_use_stderr (TRUE);

  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    {
      print_usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? SL_CLI_USAGE : SL_CLI_OK;
    }
  if (g_str_equal (argv[1], "--version"))
    {
      printf ("sightline-cli %s\n", SL_VERSION);
      return SL_CLI_OK;
    }

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      {
        int status = commands[i].run (argc - 1, argv + 1);
        /* Let the profile cache finish the entries this run wrote. */
        sl_profile_cache_flush ();
        return status;
      }

  sl_cli_error (NULL, _("unknown command '%s'; run 'sightline-cli --help' for the list"), argv[1]);
  return SL_CLI_USAGE;
}
