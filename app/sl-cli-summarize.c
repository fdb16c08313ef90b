/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-summarize.c: `sightline-cli summarize PROFILE -o SUMMARY.json`: a
 * compact per-rank summary, written where the profile is (one job per rank
 * on a cluster), for `ranks` to merge without loading the profiles. */
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "sl-cli.h"
#include "sl-cli-rank-input.h"

#define DEFAULT_TOP 20

/* Writes @node (transfer full) to @path, or stdout for NULL or "-";
 * beside the target then renamed, so a half-written summary never has
 * the name `ranks` will read. */
static gboolean
write_json (JsonNode *node, const char *path, GError **error)
{
  g_autoptr(JsonNode) root = node;
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  if (path == NULL || g_str_equal (path, "-"))
    {
      sl_cli_print_json (g_steal_pointer (&root));
      return TRUE;
    }
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  return g_file_set_contents (path, text, -1, error);
}

int
sl_cli_summarize (int argc, char **argv)
{
  g_autofree char *out = NULL;
  int top = DEFAULT_TOP;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, N_("Write the summary to FILE (default: stdout)"), "FILE" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, N_("Kernel names kept (default 20)"), "K" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (_("PROFILE"));
  g_autoptr(GError) error = NULL;
  g_autoptr(SlRankSummary) sum = NULL;

  g_option_context_set_summary (ctx, _("A compact summary of one rank's profile (JSON, versioned): its steps "
                                       "(start, end, kernel, NCCL and idle time), top kernels, categories, "
                                       "session start, rank and GPUs, for `sightline-cli ranks`."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      sl_cli_error ("summarize", "%s", error->message);
      return SL_CLI_USAGE;
    }
  if (argc != 2 || top < 0)
    {
      sl_cli_error ("summarize", "%s", _("usage: sightline-cli summarize PROFILE [-o SUMMARY.json] [--top K]"));
      return SL_CLI_USAGE;
    }
  sum = sl_cli_rank_input_load (argv[1], (guint) top, 0, &error);
  if (sum == NULL || !write_json (sl_rank_summary_to_json (sum), out, &error))
    {
      sl_cli_error (NULL, "%s", error->message);
      return SL_CLI_INPUT;
    }
  return SL_CLI_OK;
}
