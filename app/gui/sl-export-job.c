/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-job.c: an export in a GTask thread.
 *
 * Writers report progress as often as they like from the worker; the job
 * keeps the latest fraction and has at most one idle callback pending, so
 * the main loop sees one update per iteration however fast they call.
 *
 * The GUI tests cancel an export midway; exports are too quick for a
 * keystroke to land midway, so in the test mode (SIGHTLINE_TEST_STATE)
 * SIGHTLINE_TEST_EXPORT_HOLD=FILE holds the worker at its first progress
 * report, the export half written, while FILE exists or until cancelled. */
#include "sl-export-job.h"
#include "sl-capture-env.h"
#include "sl-launch-table.h"

typedef struct {
  SlProfile           *profile;
  SlExportRequest     *request;
  char                *path;
  SlExportJobProgress  progress;
  GObject             *progress_data;
  GCancellable        *cancellable;    /* nullable */
  char                *hold_path;      /* test mode only, see above */
  gint                 fraction_ppm;   /* atomic: the latest fraction, in millionths */
  gint                 idle_pending;   /* atomic */
} Job;

SlExportRequest *
sl_export_request_new (void)
{
  SlExportRequest *request = g_new0 (SlExportRequest, 1);

  request->format = SL_EXPORT_HTML;
  request->names = SL_NAMES_SHORT;
  return request;
}

void
sl_export_request_free (SlExportRequest *request)
{
  if (request == NULL)
    return;
  g_clear_pointer (&request->filter, sl_filter_free);
  g_clear_pointer (&request->bookmarks, g_ptr_array_unref);
  g_free (request->scope_label);
  g_strfreev (request->environment);
  g_free (request);
}

static void
job_clear (Job *job)
{
  sl_profile_unref (job->profile);
  sl_export_request_free (job->request);
  g_free (job->path);
  g_clear_object (&job->progress_data);
  g_clear_object (&job->cancellable);
  g_free (job->hold_path);
}

static Job *
job_ref (Job *job)
{
  return g_atomic_rc_box_acquire (job);
}

static void
job_unref (Job *job)
{
  g_atomic_rc_box_release_full (job, (GDestroyNotify) job_clear);
}

static gboolean
progress_idle_cb (gpointer data)
{
  Job *job = data;

  g_atomic_int_set (&job->idle_pending, 0);
  if (job->progress != NULL)
    job->progress (g_atomic_int_get (&job->fraction_ppm) / 1e6, job->progress_data);
  return G_SOURCE_REMOVE;
}

/* In the worker. */
static void
worker_progress_cb (double fraction, gpointer data)
{
  Job *job = data;

  g_atomic_int_set (&job->fraction_ppm, (gint) (CLAMP (fraction, 0.0, 1.0) * 1e6));
  if (g_atomic_int_compare_and_exchange (&job->idle_pending, 0, 1))
    g_idle_add_full (G_PRIORITY_DEFAULT, progress_idle_cb, job_ref (job), (GDestroyNotify) job_unref);
  while (job->hold_path != NULL && g_file_test (job->hold_path, G_FILE_TEST_EXISTS) &&
         !g_cancellable_is_cancelled (job->cancellable))
    g_usleep (10 * 1000);
}

static void
export_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  SlExportRequest *r = job->request;
  SlExportOptions options = {
    .format = r->format,
    .filter = r->filter,
    .names = r->names,
    .bookmarks = r->bookmarks,
    .scope_label = r->scope_label,
    .include_environment = r->include_environment,
    .environment = r->include_environment ? r->environment : NULL,
    .launch = sl_launch_table_reader (),
  };
  GError *error = NULL;

  /* read here: a query on the file, off the main thread */
  if (r->include_environment && r->environment == NULL)
    {
      r->environment = sl_capture_env_read (job->profile->path, &error);
      if (r->environment == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      options.environment = r->environment;
    }
  if (sl_export_to_path (job->profile, &options, job->path, worker_progress_cb, job, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
sl_export_job_run (SlProfile           *profile,
                   SlExportRequest     *request,
                   const char          *path,
                   GCancellable        *cancellable,
                   SlExportJobProgress  progress,
                   gpointer             progress_data,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (profile != NULL && request != NULL && path != NULL);

  job = g_atomic_rc_box_new0 (Job);
  job->profile = sl_profile_ref (profile);
  job->request = request;
  job->path = g_strdup (path);
  job->progress = progress;
  job->progress_data = progress_data != NULL ? g_object_ref (progress_data) : NULL;
  job->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  if (g_getenv ("SIGHTLINE_TEST_STATE") != NULL)
    job->hold_path = g_strdup (g_getenv ("SIGHTLINE_TEST_EXPORT_HOLD"));
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_export_job_run);
  g_task_set_task_data (task, job, (GDestroyNotify) job_unref);
  g_task_run_in_thread (task, export_thread);
}

gboolean
sl_export_job_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
