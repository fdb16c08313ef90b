/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-cpu.c: "cpu_activity_load_ms": reading the CPU side (1 M CPU
 * samples with their stacks, OS runtime calls, sched events) and the GPU
 * metrics of a generated profile, after the profile itself. */
#include <errno.h>
#include <time.h>
#include <glib/gstdio.h>

#include "sightline.h"
#include "sl-bench-cpu.h"

#define CPU_SAMPLES 1000000
#define RUNS        3

/* A small GPU part; the CPU side is the point. */
static char *
ensure_cpu_profile (const char *gen, const char *cache_dir, GError **error)
{
  char *path = g_build_filename (cache_dir, "cpu-1m-samples-v1.sqlite", NULL);
  const char *argv[] = { gen, path, "--gpus", "2", "--processes", "2", "--threads", "4", "--kernels", "20000",
                         "--iterations", "10", "--gap-ns", "2000000", "--osrt", "5000",
                         "--cpu-samples", "1000000", "--gpu-metrics", "10000", "--seed", "1", NULL };
  int status = 0;

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return path;
  if (g_mkdir_with_parents (cache_dir, 0755) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "cannot create %s", cache_dir);
      g_free (path);
      return NULL;
    }
  g_printerr ("sightline-bench: generating %s (1 M CPU samples)...\n", path);
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, error)
      || !g_spawn_check_wait_status (status, error))
    {
      g_free (path);
      return NULL;
    }
  return path;
}

/* CPU time of this process, ms: unlike the wall time, it does not count
 * the other processes sharing the cores. */
static double
cpu_time_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Bytes of the samples and their shared stacks, per sample. */
static double
bytes_per_sample (const SlCpuActivity *a)
{
  guint64 frames = a->n_stacks > 0 ? a->frame_first[a->n_stacks] : 0;
  double bytes = (double) a->n_samples * (sizeof (gint64) + 1 + 2 + 4)
                 + (double) frames * 8 + (double) (a->n_stacks + 1) * 4;
  return a->n_samples > 0 ? bytes / (double) a->n_samples : 0.0;
}

void
sl_bench_cpu (const char *gen, const char *cache_dir, JsonObject *r)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = ensure_cpu_profile (gen, cache_dir, &error);
  g_autoptr(SlProfile) profile = NULL;
  double ms[RUNS], cpu_ms[RUNS], metrics_ms = 0;
  GStatBuf st;

  if (path == NULL || (profile = sl_profile_load (path, NULL, NULL, NULL, &error)) == NULL)
    {
      g_printerr ("sightline-bench: cpu activity: %s\n", error->message);
      return;
    }
  for (int i = 0; i < RUNS; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double c0 = cpu_time_ms ();
      g_autoptr(SlCpuActivity) a = sl_cpu_activity_load (profile, NULL, &error);
      ms[i] = (g_get_monotonic_time () - t0) / 1e3;
      cpu_ms[i] = cpu_time_ms () - c0;
      if (a == NULL)
        return;
      if (i == 0)
        {
          json_object_set_int_member (r, "cpu_activity_samples", (gint64) a->n_samples);
          json_object_set_int_member (r, "cpu_activity_stacks", a->n_stacks);
          json_object_set_double_member (r, "cpu_activity_bytes_per_sample", bytes_per_sample (a));
        }
    }
  for (int i = 0; i < RUNS; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(SlGpuMetrics) m = sl_gpu_metrics_load (profile, NULL, NULL);
      metrics_ms += (g_get_monotonic_time () - t0) / 1e3 / RUNS;
      if (i == 0 && m != NULL)
        json_object_set_int_member (r, "gpu_metrics_samples", (gint64) m->n_samples);
    }
  qsort (ms, RUNS, sizeof ms[0], compare_double);
  qsort (cpu_ms, RUNS, sizeof cpu_ms[0], compare_double);
  json_object_set_double_member (r, "cpu_activity_load_ms", ms[RUNS / 2]);
  json_object_set_double_member (r, "cpu_activity_load_cpu_ms", cpu_ms[RUNS / 2]);
  json_object_set_double_member (r, "gpu_metrics_load_ms", metrics_ms);
  if (g_stat (path, &st) == 0)
    json_object_set_int_member (r, "cpu_activity_file_bytes", (gint64) st.st_size);
}
