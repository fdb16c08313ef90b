/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-categories.c: `sightline-cli categories`: GPU time per kernel category. */
#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-table.h"

typedef struct {
  char            **rules;
  char             *model;
  char             *names;
  char             *top_text;
  char             *time_text;
  char             *wall_text;
  char             *mapping_csv;
  SlCategoryOptions options;
  SlCategories     *categories;
} Options;

static const SlCategories *
chosen_categories (gpointer data)
{
  return ((Options *) data)->categories;
}

static gboolean
parse_time (const char *command, const char *text, SlCategoryTime *out)
{
  if (text == NULL)
    return TRUE;
  if (g_str_equal (text, "elapsed"))
    *out = SL_CATEGORY_TIME_ELAPSED;
  else if (g_str_equal (text, "sum"))
    *out = SL_CATEGORY_TIME_SUM;
  else
    {
      sl_cli_error (command, _("--time expects elapsed or sum, not “%s”"), text);
      return FALSE;
    }
  return TRUE;
}

/* --wall-time S: seconds, as gputrc2graph's elapsed_nonprofiled_sec. */
static gboolean
parse_wall_time (const char *command, const char *text, gint64 *out)
{
  char *end = NULL;
  double seconds;

  if (text == NULL)
    return TRUE;
  seconds = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !(seconds >= 0) || seconds > 1e9)
    {
      sl_cli_error (command, _("--wall-time expects seconds (a number >= 0, such as 12.5), not “%s”"), text);
      return FALSE;
    }
  *out = (gint64) (seconds * 1e9 + 0.5);
  return TRUE;
}

static gboolean
check (const char *command, gpointer data)
{
  Options *o = data;

  /* Rules too: a bad rules file is a usage error even before the profile loads. */
  return sl_cli_parse_names (command, o->names, &o->options.names)
         && sl_cli_parse_count (command, "--top", o->top_text, &o->options.top_names)
         && parse_time (command, o->time_text, &o->options.time)
         && parse_wall_time (command, o->wall_text, &o->options.wall_time_ns)
         && sl_cli_parse_rule_files (command, o->rules, o->model, &o->categories);
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
  if (summary->gputrc2graph)
    printf (_("\n%" PRIu64 " kernels and copies, %s of GPU time (%s)\n"), summary->instances, total,
            summary->time == SL_CATEGORY_TIME_ELAPSED ? _("non-overlapped elapsed time") : _("sum of durations"));
  else if (summary->time == SL_CATEGORY_TIME_ELAPSED)
    printf (_("\n%" PRIu64 " kernels, %s of GPU time (%s)\n"), summary->instances, total,
            _("non-overlapped elapsed time"));
  else
    printf (_("\n%" PRIu64 " kernels, %s of GPU time\n"), summary->instances, total);
  if (summary->cpu_non_gpu_ns >= 0)
    {
      g_autofree char *cpu = sl_format_duration_precise (summary->cpu_non_gpu_ns);
      printf (_("CPU(non-GPU): %s (wall time minus GPU time)\n"), cpu);
    }
}

/* gputrc2graph's Model_Engine column: MODEL_ENGINE_FILE_0. */
static char *
model_engine (const SlCliRun *run, const Options *o)
{
  g_autofree char *base = g_path_get_basename (run->common.args[1]);
  const char *model = o->categories != NULL ? sl_categories_get_model (o->categories) : NULL;
  const char *engine = o->categories != NULL ? sl_categories_get_engine (o->categories) : NULL;

  if (g_str_has_suffix (base, ".nsys-rep") || g_str_has_suffix (base, ".sqlite"))
    *strrchr (base, '.') = '\0';
  return g_strdup_printf ("%s_%s_%s_0", model != NULL ? model : "default",
                          engine != NULL ? engine : "sightline", base);
}

static int
write_mapping (const SlCliRun *run, const Options *o, const SlCategorySummary *summary)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *label = model_engine (run, o);
  g_autofree char *csv = sl_category_mapping_csv (summary, label);

  if (!g_file_set_contents (o->mapping_csv, csv, -1, &error))
    {
      sl_cli_error (run->command, _("cannot write the mapping CSV: %s"), error->message);
      return SL_CLI_INPUT;
    }
  return SL_CLI_OK;
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(SlCategorySummary) summary = sl_category_summary_compute_full (run->profile, run->common.filter,
                                                                           o->categories, &o->options);

  if (run->common.json)
    sl_cli_print_json (sl_category_summary_to_json (summary));
  else if (summary->n_rows == 0)
    sl_cli_print_empty (run->common.filter, _("kernels"));
  else
    print_table (summary);
  return o->mapping_csv != NULL ? write_mapping (run, o, summary) : SL_CLI_OK;
}

int
sl_cli_categories (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "categories", .parameter = N_("PROFILE"),
    .summary = N_("GPU time per kernel category (first matching rule wins; "
                  "unmatched kernels are “other”)."),
    .check = check, .show = show, .categories = chosen_categories,
    .parts = SL_PARTS_GPU,
  };
  Options o = { .options = { .names = SL_NAMES_SHORT, .top_names = 5, .wall_time_ns = -1 } };
  GOptionEntry entries[] = {
    { "rules", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.rules,
      N_("Category rules: {\"rules\": [{\"pattern\", \"category\"}]} or a gputrc2graph engine/model JSON "
         "(repeat to merge gputrc2graph files)"), "FILE" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &o.model, N_("Model of a gputrc2graph file (MODEL or ENGINE/MODEL)"), "NAME" },
    { "names", 0, 0, G_OPTION_ARG_STRING, &o.names, N_("Kernel names listed: short (default) or demangled"), "short|demangled" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &o.top_text, N_("Kernel names listed per category (default 5)"), "K" },
    { "time", 0, 0, G_OPTION_ARG_STRING, &o.time_text,
      N_("Time per category: elapsed (non-overlapped, the default with gputrc2graph rules) or sum"), "elapsed|sum" },
    { "wall-time", 0, 0, G_OPTION_ARG_STRING, &o.wall_text,
      N_("Wall time of the run in seconds: reports CPU(non-GPU) = wall time minus GPU time"), "S" },
    { "mapping-csv", 0, 0, G_OPTION_ARG_FILENAME, &o.mapping_csv,
      N_("Write gputrc2graph's kernel-to-category mapping CSV to FILE"), "FILE" },
    { NULL }
  };
  int status = sl_cli_run (&spec, entries, &o, argc, argv);

  g_clear_pointer (&o.categories, sl_categories_free);
  return status;
}
