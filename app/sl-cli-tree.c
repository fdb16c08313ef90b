/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-tree.c: `sightline-cli tree` (the NVTX hierarchy with kernels as
 * leaves) and `sightline-cli search PATTERN`. */
#include <string.h>
#include <glib/gi18n.h>

#include "sl-cli-analysis.h"

typedef struct {
  char  *label;
  gint64 dur;
  char  *gpu;              /* GPU projection of a range, or NULL */
} Line;

static void
collect (const SlTree *tree, const SlTreeNode *node, guint level, guint max_depth, gint64 min_dur,
         GArray *lines)
{
  SlTreeNodeInfo info;
  Line line;
  g_autofree char *indent = g_strnfill ((level - 1) * 2, ' ');

  sl_tree_get_info (tree, node, &info);
  if (node->kind == SL_TREE_KERNEL)
    line.label = g_strdup_printf ("%s%s  [GPU %u · stream %u]", indent, info.name, info.device, info.stream);
  else
    line.label = g_strdup_printf ("%s%s", indent, info.name);
  line.dur = info.end_ns - info.start_ns;
  line.gpu = node->kind == SL_TREE_RANGE && info.has_gpu
             ? sl_cli_fmt_dur (info.gpu_end_ns - info.gpu_start_ns) : NULL;
  g_array_append_val (lines, line);

  if (node->kind == SL_TREE_RANGE && (max_depth == 0 || level < max_depth))
    {
      g_autoptr(GArray) children = sl_tree_get_children (tree, node);
      for (guint i = 0; i < children->len; i++)
        {
          const SlTreeNode *child = &g_array_index (children, SlTreeNode, i);
          SlTreeNodeInfo ci;
          sl_tree_get_info (tree, child, &ci);
          if (ci.end_ns - ci.start_ns >= min_dur)
            collect (tree, child, level + 1, max_depth, min_dur, lines);
        }
    }
}

int
sl_cli_tree (int argc, char **argv)
{
  SlCliCommon common = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PROFILE"));
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlTree) tree = NULL;
  g_autofree char *depth_text = NULL, *min_dur_text = NULL;
  guint depth = 0;
  gint64 min_dur = 0;
  int status;
  GOptionEntry entries[] = {
    { "depth", 0, 0, G_OPTION_ARG_STRING, &depth_text, N_("Show N levels (default: all)"), "N" },
    { "min-dur", 0, 0, G_OPTION_ARG_STRING, &min_dur_text, N_("Hide nodes shorter than D"), "D" },
    { NULL }
  };

  g_option_context_set_summary (context, _("The NVTX range hierarchy with the kernels each range launched "
                                           "as leaves; ranges show CPU time and their GPU projection."));
  sl_cli_common_add (context, &common);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  status = sl_cli_prepare ("tree", "PROFILE", context, &common, 0, &argc, &argv, &profile);
  if (status < 0 && (!sl_cli_parse_count ("tree", "--depth", depth_text, &depth)
                     || !sl_cli_parse_dur ("tree", "--min-dur", min_dur_text, &min_dur)))
    status = SL_CLI_USAGE;
  if (status >= 0)
    {
      sl_cli_common_clear (&common);
      return status;
    }

  tree = sl_tree_compute (profile, common.filter);
  if (common.json)
    {
      g_autoptr(JsonNode) node = sl_tree_to_json (tree, depth, min_dur);
      sl_cli_print_json (node);
    }
  else
    {
      g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (Line));
      guint width = 0;

      for (guint i = 0; i < sl_tree_get_n_roots (tree); i++)
        {
          SlTreeNode root = sl_tree_get_root (tree, i);
          SlTreeNodeInfo info;
          sl_tree_get_info (tree, &root, &info);
          if (info.end_ns - info.start_ns >= min_dur)
            collect (tree, &root, 1, depth, min_dur, lines);
        }
      if (lines->len == 0)
        sl_cli_print_empty (&common, _("NVTX ranges or kernels"));
      for (guint i = 0; i < lines->len; i++)
        {
          Line *line = &g_array_index (lines, Line, i);
          g_autofree char *valid = g_utf8_make_valid (line->label, -1);
          g_free (line->label);
          line->label = g_steal_pointer (&valid);
          width = MAX (width, (guint) g_utf8_strlen (line->label, -1));
        }
      width = MIN (width, 110);
      for (guint i = 0; i < lines->len; i++)
        {
          Line *line = &g_array_index (lines, Line, i);
          g_autofree char *dur = sl_cli_fmt_dur (line->dur);
          guint len = g_utf8_strlen (line->label, -1);
          g_autofree char *pad = g_strnfill (len < width ? width - len : 0, ' ');

          if (line->gpu != NULL)
            printf ("%s%s  %12s  (GPU %s)\n", line->label, pad, dur, line->gpu);
          else
            printf ("%s%s  %12s\n", line->label, pad, dur);
          g_free (line->label);
          g_free (line->gpu);
        }
    }
  sl_cli_common_clear (&common);
  return SL_CLI_OK;
}

int
sl_cli_search (int argc, char **argv)
{
  SlCliCommon common = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PATTERN PROFILE"));
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlSearch) search = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *limit_text = NULL;
  guint limit = 50;
  int status;
  GOptionEntry entries[] = {
    { "limit", 0, 0, G_OPTION_ARG_STRING, &limit_text, N_("Show the first N matches by time (default 50, 0 = all)"), "N" },
    { NULL }
  };

  g_option_context_set_summary (context, _("Kernels and NVTX ranges whose name contains PATTERN (any case), "
                                           "or matches /REGEX/ (/REGEX/i for any case)."));
  sl_cli_common_add (context, &common);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  status = sl_cli_prepare ("search", "PATTERN PROFILE", context, &common, 1, &argc, &argv, &profile);
  if (status < 0 && !sl_cli_parse_count ("search", "--limit", limit_text, &limit))
    status = SL_CLI_USAGE;
  if (status >= 0)
    {
      sl_cli_common_clear (&common);
      return status;
    }

  search = sl_search_compute (profile, common.filter, argv[1], limit, &error);
  if (search == NULL)
    {
      sl_cli_error ("search", _("invalid regular expression: %s"), error->message);
      sl_cli_common_clear (&common);
      return SL_CLI_USAGE;
    }
  if (common.json)
    {
      g_autoptr(JsonNode) node = sl_search_to_json (search);
      sl_cli_print_json (node);
    }
  else if (search->n_matches == 0)
    {
      g_autofree char *what = g_strdup_printf (_("kernels or NVTX ranges named like “%s”"), argv[1]);
      sl_cli_print_empty (&common, what);
    }
  else
    {
      g_autoptr(SlCliTable) t = sl_cli_table_new (_(">Start (ns)"), _(">Duration"), _("Kind"), _("Where"),
                                                  _("Name"), _("NVTX path"), NULL);
      for (guint i = 0; i < search->n_matches; i++)
        {
          const SlSearchMatch *m = &search->matches[i];
          g_autofree char *path = g_strjoinv (" › ", m->path);
          char *where = m->kind == SL_SEARCH_KERNEL
                        ? g_strdup_printf ("GPU %u · stream %u", m->device, m->stream)
                        : g_strdup_printf ("pid %u · tid %u", m->pid, m->tid);
          sl_cli_table_add (t, sl_cli_fmt_int (m->start_ns), sl_cli_fmt_dur (m->end_ns - m->start_ns),
                            g_strdup (m->kind == SL_SEARCH_KERNEL ? _("kernel") : _("range")), where,
                            g_strdup (m->name), g_strdup (path));
        }
      sl_cli_table_set_max (t, 4, 70);
      sl_cli_table_set_max (t, 5, 90);
      sl_cli_table_print (t, stdout);
      printf (_("\n%u of %" G_GUINT64_FORMAT " matches\n"), search->n_matches, search->total);
    }
  sl_cli_common_clear (&common);
  return SL_CLI_OK;
}
