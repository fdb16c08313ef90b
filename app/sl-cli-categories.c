/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-categories.c: `sightline-cli categories`: GPU time per kernel category. */
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-table.h"

typedef struct {
  char         *rules;
  char         *model;
  char         *names;
  char         *top_text;
  SlNameStyle   style;
  guint         top;
  SlCategories *categories;
} Options;

static const SlCategories *
chosen_categories (gpointer data)
{
  return ((Options *) data)->categories;
}

static gboolean
check (const char *command, gpointer data)
{
  Options *o = data;

  /* Rules too: a bad rules file is a usage error even before the profile loads. */
  return sl_cli_parse_names (command, o->names, &o->style)
         && sl_cli_parse_count (command, "--top", o->top_text, &o->top)
         && sl_cli_parse_rules (command, o->rules, o->model, &o->categories);
}

static void
print_table (const SlCategorySummary *summary)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_("Category"), _(">Time"), _(">Total"), _(">Kernels"),
                                              _("Largest kernels"), NULL);
  g_autofree char *total = sl_format_duration_precise (summary->total_ns);

  for (guint r = 0; r < summary->n_rows; r++)
    {
      const SlCategoryRow *row = &summary->rows[r];
      sl_cli_table_add (t, g_strdup (row->name), sl_format_percent (row->pct),
                        sl_format_duration_precise (row->total_ns),
                        sl_format_count ((gint64) row->instances),
                        sl_cli_cell_named_durations (row->top, row->n_top, sizeof *row->top,
                                                     G_STRUCT_OFFSET (SlCategoryKernel, name),
                                                     G_STRUCT_OFFSET (SlCategoryKernel, total_ns), TRUE));
    }
  sl_cli_table_set_max (t, 4, 120);
  sl_cli_table_print (t, stdout);
  printf (_("\n%" G_GUINT64_FORMAT " kernels, %s of GPU time\n"), summary->instances, total);
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(SlCategorySummary) summary = sl_category_summary_compute (run->profile, run->common.filter,
                                                                      o->categories, o->style, o->top);

  if (run->common.json)
    sl_cli_print_json (sl_category_summary_to_json (summary));
  else if (summary->n_rows == 0)
    sl_cli_print_empty (run->common.filter, _("kernels"));
  else
    print_table (summary);
  return SL_CLI_OK;
}

int
sl_cli_categories (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "categories", .parameter = N_("PROFILE"),
    .summary = N_("GPU time per kernel category (first matching rule wins; "
                  "unmatched kernels are “other”)."),
    .check = check, .show = show, .categories = chosen_categories,
  };
  Options o = { .style = SL_NAMES_SHORT, .top = 5 };
  GOptionEntry entries[] = {
    { "rules", 0, 0, G_OPTION_ARG_FILENAME, &o.rules,
      N_("Category rules: {\"rules\": [{\"pattern\", \"category\"}]} or a gputrc2graph engine/model JSON"), "FILE" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &o.model, N_("Model of a gputrc2graph file (MODEL or ENGINE/MODEL)"), "NAME" },
    { "names", 0, 0, G_OPTION_ARG_STRING, &o.names, N_("Kernel names listed: short (default) or demangled"), "short|demangled" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &o.top_text, N_("Kernel names listed per category (default 5)"), "K" },
    { NULL }
  };
  int status = sl_cli_run (&spec, entries, &o, argc, argv);

  g_clear_pointer (&o.categories, sl_categories_free);
  return status;
}
