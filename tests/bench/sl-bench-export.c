/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-export.c: "export_mevents_per_s" (issue 14): million events a
 * second each writer streams (to /dev/null: the writer, not the disk), and
 * "export_cpu_mevents_per_s" the same per second of the writer thread's CPU
 * time (a shared machine's load does not count), and "export_peak_rss_mb":
 * the largest RSS seen during each export (sampled every 2 ms by a watcher
 * thread: /proc/self/clear_refs is not writable everywhere) against the RSS
 * after open, the measure of "memory stays flat". */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sightline.h"
#include "sl-export.h"
#include "sl-launch-table.h"

void sl_bench_export (SlProfile *profile, JsonBuilder *builder);
void sl_bench_export_cpu (SlProfile *profile, JsonBuilder *builder);
void sl_bench_export_rss (SlProfile *profile, JsonBuilder *builder);

static double
thread_cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double rss_mb (const char *key)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      || (line = strstr (status, key)) == NULL)
    return -1;
  return g_ascii_strtod (line + strlen (key), NULL) / 1024.0;
}

/* Events the writer visits: kernels for CSV, all GPU and CPU spans else. */
static guint64
events (const SlProfile *p, SlExportFormat format)
{
  const SlCounts *c = &p->counts;

  if (format == SL_EXPORT_CSV)
    return c->kernels;
  return c->kernels + c->memcpy + c->memset + c->cuda_api + c->nvtx_ranges + c->nvtx_marks;
}

/* Seconds for one export (wall, or the thread's CPU with @cpu), or < 0
 * when the writer failed (HTML before it lands). */
static double
run (SlProfile *profile, SlExportFormat format, gboolean cpu)
{
  g_autoptr(GFile) null = g_file_new_for_path ("/dev/null");
  g_autoptr(GFileOutputStream) out = g_file_append_to (null, G_FILE_CREATE_NONE, NULL, NULL);
  /* the launch configurations as the CLI and the app read them: their
   * scan of the kernel table counts in the writer's time */
  SlExportOptions o = { .format = format, .launch = sl_launch_table_reader () };
  gint64 t0 = g_get_monotonic_time ();
  double c0 = thread_cpu_s ();
  gboolean ok;

  if (out == NULL)
    return -1;
  if (format == SL_EXPORT_CSV)
    ok = sl_export_csv_kernels_write (profile, &o, G_OUTPUT_STREAM (out), NULL, NULL, NULL, NULL);
  else if (format == SL_EXPORT_PERFETTO)
    ok = sl_export_perfetto_write (profile, &o, G_OUTPUT_STREAM (out), NULL, NULL, NULL, NULL);
  else
    ok = sl_export_html_write (profile, &o, G_OUTPUT_STREAM (out), NULL, NULL, NULL, NULL);
  if (!ok)
    return -1;
  return cpu ? thread_cpu_s () - c0 : (g_get_monotonic_time () - t0) / 1e6;
}

static void
bench_speed (SlProfile *profile, JsonBuilder *b, gboolean cpu)
{
  static const SlExportFormat formats[] = { SL_EXPORT_PERFETTO, SL_EXPORT_CSV, SL_EXPORT_HTML };

  json_builder_begin_object (b);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      double s = run (profile, formats[i], cpu);

      json_builder_set_member_name (b, sl_export_format_name (formats[i]));
      if (s <= 0)
        json_builder_add_null_value (b);
      else
        json_builder_add_double_value (b, events (profile, formats[i]) / s / 1e6);
    }
  json_builder_end_object (b);
}

void
sl_bench_export (SlProfile *profile, JsonBuilder *b)
{
  bench_speed (profile, b, FALSE);
}

void
sl_bench_export_cpu (SlProfile *profile, JsonBuilder *b)
{
  bench_speed (profile, b, TRUE);
}

typedef struct {
  gint   stop;
  double peak;
} Watch;

static gpointer
watch_rss (gpointer data)
{
  Watch *w = data;

  while (!g_atomic_int_get (&w->stop))
    {
      w->peak = MAX (w->peak, rss_mb ("VmRSS:"));
      g_usleep (2000);
    }
  return NULL;
}

void
sl_bench_export_rss (SlProfile *profile, JsonBuilder *b)
{
  static const SlExportFormat formats[] = { SL_EXPORT_PERFETTO, SL_EXPORT_CSV };

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "after_open");
  json_builder_add_double_value (b, rss_mb ("VmRSS:"));
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      Watch w = { 0, rss_mb ("VmRSS:") };
      GThread *watcher = g_thread_new ("rss", watch_rss, &w);

      run (profile, formats[i], FALSE);
      g_atomic_int_set (&w.stop, 1);
      g_thread_join (watcher);
      json_builder_set_member_name (b, sl_export_format_name (formats[i]));
      json_builder_add_double_value (b, w.peak);
    }
  json_builder_end_object (b);
}
