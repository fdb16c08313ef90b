/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-source.c: the profile file, opened once, and the checks it passes
 * before SQLite sees it, so that each common mistake (a wrong path, a
 * folder, a FIFO, an empty, truncated or foreign file) gets its own message
 * rather than SQLite's generic "unable to open". */
#include "sl-source.h"
#include "sl-profile.h"

#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

struct _SlSource {
  gint        ref_count;
  int         fd;
  char       *display;
  struct stat st;           /* at open */
  guint32     change;       /* SQLite file change counter at open */
};

/* ---- what a file is ------------------------------------------------------ */

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

/* What a file that is neither a folder nor a regular file is. */
static const char *
describe_special (mode_t mode)
{
  if (S_ISFIFO (mode))
    return _("it is a named pipe (FIFO), not a file");
  if (S_ISCHR (mode))
    return _("it is a character device, not a file");
  if (S_ISBLK (mode))
    return _("it is a block device, not a file");
  if (S_ISSOCK (mode))
    return _("it is a socket, not a file");
  return _("it is not a regular file");
}

/* ---- opening -------------------------------------------------------------- */

static void
set_open_error (const char *path, const char *display, int saved, GError **error)
{
  struct stat link;

  if (saved == EACCES || saved == EPERM)
    g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_PERMISSION,
                 _("Cannot open “%s”: permission denied. Check the permissions of the file and its folders."),
                 display);
  else if (saved == ELOOP)
    g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_FOUND,
                 _("Cannot open “%s”: its symbolic links form a loop (or are nested too deeply). Open the file they should point to."),
                 display);
  else if (saved == ENOENT && g_lstat (path, &link) == 0 && S_ISLNK (link.st_mode))
    g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_FOUND,
                 _("Cannot open “%s”: it is a symbolic link to a file that does not exist."), display);
  else if (saved == ENOENT || saved == ENOTDIR)
    g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_FOUND,
                 _("Cannot open “%s”: the file does not exist. Check the path."), display);
  else
    g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_FAILED,
                 _("Cannot open “%s”: %s."), display, g_strerror (saved));
}

/* A descriptor of @path, or -1 with @error set.  O_NONBLOCK: opening a
 * FIFO for reading must not wait for a writer (it is refused right after). */
static int
open_readable (const char *path, const char *display, GError **error)
{
  int fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0);

  if (fd < 0)
    set_open_error (path, display, errno, error);
  return fd;
}

static gboolean
check_regular (const struct stat *st, const char *display, GError **error)
{
  if (S_ISDIR (st->st_mode))
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_IS_DIRECTORY,
                   _("Cannot open “%s”: it is a folder. Choose the .sqlite file exported by Nsight Systems inside it."),
                   display);
      return FALSE;
    }
  if (S_ISREG (st->st_mode))
    return TRUE;
  g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_SQLITE,
               _("Cannot open “%s”: %s. Sightline opens the .sqlite file exported by Nsight Systems."),
               display, describe_special (st->st_mode));
  return FALSE;
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

static guint32
be32_at (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

/* The 100-byte header records the database size in pages; a shorter file
 * is truncated (an interrupted copy or download). */
static gboolean
check_not_truncated (const guint8 *head, gssize got, const struct stat *st, const char *display, GError **error)
{
  if (got < 100)
    return TRUE;
  guint32 page_size = ((guint32) head[16] << 8) | head[17];
  guint32 pages = be32_at (head + 28);
  guint32 change = be32_at (head + 24);
  guint32 valid_for = be32_at (head + 92);
  if (page_size == 1)
    page_size = 65536;
  if (pages == 0 || change != valid_for || page_size < 512 ||
      (guint64) st->st_size >= (guint64) pages * page_size)
    return TRUE;
  g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CORRUPT,
               _("Cannot open “%s”: the file is truncated (%" PRIu64 " of %" PRIu64 " bytes). Copy or download it again, or export the report again."),
               display, (guint64) st->st_size, (guint64) pages * page_size);
  return FALSE;
}

static gssize
read_header (int fd, guint8 *head, gsize size)
{
  gssize got;

  do
    got = pread (fd, head, size, 0);
  while (got < 0 && errno == EINTR);
  return got;
}

/* The checks on the open descriptor; fills @st and @change. */
static gboolean
check_file (int fd, const char *display, struct stat *st, guint32 *change, GError **error)
{
  guint8 head[100] = { 0 };
  gssize got;

  if (fstat (fd, st) != 0)
    {
      set_open_error (display, display, errno, error);
      return FALSE;
    }
  if (!check_regular (st, display, error) || !check_not_empty (st, display, error))
    return FALSE;
  /* Reads of a regular file never block: back to ordinary reads. */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  got = read_header (fd, head, sizeof head);
  *change = got >= 28 ? be32_at (head + 24) : 0;
  return check_sqlite_magic (head, got, display, error) &&
         check_not_truncated (head, got, st, display, error);
}

SlSource *
_sl_source_open (const char *path, const char *display, GError **error)
{
  SlSource *source;
  struct stat st;
  guint32 change = 0;
  int fd = open_readable (path, display, error);

  if (fd < 0)
    return NULL;
  if (!check_file (fd, display, &st, &change, error))
    {
      close (fd);
      return NULL;
    }
  source = g_new0 (SlSource, 1);
  source->ref_count = 1;
  source->fd = fd;
  source->display = g_strdup (display);
  source->st = st;
  source->change = change;
  return source;
}

SlSource *
_sl_source_ref (SlSource *source)
{
  g_atomic_int_inc (&source->ref_count);
  return source;
}

void
_sl_source_unref (SlSource *source)
{
  if (source == NULL || !g_atomic_int_dec_and_test (&source->ref_count))
    return;
  close (source->fd);
  g_free (source->display);
  g_free (source);
}

int
_sl_source_fd (SlSource *source)
{
  return source->fd;
}

const char *
_sl_source_display (SlSource *source)
{
  return source->display;
}

gboolean
_sl_source_unchanged (SlSource *source, GError **error)
{
  struct stat now;
  guint8 head[28];
  gboolean same;

  same = fstat (source->fd, &now) == 0 &&
         now.st_size == source->st.st_size &&
         now.st_mtim.tv_sec == source->st.st_mtim.tv_sec &&
         now.st_mtim.tv_nsec == source->st.st_mtim.tv_nsec &&
         read_header (source->fd, head, sizeof head) == (gssize) sizeof head &&
         be32_at (head + 24) == source->change;
  if (!same)
    g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CHANGED,
                 _("Cannot read “%s”: the file changed while it was being read. Wait until whatever writes it has finished, then open it again."),
                 source->display);
  return same;
}
