/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-loader.c: the order of a load: check the file, read its schema,
 * metadata and strings through one connection, then the GPU and CPU
 * tables through two workers in parallel, then assemble the profile. */
#include "sl-loader-private.h"

#include <stdarg.h>
#include <glib/gi18n-lib.h>

/* ---- shared by the workers ---------------------------------------------- */

void
_sl_loader_phase (SlLoader *loader, const char *phase, gint64 since_us)
{
  static int enabled = -1;

  if (enabled < 0)
    enabled = g_getenv ("SL_LOADER_TIMING") != NULL;
  if (enabled)
    g_printerr ("sl-loader: %-24s %8.3f s\n", phase, (double) (g_get_monotonic_time () - since_us) / 1e6);
}

void
_sl_loader_warn (SlLoader *loader, const char *format, ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_mutex_lock (&loader->progress_lock);
  g_ptr_array_add (loader->profile->warnings, message);
  g_mutex_unlock (&loader->progress_lock);
}

gboolean
_sl_loader_tick (SlLoader *loader, gint64 rows, GError **error)
{
  gint64 done = __atomic_add_fetch (&loader->rows_done, rows, __ATOMIC_RELAXED);

  if (g_cancellable_is_cancelled (loader->cancellable))
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED,
                   _("Opening “%s” was cancelled."), loader->display_path);
      return FALSE;
    }
  if (loader->progress != NULL && loader->rows_total > 0)
    {
      double fraction = CLAMP ((double) done / (double) loader->rows_total, 0.0, 1.0);
      g_mutex_lock (&loader->progress_lock);
      loader->progress (0.05 + 0.9 * fraction, _("Reading events"), loader->progress_data);
      g_mutex_unlock (&loader->progress_lock);
    }
  return TRUE;
}

/* ---- the two workers ---------------------------------------------------- */

typedef struct {
  SlLoader *loader;
  gboolean (*load) (SlLoader *, sqlite3 *, GError **);
  GError   *error;
  gboolean  ok;
} Worker;

static gpointer
run_worker (gpointer data)
{
  Worker *worker = data;
  sqlite3 *db = _sl_loader_open_db (worker->loader, &worker->error);

  if (db == NULL)
    return NULL;
  worker->ok = worker->load (worker->loader, db, &worker->error);
  sqlite3_close (db);
  if (!worker->ok)
    /* Let the other worker stop early too. */
    g_cancellable_cancel (worker->loader->cancellable);
  return NULL;
}

static guint
loader_threads (void)
{
  const char *env = g_getenv ("SL_LOADER_THREADS");

  if (env != NULL)
    return (guint) CLAMP (g_ascii_strtoull (env, NULL, 10), 1, 2);
  return g_get_num_processors () > 1 ? 2 : 1;
}

/* The error to report: a worker's own failure rather than the
 * cancellation it caused in the other.  Clears both. */
static void
propagate_first_error (GError **error, GError **gpu, GError **cpu)
{
  GError **first = NULL;

  if (*gpu != NULL && !g_error_matches (*gpu, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED))
    first = gpu;
  else if (*cpu != NULL && !g_error_matches (*cpu, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED))
    first = cpu;
  else if (*gpu != NULL)
    first = gpu;
  else if (*cpu != NULL)
    first = cpu;
  g_propagate_error (error, g_steal_pointer (first));
  g_clear_error (gpu);
  g_clear_error (cpu);
}

static gboolean
load_events (SlLoader *loader, GError **error)
{
  Worker gpu = { loader, _sl_load_gpu, NULL, FALSE };
  Worker cpu = { loader, _sl_load_cpu, NULL, FALSE };

  /* GPU activity and CPU activity are independent tables of similar size:
   * one connection each keeps both cores busy. */
  if (loader_threads () > 1)
    {
      GThread *thread = g_thread_new ("sl-load-gpu", run_worker, &gpu);
      run_worker (&cpu);
      g_thread_join (thread);
    }
  else
    {
      run_worker (&gpu);
      if (gpu.ok)
        run_worker (&cpu);
    }
  if (gpu.error == NULL && cpu.error == NULL)
    return TRUE;
  propagate_first_error (error, &gpu.error, &cpu.error);
  return FALSE;
}

/* ---- one load ----------------------------------------------------------- */

static void
forward_cancel_cb (GCancellable *cancellable, gpointer private_cancellable)
{
  g_cancellable_cancel (private_cancellable);
}

static void
loader_init (SlLoader *loader, const char *path, SlProgressFunc progress, gpointer progress_data)
{
  loader->display_path = path;
  /* A private cancellable lets a failing worker stop the other one. */
  loader->cancellable = g_cancellable_new ();
  loader->progress = progress;
  loader->progress_data = progress_data;
  g_mutex_init (&loader->progress_lock);
  loader->tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
}

/* The workers' builders and indexes, empty. */
static void
loader_init_builders (SlLoader *loader)
{
  loader->stream_builders = g_ptr_array_new_with_free_func (_sl_stream_builder_free);
  loader->thread_builders = g_ptr_array_new_with_free_func (_sl_thread_builder_free);
  loader->funcs = g_array_new (FALSE, FALSE, sizeof (SlKernelFunc));
  loader->domains = g_array_new (FALSE, FALSE, sizeof (SlNvtxDomain));
  sl_id_map_init (&loader->stream_index, 64);
  sl_id_map_init (&loader->func_index, 1024);
  sl_id_map_init (&loader->thread_index, 256);
  sl_id_map_init (&loader->thread_name_override, 16);
  loader->process_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
}

static void
loader_clear (SlLoader *loader)
{
  g_clear_pointer (&loader->tables, g_hash_table_unref);
  g_clear_pointer (&loader->string_direct, g_free);
  sl_id_map_clear (&loader->string_sparse);
  g_clear_pointer (&loader->stream_builders, g_ptr_array_unref);
  sl_id_map_clear (&loader->stream_index);
  sl_id_map_clear (&loader->func_index);
  g_clear_pointer (&loader->funcs, g_array_unref);
  g_clear_pointer (&loader->thread_builders, g_ptr_array_unref);
  sl_id_map_clear (&loader->thread_index);
  g_clear_pointer (&loader->domains, g_array_unref);
  sl_id_map_clear (&loader->thread_name_override);
  g_clear_pointer (&loader->process_names, g_hash_table_unref);
  g_clear_pointer (&loader->db_path, g_free);
  g_clear_pointer (&loader->recovery, _sl_recovery_free);
  g_clear_object (&loader->cancellable);
  g_mutex_clear (&loader->progress_lock);
}

static void
add_skip_warnings (SlLoader *loader)
{
  SlProfile *profile = loader->profile;
  gint bad_time = g_atomic_int_get (&loader->skipped_bad_time);
  gint bad_string = g_atomic_int_get (&loader->skipped_bad_string);
  gint unpaired = g_atomic_int_get (&loader->skipped_nvtx_unpaired);

  if (bad_time > 0)
    _sl_loader_warn (loader, ngettext ("Skipped %d event whose end is before its start or missing.",
                                       "Skipped %d events whose end is before their start or missing.", bad_time),
                     bad_time);
  if (bad_string > 0)
    _sl_loader_warn (loader, ngettext ("Skipped %d event naming a string missing from StringIds.",
                                       "Skipped %d events naming strings missing from StringIds.", bad_string),
                     bad_string);
  if (unpaired > 0)
    _sl_loader_warn (loader, ngettext ("Skipped %d NVTX range without an end.",
                                       "Skipped %d NVTX ranges without an end.", unpaired),
                     unpaired);
  profile->counts.skipped_rows = (guint64) bad_time + (guint64) bad_string + (guint64) unpaired;

  if (profile->counts.kernels > 0 && profile->counts.kernels_linked < profile->counts.kernels)
    _sl_loader_warn (loader,
                     _("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " kernels have no launching CUDA API call in the file (the capture was probably cut to a time window); they are shown without a launching thread."),
                     profile->counts.kernels - profile->counts.kernels_linked, profile->counts.kernels);
}

/* Progress outside the workers (which report through _sl_loader_tick). */
static void
report (SlLoader *loader, double fraction, const char *phase)
{
  if (loader->progress != NULL)
    loader->progress (fraction, phase, loader->progress_data);
}

/* When SQLite would have to recover db_path first (a -wal or a hot
 * journal beside it), points db_path to a private copy recovered as SQLite
 * would: the profile itself is never written (sl-recovery.c). */
static gboolean
use_recovered_copy (SlLoader *loader, GCancellable *cancellable, GError **error)
{
  GError *local = NULL;

  loader->recovery = _sl_recovery_new (loader->db_path, loader->display_path, cancellable, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (loader->recovery != NULL)
    {
      g_free (loader->db_path);
      loader->db_path = g_strdup (_sl_recovery_path (loader->recovery));
    }
  return TRUE;
}

/* Sets db_path: the file itself, or the SQLite export of a .nsys-rep
 * (converted with the user's nsys, cached), or their recovered copy. */
static gboolean
locate_database (SlLoader *loader, GCancellable *cancellable, GError **error)
{
  const char *path = loader->display_path;

  if (!_sl_is_nsys_rep_path (path))
    {
      loader->db_path = g_strdup (path);
      return use_recovered_copy (loader, cancellable, error);
    }
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      _sl_file_check (path, path, error);
      return FALSE;
    }
  report (loader, 0.0, _("Converting with nsys export"));
  loader->db_path = _sl_nsys_rep_convert (path, cancellable, error);
  return loader->db_path != NULL && use_recovered_copy (loader, cancellable, error);
}

/* Everything read through the first connection, before the workers:
 * schema, metadata, GPUs and the string table. */
static gboolean
read_catalog (SlLoader *loader, GError **error)
{
  sqlite3 *db = _sl_loader_open_db (loader, error);
  gboolean ok;

  if (db == NULL)
    return FALSE;
  ok = _sl_schema_read (loader, db, error);
  if (ok)
    {
      _sl_schema_read_meta (loader, db);
      _sl_schema_read_gpus (loader, db);
      loader->rows_total = _sl_schema_estimate_rows (loader, db);
      report (loader, 0.02, _("Reading names"));
      gint64 t0 = g_get_monotonic_time ();
      ok = _sl_string_table_read (loader, db, error);
      if (ok)
        _sl_loader_phase (loader, "strings", t0);
    }
  sqlite3_close (db);
  return ok;
}

static gboolean
read_profile (SlLoader *loader, GError **error)
{
  gint64 t0;

  if (!read_catalog (loader, error))
    return FALSE;
  loader_init_builders (loader);
  t0 = g_get_monotonic_time ();
  if (!load_events (loader, error))
    return FALSE;
  _sl_loader_phase (loader, "events", t0);

  report (loader, 0.95, _("Linking GPU work to CPU calls"));
  t0 = g_get_monotonic_time ();
  _sl_profile_assemble (loader);
  _sl_loader_phase (loader, "assemble", t0);
  add_skip_warnings (loader);
  report (loader, 1.0, _("Done"));
  return TRUE;
}

SlProfile *
sl_profile_load (const char     *path,
                 GCancellable   *cancellable,
                 SlProgressFunc  progress,
                 gpointer        progress_data,
                 GError        **error)
{
  SlLoader loader = { 0 };
  SlProfile *profile = NULL;
  gboolean ok = FALSE;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  loader_init (&loader, path, progress, progress_data);
  gulong handler = cancellable != NULL
    ? g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel_cb), loader.cancellable, NULL)
    : 0;
  report (&loader, 0.0, _("Opening"));
  if (locate_database (&loader, cancellable, error) && _sl_file_check (loader.db_path, path, error))
    {
      profile = loader.profile = _sl_profile_new (path);
      if (loader.recovery != NULL)
        _sl_loader_warn (&loader, "%s", _sl_recovery_warning (loader.recovery));
      ok = read_profile (&loader, error);
    }
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  loader_clear (&loader);
  if (!ok && profile != NULL)
    g_clear_pointer (&profile, sl_profile_unref);
  return profile;
}
