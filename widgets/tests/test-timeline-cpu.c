/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-timeline-cpu.c: the CPU side's and GPU counters' rows (issue 12,
 * items 1-3): the model's rows against SQL on the real profiles, the
 * samples' ticks and density, the counters' per-column statistics and the
 * hit test of a sample, all without a display. */
#include "sl-timeline-model.h"
#include "sl-timeline-layout.h"
#include "sl-timeline-hit.h"
#include "sl-timeline-samples.h"
#include "sl-timeline-metrics.h"
#include "sl-timeline-rows.h"
#include "sl-timeline-colors.h"
#include "sl-cpu-loader.h"
#include "sl-profile-loader.h"

#include <math.h>
#include <sqlite3.h>

static char *
profile_path (const char *name)
{
  const char *dir = g_getenv ("SL_PROFILES_DIR");

  return g_build_filename (dir ? dir : "../shared/profiles", name, NULL);
}

static SlTimelineModel *
load_model (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  g_autoptr(SlCpuActivity) cpu = NULL;
  g_autoptr(SlGpuMetrics) metrics = NULL;

  g_assert_no_error (error);
  cpu = sl_cpu_activity_load (profile, NULL, &error);
  g_assert_no_error (error);
  metrics = sl_gpu_metrics_load (profile, NULL, &error);
  g_assert_no_error (error);
  return sl_timeline_model_new_full (profile, NULL, cpu, metrics, NULL);
}

static guint
find_samples_row (const SlTimelineModel *m, guint64 global_tid)
{
  for (guint r = 0; r < m->n_rows; r++)
    if (m->rows[r].kind == SL_ROW_SAMPLES && m->cpu->threads[m->rows[r].index].global_tid == global_tid)
      return r;
  return SL_NONE;
}

/* One samples row per sampled thread, holding as many samples as the
 * table has for it, and a thread group (and process group) around it. */
static void
check_sample_rows (gconstpointer data)
{
  g_autofree char *path = profile_path (data);
  g_autoptr(SlTimelineModel) m = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  guint n_threads = 0, n_rows = 0;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("profile missing");
      return;
    }
  m = load_model (path);
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT globalTid, COUNT(*) FROM COMPOSITE_EVENTS GROUP BY globalTid",
                                       -1, &st, NULL), ==, SQLITE_OK);
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      guint r = find_samples_row (m, (guint64) sqlite3_column_int64 (st, 0));
      guint parent, grand;

      n_threads++;
      g_assert_cmpuint (r, !=, SL_NONE);
      g_assert_cmpuint (m->rows[r].n_events, ==, (guint) sqlite3_column_int64 (st, 1));
      parent = m->rows[r].parent;
      g_assert_true (m->rows[parent].kind == SL_ROW_THREAD || m->rows[parent].kind == SL_ROW_CPU_THREAD);
      grand = m->rows[parent].parent;
      g_assert_true (m->rows[grand].kind == SL_ROW_PROCESS || m->rows[grand].kind == SL_ROW_CPU_PROCESS);
      g_assert_cmpuint ((guint) ((guint64) sqlite3_column_int64 (st, 0) >> 24) & 0xffffff, ==,
                        m->cpu->threads[m->rows[r].index].pid);
    }
  sqlite3_finalize (st);
  sqlite3_close (db);
  for (guint r = 0; r < m->n_rows; r++)
    if (m->rows[r].kind == SL_ROW_SAMPLES)
      {
        g_autofree char *title = sl_timeline_row_title (m, r);
        n_rows++;
        g_assert_cmpstr (title, ==, "CPU samples");
      }
  g_assert_cmpuint (n_rows, ==, n_threads);
  g_assert_cmpuint (n_threads, >, 0);
  /* every sample is drawn: the time shown covers them */
  for (guint t = 0; t < m->cpu->n_threads; t++)
    if (m->cpu->threads[t].samples.n > 0)
      {
        g_assert_cmpint (m->cpu->threads[t].samples.time[0], >=, m->start_ns);
        g_assert_cmpint (m->cpu->threads[t].samples.time[m->cpu->threads[t].samples.n - 1], <=, m->end_ns);
      }
}

/* A click on a sample finds it, and names it by its leaf frame as SQL does. */
static void
check_hit_sample (void)
{
  g_autofree char *path = profile_path ("jacc-cg-cpu-sampling-only.sqlite");
  g_autoptr(SlTimelineModel) m = NULL;
  SlTimelineLayout *l;
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  SlEventRef ev;
  guint r;
  int y, h;
  gint64 t, gtid, s, e;
  const char *leaf;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("profile missing");
      return;
    }
  m = load_model (path);
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  /* the 1000th sample of the busiest thread, and its leaf frame */
  g_assert_cmpint (sqlite3_prepare_v2 (db,
    "SELECT c.start, c.globalTid, (SELECT s.value FROM SAMPLING_CALLCHAINS k JOIN StringIds s ON s.id = k.symbol "
    "WHERE k.id = c.id AND k.stackDepth = 0) FROM COMPOSITE_EVENTS c WHERE c.globalTid = "
    "(SELECT globalTid FROM COMPOSITE_EVENTS GROUP BY globalTid ORDER BY COUNT(*) DESC LIMIT 1) "
    "ORDER BY c.start LIMIT 1 OFFSET 1000", -1, &st, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
  t = sqlite3_column_int64 (st, 0);
  gtid = sqlite3_column_int64 (st, 1);
  leaf = (const char *) sqlite3_column_text (st, 2);

  l = sl_timeline_layout_new (m);
  sl_timeline_layout_set_size (l, 1200, 800);
  /* zoomed in so that samples (about a ms apart) are ticks */
  sl_timeline_layout_zoom_to (l, t - 5000000, t + 5000000, 0);
  r = find_samples_row (m, (guint64) gtid);
  g_assert_true (sl_timeline_layout_row_rect (l, r, &y, &h));
  g_assert_true (sl_timeline_layout_hit_test (l, l->header_width + sl_timeline_layout_time_to_x (l, t) + 1,
                                              y + h / 2, &ev));
  g_assert_cmpint (ev.kind, ==, SL_EVENT_SAMPLE);
  g_assert_true (sl_timeline_model_event_span (m, &ev, &s, &e));
  g_assert_cmpint (s, ==, t);
  g_assert_cmpuint (sl_timeline_model_event_row (m, &ev), ==, r);
  g_assert_cmpstr (sl_timeline_model_event_name (m, &ev), ==, leaf);
  sqlite3_finalize (st);
  sqlite3_close (db);
  sl_timeline_layout_free (l);
}

static void
samples_fill (SlCpuSamples *s, guint n, const gint64 *time, const guint8 *state)
{
  s->n = n;
  s->time = (gint64 *) time;
  s->state = (guint8 *) state;
}

static void
check_ticks_and_density (void)
{
  static const gint64 time[] = { 1000, 2000, 3000, 10000, 10100, 10200 };
  static const guint8 state[] = { SL_THREAD_STATE_RUNNING, SL_THREAD_STATE_WAITING, SL_THREAD_STATE_RUNNING,
                                  SL_THREAD_STATE_UNINTERRUPTIBLE, SL_THREAD_STATE_WAITING,
                                  SL_THREAD_STATE_WAITING };
  SlCpuSamples s = { 0 };
  float busy[400], best[400];
  guint8 color[400];
  SlCoverage cov = { busy, best, color };
  g_autoptr(GArray) boxes = g_array_new (FALSE, FALSE, sizeof (SlSampleTick));
  const SlSampleTick *b;

  samples_fill (&s, G_N_ELEMENTS (time), time, state);
  memset (busy, 0, sizeof busy), memset (best, 0, sizeof best), memset (color, 0, sizeof color);
  /* 10 ns per column: the 3 samples in view are ticks, one per sample */
  g_assert_cmpuint (sl_timeline_samples_merge (&s, 0, 10, 400, 1, FALSE, &cov, boxes), ==, 3);
  g_assert_cmpuint (boxes->len, ==, 3);
  b = &g_array_index (boxes, SlSampleTick, 1);
  g_assert_cmpint (b->x0, ==, 199);
  g_assert_cmpint (b->x1, ==, 202);
  g_assert_cmpuint (b->index, ==, 1);
  g_assert_cmphex (b->rgb, ==, sl_timeline_sample_state_rgb (SL_THREAD_STATE_WAITING));
  g_assert_cmphex (sl_timeline_sample_state_rgb (SL_THREAD_STATE_RUNNING), !=,
                   sl_timeline_sample_state_rgb (SL_THREAD_STATE_WAITING));
  /* 1000 ns per column, 12 columns: too dense, a strip; column 10 holds
   * three samples, two of them waiting */
  g_array_set_size (boxes, 0);
  g_assert_cmpuint (sl_timeline_samples_merge (&s, 0, 1000, 12, 1, FALSE, &cov, boxes), ==, 6);
  g_assert_cmpuint (boxes->len, ==, 0);
  g_assert_cmpfloat (busy[0], ==, 0);
  g_assert_cmpfloat (busy[1], >, 0);
  g_assert_cmpfloat (busy[10], >=, busy[1]);
  g_assert_cmpuint (color[1], ==, sl_timeline_sample_state_color (SL_THREAD_STATE_RUNNING));
  g_assert_cmpuint (color[10], ==, sl_timeline_sample_state_color (SL_THREAD_STATE_WAITING));
  g_assert_cmphex (sl_timeline_color_rgb (color[10]), ==, sl_timeline_sample_state_rgb (SL_THREAD_STATE_WAITING));
  /* the nearest sample within the tolerance */
  g_assert_cmpuint (sl_timeline_samples_nearest (&s, 1040, 100), ==, 0);
  g_assert_cmpuint (sl_timeline_samples_nearest (&s, 1600, 100), ==, SL_NONE);
  g_assert_cmpuint (sl_timeline_samples_nearest (&s, 1600, 500), ==, 1);
  g_assert_cmpuint (sl_timeline_samples_nearest (&s, 50000, 1e9), ==, 5);
}

static void
check_metric_columns (void)
{
  static gint64 time[] = { 0, 100, 200, 300, 1000 };
  static float value[] = { 10, 30, 20, 50, 40 };
  SlMetricSeries ser = { .n = 5, .time = time, .value = value, .max = 50, .percent = TRUE };
  float mn[8], mx[8], me[8];

  /* 250 ns columns: [0,250) holds 10, 30, 20; [250,500) holds 50; then
   * 50 holds until 1000; after the last sample nothing */
  sl_timeline_metric_columns (&ser, 0, 250, 6, mn, mx, me);
  g_assert_cmpfloat (mn[0], ==, 10);
  g_assert_cmpfloat (mx[0], ==, 30);
  g_assert_cmpfloat (fabsf (me[0] - 20), <, 1e-4);
  g_assert_cmpfloat (me[1], ==, 50);
  g_assert_cmpfloat (me[2], ==, 50);
  g_assert_cmpfloat (me[3], ==, 50);
  g_assert_cmpfloat (me[4], ==, 40);
  g_assert_true (isnan (me[5]));
  g_assert_cmpfloat (sl_timeline_metric_scale (&ser), ==, 100);
  ser.percent = FALSE;
  g_assert_cmpfloat (sl_timeline_metric_scale (&ser), ==, 50);
  /* before the view's first sample, the one in effect */
  sl_timeline_metric_columns (&ser, 150, 10, 2, mn, mx, me);
  g_assert_cmpfloat (me[0], ==, 30);
  g_assert_cmpuint (sl_timeline_metric_at (&ser, 150, 10), ==, 1);
  g_assert_cmpuint (sl_timeline_metric_at (&ser, 300, 10), ==, 3);
  g_assert_cmpuint (sl_timeline_metric_at (&ser, -50, 10), ==, SL_NONE);
  g_assert_cmpuint (sl_timeline_metric_at (&ser, 2000, 10), ==, SL_NONE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/widgets/timeline/cpu/sample-rows-jacc", "jacc-cg-cpu-sampling-only.sqlite", check_sample_rows);
  g_test_add_data_func ("/widgets/timeline/cpu/sample-rows-pipit", "pipit-saxpy-mpi-rank0.sqlite", check_sample_rows);
  g_test_add_func ("/widgets/timeline/cpu/hit-sample", check_hit_sample);
  g_test_add_func ("/widgets/timeline/cpu/ticks-and-density", check_ticks_and_density);
  g_test_add_func ("/widgets/timeline/cpu/metric-columns", check_metric_columns);
  return g_test_run ();
}
