/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-nsys-rep.c: converting a .nsys-rep report with the user's nsys into a
 * cached SQLite export (never beside the user's file). */
#include "sl-loader-private.h"

#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

gboolean
_sl_is_nsys_rep_path (const char *path)
{
  return g_str_has_suffix (path, ".nsys-rep") || g_str_has_suffix (path, ".qdrep");
}

/* The cache name depends on the report's path, size and mtime, so a
 * re-recorded report is converted again and an unchanged one is not. */
static char *
cache_path_for (const char *path, GError **error)
{
  GStatBuf st;
  g_autofree char *key = NULL;
  g_autofree char *digest = NULL;
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "sightline", "converted", NULL);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *canonical = g_canonicalize_filename (path, NULL);

  if (g_stat (path, &st) != 0)
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_FOUND,
                   _("Cannot open “%s”: the file does not exist. Check the path."), path);
      return NULL;
    }
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CONVERT_FAILED,
                   _("Cannot create the cache folder “%s” to convert “%s”."), dir, path);
      return NULL;
    }
  key = g_strdup_printf ("%s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT, canonical, (gint64) st.st_size, (gint64) st.st_mtime);
  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  digest[16] = '\0';
  return g_strdup_printf ("%s/%s-%s.sqlite", dir, base, digest);
}

char *
_sl_nsys_rep_convert (const char *path, GCancellable *cancellable, GError **error)
{
  g_autofree char *nsys = g_find_program_in_path ("nsys");
  g_autofree char *target = NULL;
  g_autofree char *partial = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *err_text = NULL;
  g_autoptr(GError) local = NULL;

  if (nsys == NULL)
    {
      g_autofree char *stem = g_strndup (path, strlen (path) - (g_str_has_suffix (path, ".qdrep") ? 6 : 9));
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NSYS_REP,
                   _("“%s” is an Nsight Systems report, which must first be exported to SQLite, and nsys is not on PATH. Run: nsys export --type sqlite --output \"%s.sqlite\" \"%s\" and open the .sqlite file."),
                   path, stem, path);
      return NULL;
    }
  target = cache_path_for (path, error);
  if (target == NULL)
    return NULL;
  if (g_file_test (target, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&target);

  /* Export to a temporary name and rename, so that an interrupted export
   * never leaves a half-written cache entry. */
  partial = g_strdup_printf ("%s.partial-%d.sqlite", target, (int) getpid ());
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &local,
                              nsys, "export", "--type", "sqlite", "--force-overwrite", "true",
                              "--output", partial, path, NULL);
  if (process == NULL || !g_subprocess_communicate_utf8 (process, NULL, cancellable, NULL, &err_text, &local))
    {
      if (process != NULL)
        g_subprocess_force_exit (process);
      g_unlink (partial);
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED, _("Converting “%s” was cancelled."), path);
      else
        g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CONVERT_FAILED,
                     _("Cannot convert “%s” with nsys: %s"), path, local != NULL ? local->message : "");
      return NULL;
    }
  if (!g_subprocess_get_successful (process) || !g_file_test (partial, G_FILE_TEST_IS_REGULAR))
    {
      g_unlink (partial);
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CONVERT_FAILED,
                   _("“nsys export” failed on “%s”: %s Try running: nsys export --type sqlite \"%s\""),
                   path, err_text != NULL ? g_strstrip (err_text) : "", path);
      return NULL;
    }
  if (g_rename (partial, target) != 0)
    {
      g_unlink (partial);
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CONVERT_FAILED,
                   _("Cannot store the converted copy of “%s” in “%s”."), path, target);
      return NULL;
    }
  return g_steal_pointer (&target);
}
