/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-compare.c: `sightline-cli compare A B [C ...]`: profiles side by side. */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-cli-compare-gate.h"
#include "sl-cli-compare-models.h"
#include "sl-cli-run.h"
#include "sl-cli-table.h"
#include "sl-export-compare-html.h"

typedef struct {
  char              *threshold_text;
  char              *fail_text;
  double             fail_pct;       /* NAN: no gate */
  char              *top_text;
  char              *names;
  char              *rules;
  char             **models;
  char              *html;           /* --html OUT */
  double             threshold;
  guint              top;
  SlNameStyle        style;
  SlCliCompareModels categories;
} Options;

static gboolean
parse_threshold (const char *command, const char *text, double *out)
{
  double pct = *out * 100.0;

  if (!sl_cli_parse_percent (command, "--threshold", text, 1000, &pct))
    return FALSE;
  *out = pct / 100.0;
  return TRUE;
}

/* --category scopes every profile by the rules of a bare --model (or the
 * default rules); per-profile models (--model A=NAME) name their categories
 * for the comparison only. */
static const SlCategories *
chosen_categories (gpointer data)
{
  return ((Options *) data)->categories.bare_rules;
}

static gboolean
check (const char *command, gpointer data)
{
  Options *o = data;

  return sl_cli_parse_names (command, o->names, &o->style)
         && parse_threshold (command, o->threshold_text, &o->threshold)
         && sl_cli_compare_gate_parse (command, o->fail_text, &o->fail_pct)
         && sl_cli_parse_count (command, "--top", o->top_text, &o->top)
         && sl_cli_compare_models_parse (command, o->rules, o->models, &o->categories);
}

/* One cell of the per-profile columns, right-aligned in 14 characters;
 * takes @text. */
static void
print_cell (char *text)
{
  g_autofree char *owned = text;

  printf ("  %*s", sl_cli_field (owned, 14), owned);
}

/* Time per category, total kernel time and median iteration, one column per profile:
 * whole-profile totals, titled as such since the kernel table below is per call or
 * per iteration. */
static void
print_categories (const SlCompare *cmp)
{
  printf ("%s\n", _("GPU time per category, whole profile:"));
  printf ("%-*s", sl_cli_field (_("Category"), 16), _("Category"));
  for (guint p = 0; p < cmp->n_profiles; p++)
    printf ("  %14c", 'A' + (int) MIN (p, 25));
  printf ("\n");
  for (guint c = 0; c < cmp->n_categories; c++)
    {
      printf ("%-*s", sl_cli_field (cmp->categories[c].name, 16), cmp->categories[c].name);
      for (guint p = 0; p < cmp->n_profiles; p++)
        print_cell (sl_format_duration_precise (cmp->categories[c].total_ns[p]));
      printf ("\n");
    }
  printf ("%-*s", sl_cli_field (_("total"), 16), _("total"));
  for (guint p = 0; p < cmp->n_profiles; p++)
    print_cell (sl_format_duration_precise (cmp->kernel_total_ns[p]));
  printf ("\n%-*s", sl_cli_field (_("iteration (med)"), 16), _("iteration (med)"));
  for (guint p = 0; p < cmp->n_profiles; p++)
    print_cell (cmp->has_iterations[p] ? sl_format_duration_precise (cmp->iteration_median_ns[p])
                                       : g_strdup ("–"));
  printf ("\n\n");
}

/* "A: path — 12 iterations (nvtx), median 9.070 ms, p10 8.9 ms, p90 9.2 ms" */
static void
print_profiles (const SlCompare *cmp)
{
  for (guint p = 0; p < cmp->n_profiles; p++)
    {
      const SlCompareIterations *its = &cmp->iterations[p];
      g_autofree char *median = sl_format_duration_precise (its->median_ns);
      g_autofree char *p10 = sl_format_duration_precise (its->p10_ns);
      g_autofree char *p90 = sl_format_duration_precise (its->p90_ns);

      printf ("%c: %s — ", 'A' + (int) MIN (p, 25), cmp->paths[p]);
      if (its->found)
        printf (_("%u iterations (%s), median %s, p10 %s, p90 %s\n"), its->count, its->method, median, p10, p90);
      else
        printf ("%s\n", _("no iterations"));
    }
  printf ("\n");
}

/* "Per iteration: step time 9.070 ms → 10.068 ms (+11.0 %)" or "Per call …" */
static void
print_basis (const SlCompare *cmp)
{
  guint last = cmp->n_profiles - 1;

  if (cmp->has_step)
    {
      g_autofree char *a = sl_format_duration_precise (cmp->iteration_median_ns[0]);
      g_autofree char *b = sl_format_duration_precise (cmp->iteration_median_ns[last]);
      printf (_("Compared per iteration: step time %s → %s (%+.1f %%)\n\n"), a, b, cmp->step_change_pct[last]);
    }
  else
    printf ("%s\n\n", _("Compared per call (not every profile has iterations): mean time per call"));
}

/* The calls of @k in profile @p: per iteration, or in the window. */
static char *
calls_text (const SlCompare *cmp, const SlCompareKernel *k, guint p)
{
  if (cmp->basis == SL_COMPARE_PER_ITERATION)
    return g_strdup_printf ("%.4g", (double) k->instances[p] / cmp->iterations[p].steps);
  return g_strdup_printf ("%" G_GUINT64_FORMAT, k->instances[p]);
}

static char *
time_cell (const SlCompare *cmp, const SlCompareKernel *k, guint p)
{
  double ns = cmp->basis == SL_COMPARE_PER_ITERATION ? k->per_iteration_ns[p] : k->per_call_ns[p];

  return isnan (ns) ? g_strdup ("–") : sl_format_duration_precise (sl_round_ns (ns));
}

static void
print_kernels (const SlCompare *cmp)
{
  gboolean per_iteration = cmp->basis == SL_COMPARE_PER_ITERATION;
  guint last = cmp->n_profiles - 1;
  g_autoptr(SlCliTable) t = sl_cli_table_new (per_iteration ? _(">First/iter") : _(">First/call"),
                                              per_iteration ? _(">Last/iter") : _(">Last/call"),
                                              _(">Change"), per_iteration ? _(">Calls/iter") : _(">Calls"),
                                              _("Status"), _("Name"), NULL);

  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      const SlCompareKernel *k = &cmp->kernels[i];
      g_autofree char *a = calls_text (cmp, k, 0), *b = calls_text (cmp, k, last);
      sl_cli_table_add (t, time_cell (cmp, k, 0), time_cell (cmp, k, last),
                        isnan (k->change_pct) ? g_strdup ("–") : g_strdup_printf ("%+.1f %%", k->change_pct),
                        g_strdup_printf ("%s → %s", a, b),
                        k->status == SL_COMPARE_CALLS ? g_strdup_printf (_("call count %s → %s"), a, b)
                                                      : g_strdup (sl_compare_status_name (k->status)),
                        g_strdup (k->name));
    }
  sl_cli_table_set_max (t, 5, 100);
  sl_cli_table_print (t, stdout);
}

/* "Verdict: regressed (step time +11.0 %, threshold ±5 %)" and the comparability. */
static void
print_verdict (const SlCompare *cmp, double threshold)
{
  g_autofree char *reasons = g_strjoinv ("; ", cmp->reasons);

  printf ("\n");
  if (cmp->has_step)
    printf (_("Verdict: %s (step time %+.1f %%, threshold ±%g %%)\n"), sl_compare_verdict_name (cmp->verdict),
            cmp->verdict_change_pct, threshold * 100);
  else
    printf (_("Verdict: %s (the first profile's calls at each one's time per call %+.1f %%, threshold ±%g %%)\n"),
            sl_compare_verdict_name (cmp->verdict), cmp->verdict_change_pct, threshold * 100);
  printf (_("Comparability: %.2f (%s)\n"), cmp->comparability, reasons);
  /* A verdict on captures of different work is the confident wrong answer
   * users act on: say so where they read it. */
  if (cmp->comparability < 0.5)
    printf (_("These captures ran different work: the verdict says little.\n"));
}

/* --html OUT: the report beside the usual output (a CI artifact even when
 * the gate then fails); FALSE, with a message, when it could not be written. */
static gboolean
write_html (const SlCliRun *run, const Options *o, const SlCompare *cmp)
{
  SlCompareReport report = {
    .profiles = (SlProfile *const *) run->profiles->pdata, .n_profiles = run->profiles->len,
    .compare = cmp, .filter = run->common.filter, .threshold = o->threshold,
  };
  g_autoptr(GError) error = NULL;

  if (o->html == NULL)
    return TRUE;
  if (sl_export_compare_html_to_path (&report, o->html, NULL, &error))
    return TRUE;
  sl_cli_error (run->command, "%s", error->message);
  return FALSE;
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autofree const SlCategories **rules = sl_cli_compare_models_for (run->command, o->rules, &o->categories,
                                                                     run->profiles->len);
  g_autoptr(SlCompare) cmp = NULL;

  if (rules == NULL)
    return SL_CLI_USAGE;
  cmp = sl_compare_compute ((SlProfile *const *) run->profiles->pdata, run->profiles->len,
                            run->common.filter, rules, o->style, o->threshold, o->top);
  if (!write_html (run, o, cmp))
    return SL_CLI_INPUT;
  if (run->common.json)
    {
      sl_cli_print_json (sl_compare_to_json (cmp));
      return sl_cli_compare_gate_check (cmp, o->fail_pct);
    }
  print_profiles (cmp);
  if (cmp->n_kernels == 0)
    sl_cli_print_empty (run->common.filter, _("kernels"));
  else
    {
      print_categories (cmp);
      print_basis (cmp);
      print_kernels (cmp);
      print_verdict (cmp, o->threshold);
    }
  fflush (stdout);
  return sl_cli_compare_gate_check (cmp, o->fail_pct);
}

int
sl_cli_compare (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "compare", .parameter = N_("PROFILE PROFILE [PROFILE...]"),
    .summary = N_("Profiles side by side: time per category and per kernel name, compared per "
                  "iteration when every profile has iterations (else per call), change against "
                  "the first profile, a verdict on the step time and how comparable the captures are."),
    .many_profiles = TRUE,
    .wrong_args = N_("expected at least two profiles; usage: sightline-cli compare [OPTIONS] A B [C...]"),
    .check = check, .show = show, .categories = chosen_categories,
    .parts = SL_PARTS_GPU | SL_PART_API | SL_PART_NVTX,
  };
  Options o = { .threshold = 0.05, .fail_pct = NAN, .style = SL_NAMES_SHORT };
  GOptionEntry entries[] = {
    { "threshold", 0, 0, G_OPTION_ARG_STRING, &o.threshold_text,
      N_("Change counted as faster/slower, in percent (default 5)"), "PCT" },
    { "fail-if-slower", 0, 0, G_OPTION_ARG_STRING, &o.fail_text,
      N_("Exit with status 3 when the step time (per call basis without iterations) got slower by more than PCT percent, "
         "listing the top offenders on stderr (a CI gate)"), "PCT" },
    { "html", 0, 0, G_OPTION_ARG_FILENAME, &o.html,
      N_("Also write the comparison as a self-contained HTML report to OUT (atomically: no file on error)"), "OUT" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &o.top_text, N_("Only the K largest changes"), "K" },
    { "names", 0, 0, G_OPTION_ARG_STRING, &o.names, N_("Kernel names: short (default) or demangled"), "short|demangled" },
    { "rules", 0, 0, G_OPTION_ARG_FILENAME, &o.rules, N_("Category rules file (see categories --help)"), "FILE" },
    { "model", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.models,
      N_("Model of a gputrc2graph rules file, for every profile or, as A=NAME, B=NAME…, for one"), "[LETTER=]NAME" },
    { NULL }
  };
  int status = sl_cli_run (&spec, entries, &o, argc, argv);

  sl_cli_compare_models_clear (&o.categories);
  g_free (o.html);
  return status;
}
