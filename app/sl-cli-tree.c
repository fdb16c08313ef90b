/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-tree.c: `sightline-cli tree`: the NVTX hierarchy with kernels as leaves. */
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-tree-text.h"

typedef struct {
  char   *depth_text;
  char   *min_dur_text;
  guint   depth;
  gint64  min_dur;
  gboolean exact_names;
} Options;

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(SlTree) tree = NULL;

  if (!sl_cli_parse_count (run->command, "--depth", o->depth_text, &o->depth)
      || !sl_cli_parse_dur (run->command, "--min-dur", o->min_dur_text, &o->min_dur))
    return SL_CLI_USAGE;
  tree = sl_tree_compute_names (run->profile, run->common.filter, o->exact_names);
  if (run->common.json)
    {
      sl_cli_print_json (sl_tree_to_json (tree, o->depth, o->min_dur));
      return SL_CLI_OK;
    }
  if (sl_cli_tree_print_text (run->profile, tree, o->depth, o->min_dur) == 0)
    sl_cli_print_empty (run->common.filter, _("NVTX ranges or kernels"));
  return SL_CLI_OK;
}

int
sl_cli_tree (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "tree", .parameter = N_("PROFILE"),
    .summary = N_("The NVTX range hierarchy with the kernels each range launched "
                  "as leaves; ranges show CPU time and their GPU projection."),
    .show = show,
    .parts = SL_PARTS_GPU | SL_PART_API | SL_PART_NVTX,
  };
  Options o = { 0 };
  GOptionEntry entries[] = {
    { "depth", 0, 0, G_OPTION_ARG_STRING, &o.depth_text, N_("Show N levels (default: all)"), "N" },
    { "min-dur", 0, 0, G_OPTION_ARG_STRING, &o.min_dur_text, N_("Hide nodes shorter than D"), "D" },
    { "exact-names", 0, 0, G_OPTION_ARG_NONE, &o.exact_names,
      N_("Keep NVTX names apart that differ only by PyTorch's op_id, seq or sizes"), NULL },
    { NULL }
  };

  return sl_cli_run (&spec, entries, &o, argc, argv);
}
