/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-categories.c: `sightline-cli categories`: GPU time per kernel category,
 * and `sightline-cli compare A B [C ...]`. */
#include <string.h>
#include <glib/gi18n.h>

#include "sl-cli-analysis.h"

static SlCategories *
load_rules (const char *command, const char *rules, const char *model)
{
  g_autoptr(GError) error = NULL;
  SlCategories *categories;

  if (rules == NULL)
    {
      if (model != NULL)
        sl_cli_error (command, _("--model needs --rules FILE (a gputrc2graph engine/model file)"));
      return NULL;
    }
  categories = sl_categories_new_from_file (rules, model, &error);
  if (categories == NULL)
    sl_cli_error (command, "%s", error->message);
  return categories;
}

static gboolean
parse_style (const char *command, const char *names, SlNameStyle *style)
{
  *style = SL_NAMES_SHORT;
  if (names == NULL || g_str_equal (names, "short"))
    return TRUE;
  if (g_str_equal (names, "demangled"))
    {
      *style = SL_NAMES_DEMANGLED;
      return TRUE;
    }
  sl_cli_error (command, _("--names expects short or demangled, not “%s”"), names);
  return FALSE;
}

int
sl_cli_categories (int argc, char **argv)
{
  SlCliCommon common = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PROFILE"));
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlCategories) categories = NULL;
  g_autoptr(SlCategorySummary) summary = NULL;
  g_autofree char *rules = NULL, *model = NULL, *names = NULL, *top_text = NULL;
  SlNameStyle style = SL_NAMES_SHORT;
  guint top = 5;
  int status;
  GOptionEntry entries[] = {
    { "rules", 0, 0, G_OPTION_ARG_FILENAME, &rules,
      N_("Category rules: {\"rules\": [{\"pattern\", \"category\"}]} or a gputrc2graph engine/model JSON"), "FILE" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, N_("Model of a gputrc2graph file (MODEL or ENGINE/MODEL)"), "NAME" },
    { "names", 0, 0, G_OPTION_ARG_STRING, &names, N_("Kernel names listed: short (default) or demangled"), "short|demangled" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &top_text, N_("Kernel names listed per category (default 5)"), "K" },
    { NULL }
  };

  g_option_context_set_summary (context, _("GPU time per kernel category (first matching rule wins; "
                                           "unmatched kernels are “other”)."));
  sl_cli_common_add (context, &common);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  /* Rules first: a bad rules file is a usage error even before the profile loads. */
  if (!sl_cli_common_parse ("categories", context, &common, &argc, &argv)
      || !parse_style ("categories", names, &style)
      || !sl_cli_parse_count ("categories", "--top", top_text, &top))
    status = SL_CLI_USAGE;
  else if ((rules != NULL || model != NULL)
           && (categories = load_rules ("categories", rules, model)) == NULL)
    status = SL_CLI_USAGE;
  else if (argc != 2)
    {
      sl_cli_error ("categories", _("wrong number of arguments; usage: sightline-cli categories [OPTIONS] PROFILE"));
      status = SL_CLI_USAGE;
    }
  else if ((profile = sl_cli_open_profile (argv[1])) == NULL)
    status = SL_CLI_INPUT;
  else
    status = -1;
  if (status >= 0)
    {
      sl_cli_common_clear (&common);
      return status;
    }

  summary = sl_category_summary_compute (profile, common.filter, categories, style, top);
  if (common.json)
    {
      g_autoptr(JsonNode) node = sl_category_summary_to_json (summary);
      sl_cli_print_json (node);
    }
  else if (summary->n_rows == 0)
    sl_cli_print_empty (&common, _("kernels"));
  else
    {
      g_autoptr(SlCliTable) t = sl_cli_table_new (_("Category"), _(">Time"), _(">Total"), _(">Kernels"),
                                                  _("Largest kernels"), NULL);
      g_autofree char *total = sl_cli_fmt_dur (summary->total_ns);
      for (guint r = 0; r < summary->n_rows; r++)
        {
          const SlCategoryRow *row = &summary->rows[r];
          GString *largest = g_string_new (NULL);
          for (guint k = 0; k < row->n_top; k++)
            {
              g_autofree char *d = sl_cli_fmt_dur (row->top[k].total_ns);
              g_string_append_printf (largest, "%s%s (%s)", k ? ", " : "", row->top[k].name, d);
            }
          sl_cli_table_add (t, g_strdup (row->name), sl_cli_fmt_pct (row->pct), sl_cli_fmt_dur (row->total_ns),
                            sl_cli_fmt_int ((gint64) row->instances), g_string_free (largest, FALSE));
        }
      sl_cli_table_set_max (t, 4, 120);
      sl_cli_table_print (t, stdout);
      printf (_("\n%" G_GUINT64_FORMAT " kernels, %s of GPU time\n"), summary->instances, total);
    }
  sl_cli_common_clear (&common);
  return SL_CLI_OK;
}

static gboolean
parse_threshold (const char *text, double *out)
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
      sl_cli_error ("compare", _("--threshold expects a percentage such as 5 or 2.5%%, not “%s”"), text);
      return FALSE;
    }
  *out = v / 100.0;
  return TRUE;
}

static char *
fmt_ratio (const SlCompareKernel *k)
{
  return k->has_ratio ? g_strdup_printf ("%.2f×", k->ratio) : g_strdup ("–");
}

int
sl_cli_compare (int argc, char **argv)
{
  SlCliCommon common = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PROFILE PROFILE [PROFILE...]"));
  g_autoptr(GPtrArray) profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_profile_unref);
  g_autoptr(SlCategories) categories = NULL;
  g_autoptr(SlCompare) cmp = NULL;
  g_autofree char *rules = NULL, *model = NULL, *names = NULL, *top_text = NULL, *threshold_text = NULL;
  SlNameStyle style = SL_NAMES_SHORT;
  double threshold = 0.05;
  guint top = 0;
  GOptionEntry entries[] = {
    { "threshold", 0, 0, G_OPTION_ARG_STRING, &threshold_text,
      N_("Change counted as faster/slower, in percent (default 5)"), "PCT" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &top_text, N_("Only the K largest changes"), "K" },
    { "names", 0, 0, G_OPTION_ARG_STRING, &names, N_("Kernel names: short (default) or demangled"), "short|demangled" },
    { "rules", 0, 0, G_OPTION_ARG_FILENAME, &rules, N_("Category rules file (see categories --help)"), "FILE" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, N_("Model of a gputrc2graph rules file"), "NAME" },
    { NULL }
  };

  g_option_context_set_summary (context, _("Profiles side by side: time per category and per kernel name, "
                                           "change against the first profile, median iteration time."));
  sl_cli_common_add (context, &common);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!sl_cli_common_parse ("compare", context, &common, &argc, &argv)
      || !parse_style ("compare", names, &style)
      || !parse_threshold (threshold_text, &threshold)
      || !sl_cli_parse_count ("compare", "--top", top_text, &top)
      || ((rules != NULL || model != NULL) && (categories = load_rules ("compare", rules, model)) == NULL))
    {
      sl_cli_common_clear (&common);
      return SL_CLI_USAGE;
    }
  if (argc < 3)
    {
      sl_cli_error ("compare", _("expected at least two profiles; usage: sightline-cli compare [OPTIONS] A B [C...]"));
      sl_cli_common_clear (&common);
      return SL_CLI_USAGE;
    }
  for (int i = 1; i < argc; i++)
    {
      SlProfile *profile = sl_cli_open_profile (argv[i]);
      if (profile == NULL)
        {
          sl_cli_common_clear (&common);
          return SL_CLI_INPUT;
        }
      g_ptr_array_add (profiles, profile);
    }

  cmp = sl_compare_compute ((SlProfile *const *) profiles->pdata, profiles->len, common.filter,
                            categories, style, threshold, top);
  if (common.json)
    {
      g_autoptr(JsonNode) node = sl_compare_to_json (cmp);
      sl_cli_print_json (node);
      sl_cli_common_clear (&common);
      return SL_CLI_OK;
    }

  for (guint p = 0; p < cmp->n_profiles; p++)
    printf ("%c: %s\n", 'A' + (int) MIN (p, 25), cmp->paths[p]);
  printf ("\n");
  if (cmp->n_kernels == 0)
    sl_cli_print_empty (&common, _("kernels"));
  else
    {
      g_autoptr(SlCliTable) kt = NULL;

      /* Categories: one column per profile. */
      {
        GString *header = g_string_new (NULL);
        g_string_append_printf (header, "%-16s", _("Category"));
        for (guint p = 0; p < cmp->n_profiles; p++)
          g_string_append_printf (header, "  %14c", 'A' + (int) MIN (p, 25));
        printf ("%s\n", header->str);
        g_string_free (header, TRUE);
        for (guint c = 0; c < cmp->n_categories; c++)
          {
            printf ("%-16s", cmp->categories[c].name);
            for (guint p = 0; p < cmp->n_profiles; p++)
              {
                g_autofree char *d = sl_cli_fmt_dur (cmp->categories[c].total_ns[p]);
                printf ("  %*s", 14 + (int) (strlen (d) - g_utf8_strlen (d, -1)), d);
              }
            printf ("\n");
          }
        printf ("%-16s", _("total"));
        for (guint p = 0; p < cmp->n_profiles; p++)
          {
            g_autofree char *d = sl_cli_fmt_dur (cmp->kernel_total_ns[p]);
            printf ("  %*s", 14 + (int) (strlen (d) - g_utf8_strlen (d, -1)), d);
          }
        printf ("\n%-16s", _("iteration (med)"));
        for (guint p = 0; p < cmp->n_profiles; p++)
          {
            g_autofree char *d = cmp->has_iterations[p] ? sl_cli_fmt_dur (cmp->iteration_median_ns[p])
                                                        : g_strdup ("–");
            printf ("  %*s", 14 + (int) (strlen (d) - g_utf8_strlen (d, -1)), d);
          }
        printf ("\n\n");
      }

      kt = sl_cli_table_new (_(">First"), _(">Last"), _(">Delta"), _(">Ratio"), _("Status"), _("Name"), NULL);
      for (guint i = 0; i < cmp->n_kernels; i++)
        {
          const SlCompareKernel *k = &cmp->kernels[i];
          sl_cli_table_add (kt, sl_cli_fmt_dur (k->total_ns[0]), sl_cli_fmt_dur (k->total_ns[cmp->n_profiles - 1]),
                            sl_cli_fmt_dur (k->delta_ns), fmt_ratio (k),
                            g_strdup (sl_compare_status_name (k->status)), g_strdup (k->name));
        }
      sl_cli_table_set_max (kt, 5, 100);
      sl_cli_table_print (kt, stdout);
    }
  sl_cli_common_clear (&common);
  return SL_CLI_OK;
}
