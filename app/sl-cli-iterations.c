/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-iterations.c: `sightline-cli iterations`: training / inference steps. */
#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-table.h"

typedef struct {
  char   *name;
  char   *step_range;
  char   *method;
  char   *min_gap_text;
  gint64  min_gap;
} Options;

static void
add_row (SlCliTable *t, const SlIteration *it)
{
  sl_cli_table_add (t, sl_format_count (it->pid), sl_format_count (it->index),
                    g_strdup (it->name != NULL ? it->name : "–"), sl_format_duration_precise (it->dur_ns),
                    it->has_cpu ? sl_format_count (it->cpu_start_ns) : g_strdup ("–"),
                    it->has_gpu ? sl_format_duration_precise (it->gpu_end_ns - it->gpu_start_ns) : g_strdup ("–"),
                    sl_format_duration_precise (it->gpu_busy_ns), sl_format_count ((gint64) it->kernels),
                    sl_format_duration_precise (it->nccl_ns));
}

static void
print_summary (const SlIterations *its)
{
  const SlStats *s = &its->summary;
  g_autofree char *mean = sl_format_duration_precise (sl_round_ns (s->avg));
  g_autofree char *median = sl_format_duration_precise (sl_round_ns (s->median));
  g_autofree char *min = sl_format_duration_precise (s->min);
  g_autofree char *max = sl_format_duration_precise (s->max);
  g_autofree char *sd = sl_format_duration_precise (sl_round_ns (s->stddev));

  printf (ngettext ("\n%" PRIu64 " iteration: mean %s, median %s, min %s, max %s, stddev %s; "
                    "slowest: #%u of pid %u\n",
                    "\n%" PRIu64 " iterations: mean %s, median %s, min %s, max %s, stddev %s; "
                    "slowest: #%u of pid %u\n", (gulong) MIN (s->count, G_MAXULONG)),
          s->count, mean, median, min, max, sd, its->iterations[its->slowest].index,
          its->iterations[its->slowest].pid);
}

static void
print_period (const SlIterations *its)
{
  g_autofree char *median = sl_format_duration_precise (its->period_median_ns);
  g_autofree char *spread = sl_format_duration_precise (its->period_p90_ns - its->period_p10_ns);

  if (its->period_unit == SL_STEP_UNIT_BLOCK)
    printf (_("The kernel sequence repeats every %u kernels (%s, p10–p90 spread %s): a block inside a step, "
              "not a step.\n"), its->period_kernels, median, spread);
  else if (its->period_unit == SL_STEP_UNIT_STEP)
    printf (_("Step period: median %s, p10–p90 spread %s.\n"), median, spread);
}

static void
print_method (const SlIterations *its)
{
  if (its->method == SL_ITERATIONS_NVTX)
    printf (_("Steps from NVTX ranges “%s”"), its->name);
  else if (its->method == SL_ITERATIONS_KERNELS)
    printf (_("Steps from the period of the kernel sequence (method kernels)"));
  else
    printf (_("Steps are GPU activity split at idle gaps (method gaps)"));
  printf (_(", confidence %.2f.\n"), its->confidence);
  print_period (its);
  if (its->n_partial > 0)
    printf (_("%u partial steps cut by the capture's edges are not counted (see --json \"partial\").\n"),
            its->n_partial);
  printf ("\n");
}

static void
print_no_full_step (const SlIterations *its)
{
  print_method (its);
  printf (_("No full step repeats in this window.\n"));
}

static gboolean
parse_method (const char *text, SlIterationMethod *method)
{
  static const char *names[] = { "nvtx", "gaps", "kernels", "auto" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (text != NULL ? text : "auto", names[i]) == 0)
      {
        *method = (SlIterationMethod) i;
        return TRUE;
      }
  return FALSE;
}

static void
print_table (const SlIterations *its)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_(">PID"), _(">#"), _("Name"), _(">Duration"),
                                              _(">CPU start (ns)"), _(">GPU span"), _(">GPU busy"),
                                              _(">Kernels"), _(">NCCL"), NULL);

  print_method (its);
  for (guint i = 0; i < its->n_iterations; i++)
    add_row (t, &its->iterations[i]);
  sl_cli_table_set_max (t, 2, 48);
  sl_cli_table_print (t, stdout);
  print_summary (its);
}

static int
by_count_then_name (gconstpointer a, gconstpointer b, gpointer counts)
{
  const char *x = *(const char *const *) a, *y = *(const char *const *) b;
  guint cx = GPOINTER_TO_UINT (g_hash_table_lookup (counts, x));
  guint cy = GPOINTER_TO_UINT (g_hash_table_lookup (counts, y));

  return cx != cy ? (cx > cy ? -1 : 1) : g_strcmp0 (x, y);
}

/* "step # (12), warmup (1), …": the outermost push/pop range names, digit
 * runs as '#', most frequent first; what --name / --step-range can name. */
static char *
list_top_level_names (const SlProfile *profile)
{
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) names = NULL;
  GString *s = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key;

  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;
      for (guint i = 0; r->n_depths > 0 && i < r->depth_first[1]; i++)
        {
          char *name = sl_iterations_normalize_name (sl_strings_get (profile->strings, r->name[i]));
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, name));
          g_hash_table_replace (counts, name, GUINT_TO_POINTER (n + 1));
        }
    }
  names = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort_with_data (names, by_count_then_name, counts);
  for (guint i = 0; i < names->len && i < 20; i++)
    g_string_append_printf (s, "%s%s (%u)", i > 0 ? ", " : "", (const char *) names->pdata[i],
                            GPOINTER_TO_UINT (g_hash_table_lookup (counts, names->pdata[i])));
  if (names->len > 20)
    g_string_append_printf (s, _(" … (%u in all)"), names->len);
  if (names->len == 0)
    g_string_append (s, _("none"));
  return g_string_free (s, FALSE);
}

/* --name / --step-range that names no range of the profile: a usage error
 * that lists the names there are. */
static gboolean
check_named (const SlCliRun *run, const Options *o, const SlIterations *its)
{
  g_autofree char *list = NULL;

  if ((o->name == NULL && o->step_range == NULL) || its->n_named > 0)
    return TRUE;
  list = list_top_level_names (run->profile);
  sl_cli_error (run->command, _("%s “%s” matches no NVTX range; the outermost range names are: %s"),
                o->name != NULL ? "--name" : "--step-range", o->name != NULL ? o->name : o->step_range, list);
  return FALSE;
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlIterations) its = NULL;

  SlIterationsOptions opts = { SL_ITERATIONS_AUTO, o->name, o->step_range, 0 };

  if (!sl_cli_parse_dur (run->command, "--min-gap", o->min_gap_text, &o->min_gap))
    return SL_CLI_USAGE;
  if (!parse_method (o->method, &opts.method))
    {
      sl_cli_error (run->command, _("--method: “%s” is not nvtx, kernels or gaps"), o->method);
      return SL_CLI_USAGE;
    }
  opts.min_gap_ns = o->min_gap;
  its = sl_iterations_compute_with (run->profile, run->common.filter, &opts, &error);
  if (its == NULL)
    {
      sl_cli_error (run->command, _("--name: %s"), error->message);
      return SL_CLI_USAGE;
    }
  if (!check_named (run, o, its))
    return SL_CLI_USAGE;
  if (run->common.json)
    sl_cli_print_json (sl_iterations_to_json (its));
  else if (its->n_iterations == 0 && its->n_partial > 0)
    print_no_full_step (its);
  else if (its->n_iterations == 0)
    sl_cli_print_empty (run->common.filter, o->name != NULL ? _("iterations (no NVTX range matches --name)")
                                                           : _("iterations"));
  else
    print_table (its);
  return SL_CLI_OK;
}

int
sl_cli_iterations (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "iterations", .parameter = N_("PROFILE"),
    .summary = N_("Training or inference steps: repeated top-level NVTX ranges that cover the GPU "
                  "work, else the period of the kernel sequence, else large GPU idle gaps."),
    .show = show,
    .parts = SL_PARTS_GPU | SL_PART_API | SL_PART_NVTX,
  };
  Options o = { 0 };
  GOptionEntry entries[] = {
    { "name", 0, 0, G_OPTION_ARG_STRING, &o.name, N_("NVTX ranges whose name matches REGEX are the iterations"), "REGEX" },
    { "step-range", 0, 0, G_OPTION_ARG_STRING, &o.step_range,
      N_("NVTX ranges of this name are the steps (digits may be written #)"), "NAME" },
    { "method", 0, 0, G_OPTION_ARG_STRING, &o.method, N_("Force a method: nvtx, kernels or gaps"), "METHOD" },
    { "min-gap", 0, 0, G_OPTION_ARG_STRING, &o.min_gap_text,
      N_("Without NVTX: split GPU activity at idle gaps of at least D (default: found from the gaps)"), "D" },
    { NULL }
  };

  return sl_cli_run (&spec, entries, &o, argc, argv);
}
