/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-file-check.c: the checks a path passes before SQLite sees it, so that
 * each common mistake (a wrong path, a folder, an empty, truncated or
 * foreign file) gets its own message rather than SQLite's generic
 * "unable to open". */
#include "sl-loader-private.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

/* What the first bytes of a file that is not SQLite say it is. */
static const char *
describe_magic (const guint8 *head, gssize len)
{
  gboolean text = len > 0;

  if (len >= 8 && memcmp (head, "\x89PNG\r\n\x1a\n", 8) == 0)
    return _("it is a PNG image");
  if (len >= 3 && memcmp (head, "\xff\xd8\xff", 3) == 0)
    return _("it is a JPEG image");
  if (len >= 4 && memcmp (head, "PK\x03\x04", 4) == 0)
    return _("it is a ZIP archive");
  if (len >= 4 && memcmp (head, "\x7f" "ELF", 4) == 0)
    return _("it is a program (ELF binary)");
  if (len >= 5 && memcmp (head, "%PDF-", 5) == 0)
    return _("it is a PDF document");
  if (len >= 2 && head[0] == 0x1f && head[1] == 0x8b)
    return _("it is gzip-compressed");
  for (gssize i = 0; i < len; i++)
    if (head[i] < 0x09 || (head[i] > 0x0d && head[i] < 0x20))
      text = FALSE;
  if (text)
    return _("it looks like a text file");
  return _("its contents are not recognised");
}

static gboolean
check_exists (const char *path, const char *display, struct stat *st, GError **error)
{
  if (g_stat (path, st) == 0)
    return TRUE;
  int saved = errno;
  if (saved == EACCES)
    g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_PERMISSION,
                 _("Cannot open “%s”: permission denied. Check the permissions of the file and its folders."),
                 display);
  else
    g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_FOUND,
                 _("Cannot open “%s”: the file does not exist. Check the path."), display);
  return FALSE;
}

static gboolean
check_not_folder (const struct stat *st, const char *display, GError **error)
{
  if (!S_ISDIR (st->st_mode))
    return TRUE;
  g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_IS_DIRECTORY,
               _("Cannot open “%s”: it is a folder. Choose the .sqlite file exported by Nsight Systems inside it."),
               display);
  return FALSE;
}

/* A descriptor to read the header with, or -1 with @error set. */
static int
open_readable (const char *path, const char *display, GError **error)
{
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd >= 0)
    return fd;
  int saved = errno;
  g_set_error (error, SL_PROFILE_ERROR,
               saved == EACCES || saved == EPERM ? SL_PROFILE_ERROR_PERMISSION : SL_PROFILE_ERROR_NOT_FOUND,
               saved == EACCES || saved == EPERM
                 ? _("Cannot open “%s”: permission denied. Make the file readable (chmod u+r) or copy it somewhere you can read.")
                 : _("Cannot open “%s”: %s."),
               display, g_strerror (saved));
  return -1;
}

static gboolean
check_not_empty (const struct stat *st, const char *display, GError **error)
{
  if (st->st_size != 0)
    return TRUE;
  g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_EMPTY,
               _("Cannot open “%s”: the file is empty (0 bytes). The export or copy probably failed; export the report again with “nsys export --type sqlite”."),
               display);
  return FALSE;
}

static gboolean
check_sqlite_magic (const guint8 *head, gssize got, const char *display, GError **error)
{
  if (got >= 16 && memcmp (head, "SQLite format 3", 16) == 0)
    return TRUE;
  g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_SQLITE,
               _("Cannot open “%s”: it is not an SQLite database (%s). Sightline opens the SQLite export of Nsight Systems: run “nsys export --type sqlite REPORT.nsys-rep” and open the .sqlite file."),
               display, describe_magic (head, MAX (got, 0)));
  return FALSE;
}

/* The 100-byte header records the database size in pages; a shorter file
 * is truncated (an interrupted copy or download). */
static gboolean
check_not_truncated (const guint8 *head, gssize got, const struct stat *st, const char *display, GError **error)
{
  if (got < 100)
    return TRUE;
  guint32 page_size = ((guint32) head[16] << 8) | head[17];
  guint32 pages = GUINT32_FROM_BE (*(guint32 *) (head + 28));
  guint32 change = GUINT32_FROM_BE (*(guint32 *) (head + 24));
  guint32 valid_for = GUINT32_FROM_BE (*(guint32 *) (head + 92));
  if (page_size == 1)
    page_size = 65536;
  if (pages == 0 || change != valid_for || page_size < 512 ||
      (guint64) st->st_size >= (guint64) pages * page_size)
    return TRUE;
  g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CORRUPT,
               _("Cannot open “%s”: the file is truncated (%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes). Copy or download it again, or export the report again."),
               display, (guint64) st->st_size, (guint64) pages * page_size);
  return FALSE;
}

gboolean
_sl_file_check (const char *path, const char *display, GError **error)
{
  struct stat st;
  guint8 head[100];
  gssize got;
  int fd;

  if (!check_exists (path, display, &st, error) || !check_not_folder (&st, display, error))
    return FALSE;
  /* Opened before the size check, so that an unreadable empty file
   * reports the permission, which is what the user has to fix first. */
  fd = open_readable (path, display, error);
  if (fd < 0)
    return FALSE;
  if (!check_not_empty (&st, display, error))
    {
      close (fd);
      return FALSE;
    }
  got = read (fd, head, sizeof head);
  close (fd);
  return check_sqlite_magic (head, got, display, error) &&
         check_not_truncated (head, got, &st, display, error);
}
