/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export.c: the formats' names, and writing an export to a path without
 * ever leaving a partial file behind (a temporary file in the destination's
 * folder, renamed onto it at the end). */
#include "sl-export.h"
#include "sl-export-private.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

static const char *const format_names[] = { "html", "csv", "perfetto" };

const char *
sl_export_format_name (SlExportFormat format)
{
  g_return_val_if_fail ((guint) format < G_N_ELEMENTS (format_names), NULL);
  return format_names[format];
}

gboolean
sl_export_format_parse (const char *name, SlExportFormat *out)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (format_names); i++)
    if (g_ascii_strcasecmp (name, format_names[i]) == 0)
      {
        *out = (SlExportFormat) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
sl_export_format_from_path (const char *path, SlExportFormat *out)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".html") || g_str_has_suffix (lower, ".htm"))
    *out = SL_EXPORT_HTML;
  else if (g_str_has_suffix (lower, ".csv") || g_str_has_suffix (lower, "/")
           || g_file_test (path, G_FILE_TEST_IS_DIR))
    *out = SL_EXPORT_CSV;
  else if (g_str_has_suffix (lower, ".json") || g_str_has_suffix (lower, ".json.gz"))
    *out = SL_EXPORT_PERFETTO;
  else
    return FALSE;
  return TRUE;
}

/* One writer of a single file: the format's own, or a CSV summary table. */
typedef struct {
  SlProfile             *profile;
  const SlExportOptions *options;
  const char            *table;   /* CSV directory: a summary table, "kernels.csv" when NULL */
  gboolean               info;    /* CSV directory: export-info.csv */
  SlExportProgress       progress;
  gpointer               progress_data;
  SlExportWriteFunc      write;   /* another writer (the comparison report), or NULL */
  gconstpointer          write_data;
} Job;

static gboolean
run_writer (const Job *job, GOutputStream *out, GCancellable *cancellable, GError **error)
{
  if (job->write != NULL)
    return job->write (job->write_data, out, cancellable, error);
  if (job->info)
    return sl_export_csv_info_write (job->options, out, cancellable, error);
  if (job->table != NULL)
    return sl_export_csv_table_write (job->profile, job->options, job->table, out,
                                      cancellable, error);
  switch (job->options->format)
    {
    case SL_EXPORT_HTML:
      return sl_export_html_write (job->profile, job->options, out, job->progress,
                                   job->progress_data, cancellable, error);
    case SL_EXPORT_CSV:
      return sl_export_csv_kernels_write (job->profile, job->options, out, job->progress,
                                          job->progress_data, cancellable, error);
    case SL_EXPORT_PERFETTO:
    default:
      return sl_export_perfetto_write (job->profile, job->options, out, job->progress,
                                       job->progress_data, cancellable, error);
    }
}

/* Says why a file could not be made in @dir, in words a user acts on. */
static void
folder_error (GError **error, const char *path, const char *dir, GError *cause)
{
  /* A folder that exists yet refuses new files with "not found" (/proc,
   * some FUSE mounts) is read-only as far as the user is concerned. */
  if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED)
      || g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_READ_ONLY)
      || (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_NOT_FOUND)
          && g_file_test (dir, G_FILE_TEST_IS_DIR)))
    g_set_error (error, G_IO_ERROR, cause->code,
                 _("Cannot write “%s”: “%s” is a read-only folder"), path, dir);
  else if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_set_error (error, G_IO_ERROR, cause->code,
                 _("Cannot write “%s”: the folder “%s” does not exist"), path, dir);
  else if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY))
    g_set_error (error, G_IO_ERROR, cause->code,
                 _("Cannot write “%s”: “%s” is not a folder"), path, dir);
  else
    g_set_error (error, G_IO_ERROR, cause->code, _("Cannot write “%s”: %s"), path,
                 cause->message);
}

/* A new file next to @path that nobody else has: its name is random, and
 * g_file_create fails rather than reuse an existing one. */
static GFileOutputStream *
create_temp (const char *path, GFile **tmp_out, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);

  for (int attempt = 0;; attempt++)
    {
      g_autofree char *name = g_strdup_printf (".%s.%08x.part", base, g_random_int ());
      g_autoptr(GFile) tmp = g_file_new_build_filename (dir, name, NULL);
      g_autoptr(GError) local = NULL;
      GFileOutputStream *out = g_file_create (tmp, G_FILE_CREATE_NONE, NULL, &local);

      if (out != NULL)
        {
          *tmp_out = g_steal_pointer (&tmp);
          return out;
        }
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_EXISTS) || attempt == 16)
        {
          folder_error (error, path, dir, local);
          return NULL;
        }
    }
}

/* The stream the writer writes into: gzip for a ".gz" destination. */
static GOutputStream *
wrap_output (const char *path, GOutputStream *file_out)
{
  if (!g_str_has_suffix (path, ".gz"))
    return g_object_ref (file_out);
  g_autoptr(GZlibCompressor) gz = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  return g_converter_output_stream_new (file_out, G_CONVERTER (gz));
}

static gboolean
write_file (const Job *job, const char *path, GCancellable *cancellable, GError **error)
{
  g_autoptr(GFile) tmp = NULL;
  g_autoptr(GFileOutputStream) file_out = create_temp (path, &tmp, error);
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *tmp_path = NULL;

  if (file_out == NULL)
    return FALSE;
  out = wrap_output (path, G_OUTPUT_STREAM (file_out));
  tmp_path = g_file_get_path (tmp);
  if (run_writer (job, out, cancellable, &local)
      && g_output_stream_close (out, cancellable, &local)
      && g_rename (tmp_path, path) == 0)
    return TRUE;
  if (local == NULL)
    {
      int saved = errno;
      local = g_error_new (G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot write “%s”: %s"),
                           path, g_strerror (saved));
    }
  else if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED)
           && !g_str_has_prefix (local->message, path))
    g_prefix_error (&local, _("Cannot write “%s”: "), path);
  g_output_stream_close (out, NULL, NULL);
  g_unlink (tmp_path);
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

/* Progress over the files of a directory export: kernels.csv is most of
 * the work, the summary tables share the rest. */
typedef struct {
  SlExportProgress progress;
  gpointer         data;
} DirProgress;

static void
kernels_progress (double fraction, gpointer user_data)
{
  DirProgress *p = user_data;

  p->progress (0.8 * fraction, p->data);
}

static gboolean
write_directory (const Job *job, const char *dir, GCancellable *cancellable, GError **error)
{
  const char *const *tables = sl_export_csv_tables ();
  guint n_tables = g_strv_length ((char **) tables);
  DirProgress dp = { job->progress, job->progress_data };
  Job kernels = *job;
  g_autofree char *kernels_path = g_build_filename (dir, "kernels.csv", NULL);

  if (g_mkdir_with_parents (dir, 0777) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot make the folder “%s”: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  kernels.progress = job->progress != NULL ? kernels_progress : NULL;
  kernels.progress_data = &dp;
  if (!write_file (&kernels, kernels_path, cancellable, error))
    return FALSE;
  for (guint i = 0; i <= n_tables; i++)
    {
      Job table = { job->profile, job->options, tables[i], i == n_tables, NULL, NULL };
      g_autofree char *name = i == n_tables ? g_strdup ("export-info.csv")
                              : g_str_equal (tables[i], "bookmarks") ? g_strdup ("bookmarks.csv")
                              : g_strdup_printf ("%s-summary.csv", tables[i]);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (!write_file (&table, path, cancellable, error))
        return FALSE;
      if (job->progress != NULL)
        job->progress (0.8 + 0.2 * (i + 1) / (n_tables + 1), job->progress_data);
    }
  return TRUE;
}

/* A destination that is a device or a pipe (/dev/stdout, a FIFO) is
 * written in place: renaming a file onto it would replace the device. */
static gboolean
write_special (const Job *job, const char *path, GCancellable *cancellable, GError **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) file_out = g_file_append_to (file, G_FILE_CREATE_NONE, cancellable, error);
  g_autoptr(GOutputStream) out = NULL;

  if (file_out == NULL)
    return FALSE;
  out = wrap_output (path, G_OUTPUT_STREAM (file_out));
  return run_writer (job, out, cancellable, error) && g_output_stream_close (out, cancellable, error);
}

/* A single file: written in place when @path is a device or pipe, else
 * through a temporary file renamed at the end. */
static gboolean
write_single (const Job *job, const char *path, GCancellable *cancellable, GError **error)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                   _("Cannot write “%s”: it is a folder"), path);
      return FALSE;
    }
  if (g_file_test (path, G_FILE_TEST_EXISTS) && !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return write_special (job, path, cancellable, error);
  return write_file (job, path, cancellable, error);
}

gboolean
sl_export_to_path (SlProfile *profile, const SlExportOptions *options, const char *path,
                   SlExportProgress progress, gpointer progress_data,
                   GCancellable *cancellable, GError **error)
{
  Job job = { profile, options, NULL, FALSE, progress, progress_data, NULL, NULL };

  g_return_val_if_fail (profile != NULL, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (path != NULL && *path != '\0', FALSE);

  if (options->format == SL_EXPORT_CSV
      && (g_str_has_suffix (path, "/") || g_file_test (path, G_FILE_TEST_IS_DIR)))
    return write_directory (&job, path, cancellable, error);
  return write_single (&job, path, cancellable, error);
}

gboolean
sl_export_write_to_path (const char *path, SlExportWriteFunc write, gconstpointer data,
                         GCancellable *cancellable, GError **error)
{
  Job job = { .write = write, .write_data = data };

  g_return_val_if_fail (path != NULL && *path != '\0', FALSE);
  return write_single (&job, path, cancellable, error);
}
