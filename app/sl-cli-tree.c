/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-tree.c: `sightline-cli tree`: the NVTX hierarchy with kernels as leaves. */
#include <glib/gi18n.h>

#include "sl-cli-run.h"

typedef struct {
  char   *depth_text;
  char   *min_dur_text;
  guint   depth;
  gint64  min_dur;
  gboolean exact_names;
} Options;

/* One printed line; the label is indented and valid UTF-8 (the model's
 * names are). */
typedef struct {
  char  *label;
  guint  chars;            /* the label's length in characters */
  gint64 dur;
  char  *gpu;              /* GPU projection of a range, or NULL */
} Line;

static void
add_line (const SlTreeNode *node, const SlTreeNodeInfo *info, guint level, gpointer data)
{
  GArray *lines = data;
  int indent = (int) (level - 1) * 2;
  Line line;

  if (node->kind == SL_TREE_KERNEL)
    line.label = g_strdup_printf ("%*s%s  [GPU %u · stream %u]", indent, "", info->name, info->device, info->stream);
  else
    line.label = g_strdup_printf ("%*s%s", indent, "", info->name);
  line.chars = (guint) g_utf8_strlen (line.label, -1);
  line.dur = info->end_ns - info->start_ns;
  line.gpu = node->kind == SL_TREE_RANGE && info->has_gpu
             ? sl_format_duration_precise (info->gpu_end_ns - info->gpu_start_ns) : NULL;
  g_array_append_val (lines, line);
}

static void
clear_line (gpointer data)
{
  Line *line = data;

  g_free (line->label);
  g_free (line->gpu);
}

/* Labels padded to the widest (at most 110 characters), then the duration. */
static void
print_lines (GArray *lines)
{
  guint width = 0;

  for (guint i = 0; i < lines->len; i++)
    width = MAX (width, g_array_index (lines, Line, i).chars);
  width = MIN (width, 110);
  for (guint i = 0; i < lines->len; i++)
    {
      const Line *line = &g_array_index (lines, Line, i);
      g_autofree char *dur = sl_format_duration_precise (line->dur);
      int pad = line->chars < width ? (int) (width - line->chars) : 0;

      if (line->gpu != NULL)
        printf ("%s%*s  %12s  (GPU %s)\n", line->label, pad, "", dur, line->gpu);
      else
        printf ("%s%*s  %12s\n", line->label, pad, "", dur);
    }
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(SlTree) tree = NULL;
  g_autoptr(GArray) lines = NULL;

  if (!sl_cli_parse_count (run->command, "--depth", o->depth_text, &o->depth)
      || !sl_cli_parse_dur (run->command, "--min-dur", o->min_dur_text, &o->min_dur))
    return SL_CLI_USAGE;
  tree = sl_tree_compute_names (run->profile, run->common.filter, o->exact_names);
  if (run->common.json)
    {
      sl_cli_print_json (sl_tree_to_json (tree, o->depth, o->min_dur));
      return SL_CLI_OK;
    }
  lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_array_set_clear_func (lines, clear_line);
  sl_tree_walk (tree, o->depth, o->min_dur, add_line, NULL, lines);
  if (lines->len == 0)
    sl_cli_print_empty (run->common.filter, _("NVTX ranges or kernels"));
  print_lines (lines);
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
