/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gpu-metrics-loader.c: GPU_METRICS + TARGET_INFO_GPU_METRICS into one
 * series per (GPU, metric).  The metric list is small and read by SQL; the
 * samples (10 kHz per metric per GPU) by a direct scan. */
#include "sl-cpu-loader-private.h"
#include "sl-radix.h"
#include "sl-spans-private.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#define CHECK_ROWS 16384

typedef struct {
  SlLoader   loader;
  sqlite3   *db;
  GArray    *series;       /* SlMetricSeries, times and values grown by cap */
  GArray    *caps;         /* guint per series */
  SlIdMap    types;        /* typeId -> type index */
  SlIdMap    index;        /* (type index << 32 | metricId) -> series */
  guint64    skipped_time, skipped_metric, skipped_value;
  GPtrArray *warnings;
} MetricsBuild;

/* "SM Active [Throughput %]" -> "SM Active" and "Throughput %". */
static void
split_name (const char *text, char **name, char **unit)
{
  const char *open = strrchr (text, '[');
  gsize len = strlen (text);

  if (open != NULL && len > 0 && text[len - 1] == ']')
    {
      *name = g_strstrip (g_strndup (text, open - text));
      *unit = g_strndup (open + 1, text + len - 1 - (open + 1));
    }
  else
    {
      *name = g_strstrip (g_strdup (text));
      *unit = g_strdup ("");
    }
}

static guint64
series_key (MetricsBuild *build, gint64 type_id, gint64 metric_id, gboolean add)
{
  guint32 type = sl_id_map_lookup (&build->types, (guint64) type_id, SL_NONE);

  if (type == SL_NONE && add)
    {
      type = build->types.n;
      sl_id_map_insert (&build->types, (guint64) type_id, type);
    }
  if (type == SL_NONE)
    return G_MAXUINT64;
  return ((guint64) type << 32) | (guint32) metric_id;
}

static void
add_series (MetricsBuild *build, SlProfile *profile, gint64 type_id, gint64 metric_id, const char *text)
{
  SlMetricSeries s = { 0 };
  guint cap = 0;
  guint64 key = series_key (build, type_id, metric_id, TRUE);

  if (sl_id_map_lookup (&build->index, key, SL_NONE) != SL_NONE)
    return;   /* listed twice */
  /* the device is the low byte of typeId: one type per GPU */
  s.device = (guint32) (type_id & 0xFF);
  s.gpu = SL_NONE;
  for (guint g = 0; g < profile->n_gpus; g++)
    if (profile->gpus[g].device == s.device)
      s.gpu = g;
  s.metric_id = (guint32) metric_id;
  split_name (text != NULL ? text : "", &s.name, &s.unit);
  s.percent = strchr (s.unit, '%') != NULL;
  sl_id_map_insert (&build->index, key, build->series->len);
  g_array_append_val (build->series, s);
  g_array_append_val (build->caps, cap);
}

static gboolean
read_metric_list (MetricsBuild *build, SlProfile *profile)
{
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;
  const char *t = "TARGET_INFO_GPU_METRICS";

  if (!_sl_loader_has_column (&build->loader, t, "typeId")
      || !_sl_loader_has_column (&build->loader, t, "metricId"))
    return FALSE;
  sql = g_strdup_printf ("SELECT typeId, metricId, %s FROM %s",
                         _sl_loader_column_or_null (&build->loader, t, "metricName"), t);
  if (sqlite3_prepare_v2 (build->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      g_autofree char *text = NULL;
      if (sqlite3_column_type (stmt, 0) != SQLITE_INTEGER || sqlite3_column_type (stmt, 1) != SQLITE_INTEGER)
        continue;
      if (sqlite3_column_text (stmt, 2) != NULL)
        text = g_utf8_make_valid ((const char *) sqlite3_column_text (stmt, 2), -1);
      else
        text = g_strdup_printf ("%s %" G_GINT64_FORMAT, _("Metric"), (gint64) sqlite3_column_int64 (stmt, 1));
      add_series (build, profile, sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1), text);
    }
  sqlite3_finalize (stmt);
  return TRUE;
}

static const char *const sample_columns[] = { "timestamp", "typeId", "metricId", "value" };

/* The value of a row: an integer as nsys writes it, else a real number in
 * its text; FALSE when it is neither. */
static gboolean
row_value (SlTableScan *scan, const gint64 *v, guint64 nulls, float *out)
{
  const char *text;
  gsize len;
  char buf[64], *end;

  if (!_sl_is_null (nulls, 3))
    {
      *out = (float) v[3];
      return TRUE;
    }
  text = _sl_table_scan_text (scan, 3, &len);
  if (text == NULL || len == 0 || len >= sizeof buf)
    return FALSE;
  memcpy (buf, text, len);
  buf[len] = '\0';
  *out = (float) g_ascii_strtod (buf, &end);
  return end != buf && *end == '\0' && isfinite (*out);
}

static void
sample_row (MetricsBuild *build, SlTableScan *scan, const gint64 *v, guint64 nulls)
{
  guint32 i;
  SlMetricSeries *s;
  guint *cap;
  float value;

  /* nsys's own reports drop negative timestamps: samples before the capture */
  if (_sl_is_null (nulls, 0) || v[0] < 0 || !_sl_time_is_sane (v[0]))
    {
      build->skipped_time++;
      return;
    }
  i = _sl_either_null (nulls, 1, 2) ? SL_NONE
      : sl_id_map_lookup (&build->index, series_key (build, v[1], v[2], FALSE), SL_NONE);
  if (i == SL_NONE)
    {
      build->skipped_metric++;
      return;
    }
  if (!row_value (scan, v, nulls, &value))
    {
      build->skipped_value++;
      return;
    }
  s = &g_array_index (build->series, SlMetricSeries, i);
  cap = &g_array_index (build->caps, guint, i);
  if (s->n == *cap)
    {
      *cap = MAX (256u, *cap * 2);
      s->time = g_renew (gint64, s->time, *cap);
      s->value = g_renew (float, s->value, *cap);
    }
  s->time[s->n] = v[0];
  s->value[s->n++] = value;
}

static gboolean
read_samples (MetricsBuild *build, int fd, GCancellable *cancellable, GError **error)
{
  SlTableScan *scan;
  gint64 v[G_N_ELEMENTS (sample_columns)];
  guint64 nulls, rows = 0;
  int rc;

  if (!_sl_loader_has_column (&build->loader, "GPU_METRICS", "timestamp"))
    return TRUE;
  scan = _sl_table_scan_open (build->db, fd, "GPU_METRICS", sample_columns, G_N_ELEMENTS (sample_columns), NULL);
  if (scan == NULL)
    {
      g_ptr_array_add (build->warnings, g_strdup (_("GPU_METRICS cannot be read: the GPU metrics are missing.")));
      return TRUE;
    }
  while (_sl_table_scan_next (scan, v, &nulls))
    {
      if (++rows % CHECK_ROWS == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        break;
      sample_row (build, scan, v, nulls);
    }
  rc = _sl_table_scan_error (scan);
  _sl_table_scan_free (scan);
  if (error != NULL && *error != NULL)
    return FALSE;
  if (rc != SQLITE_OK)
    g_ptr_array_add (build->warnings,
                     g_strdup_printf (_("The file is damaged while reading %s (%s): the rows after the damage are missing."),
                                      "GPU_METRICS", sqlite3_errstr (rc)));
  return TRUE;
}

/* Each series sorted by time, sized to fit, with its largest value. */
static void
finish_series (SlMetricSeries *s)
{
  g_autofree SlKeyIndex *pairs = NULL;
  guint i;

  for (i = 1; i < s->n && s->time[i - 1] <= s->time[i]; i++)
    ;
  if (i < s->n)
    {
      g_autofree guint32 *order = g_new (guint32, s->n);
      pairs = g_new (SlKeyIndex, s->n);
      for (i = 0; i < s->n; i++)
        pairs[i] = (SlKeyIndex) { _sl_time_key (s->time[i]), i };
      _sl_radix_sort (pairs, s->n);
      for (i = 0; i < s->n; i++)
        order[i] = pairs[i].index;
      _sl_permute (s->time, sizeof (gint64), order, s->n);
      _sl_permute (s->value, sizeof (float), order, s->n);
    }
  s->time = g_renew (gint64, s->time, s->n);
  s->value = g_renew (float, s->value, s->n);
  s->max = 0;
  for (i = 0; i < s->n; i++)
    s->max = MAX (s->max, s->value[i]);
}

static int
compare_series (gconstpointer a, gconstpointer b)
{
  const SlMetricSeries *x = a, *y = b;

  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  return (x->metric_id > y->metric_id) - (x->metric_id < y->metric_id);
}

static void
warn_skipped (MetricsBuild *build)
{
  guint64 n;

  if ((n = build->skipped_time) > 0)
    g_ptr_array_add (build->warnings, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
        "%" PRIu64 " GPU metric sample with a missing or negative time was skipped.",
        "%" PRIu64 " GPU metric samples with a missing or negative time were skipped.", n), n));
  if ((n = build->skipped_metric) > 0)
    g_ptr_array_add (build->warnings, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
        "%" PRIu64 " GPU metric sample of a metric TARGET_INFO_GPU_METRICS does not list was skipped.",
        "%" PRIu64 " GPU metric samples of metrics TARGET_INFO_GPU_METRICS does not list were skipped.", n), n));
  if ((n = build->skipped_value) > 0)
    g_ptr_array_add (build->warnings, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
        "%" PRIu64 " GPU metric sample without a value was skipped.",
        "%" PRIu64 " GPU metric samples without a value were skipped.", n), n));
}

static SlGpuMetrics *
metrics_finish (MetricsBuild *build)
{
  SlGpuMetrics *m = g_new0 (SlGpuMetrics, 1);

  m->ref_count = 1;
  for (guint i = 0; i < build->series->len; i++)
    {
      SlMetricSeries *s = &g_array_index (build->series, SlMetricSeries, i);
      finish_series (s);
      m->n_samples += s->n;
    }
  g_array_sort (build->series, compare_series);
  m->n_series = build->series->len;
  m->series = (SlMetricSeries *) g_array_free (g_steal_pointer (&build->series), FALSE);
  warn_skipped (build);
  m->warnings = g_steal_pointer (&build->warnings);
  return m;
}

static const char *const metric_tables[] = { "GPU_METRICS", "TARGET_INFO_GPU_METRICS" };

SlGpuMetrics *
sl_gpu_metrics_load (SlProfile     *profile,
                     GCancellable  *cancellable,
                     GError       **error)
{
  MetricsBuild build = { 0 };
  SlGpuMetrics *metrics = NULL;

  g_return_val_if_fail (profile != NULL, NULL);
  build.loader.display_path = profile->path;
  build.loader.tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
  build.series = g_array_new (FALSE, TRUE, sizeof (SlMetricSeries));
  build.caps = g_array_new (FALSE, TRUE, sizeof (guint));
  build.warnings = g_ptr_array_new_with_free_func (g_free);
  sl_id_map_init (&build.types, 16);
  sl_id_map_init (&build.index, 64);
  if (_sl_cpu_open_source (&build.loader, profile, &build.db, metric_tables, G_N_ELEMENTS (metric_tables), error)
      && !g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      if (!read_metric_list (&build, profile) && _sl_loader_has_column (&build.loader, "GPU_METRICS", "timestamp"))
        g_ptr_array_add (build.warnings, g_strdup (_("GPU_METRICS has no readable TARGET_INFO_GPU_METRICS: its samples cannot be named and are left out.")));
      if (read_samples (&build, _sl_cpu_source_fd (profile), cancellable, error))
        metrics = metrics_finish (&build);
    }
  if (build.series != NULL)
    {
      for (guint i = 0; i < build.series->len; i++)
        {
          SlMetricSeries *s = &g_array_index (build.series, SlMetricSeries, i);
          g_free (s->name); g_free (s->unit); g_free (s->time); g_free (s->value);
        }
      g_array_unref (build.series);
    }
  g_array_unref (build.caps);
  g_clear_pointer (&build.warnings, g_ptr_array_unref);
  sl_id_map_clear (&build.types);
  sl_id_map_clear (&build.index);
  g_hash_table_unref (build.loader.tables);
  sqlite3_close (build.db);
  return metrics;
}
