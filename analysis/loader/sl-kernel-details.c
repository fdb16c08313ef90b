/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-kernel-details.c: the launch configuration of one kernel, read by
 * rowid from the export when the user asks about that kernel.  The model
 * keeps 24 bytes per kernel; these columns would triple that. */
#include "sl-kernel-details.h"
#include "sl-loader-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#define KERNEL_TABLE "CUPTI_ACTIVITY_KIND_KERNEL"

/* Integer columns in the order of SlKernelDetails' gint64 fields. */
static const char *const int_columns[] = {
  "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
  "registersPerThread", "staticSharedMemory", "dynamicSharedMemory",
};

static gint64 *
int_slot (SlKernelDetails *details, gsize column)
{
  gint64 *slots[] = { &details->grid[0], &details->grid[1], &details->grid[2],
                      &details->block[0], &details->block[1], &details->block[2],
                      &details->registers_per_thread, &details->static_shared_bytes,
                      &details->dynamic_shared_bytes };
  G_STATIC_ASSERT (G_N_ELEMENTS (slots) == G_N_ELEMENTS (int_columns));
  return slots[column];
}

static char *
details_query (SlLoader *loader)
{
  GString *sql = g_string_new ("SELECT ");

  for (gsize i = 0; i < G_N_ELEMENTS (int_columns); i++)
    g_string_append_printf (sql, "%s, ", _sl_loader_column_or_null (loader, KERNEL_TABLE, int_columns[i]));
  g_string_append (sql, _sl_loader_has_column (loader, KERNEL_TABLE, "mangledName")
                          ? "(SELECT value FROM StringIds WHERE id = mangledName)" : "NULL");
  g_string_append (sql, " FROM " KERNEL_TABLE " WHERE rowid = ?");
  return g_string_free (sql, FALSE);
}

static gboolean
query_details (SlLoader *loader, sqlite3 *db, gint64 rowid, SlKernelDetails *out, GError **error)
{
  g_autofree char *sql = details_query (loader);
  const int mangled = G_N_ELEMENTS (int_columns);
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return _sl_loader_step_error (loader, db, rc, _("the kernel details"), error);
  sqlite3_bind_int64 (stmt, 1, rowid);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      sqlite3_finalize (stmt);
      /* the row the model came from is gone: the file changed under us */
      return _sl_loader_step_error (loader, db, rc == SQLITE_DONE ? SQLITE_CORRUPT : rc,
                                    _("the kernel details"), error);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (int_columns); i++)
    *int_slot (out, i) = sqlite3_column_type (stmt, (int) i) == SQLITE_NULL ? -1 : sqlite3_column_int64 (stmt, (int) i);
  if (sqlite3_column_text (stmt, mangled) != NULL)
    out->mangled_name = g_utf8_make_valid ((const char *) sqlite3_column_text (stmt, mangled), -1);
  sqlite3_finalize (stmt);
  return TRUE;
}

static void
details_reset (SlKernelDetails *out)
{
  memset (out, 0, sizeof *out);
  for (gsize i = 0; i < G_N_ELEMENTS (int_columns); i++)
    *int_slot (out, i) = -1;
}

/* The SQLite file the profile was loaded from: the .nsys-rep's export, and
 * for a profile with a -wal or a hot journal a private copy recovered
 * again, as the load did (*@recovery owns it). */
static char *
details_db_path (const char *path, SlRecovery **recovery, GError **error)
{
  char *db_path = _sl_is_nsys_rep_path (path) ? _sl_nsys_rep_convert (path, NULL, error) : g_strdup (path);
  GError *local = NULL;

  if (db_path == NULL)
    return NULL;
  *recovery = _sl_recovery_new (db_path, path, NULL, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      g_free (db_path);
      return NULL;
    }
  if (*recovery == NULL)
    return db_path;
  g_free (db_path);
  return g_strdup (_sl_recovery_path (*recovery));
}

gboolean
sl_kernel_details_read (const SlProfile *profile,
                        guint32          stream,
                        guint            index,
                        SlKernelDetails *out,
                        GError         **error)
{
  SlLoader loader = { 0 };
  g_autoptr(SlRecovery) recovery = NULL;
  sqlite3 *db = NULL;
  gboolean ok = FALSE;

  g_return_val_if_fail (profile != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  details_reset (out);
  if (stream >= profile->n_streams || index >= profile->streams[stream].kernels.spans.n)
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_FAILED, _("No such kernel."));
      return FALSE;
    }

  if (profile->streams[stream].kernels.rowid[index] == SL_NONE)
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_FAILED,
                   _("The launch details of this kernel cannot be read: in “%s” the kernel table is a view or a WITHOUT ROWID table, whose rows have no row id."),
                   profile->path);
      return FALSE;
    }
  loader.display_path = profile->path;
  loader.db_path = details_db_path (profile->path, &recovery, error);
  if (loader.db_path == NULL)
    return FALSE;
  loader.tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
  db = _sl_loader_open_db (&loader, error);
  if (db != NULL)
    {
      /* Only columns this nsys version wrote are named in the query. */
      _sl_schema_read_table (&loader, db, KERNEL_TABLE);
      ok = query_details (&loader, db, profile->streams[stream].kernels.rowid[index], out, error);
      sqlite3_close (db);
    }
  g_hash_table_unref (loader.tables);
  g_free (loader.db_path);
  return ok;
}

/* ---- async -------------------------------------------------------------- */

typedef struct {
  SlProfile *profile;
  guint32    stream;
  guint      index;
} ReadJob;

static void
read_job_free (ReadJob *job)
{
  sl_profile_unref (job->profile);
  g_free (job);
}

static void
read_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ReadJob *job = task_data;
  g_autoptr(SlKernelDetails) details = g_new0 (SlKernelDetails, 1);
  GError *error = NULL;

  if (sl_kernel_details_read (job->profile, job->stream, job->index, details, &error))
    g_task_return_pointer (task, g_steal_pointer (&details), (GDestroyNotify) sl_kernel_details_free);
  else
    g_task_return_error (task, error);
}

void
sl_kernel_details_read_async (SlProfile           *profile,
                              guint32              stream,
                              guint                index,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ReadJob *job;

  g_return_if_fail (profile != NULL);
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_kernel_details_read_async);
  g_task_set_name (task, "sightline-kernel-details");
  job = g_new0 (ReadJob, 1);
  job->profile = sl_profile_ref (profile);
  job->stream = stream;
  job->index = index;
  g_task_set_task_data (task, job, (GDestroyNotify) read_job_free);
  g_task_run_in_thread (task, read_thread);
}

SlKernelDetails *
sl_kernel_details_read_finish (GAsyncResult *result,
                               GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
sl_kernel_details_clear (SlKernelDetails *details)
{
  g_clear_pointer (&details->mangled_name, g_free);
}

void
sl_kernel_details_free (SlKernelDetails *details)
{
  if (details == NULL)
    return;
  sl_kernel_details_clear (details);
  g_free (details);
}
