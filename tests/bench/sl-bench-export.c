/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-export.c: "export_mevents_per_s" (issue 14): million events a
 * second each writer streams (to /dev/null: the writer, not the disk), and
 * "export_peak_rss_mb": the process's peak RSS during each export against
 * its RSS after open (the peak is reset through /proc/self/clear_refs), the
 * measure of "memory stays flat". */
#include <stdio.h>
#include <string.h>

#include "sightline.h"
#include "sl-export.h"

void sl_bench_export (SlProfile *profile, JsonBuilder *builder);
void sl_bench_export_rss (SlProfile *profile, JsonBuilder *builder);

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

/* Seconds for one export, or < 0 when the writer failed (HTML before it lands). */
static double
run (SlProfile *profile, SlExportFormat format)
{
  g_autoptr(GFile) null = g_file_new_for_path ("/dev/null");
  g_autoptr(GFileOutputStream) out = g_file_append_to (null, G_FILE_CREATE_NONE, NULL, NULL);
  SlExportOptions o = { .format = format };
  gint64 t0 = g_get_monotonic_time ();
  gboolean ok;

  if (out == NULL)
    return -1;
  if (format == SL_EXPORT_CSV)
    ok = sl_export_csv_kernels_write (profile, &o, G_OUTPUT_STREAM (out), NULL, NULL, NULL, NULL);
  else if (format == SL_EXPORT_PERFETTO)
    ok = sl_export_perfetto_write (profile, &o, G_OUTPUT_STREAM (out), NULL, NULL, NULL, NULL);
  else
    ok = sl_export_html_write (profile, &o, G_OUTPUT_STREAM (out), NULL, NULL, NULL, NULL);
  return ok ? (g_get_monotonic_time () - t0) / 1e6 : -1;
}

void
sl_bench_export (SlProfile *profile, JsonBuilder *b)
{
  static const SlExportFormat formats[] = { SL_EXPORT_PERFETTO, SL_EXPORT_CSV, SL_EXPORT_HTML };

  json_builder_begin_object (b);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      double s = run (profile, formats[i]);

      json_builder_set_member_name (b, sl_export_format_name (formats[i]));
      if (s <= 0)
        json_builder_add_null_value (b);
      else
        json_builder_add_double_value (b, events (profile, formats[i]) / s / 1e6);
    }
  json_builder_end_object (b);
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
      /* "5" resets VmHWM to the current RSS (Linux 4.0). */
      gboolean reset = g_file_set_contents ("/proc/self/clear_refs", "5", 1, NULL);

      run (profile, formats[i]);
      json_builder_set_member_name (b, sl_export_format_name (formats[i]));
      if (reset)
        json_builder_add_double_value (b, rss_mb ("VmHWM:"));
      else
        json_builder_add_null_value (b);
    }
  json_builder_end_object (b);
}
