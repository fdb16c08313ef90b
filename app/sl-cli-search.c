/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-search.c: `sightline-cli search PATTERN`: kernels and NVTX ranges by name. */
#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-table.h"

typedef struct {
  char  *limit_text;
  guint  limit;
} Options;

static void
add_row (SlCliTable *t, const SlSearchMatch *m)
{
  g_autofree char *path = g_strjoinv (" › ", m->path);
  char *where = m->kind == SL_SEARCH_KERNEL
                ? g_strdup_printf ("GPU %u · stream %u", m->device, m->stream)
                : g_strdup_printf ("pid %u · tid %u", m->pid, m->tid);

  sl_cli_table_add (t, sl_format_count (m->start_ns), sl_format_duration_precise (m->end_ns - m->start_ns),
                    g_strdup (m->kind == SL_SEARCH_KERNEL ? _("kernel") : _("range")), where,
                    g_strdup (m->name), g_strdup (path));
}

static void
print_table (const SlSearch *search)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_(">Start (ns)"), _(">Duration"), _("Kind"), _("Where"),
                                              _("Name"), _("NVTX path"), NULL);

  for (guint i = 0; i < search->n_matches; i++)
    add_row (t, &search->matches[i]);
  sl_cli_table_set_max (t, 4, 70);
  sl_cli_table_set_max (t, 5, 90);
  sl_cli_table_print (t, stdout);
  printf (_("\n%u of %" PRIu64 " matches\n"), search->n_matches, search->total);
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  const char *pattern = run->common.args[1];
  g_autoptr(GError) error = NULL;
  g_autoptr(SlSearch) search = NULL;

  if (!sl_cli_parse_count (run->command, "--limit", o->limit_text, &o->limit))
    return SL_CLI_USAGE;
  search = sl_search_compute (run->profile, run->common.filter, pattern, o->limit, &error);
  if (search == NULL)
    {
      sl_cli_error (run->command, _("invalid regular expression: %s"), error->message);
      return SL_CLI_USAGE;
    }
  if (run->common.json)
    sl_cli_print_json (sl_search_to_json (search));
  else if (search->n_matches == 0)
    {
      g_autofree char *what = g_strdup_printf (_("kernels or NVTX ranges named like “%s”"), pattern);
      sl_cli_print_empty (run->common.filter, what);
    }
  else
    print_table (search);
  return SL_CLI_OK;
}

int
sl_cli_search (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "search", .parameter = N_("PATTERN PROFILE"), .n_before = 1,
    .summary = N_("Kernels and NVTX ranges whose name contains PATTERN (any case), "
                  "or matches /REGEX/ (/REGEX/i for any case)."),
    .show = show,
    .parts = SL_PART_KERNELS | SL_PART_API | SL_PART_NVTX,
  };
  Options o = { .limit = 50 };
  GOptionEntry entries[] = {
    { "limit", 0, 0, G_OPTION_ARG_STRING, &o.limit_text, N_("Show the first N matches by time (default 50, 0 = all)"), "N" },
    { NULL }
  };

  return sl_cli_run (&spec, entries, &o, argc, argv);
}
