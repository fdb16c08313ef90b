/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-loader.c: reading the CPU side of an export after its profile,
 * through the descriptor the profile was read from (the same file even if
 * its path now names another).  Stacks first, so that each sample and
 * call gets its stack as it is read. */
#include "sl-cpu-loader-private.h"
#include "sl-fd-vfs.h"

#include <glib/gi18n-lib.h>

static const char *const cpu_tables[] = {
  "OSRT_API", "OSRT_CALLCHAINS", "COMPOSITE_EVENTS", "SAMPLING_CALLCHAINS", "SCHED_EVENTS", "StringIds", "ThreadNames",
};

static void
build_init (SlCpuBuild *build, SlProfile *profile, GCancellable *cancellable)
{
  memset (build, 0, sizeof *build);
  build->loader.display_path = profile->path;
  build->loader.tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
  build->loader.max_event_ns = G_MAXINT64;
  build->fd = _sl_cpu_source_fd (profile);
  build->cancellable = cancellable;
  build->threads = g_ptr_array_new ();
  sl_id_map_init (&build->thread_index, 64);
  sl_id_map_init (&build->name_index, 1024);
  build->name_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  _sl_cpu_build_stacks_init (build);
  sl_id_map_init (&build->sample_stacks.sparse, 16);
  sl_id_map_init (&build->osrt_stacks.sparse, 16);
  build->warnings = g_ptr_array_new_with_free_func (g_free);
}

static void
build_clear (SlCpuBuild *build)
{
  /* builders left by a failed read; a finished one took them */
  for (guint i = 0; i < build->threads->len; i++)
    {
      SlCpuThreadBuilder *t = g_ptr_array_index (build->threads, i);
      if (t != NULL)
        _sl_cpu_thread_builder_free (t);
    }
  g_ptr_array_unref (build->threads);
  sl_id_map_clear (&build->thread_index);
  sl_id_map_clear (&build->name_index);
  g_array_unref (build->name_ids);
  _sl_cpu_build_stacks_clear (build);
  _sl_cpu_chain_map_clear (&build->sample_stacks);
  _sl_cpu_chain_map_clear (&build->osrt_stacks);
  g_free (build->name_direct);
  g_clear_pointer (&build->warnings, g_ptr_array_unref);
  g_hash_table_unref (build->loader.tables);
  sqlite3_close (build->db);
}

int
_sl_cpu_source_fd (const SlProfile *profile)
{
  /* a subset (a scope's profile) reads the file of the profile it came from */
  while (profile->source_fd < 0 && profile->parent != NULL)
    profile = profile->parent;
  return profile->source_fd;
}

/* Opens the profile's file; FALSE with @error when it cannot be read. */
gboolean
_sl_cpu_open_source (SlLoader *loader, SlProfile *profile, sqlite3 **db, const char *const *tables,
                     guint n_tables, GError **error)
{
  int rc;

  if (_sl_cpu_source_fd (profile) < 0)
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_FAILED,
                   _("The CPU activity is not available: the profile was not read from a file."));
      return FALSE;
    }
  rc = _sl_fd_vfs_open (_sl_cpu_source_fd (profile), db);
  if (rc != SQLITE_OK)
    return _sl_loader_step_error (loader, *db, rc, _("the CPU activity"), error);
  /* Only columns this nsys version wrote are named in the queries. */
  for (guint i = 0; i < n_tables; i++)
    _sl_schema_read_table (loader, *db, tables[i]);
  return TRUE;
}

SlCpuActivity *
sl_cpu_activity_load (SlProfile     *profile,
                      GCancellable  *cancellable,
                      GError       **error)
{
  SlCpuBuild build;
  SlCpuActivity *activity = NULL;

  g_return_val_if_fail (profile != NULL, NULL);
  build_init (&build, profile, cancellable);
  if (_sl_cpu_open_source (&build.loader, profile, &build.db, cpu_tables, G_N_ELEMENTS (cpu_tables), error)
      && _sl_cpu_build_check (&build, error)
      && _sl_cpu_read_osrt (&build, error)
      && _sl_cpu_read_samples (&build, error)
      && _sl_cpu_read_sched (&build, error)
      && _sl_cpu_build_check (&build, error))
    {
      _sl_cpu_read_thread_names (&build);
      activity = _sl_cpu_build_finish (&build, profile);
    }
  build_clear (&build);
  return activity;
}

/* ---- async -------------------------------------------------------------- */

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  SlCpuActivity *activity = sl_cpu_activity_load (task_data, cancellable, &error);

  if (activity != NULL)
    g_task_return_pointer (task, activity, (GDestroyNotify) sl_cpu_activity_unref);
  else
    g_task_return_error (task, error);
}

void
sl_cpu_activity_load_async (SlProfile           *profile,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (profile != NULL);
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_cpu_activity_load_async);
  g_task_set_name (task, "sightline-cpu-activity");
  g_task_set_task_data (task, sl_profile_ref (profile), (GDestroyNotify) sl_profile_unref);
  g_task_run_in_thread (task, load_thread);
}

SlCpuActivity *
sl_cpu_activity_load_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
