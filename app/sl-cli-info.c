/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-info.c: `sightline-cli info PROFILE [--json]`. */
#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-cli-options.h"
#include "sl-capture-extent.h"
#include "sl-cli-cpu.h"
#include "sl-cli-table.h"

/* Sizes the profile may not know (-1) are null. */
static void
set_known_int (JsonObject *o, const char *member, gint64 value)
{
  if (value >= 0)
    json_object_set_int_member (o, member, value);
  else
    json_object_set_null_member (o, member);
}

static int
compare_int64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

/* Stream ids of a GPU, de-duplicated (the same stream id can belong to
 * several processes or contexts) and sorted. */
static GArray *
gpu_stream_ids (const SlProfile *profile, const SlGpu *gpu)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < gpu->n_streams; i++)
    {
      const SlStream *s = &profile->streams[gpu->streams[i]];
      gint64 id = s->stream;
      gboolean seen = FALSE;
      if (s->kernels.spans.n + s->memcpy.spans.n + s->memset.spans.n == 0)
        continue;
      for (guint k = 0; k < ids->len && !seen; k++)
        seen = g_array_index (ids, gint64, k) == id;
      if (!seen)
        g_array_append_val (ids, id);
    }
  g_array_sort (ids, compare_int64);
  return ids;
}

static JsonObject *
gpu_to_json (const SlProfile *profile, const SlGpu *gpu)
{
  JsonObject *o = json_object_new ();
  JsonArray *streams = json_array_new ();
  g_autoptr(GArray) ids = gpu_stream_ids (profile, gpu);

  json_object_set_int_member (o, "device", gpu->device);
  json_object_set_string_member (o, "name", gpu->name);
  set_known_int (o, "sm_count", gpu->sm_count);
  set_known_int (o, "memory_bytes", gpu->memory_bytes);
  json_object_set_int_member (o, "kernels", (gint64) gpu->n_kernels);
  for (guint k = 0; k < ids->len; k++)
    json_array_add_int_element (streams, g_array_index (ids, gint64, k));
  json_object_set_array_member (o, "streams", streams);
  return o;
}

static JsonArray *
processes_to_json (const SlProfile *profile)
{
  JsonArray *processes = json_array_new ();

  for (guint p = 0; p < profile->n_processes; p++)
    {
      const SlProcess *process = &profile->processes[p];
      JsonObject *o = json_object_new ();

      json_object_set_int_member (o, "pid", process->pid);
      json_object_set_string_member (o, "name", process->name != SL_NONE ? sl_profile_process_name (profile, p)
                                                                         : NULL);
      json_object_set_int_member (o, "threads", process->n_threads);
      json_array_add_object_element (processes, o);
    }
  return processes;
}

/* The CPU side and GPU metrics, read after the profile (sl-cpu-loader.h);
 * NULL when the file could not be read again. */
typedef struct {
  SlCpuActivity *cpu;
  SlGpuMetrics  *metrics;
} CpuSide;

static void
cpu_side_load (SlProfile *profile, CpuSide *side)
{
  g_autoptr(GError) error = NULL;

  side->cpu = sl_cpu_activity_load (profile, NULL, &error);
  if (side->cpu != NULL)
    side->metrics = sl_gpu_metrics_load (profile, NULL, &error);
  if (error != NULL)
    sl_cli_error ("info", "%s", error->message);
}

static void
cpu_side_clear (CpuSide *side)
{
  g_clear_pointer (&side->cpu, sl_cpu_activity_unref);
  g_clear_pointer (&side->metrics, sl_gpu_metrics_unref);
}

static void
cpu_counts_to_json (JsonObject *o, const CpuSide *side)
{
  if (side->cpu != NULL)
    {
      json_object_set_int_member (o, "osrt_calls", (gint64) side->cpu->n_osrt);
      json_object_set_int_member (o, "cpu_samples", (gint64) side->cpu->n_samples);
      json_object_set_int_member (o, "sched_events", (gint64) side->cpu->n_sched);
    }
  if (side->metrics != NULL)
    {
      json_object_set_int_member (o, "gpu_metric_series", side->metrics->n_series);
      json_object_set_int_member (o, "gpu_metric_samples", (gint64) side->metrics->n_samples);
    }
}

static JsonArray *
cpu_warnings_to_json (const CpuSide *side)
{
  JsonArray *warnings = json_array_new ();
  GPtrArray *lists[] = { side->cpu ? side->cpu->warnings : NULL, side->metrics ? side->metrics->warnings : NULL };

  for (gsize l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; lists[l] != NULL && i < lists[l]->len; i++)
      json_array_add_string_element (warnings, g_ptr_array_index (lists[l], i));
  return warnings;
}

static JsonObject *
counts_to_json (const SlProfile *profile)
{
  JsonObject *o = json_object_new ();

  json_object_set_int_member (o, "kernels", (gint64) profile->counts.kernels);
  json_object_set_int_member (o, "memcpy", (gint64) profile->counts.memcpy);
  json_object_set_int_member (o, "memset", (gint64) profile->counts.memset);
  json_object_set_int_member (o, "cuda_api", (gint64) profile->counts.cuda_api);
  json_object_set_int_member (o, "nvtx_ranges", (gint64) profile->counts.nvtx_ranges);
  json_object_set_int_member (o, "nvtx_marks", (gint64) profile->counts.nvtx_marks);
  return o;
}

static JsonNode *
info_to_json (const SlProfile *profile, const CpuSide *side)
{
  JsonObject *o = json_object_new ();
  JsonArray *gpus = json_array_new ();
  JsonArray *warnings = json_array_new ();
  JsonNode *node;
  gint64 start, end;

  json_object_set_string_member (o, "path", profile->path);
  json_object_set_string_member (o, "nsys_version", profile->nsys_version);
  json_object_set_string_member (o, "schema_version", profile->schema_version);
  sl_capture_extent (profile, side->cpu, side->metrics, &start, &end);
  json_object_set_int_member (o, "start_ns", start);
  json_object_set_int_member (o, "end_ns", end);
  json_object_set_int_member (o, "duration_ns", end - start);
  for (guint g = 0; g < profile->n_gpus; g++)
    if (profile->gpus[g].has_activity)
      json_array_add_object_element (gpus, gpu_to_json (profile, &profile->gpus[g]));
  json_object_set_array_member (o, "gpus", gpus);
  json_object_set_array_member (o, "processes", processes_to_json (profile));
  json_object_set_object_member (o, "counts", counts_to_json (profile));
  cpu_counts_to_json (json_object_get_object_member (o, "counts"), side);
  json_object_set_array_member (o, "cpu_warnings", cpu_warnings_to_json (side));
  for (guint i = 0; i < profile->warnings->len; i++)
    json_array_add_string_element (warnings, g_ptr_array_index (profile->warnings, i));
  json_object_set_array_member (o, "warnings", warnings);
  node = json_node_init_object (json_node_alloc (), o);
  json_object_unref (o);
  return node;
}

static gboolean
has_gpu_activity (const SlProfile *profile)
{
  return profile->counts.kernels + profile->counts.memcpy + profile->counts.memset > 0;
}

/* "Profile:         …": a heading padded to 16 terminal columns
 * (translations have umlauts, printf pads bytes). */
static void
print_heading (const char *heading)
{
  printf ("%-*s ", sl_cli_field (heading, 16), heading);
}

/* One line of the event counts: label, count, and what it counts in. */
typedef struct {
  const char *label;
  guint64     count;
  char       *detail;      /* owned, or NULL */
} CountLine;

static void
add_count (GArray *lines, const char *label, guint64 count, char *detail)
{
  CountLine line = { label, count, detail };

  g_array_append_val (lines, line);
}

/* The event counts, labels padded to the widest (at least 14 columns, as
 * in English; German's are up to 23). */
static void
print_counts (const SlProfile *profile, const CpuSide *side)
{
  g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (CountLine));
  guint width = 14;

  add_count (lines, _("kernels"), profile->counts.kernels, NULL);
  add_count (lines, _("memcpy"), profile->counts.memcpy, NULL);
  add_count (lines, _("memset"), profile->counts.memset, NULL);
  add_count (lines, _("CUDA API"), profile->counts.cuda_api, NULL);
  add_count (lines, _("NVTX ranges"), profile->counts.nvtx_ranges, NULL);
  add_count (lines, _("NVTX marks"), profile->counts.nvtx_marks, NULL);
  if (side->cpu != NULL)
    {
      add_count (lines, _("OS runtime"), side->cpu->n_osrt, NULL);
      add_count (lines, _("CPU samples"), side->cpu->n_samples, NULL);
      add_count (lines, _("sched events"), side->cpu->n_sched, NULL);
    }
  if (side->metrics != NULL)
    add_count (lines, _("GPU metrics"), side->metrics->n_series,
               g_strdup_printf ("  (%" G_GUINT64_FORMAT " %s)", side->metrics->n_samples, _("samples")));
  for (guint i = 0; i < lines->len; i++)
    width = MAX (width, sl_text_width (g_array_index (lines, CountLine, i).label, -1));
  for (guint i = 0; i < lines->len; i++)
    {
      CountLine *line = &g_array_index (lines, CountLine, i);

      printf ("  %-*s %12" G_GUINT64_FORMAT "%s\n", sl_cli_field (line->label, width), line->label,
              line->count, line->detail != NULL ? line->detail : "");
      g_free (line->detail);
    }
}

static void
print_cpu_warnings (const CpuSide *side)
{
  g_autoptr(JsonArray) warnings = cpu_warnings_to_json (side);

  if (json_array_get_length (warnings) > 0)
    {
      printf ("\n%s\n", _("Warnings about the CPU side:"));
      for (guint i = 0; i < json_array_get_length (warnings); i++)
        printf ("  • %s\n", json_array_get_string_element (warnings, i));
    }
}

static void
print_process (guint32 pid, const char *name, guint n_threads, gboolean cpu_only)
{
  g_autofree char *threads = g_strdup_printf (ngettext ("%u thread", "%u threads", n_threads), n_threads);

  if (name == NULL)
    name = _("(unknown)");
  printf ("  %-8u %-*s %s%s\n", pid, sl_cli_field (name, 32), name, threads,
          cpu_only ? _(" (no CUDA or NVTX events)") : "");
}

/* Processes the CPU side saw that have no CUDA or NVTX events, named by
 * their main thread (tid == pid), as the timeline names them. */
static void
print_cpu_only_processes (const SlProfile *profile, const SlCpuActivity *cpu)
{
  for (guint i = 0; i < cpu->n_threads;)
    {
      guint32 pid = cpu->threads[i].pid;
      const char *name = NULL;
      guint n = 0;

      for (; i < cpu->n_threads && cpu->threads[i].pid == pid; i++, n++)
        if (cpu->threads[i].tid == pid && cpu->threads[i].name != SL_NONE)
          name = sl_cpu_activity_name (cpu, cpu->threads[i].name);
      if (sl_profile_find_process (profile, pid) == SL_NONE)
        print_process (pid, name, n, TRUE);
    }
}

static void
print_readable (const SlProfile *profile, const CpuSide *side)
{
  gint64 start, end;
  g_autofree char *duration = NULL;

  sl_capture_extent (profile, side->cpu, side->metrics, &start, &end);
  duration = sl_format_duration_precise (end - start);

  print_heading (_("Profile:"));
  printf ("%s\n", profile->path);
  print_heading (_("Nsight Systems:"));
  printf ("%s (schema %s)\n", profile->nsys_version != NULL ? profile->nsys_version : _("unknown"),
          profile->schema_version != NULL ? profile->schema_version : _("unknown"));
  print_heading (_("Duration:"));
  printf ("%s  [%" G_GINT64_FORMAT " – %" G_GINT64_FORMAT " ns]\n", duration, start, end);

  if (!has_gpu_activity (profile))
    printf ("\n%s\n", _("There is no GPU activity in this profile (no CUDA kernels, memory copies or memsets were captured)."));
  else
    {
      printf ("\n%s\n", _("GPUs with activity:"));
      for (guint g = 0; g < profile->n_gpus; g++)
        {
          const SlGpu *gpu = &profile->gpus[g];
          const char *name = gpu->name != NULL ? gpu->name : _("(unnamed)");
          g_autoptr(GArray) ids = NULL;
          g_autoptr(GString) streams = g_string_new (NULL);
          if (!gpu->has_activity)
            continue;
          ids = gpu_stream_ids (profile, gpu);
          for (guint k = 0; k < ids->len; k++)
            g_string_append_printf (streams, "%s%" G_GINT64_FORMAT, k ? ", " : "", g_array_index (ids, gint64, k));
          printf ("  GPU %-3u %-*s %10" G_GUINT64_FORMAT " %s   %s %s\n", gpu->device, sl_cli_field (name, 28),
                  name, gpu->n_kernels, _("kernels"), _("streams"), streams->str);
        }
    }

  printf ("\n%s\n", _("Processes with activity:"));
  for (guint p = 0; p < profile->n_processes; p++)
    print_process (profile->processes[p].pid,
                   profile->processes[p].name != SL_NONE ? sl_profile_process_name (profile, p) : NULL,
                   profile->processes[p].n_threads, FALSE);
  if (side->cpu != NULL)
    print_cpu_only_processes (profile, side->cpu);

  printf ("\n%s\n", _("Events:"));
  print_counts (profile, side);
  print_cpu_warnings (side);

  if (profile->warnings->len > 0)
    {
      printf ("\n%s\n", _("Warnings:"));
      for (guint i = 0; i < profile->warnings->len; i++)
        printf ("  • %s\n", (const char *) g_ptr_array_index (profile->warnings, i));
    }
}

int
sl_cli_info (int argc, char **argv)
{
  gboolean json = FALSE, no_cache = FALSE;
  g_auto(GStrv) rest = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON for scripts"), NULL },
    sl_cli_no_cache_entry (&no_cache),
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_("PROFILE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("PROFILE — summary of a profile"));
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  CpuSide side = { 0 };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_error ("info", "%s", error->message);
      return SL_CLI_USAGE;
    }
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL)
    {
      sl_cli_error ("info", "%s", _("expected exactly one PROFILE argument"));
      return SL_CLI_USAGE;
    }
  if (no_cache)
    sl_profile_cache_set_enabled (FALSE);
  profile = sl_cli_open_profile (rest[0], SL_PARTS_ALL);
  if (profile == NULL)
    return SL_CLI_INPUT;

  cpu_side_load (profile, &side);
  if (json)
    sl_cli_print_json (info_to_json (profile, &side));
  else
    print_readable (profile, &side);
  cpu_side_clear (&side);
  return SL_CLI_OK;
}
