/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-html-file.c: a report written to a path without ever leaving a
 * partial file: into a temporary file beside the destination (so the final
 * rename stays on one file system, hence atomic), renamed at the end, and
 * removed on error or cancel. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "sl-export-compare-html-private.h"

static gboolean
open_temp (const char *path, char **temp, int *fd, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *pattern = g_strdup_printf (".%s.XXXXXX", base);
  int saved;

  *temp = g_build_filename (dir, pattern, NULL);
  *fd = g_mkstemp_full (*temp, O_WRONLY | O_CLOEXEC, 0644);
  if (*fd >= 0)
    return TRUE;
  saved = errno;
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
               saved == EACCES || saved == EROFS ? _("Could not write “%s”: its folder is read-only (%s)")
                                                 : _("Could not write “%s”: %s"),
               path, g_strerror (saved));
  g_clear_pointer (temp, g_free);
  return FALSE;
}

static gboolean
finish (const char *temp, const char *path, GError **error)
{
  int saved;

  if (g_rename (temp, path) == 0)
    return TRUE;
  saved = errno;
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Could not write “%s”: %s"), path,
               g_strerror (saved));
  return FALSE;
}

gboolean
_sl_html_write_file (const char *path, SlHtmlWriteFunc write, gconstpointer data,
                     GCancellable *cancellable, GError **error)
{
  g_autofree char *temp = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  gboolean ok;
  int fd;

  if (!open_temp (path, &temp, &fd, error))
    return FALSE;
  close (fd);
  file = g_file_new_for_path (temp);
  out = g_file_append_to (file, G_FILE_CREATE_NONE, cancellable, error);
  if (out == NULL)
    {
      g_unlink (temp);
      return FALSE;
    }
  ok = write (data, G_OUTPUT_STREAM (out), cancellable, error);
  /* Closing with the cancellable could leave a cancelled close half done:
   * close without it, the file is removed anyway on failure. */
  if (!g_output_stream_close (G_OUTPUT_STREAM (out), NULL, ok ? error : NULL))
    ok = FALSE;
  if (ok)
    ok = finish (temp, path, error);
  if (!ok)
    g_unlink (temp);
  return ok;
}
