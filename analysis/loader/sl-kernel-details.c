/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-kernel-details.c: the launch configuration of one kernel, read by
 * rowid from the export when the user asks about that kernel.  The model
 * keeps 24 bytes per kernel; these columns would triple that. */
#include "sl-kernel-details.h"
#include "sl-loader-private.h"
#include "sl-fd-vfs.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#define KERNEL_TABLE "CUPTI_ACTIVITY_KIND_KERNEL"


/* SlKernelDetails' gint64 fields in the order of _sl_launch_columns. */
static gint64 *
int_slot (SlKernelDetails *details, gsize column)
{
  gint64 *slots[] = { &details->grid[0], &details->grid[1], &details->grid[2],
                      &details->block[0], &details->block[1], &details->block[2],
                      &details->registers_per_thread, &details->static_shared_bytes,
                      &details->dynamic_shared_bytes };
  G_STATIC_ASSERT (G_N_ELEMENTS (slots) == G_N_ELEMENTS (_sl_launch_columns));
  return slots[column];
}

static char *
details_query (SlLoader *loader)
{
  GString *sql = g_string_new ("SELECT ");

  for (gsize i = 0; i < G_N_ELEMENTS (_sl_launch_columns); i++)
    g_string_append_printf (sql, "%s, ", _sl_loader_column_or_null (loader, KERNEL_TABLE, _sl_launch_columns[i]));
  g_string_append (sql, _sl_loader_has_column (loader, KERNEL_TABLE, "mangledName")
                          ? "(SELECT value FROM StringIds WHERE id = mangledName)" : "NULL");
  /* The first row of the kernel's stream with its times among the rows
   * that may hold it (see sl_kernels_rowid_range). */
  g_string_append (sql, " FROM " KERNEL_TABLE " WHERE rowid BETWEEN ?1 AND ?2 AND start = ?3 AND \"end\" = ?4"
                        " AND deviceId = ?5 AND streamId = ?6 AND contextId = ?7 ORDER BY rowid LIMIT 1");
  return g_string_free (sql, FALSE);
}

typedef struct {
  gint64 first, last;          /* rowids that may hold it */
  gint64 start, end;
  guint32 device, stream, context;
} KernelRow;

static void
bind_kernel (sqlite3_stmt *stmt, const KernelRow *k)
{
  sqlite3_bind_int64 (stmt, 1, k->first);
  sqlite3_bind_int64 (stmt, 2, k->last);
  sqlite3_bind_int64 (stmt, 3, k->start);
  sqlite3_bind_int64 (stmt, 4, k->end);
  sqlite3_bind_int64 (stmt, 5, k->device);
  sqlite3_bind_int64 (stmt, 6, k->stream);
  sqlite3_bind_int64 (stmt, 7, k->context);
}

static gboolean
query_details (SlLoader *loader, sqlite3 *db, const KernelRow *kernel, SlKernelDetails *out, GError **error)
{
  g_autofree char *sql = details_query (loader);
  const int mangled = G_N_ELEMENTS (_sl_launch_columns);
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return _sl_loader_step_error (loader, db, rc, _("the kernel details"), error);
  bind_kernel (stmt, kernel);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      sqlite3_finalize (stmt);
      /* the row the model came from is gone: the file changed under us */
      return _sl_loader_step_error (loader, db, rc == SQLITE_DONE ? SQLITE_CORRUPT : rc,
                                    _("the kernel details"), error);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (_sl_launch_columns); i++)
    *int_slot (out, i) = sqlite3_column_type (stmt, (int) i) == SQLITE_NULL ? -1 : sqlite3_column_int64 (stmt, (int) i);
  if (sqlite3_column_text (stmt, mangled) != NULL)
    out->mangled_name = g_utf8_make_valid ((const char *) sqlite3_column_text (stmt, mangled), -1);
  sqlite3_finalize (stmt);
  return TRUE;
}

static gboolean
find_kernel (const SlProfile *profile, guint32 stream, guint index, KernelRow *out)
{
  const SlStream *st = &profile->streams[stream];

  out->start = st->kernels.spans.start[index];
  out->end = sl_spans_end (&st->kernels.spans, index);
  out->device = st->device;
  out->stream = st->stream;
  out->context = st->context;
  return sl_kernels_rowid_range (&st->kernels, index, &out->first, &out->last);
}

static void
details_reset (SlKernelDetails *out)
{
  memset (out, 0, sizeof *out);
  for (gsize i = 0; i < G_N_ELEMENTS (_sl_launch_columns); i++)
    *int_slot (out, i) = -1;
}

gboolean
sl_kernel_details_read (const SlProfile *profile,
                        guint32          stream,
                        guint            index,
                        SlKernelDetails *out,
                        GError         **error)
{
  SlLoader loader = { 0 };
  sqlite3 *db = NULL;
  gboolean ok = FALSE;
  KernelRow kernel;

  g_return_val_if_fail (profile != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  details_reset (out);
  if (stream >= profile->n_streams || index >= profile->streams[stream].kernels.spans.n)
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_FAILED, _("No such kernel."));
      return FALSE;
    }

  if (!find_kernel (profile, stream, index, &kernel))
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_FAILED,
                   _("The details of this kernel are not available: its row in the file is not known."));
      return FALSE;
    }
  if (profile->source_fd < 0)
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_FAILED,
                   _("The details of this kernel are not available: the profile was not read from a file."));
      return FALSE;
    }
  if (_sl_kernel_table_open (profile, &loader, &db, error))
    ok = query_details (&loader, db, &kernel, out, error);
  _sl_kernel_table_close (&loader, db);
  return ok;
}

/* The descriptor the profile was loaded from: the same file, even if the
 * path now names another.  Only the columns this nsys version wrote are
 * then named in queries (_sl_loader_column_or_null). */
gboolean
_sl_kernel_table_open (const SlProfile *profile, SlLoader *loader, sqlite3 **db, GError **error)
{
  int rc;

  loader->display_path = profile->path;
  loader->tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
  rc = _sl_fd_vfs_open (profile->source_fd, db);
  if (rc != SQLITE_OK)
    return _sl_loader_step_error (loader, *db, rc, _("the kernel details"), error);
  _sl_schema_read_table (loader, *db, "CUPTI_ACTIVITY_KIND_KERNEL");
  return TRUE;
}

void
_sl_kernel_table_close (SlLoader *loader, sqlite3 *db)
{
  sqlite3_close (db);
  g_clear_pointer (&loader->tables, g_hash_table_unref);
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
