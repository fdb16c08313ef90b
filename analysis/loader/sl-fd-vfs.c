/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-fd-vfs.c: a read-only SQLite VFS over an open descriptor (see
 * sl-fd-vfs.h).  The database "name" is the descriptor's number; the
 * default VFS still provides time, randomness and sleeping. */
#include "sl-fd-vfs.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VFS_NAME "sightline-fd"
#define NAME_PREFIX "sl-fd-"

typedef struct {
  sqlite3_file base;
  int          fd;     /* not ours: never closed here */
} FdFile;

/* ---- the file ------------------------------------------------------------ */

static int
fd_close (sqlite3_file *file)
{
  return SQLITE_OK;
}

static int
fd_read (sqlite3_file *file, void *buf, int amount, sqlite3_int64 offset)
{
  FdFile *f = (FdFile *) file;
  gsize done = 0;

  while (done < (gsize) amount)
    {
      ssize_t got = pread (f->fd, (char *) buf + done, (gsize) amount - done, (off_t) offset + (off_t) done);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return SQLITE_IOERR_READ;
      if (got == 0)
        {
          /* SQLite wants the rest zeroed on a short read. */
          memset ((char *) buf + done, 0, (gsize) amount - done);
          return SQLITE_IOERR_SHORT_READ;
        }
      done += (gsize) got;
    }
  return SQLITE_OK;
}

static int
fd_write (sqlite3_file *file, const void *buf, int amount, sqlite3_int64 offset)
{
  return SQLITE_READONLY;
}

static int
fd_truncate (sqlite3_file *file, sqlite3_int64 size)
{
  return SQLITE_READONLY;
}

static int
fd_sync (sqlite3_file *file, int flags)
{
  return SQLITE_OK;
}

static int
fd_file_size (sqlite3_file *file, sqlite3_int64 *size)
{
  struct stat st;

  if (fstat (((FdFile *) file)->fd, &st) != 0)
    return SQLITE_IOERR_FSTAT;
  *size = st.st_size;
  return SQLITE_OK;
}

static int
fd_lock (sqlite3_file *file, int level)
{
  return SQLITE_OK;
}

static int
fd_check_reserved_lock (sqlite3_file *file, int *reserved)
{
  *reserved = 0;
  return SQLITE_OK;
}

static int
fd_file_control (sqlite3_file *file, int op, void *arg)
{
  return SQLITE_NOTFOUND;
}

static int
fd_sector_size (sqlite3_file *file)
{
  return 4096;
}

static int
fd_device_characteristics (sqlite3_file *file)
{
  return SQLITE_IOCAP_IMMUTABLE;
}

static const sqlite3_io_methods fd_methods = {
  .iVersion = 1,
  .xClose = fd_close,
  .xRead = fd_read,
  .xWrite = fd_write,
  .xTruncate = fd_truncate,
  .xSync = fd_sync,
  .xFileSize = fd_file_size,
  .xLock = fd_lock,
  .xUnlock = fd_lock,
  .xCheckReservedLock = fd_check_reserved_lock,
  .xFileControl = fd_file_control,
  .xSectorSize = fd_sector_size,
  .xDeviceCharacteristics = fd_device_characteristics,
};

/* ---- the VFS --------------------------------------------------------------- */

/* The descriptor's number from a name SQLite hands back, or -1.  Parsed
 * here, not with g_ascii_string_to_unsigned(), which rejects any errno but
 * ERANGE after g_ascii_strtoull(): when two profiles began loading at the
 * same moment (sightline-cli compare) it refused good names ("“3” is not an
 * unsigned number", errno EAGAIN), so SQLite said "unable to open database
 * file".  The likely source is g_ascii_strtoull()'s one-time C-locale set-up
 * behind a g_once, on which the second thread waits. */
static int
name_to_fd (const char *name)
{
  const char *digits;
  gint64 fd = 0;

  if (name == NULL || !g_str_has_prefix (name, NAME_PREFIX))
    return -1;
  digits = name + strlen (NAME_PREFIX);
  if (*digits == '\0')
    return -1;
  for (const char *c = digits; *c != '\0'; c++)
    {
      if (!g_ascii_isdigit (*c))
        return -1;
      fd = fd * 10 + (*c - '0');
      if (fd > G_MAXINT)
        return -1;
    }
  return (int) fd;
}

static int
vfs_open (sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags)
{
  FdFile *f = (FdFile *) file;
  int fd = name_to_fd (name);

  /* Only the main database: journals, WAL and temporary files do not exist. */
  f->base.pMethods = NULL;
  if (fd < 0 || !(flags & SQLITE_OPEN_MAIN_DB))
    return SQLITE_CANTOPEN;
  f->fd = fd;
  f->base.pMethods = &fd_methods;
  if (out_flags != NULL)
    *out_flags = SQLITE_OPEN_READONLY;
  return SQLITE_OK;
}

static int
vfs_delete (sqlite3_vfs *vfs, const char *name, int sync_dir)
{
  return SQLITE_IOERR_DELETE;
}

static int
vfs_access (sqlite3_vfs *vfs, const char *name, int flags, int *result)
{
  *result = 0;
  return SQLITE_OK;
}

static int
vfs_full_pathname (sqlite3_vfs *vfs, const char *name, int n_out, char *out)
{
  if (g_strlcpy (out, name, (gsize) n_out) >= (gsize) n_out)
    return SQLITE_CANTOPEN;
  return SQLITE_OK;
}

#define DEFAULT_VFS ((sqlite3_vfs *) vfs->pAppData)

static int
vfs_randomness (sqlite3_vfs *vfs, int n, char *out)
{
  return DEFAULT_VFS->xRandomness (DEFAULT_VFS, n, out);
}

static int
vfs_sleep (sqlite3_vfs *vfs, int microseconds)
{
  return DEFAULT_VFS->xSleep (DEFAULT_VFS, microseconds);
}

static int
vfs_current_time (sqlite3_vfs *vfs, double *now)
{
  return DEFAULT_VFS->xCurrentTime (DEFAULT_VFS, now);
}

static int
vfs_get_last_error (sqlite3_vfs *vfs, int n, char *out)
{
  return 0;
}

static gpointer
register_vfs (gpointer data)
{
  static sqlite3_vfs vfs = {
    .iVersion = 1,
    .szOsFile = sizeof (FdFile),
    .mxPathname = 64,
    .zName = VFS_NAME,
    .xOpen = vfs_open,
    .xDelete = vfs_delete,
    .xAccess = vfs_access,
    .xFullPathname = vfs_full_pathname,
    .xRandomness = vfs_randomness,
    .xSleep = vfs_sleep,
    .xCurrentTime = vfs_current_time,
    .xGetLastError = vfs_get_last_error,
  };

  vfs.pAppData = sqlite3_vfs_find (NULL);
  sqlite3_vfs_register (&vfs, 0);
  return NULL;
}

int
_sl_fd_vfs_open (int fd, sqlite3 **db)
{
  static GOnce once = G_ONCE_INIT;
  char name[32];

  g_once (&once, register_vfs, NULL);
  g_snprintf (name, sizeof name, NAME_PREFIX "%d", fd);
  *db = NULL;
  return sqlite3_open_v2 (name, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, VFS_NAME);
}
