/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpu-activity-dump PROFILE: the CPU activity and GPU metrics as the
 * loader reads them, as JSON, for test-cpu-loader.py to hold against SQL:
 * {"threads": [{"global_tid", "pid", "tid", "samples": [[time, state, cpu, stack]],
 *   "osrt": [[name, start, end, depth, stack]], "sched": [[time, in, cpu]]}],
 *  "stacks": [[[symbol, module], ...]] (leaf first), "n_osrt", "n_samples", "n_sched",
 *  "metrics": [{"device", "metric_id", "name", "unit", "percent", "max", "times", "values"}],
 *  "cpu_warnings": [...], "metric_warnings": [...]} */
#include <stdio.h>

#include "sightline.h"

#define INT(k, v) do { json_builder_set_member_name (b, k); json_builder_add_int_value (b, v); } while (0)

static void
add_thread (JsonBuilder *b, const SlCpuActivity *a, const SlCpuThread *t)
{
  json_builder_begin_object (b);
  INT ("global_tid", (gint64) t->global_tid);
  INT ("pid", t->pid);
  INT ("tid", t->tid);
  json_builder_set_member_name (b, "name");
  if (t->name != SL_NONE)
    json_builder_add_string_value (b, sl_cpu_activity_name (a, t->name));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "samples");
  json_builder_begin_array (b);
  for (guint i = 0; i < t->samples.n; i++)
    {
      json_builder_begin_array (b);
      json_builder_add_int_value (b, t->samples.time[i]);
      json_builder_add_int_value (b, t->samples.state[i]);
      json_builder_add_int_value (b, t->samples.cpu[i]);
      json_builder_add_int_value (b, t->samples.stack[i] == SL_NONE ? -1 : (gint64) t->samples.stack[i]);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "osrt");
  json_builder_begin_array (b);
  for (guint d = 0; d < t->osrt.n_depths; d++)
    for (guint i = t->osrt.depth_first[d]; i < t->osrt.depth_first[d + 1]; i++)
      {
        g_assert (t->osrt.depth[i] == d);
        json_builder_begin_array (b);
        json_builder_add_string_value (b, sl_cpu_activity_name (a, t->osrt.name[i]));
        json_builder_add_int_value (b, t->osrt.spans.start[i]);
        json_builder_add_int_value (b, sl_spans_end (&t->osrt.spans, i));
        json_builder_add_int_value (b, d);
        json_builder_add_int_value (b, t->osrt.stack[i] == SL_NONE ? -1 : (gint64) t->osrt.stack[i]);
        json_builder_end_array (b);
      }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "sched");
  json_builder_begin_array (b);
  for (guint i = 0; i < t->sched.n; i++)
    {
      json_builder_begin_array (b);
      json_builder_add_int_value (b, t->sched.time[i]);
      json_builder_add_int_value (b, t->sched.sched_in[i]);
      json_builder_add_int_value (b, t->sched.cpu[i]);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_stacks (JsonBuilder *b, const SlCpuActivity *a)
{
  json_builder_set_member_name (b, "stacks");
  json_builder_begin_array (b);
  for (guint s = 0; s < a->n_stacks; s++)
    {
      guint n, first = sl_cpu_activity_stack_frames (a, s, &n);
      json_builder_begin_array (b);
      for (guint f = first; f < first + n; f++)
        {
          json_builder_begin_array (b);
          json_builder_add_string_value (b, sl_cpu_activity_name (a, a->frame_symbol[f]));
          if (a->frame_module[f] == SL_NONE)
            json_builder_add_null_value (b);
          else
            json_builder_add_string_value (b, sl_cpu_activity_name (a, a->frame_module[f]));
          json_builder_end_array (b);
        }
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
}

static void
add_series (JsonBuilder *b, const SlMetricSeries *s)
{
  json_builder_begin_object (b);
  INT ("device", s->device);
  INT ("metric_id", s->metric_id);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, s->name);
  json_builder_set_member_name (b, "unit");
  json_builder_add_string_value (b, s->unit);
  json_builder_set_member_name (b, "percent");
  json_builder_add_boolean_value (b, s->percent);
  json_builder_set_member_name (b, "max");
  json_builder_add_double_value (b, s->max);
  json_builder_set_member_name (b, "times");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->n; i++)
    json_builder_add_int_value (b, s->time[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "values");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->n; i++)
    json_builder_add_double_value (b, s->value[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_warnings (JsonBuilder *b, const char *key, GPtrArray *warnings)
{
  json_builder_set_member_name (b, key);
  json_builder_begin_array (b);
  for (guint i = 0; i < warnings->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (warnings, i));
  json_builder_end_array (b);
}

static void
dump (const SlCpuActivity *a, const SlGpuMetrics *m)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  INT ("n_osrt", (gint64) a->n_osrt);
  INT ("n_samples", (gint64) a->n_samples);
  INT ("n_sched", (gint64) a->n_sched);
  json_builder_set_member_name (b, "threads");
  json_builder_begin_array (b);
  for (guint i = 0; i < a->n_threads; i++)
    add_thread (b, a, &a->threads[i]);
  json_builder_end_array (b);
  add_stacks (b, a);
  json_builder_set_member_name (b, "metrics");
  json_builder_begin_array (b);
  for (guint i = 0; i < m->n_series; i++)
    add_series (b, &m->series[i]);
  json_builder_end_array (b);
  add_warnings (b, "cpu_warnings", a->warnings);
  add_warnings (b, "metric_warnings", m->warnings);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = json_to_string (root, FALSE);
  puts (text);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlCpuActivity) a = NULL;
  g_autoptr(SlGpuMetrics) m = NULL;
  gint64 t0;

  if (argc != 2)
    return 2;
  profile = sl_profile_load (argv[1], NULL, NULL, NULL, &error);
  if (profile != NULL && g_getenv ("SL_CPU_CANCEL"))
    {
      /* a cancelled read is an error, not a partial activity */
      g_autoptr(GCancellable) cancel = g_cancellable_new ();
      g_cancellable_cancel (cancel);
      a = sl_cpu_activity_load (profile, cancel, &error);
      if (a == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
          && sl_gpu_metrics_load (profile, cancel, NULL) == NULL)
        return 3;
      return 1;
    }
  t0 = g_get_monotonic_time ();
  if (profile != NULL && (a = sl_cpu_activity_load (profile, NULL, &error)) != NULL)
    m = sl_gpu_metrics_load (profile, NULL, &error);
  if (m == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  if (g_getenv ("SL_CPU_TIME"))
    {
      g_printerr ("cpu+metrics %.1f ms: %" G_GUINT64_FORMAT " samples, %u stacks, %" G_GUINT64_FORMAT " metric samples\n",
                  (g_get_monotonic_time () - t0) / 1e3, a->n_samples, a->n_stacks, m->n_samples);
      return 0;
    }
  dump (a, m);
  return 0;
}
