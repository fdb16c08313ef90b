/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-cpu.c: `sightline-cli cpu`: the functions the CPU samples fell
 * in, self and total, over the profile or a --range: the bottom-up table
 * the GUI shows for a selection. */
#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-cli-cpu.h"
#include "sl-cli-run.h"
#include "sl-cli-table.h"

typedef struct {
  char *limit_text;
  guint limit;
} Options;

SlCpuActivity *
sl_cli_cpu_activity (const char *command, SlProfile *profile)
{
  g_autoptr(GError) error = NULL;
  SlCpuActivity *a = sl_cpu_activity_load (profile, NULL, &error);

  if (a == NULL)
    sl_cli_error (command, "%s", error->message);
  return a;
}

static void
filter_range (const SlFilter *filter, gint64 *start, gint64 *end)
{
  *start = filter->has_range ? filter->range_start : G_MININT64;
  *end = filter->has_range ? filter->range_end : G_MAXINT64;
}

static double
percent (guint64 part, guint64 whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
}

static JsonNode *
functions_json (const SlCpuActivity *a, const GArray *top, guint64 samples)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "samples");
  json_builder_add_int_value (b, (gint64) samples);
  json_builder_set_member_name (b, "functions");
  json_builder_begin_array (b);
  for (guint i = 0; i < top->len; i++)
    {
      const SlCpuFunction *f = &g_array_index (top, SlCpuFunction, i);
      json_builder_begin_object (b);
      sl_json_member_string (b, "name", sl_cpu_activity_name (a, f->symbol));
      json_builder_set_member_name (b, "self");
      json_builder_add_int_value (b, (gint64) f->self);
      json_builder_set_member_name (b, "total");
      json_builder_add_int_value (b, (gint64) f->total);
      json_builder_set_member_name (b, "self_pct");
      json_builder_add_double_value (b, percent (f->self, samples));
      json_builder_set_member_name (b, "total_pct");
      json_builder_add_double_value (b, percent (f->total, samples));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
print_functions (const SlCpuActivity *a, const GArray *top, guint64 samples)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_(">Self"), _(">Self %"), _(">Total"), _(">Total %"),
                                              _("Function"), NULL);

  for (guint i = 0; i < top->len; i++)
    {
      const SlCpuFunction *f = &g_array_index (top, SlCpuFunction, i);
      sl_cli_table_add (t, sl_format_count (f->self), g_strdup_printf ("%.1f", percent (f->self, samples)),
                        sl_format_count (f->total), g_strdup_printf ("%.1f", percent (f->total, samples)),
                        g_strdup (sl_cpu_activity_name (a, f->symbol)));
    }
  sl_cli_table_set_max (t, 4, 100);
  sl_cli_table_print (t, stdout);
  printf (_("\n%" PRIu64 " CPU samples\n"), samples);
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(SlCpuActivity) a = NULL;
  g_autoptr(GArray) top = NULL;
  const GArray *pids = run->common.filter->pids;
  gint64 start, end;
  guint64 samples;

  if (!sl_cli_parse_count (run->command, "--limit", o->limit_text, &o->limit))
    return SL_CLI_USAGE;
  if ((a = sl_cli_cpu_activity (run->command, run->profile)) == NULL)
    return SL_CLI_INPUT;
  filter_range (run->common.filter, &start, &end);
  samples = sl_cpu_count_samples (a, start, end, (guint32 *) pids->data, pids->len);
  top = sl_cpu_top_functions (a, start, end, (guint32 *) pids->data, pids->len, o->limit);
  if (run->common.json)
    sl_cli_print_json (functions_json (a, top, samples));
  else if (a->n_samples == 0)
    printf ("%s\n", _("No CPU samples in this profile."));
  else if (samples == 0)
    sl_cli_print_empty (run->common.filter, _("CPU samples"));
  else
    print_functions (a, top, samples);
  return SL_CLI_OK;
}

int
sl_cli_cpu (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "cpu", .parameter = N_("PROFILE"),
    .summary = N_("The functions the CPU samples fell in (COMPOSITE_EVENTS and SAMPLING_CALLCHAINS), "
                  "largest self count first: self counts the samples a function was running in (the leaf "
                  "of the stack), total the samples it was anywhere on the stack, once per sample; the "
                  "percentages are of the samples in the range and processes chosen (--range, --pid)."),
    .show = show,
    .parts = SL_PART_API,
  };
  Options o = { .limit = 20 };
  GOptionEntry entries[] = {
    { "limit", 0, 0, G_OPTION_ARG_STRING, &o.limit_text, N_("Show the N first functions (default 20, 0: all)"), "N" },
    { NULL }
  };

  return sl_cli_run (&spec, entries, &o, argc, argv);
}
