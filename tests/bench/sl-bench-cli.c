/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-cli.c: "cli_ms" and "sqlite_group_by_ms" of sightline-bench.
 *
 * What a user of the command line waits for: each sightline-cli command
 * run as a fresh process on the profile (the median of a few runs, file in
 * the page cache, the cache of loaded profiles off so that every run reads
 * the export), and beside it the sqlite3 shell answering the question
 * `kernels --gpu 0` answers — per-name count and total for GPU 0 — so that
 * the ratio is measured in the same run.  Runs in the parent process. */
#include "sl-bench-cli.h"

#include <glib/gstdio.h>

#define RUNS 5

/* The commands: the key in "cli_ms", then the arguments; "kernels" is
 * `kernels --gpu 0`, like the SQL.  `tree` prints every range instance with
 * its kernels (1.25 M lines, 160 MB on the 1 M-kernel profile), so it is
 * timed as printed and, as a question of the size of the others, to the
 * depth of the layers' operations. */
static const char *const commands[][5] = {
  { "info", "info", NULL }, { "kernels", "kernels", "--gpu", "0", NULL }, { "api", "api", NULL },
  { "nvtx", "nvtx", NULL }, { "memcpy", "memcpy", NULL }, { "gaps", "gaps", NULL },
  { "overlap", "overlap", NULL }, { "nccl", "nccl", NULL }, { "iterations", "iterations", NULL },
  { "launch", "launch", NULL }, { "categories", "categories", NULL }, { "tree", "tree", NULL },
  { "tree --depth 3", "tree", "--depth", "3", NULL }, { "search", "search", "gemm", NULL },
  { "compare", "compare", NULL },
};

static const char group_by_sql[] =
  "SELECT shortName, count(*), sum(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL "
  "WHERE deviceId = 0 GROUP BY shortName;";

/* Wall time of one run of @argv, output discarded; < 0 when it failed. */
static double
run_ms (char **argv, char **envp)
{
  gint64 t0 = g_get_monotonic_time ();
  int status = 0;
  g_autoptr(GError) error = NULL;

  if (!g_spawn_sync (NULL, argv, envp, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, NULL))
    return -1;
  return (g_get_monotonic_time () - t0) / 1000.0;
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median_ms (char **argv, char **envp)
{
  double runs[RUNS];

  for (int i = 0; i < RUNS; i++)
    if ((runs[i] = run_ms (argv, envp)) < 0)
      return -1;
  qsort (runs, RUNS, sizeof runs[0], compare_doubles);
  return runs[RUNS / 2];
}

/* argv of command @c on @path (compare gets the profile twice). */
static GPtrArray *
command_argv (const char *cli, guint c, const char *path)
{
  GPtrArray *argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 1; commands[c][i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) commands[c][i]);
  if (g_str_equal (commands[c][1], "compare"))
    g_ptr_array_add (argv, (gpointer) path);
  g_ptr_array_add (argv, (gpointer) path);
  g_ptr_array_add (argv, NULL);
  return argv;
}

void
sl_bench_cli (const char *cli, const char *path, JsonObject *result)
{
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "SIGHTLINE_NO_CACHE", "1", TRUE);
  JsonObject *times = json_object_new ();
  g_autofree char *sqlite3 = g_find_program_in_path ("sqlite3");

  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      g_autoptr(GPtrArray) argv = command_argv (cli, c, path);
      json_object_set_double_member (times, commands[c][0], median_ms ((char **) argv->pdata, envp));
    }
  json_object_set_object_member (result, "cli_ms", times);
  if (sqlite3 != NULL)
    {
      char *argv[] = { sqlite3, "-readonly", (char *) path, (char *) group_by_sql, NULL };
      json_object_set_double_member (result, "sqlite_group_by_ms", median_ms (argv, envp));
    }
  else
    json_object_set_null_member (result, "sqlite_group_by_ms");
}
