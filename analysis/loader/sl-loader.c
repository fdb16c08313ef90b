/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-loader.c: the order of a load: open the file once, read its schema,
 * metadata and strings, plan the tables of the parts asked for as jobs,
 * run them on the worker threads, assemble the profile, and check that
 * nobody wrote the file meanwhile. */
#include "sl-loader-private.h"
#include "sl-huge-pages.h"
#include "sl-recovery.h"
#include "sl-profile-cache-private.h"

#include <inttypes.h>
#include <malloc.h>
#include <stdarg.h>
#include <glib/gi18n-lib.h>

#include "sl-format.h"

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

static guint
loader_threads (const SlLoader *loader)
{
  const char *env = g_getenv ("SL_LOADER_THREADS");

  if (env != NULL)
    return (guint) CLAMP (g_ascii_strtoull (env, NULL, 10), 1, 4);
  if (loader->threads > 0)
    return MIN (loader->threads, 4);
  return CLAMP (g_get_num_processors (), 1, 2);
}

/* ---- one load ----------------------------------------------------------- */

static void
forward_cancel_cb (GCancellable *cancellable, gpointer private_cancellable)
{
  g_cancellable_cancel (private_cancellable);
}

static void
loader_init (SlLoader *loader, const char *path, const SlLoadOptions *options,
             SlProgressFunc progress, gpointer progress_data)
{
  loader->display_path = path;
  loader->parts = options != NULL && options->parts != 0 ? options->parts : SL_PARTS_ALL;
  loader->gpu_ready = options != NULL ? options->gpu_ready : NULL;
  loader->gpu_ready_data = options != NULL ? options->gpu_ready_data : NULL;
  loader->threads = options != NULL ? options->threads : 0;
  /* A private cancellable lets a failing worker stop the other one. */
  loader->cancellable = g_cancellable_new ();
  loader->progress = progress;
  loader->progress_data = progress_data;
  g_mutex_init (&loader->progress_lock);
  loader->max_event_ns = G_MAXINT64;   /* until the capture's duration is known */
  loader->tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
}

/* What the jobs fill besides their chunks, empty. */
static void
loader_init_builders (SlLoader *loader)
{
  loader->domains = g_array_new (FALSE, FALSE, sizeof (SlNvtxDomain));
  sl_id_map_init (&loader->thread_name_override, 16);
  loader->process_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  loader->gpu_arena = _sl_arena_new ();
  _sl_huge_pages_setup ();
}

static void
loader_clear (SlLoader *loader)
{
  g_clear_pointer (&loader->tables, g_hash_table_unref);
  g_clear_pointer (&loader->string_direct, g_free);
  sl_id_map_clear (&loader->string_sparse);
  _sl_load_jobs_clear (loader);
  g_clear_pointer (&loader->domains, g_array_unref);
  sl_id_map_clear (&loader->thread_name_override);
  g_clear_pointer (&loader->process_names, g_hash_table_unref);
  g_clear_pointer (&loader->gpu_arena, _sl_arena_unref);
  g_clear_pointer (&loader->gpu_strings, _sl_strings_free);
  g_clear_pointer (&loader->source, _sl_source_unref);
  g_clear_pointer (&loader->recovered, g_free);
  g_clear_object (&loader->cancellable);
  g_mutex_clear (&loader->progress_lock);
}

/* Slack on the capture's duration: an event far longer than the capture
 * is damage, but ANALYSIS_DETAILS is metadata, not a measured span (its
 * startTime is not even a safe origin), so it only bounds loosely. */
#define SL_CAPTURE_SLACK_NS G_GINT64_CONSTANT (1000000000)

/* ANALYSIS_DETAILS.duration, when the file has a plausible one, bounds
 * how long an event can be: twice the capture plus a second. */
static void
read_capture_duration (SlLoader *loader, sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;
  gint64 capture = 0;

  if (!_sl_loader_has_column (loader, "ANALYSIS_DETAILS", "duration"))
    return;
  if (sqlite3_prepare_v2 (db, "SELECT max(duration) FROM ANALYSIS_DETAILS", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_type (stmt, 0) == SQLITE_INTEGER)
    capture = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  if (capture <= 0 || capture >= SL_MAX_ABS_TIME)
    return;   /* damaged: no bound beyond ±2^62 ns */
  loader->capture_ns = capture;
  loader->max_event_ns = (guint64) MIN (2 * capture, G_MAXINT64 - SL_CAPTURE_SLACK_NS) + SL_CAPTURE_SLACK_NS;
}

/* "Skipped 3 events with impossible times (outside ±146 years or far
 * longer than the 2.20 s capture)." */
static void
warn_absurd_times (SlLoader *loader, gint absurd)
{
  g_autofree char *capture = NULL;

  if (absurd <= 0)
    return;
  if (loader->capture_ns <= 0)
    {
      _sl_loader_warn (loader, ngettext ("Skipped %d event with an impossible time (outside ±146 years).",
                                         "Skipped %d events with impossible times (outside ±146 years).", absurd),
                       absurd);
      return;
    }
  capture = sl_format_duration (loader->capture_ns);
  /* Translators: %s is the capture's duration, such as "2.20 s". */
  _sl_loader_warn (loader, ngettext ("Skipped %d event with an impossible time (outside ±146 years or far longer than the %s capture).",
                                     "Skipped %d events with impossible times (outside ±146 years or far longer than the %s capture).",
                                     absurd),
                   absurd, capture);
}

static void
add_skip_warnings (SlLoader *loader)
{
  SlProfile *profile = loader->profile;
  gint bad_time = g_atomic_int_get (&loader->skipped_bad_time);
  gint absurd = g_atomic_int_get (&loader->skipped_absurd_time);
  gint bad_string = g_atomic_int_get (&loader->skipped_bad_string);
  gint unpaired = g_atomic_int_get (&loader->skipped_nvtx_unpaired);

  if (bad_time > 0)
    _sl_loader_warn (loader, ngettext ("Skipped %d event whose end is before its start or missing.",
                                       "Skipped %d events whose end is before their start or missing.", bad_time),
                     bad_time);
  warn_absurd_times (loader, absurd);
  if (bad_string > 0)
    _sl_loader_warn (loader, ngettext ("Skipped %d event naming a string missing from StringIds.",
                                       "Skipped %d events naming strings missing from StringIds.", bad_string),
                     bad_string);
  if (unpaired > 0)
    _sl_loader_warn (loader, ngettext ("Skipped %d NVTX range without an end.",
                                       "Skipped %d NVTX ranges without an end.", unpaired),
                     unpaired);
  profile->counts.skipped_rows = (guint64) bad_time + (guint64) absurd + (guint64) bad_string + (guint64) unpaired;

  if ((loader->parts & SL_PART_API) && profile->counts.kernels > 0 &&
      profile->counts.kernels_linked < profile->counts.kernels)
    _sl_loader_warn (loader,
                     _("%" PRIu64 " of %" PRIu64 " kernels have no launching CUDA API call in the file (the capture was probably cut to a time window); they are shown without a launching thread."),
                     profile->counts.kernels - profile->counts.kernels_linked, profile->counts.kernels);
}

/* Progress outside the workers (which report through _sl_loader_tick). */
static void
report (SlLoader *loader, double fraction, const char *phase)
{
  if (loader->progress != NULL)
    loader->progress (fraction, phase, loader->progress_data);
}

/* Opens @file as the source; or, when SQLite would have to recover it
 * first (a -wal or a hot journal beside it), a private copy recovered as
 * SQLite would (sl-recovery.c).  The copy's folder is removed at once: the
 * open descriptor keeps the copy readable, kernel details included, and
 * nothing is left on disk. */
static gboolean
open_recovered (SlLoader *loader, const char *file, GCancellable *cancellable, GError **error)
{
  GError *local = NULL;
  g_autoptr(SlRecovery) recovery = _sl_recovery_new (file, loader->display_path, cancellable, &local);

  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  loader->source = _sl_source_open (recovery != NULL ? _sl_recovery_path (recovery) : file,
                                    loader->display_path, error);
  if (recovery != NULL && loader->source != NULL)
    loader->recovered = g_strdup (_sl_recovery_warning (recovery));
  return loader->source != NULL;
}

/* Opens the file to read: the file itself, or the SQLite export of a
 * .nsys-rep (converted with the user's nsys, cached), or their recovered
 * copy. */
static gboolean
open_source (SlLoader *loader, GCancellable *cancellable, GError **error)
{
  const char *path = loader->display_path;
  g_autofree char *converted = NULL;

  if (!_sl_is_nsys_rep_path (path))
    return open_recovered (loader, path, cancellable, error);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      /* the same message as for any missing file */
      _sl_source_unref (_sl_source_open (path, path, error));
      return FALSE;
    }
  report (loader, 0.0, _("Converting with nsys export"));
  converted = _sl_nsys_rep_convert (path, cancellable, error);
  return converted != NULL && open_recovered (loader, converted, cancellable, error);
}

/* The rows the jobs will read, for the progress bar. */
static gint64
estimate_job_rows (SlLoader *loader, sqlite3 *db)
{
  gint64 rows = _sl_schema_estimate_rows (loader, db, "StringIds");
  const char *seen = NULL;

  for (guint i = 0; i < loader->jobs->len; i++)
    {
      const SlJob *job = g_ptr_array_index (loader->jobs, i);
      if (job->read->table != seen)
        rows += job->table_rows;
      seen = job->read->table;
    }
  return rows;
}

/* Everything read through the first connection, before the workers:
 * schema, metadata, GPUs, process names, the string table, and the plan of
 * the jobs. */
static gboolean
read_catalog (SlLoader *loader, GError **error)
{
  sqlite3 *db = _sl_loader_open_db (loader, error);
  gboolean ok;

  if (db == NULL)
    return FALSE;
  ok = _sl_schema_read (loader, db, error) && _sl_load_jobs_plan (loader, db, loader_threads (loader), error);
  if (ok)
    {
      _sl_schema_read_meta (loader, db);
      read_capture_duration (loader, db);
      _sl_schema_read_gpus (loader, db);
      _sl_load_process_names (loader, db);
      loader->rows_total = estimate_job_rows (loader, db);
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

  loader_init_builders (loader);
  if (!read_catalog (loader, error))
    return FALSE;
  /* A staged GPU profile keeps the names as they are before NVTX adds
   * its own (the complete profile's table grows while it is shown). */
  if (loader->gpu_ready != NULL)
    loader->gpu_strings = _sl_strings_copy (loader->profile->strings);
  t0 = g_get_monotonic_time ();
  if (!_sl_load_jobs_run (loader, loader_threads (loader), error))
    return FALSE;
  _sl_loader_phase (loader, "events", t0);

  report (loader, 0.95, _("Linking GPU work to CPU calls"));
  t0 = g_get_monotonic_time ();
  _sl_profile_assemble (loader);
  loader->assembled = TRUE;
  _sl_loader_phase (loader, "assemble", t0);
  add_skip_warnings (loader);
  if (!_sl_source_unchanged (loader->source, error))
    return FALSE;
  report (loader, 1.0, _("Done"));
  return TRUE;
}

SlProfile *
sl_profile_load_with (const char          *path,
                      const SlLoadOptions *options,
                      GCancellable        *cancellable,
                      SlProgressFunc       progress,
                      gpointer             progress_data,
                      GError             **error)
{
  SlLoader loader = { 0 };
  SlProfile *profile = NULL;
  g_autofree char *identity = NULL;
  gboolean ok = FALSE;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  loader_init (&loader, path, options, progress, progress_data);
  gulong handler = cancellable != NULL
    ? g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel_cb), loader.cancellable, NULL)
    : 0;
  report (&loader, 0.0, _("Opening"));
  if (open_source (&loader, cancellable, error))
    profile = _sl_profile_cache_load (loader.source, path, loader.parts, &identity);
  ok = profile != NULL;
  if (!ok && loader.source != NULL)
    {
      profile = loader.profile = _sl_profile_new (path);
      profile->parts = loader.parts;
      if (loader.recovered != NULL)
        _sl_loader_warn (&loader, "%s", loader.recovered);
      _sl_profile_set_source (profile, _sl_source_fd (loader.source),
                              _sl_source_ref (loader.source), (GDestroyNotify) _sl_source_unref);
      ok = read_profile (&loader, error);
      /* What a failed load assembled is freed with the profile, GPU
       * names read with the catalog included. */
      if (!ok && !loader.assembled && !loader.gpu_adopted)
        _sl_profile_adopt_gpu_data (profile, _sl_profile_arena (profile));
      if (!ok && !loader.assembled)
        _sl_profile_adopt_own (profile);
      if (ok)
        _sl_profile_cache_store (profile, g_steal_pointer (&identity));
    }
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  loader_clear (&loader);
  /* The builders' doubling arrays and the parts merged away leave free
   * memory in every worker's malloc arena: give it back (glibc).  Not
   * under AddressSanitizer, whose allocator is not glibc's: there
   * malloc_trim() walks arenas glibc never set up and crashed when two
   * loads ended at once (sightline-cli compare). */
#if !defined(__SANITIZE_ADDRESS__)
  malloc_trim (0);
#endif
  if (!ok && profile != NULL)
    g_clear_pointer (&profile, sl_profile_unref);
  return profile;
}

SlProfile *
sl_profile_load (const char     *path,
                 GCancellable   *cancellable,
                 SlProgressFunc  progress,
                 gpointer        progress_data,
                 GError        **error)
{
  return sl_profile_load_with (path, NULL, cancellable, progress, progress_data, error);
}
