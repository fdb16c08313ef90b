/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-compare.c: `sightline-cli compare A B [C ...]`: profiles side by side. */
#include <string.h>
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-table.h"

typedef struct {
  char         *threshold_text;
  char         *top_text;
  char         *names;
  char         *rules;
  char         *model;
  double        threshold;
  guint         top;
  SlNameStyle   style;
  SlCategories *categories;
} Options;

static gboolean
parse_threshold (const char *command, const char *text, double *out)
{
  g_autofree char *copy = NULL;
  char *end = NULL;
  double v;

  if (text == NULL)
    return TRUE;
  copy = g_strstrip (g_strdup (text));
  if (g_str_has_suffix (copy, "%"))
    copy[strlen (copy) - 1] = '\0';
  v = g_ascii_strtod (copy, &end);
  if (end == copy || *end != '\0' || !(v >= 0) || v > 1000)
    {
      sl_cli_error (command, _("--threshold expects a percentage such as 5 or 2.5%%, not “%s”"), text);
      return FALSE;
    }
  *out = v / 100.0;
  return TRUE;
}

static const SlCategories *
chosen_categories (gpointer data)
{
  return ((Options *) data)->categories;
}

static gboolean
check (const char *command, gpointer data)
{
  Options *o = data;

  return sl_cli_parse_names (command, o->names, &o->style)
         && parse_threshold (command, o->threshold_text, &o->threshold)
         && sl_cli_parse_count (command, "--top", o->top_text, &o->top)
         && sl_cli_parse_rules (command, o->rules, o->model, &o->categories);
}

/* One cell of the per-profile columns, right-aligned in 14 characters;
 * takes @text. */
static void
print_cell (char *text)
{
  g_autofree char *owned = text;

  /* printf pads bytes, not characters: widen by the extra bytes of "µ" or "–" */
  printf ("  %*s", 14 + (int) (strlen (owned) - g_utf8_strlen (owned, -1)), owned);
}

/* Time per category, total kernel time and median iteration, one column per profile. */
static void
print_categories (const SlCompare *cmp)
{
  printf ("%-16s", _("Category"));
  for (guint p = 0; p < cmp->n_profiles; p++)
    printf ("  %14c", 'A' + (int) MIN (p, 25));
  printf ("\n");
  for (guint c = 0; c < cmp->n_categories; c++)
    {
      printf ("%-16s", cmp->categories[c].name);
      for (guint p = 0; p < cmp->n_profiles; p++)
        print_cell (sl_format_duration_precise (cmp->categories[c].total_ns[p]));
      printf ("\n");
    }
  printf ("%-16s", _("total"));
  for (guint p = 0; p < cmp->n_profiles; p++)
    print_cell (sl_format_duration_precise (cmp->kernel_total_ns[p]));
  printf ("\n%-16s", _("iteration (med)"));
  for (guint p = 0; p < cmp->n_profiles; p++)
    print_cell (cmp->has_iterations[p] ? sl_format_duration_precise (cmp->iteration_median_ns[p])
                                       : g_strdup ("–"));
  printf ("\n\n");
}

static void
print_kernels (const SlCompare *cmp)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_(">First"), _(">Last"), _(">Delta"), _(">Ratio"),
                                              _("Status"), _("Name"), NULL);

  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      const SlCompareKernel *k = &cmp->kernels[i];
      sl_cli_table_add (t, sl_format_duration_precise (k->total_ns[0]),
                        sl_format_duration_precise (k->total_ns[cmp->n_profiles - 1]),
                        sl_format_duration_precise (k->delta_ns),
                        k->has_ratio ? g_strdup_printf ("%.2f×", k->ratio) : g_strdup ("–"),
                        g_strdup (sl_compare_status_name (k->status)), g_strdup (k->name));
    }
  sl_cli_table_set_max (t, 5, 100);
  sl_cli_table_print (t, stdout);
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(SlCompare) cmp = sl_compare_compute ((SlProfile *const *) run->profiles->pdata, run->profiles->len,
                                                 run->common.filter, o->categories, o->style,
                                                 o->threshold, o->top);

  if (run->common.json)
    {
      sl_cli_print_json (sl_compare_to_json (cmp));
      return SL_CLI_OK;
    }
  for (guint p = 0; p < cmp->n_profiles; p++)
    printf ("%c: %s\n", 'A' + (int) MIN (p, 25), cmp->paths[p]);
  printf ("\n");
  if (cmp->n_kernels == 0)
    sl_cli_print_empty (run->common.filter, _("kernels"));
  else
    {
      print_categories (cmp);
      print_kernels (cmp);
    }
  return SL_CLI_OK;
}

int
sl_cli_compare (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "compare", .parameter = N_("PROFILE PROFILE [PROFILE...]"),
    .summary = N_("Profiles side by side: time per category and per kernel name, "
                  "change against the first profile, median iteration time."),
    .many_profiles = TRUE,
    .wrong_args = N_("expected at least two profiles; usage: sightline-cli compare [OPTIONS] A B [C...]"),
    .check = check, .show = show, .categories = chosen_categories,
  };
  Options o = { .threshold = 0.05, .style = SL_NAMES_SHORT };
  GOptionEntry entries[] = {
    { "threshold", 0, 0, G_OPTION_ARG_STRING, &o.threshold_text,
      N_("Change counted as faster/slower, in percent (default 5)"), "PCT" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &o.top_text, N_("Only the K largest changes"), "K" },
    { "names", 0, 0, G_OPTION_ARG_STRING, &o.names, N_("Kernel names: short (default) or demangled"), "short|demangled" },
    { "rules", 0, 0, G_OPTION_ARG_FILENAME, &o.rules, N_("Category rules file (see categories --help)"), "FILE" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &o.model, N_("Model of a gputrc2graph rules file"), "NAME" },
    { NULL }
  };
  int status = sl_cli_run (&spec, entries, &o, argc, argv);

  g_clear_pointer (&o.categories, sl_categories_free);
  return status;
}
