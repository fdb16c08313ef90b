/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-recovery.c: profiles with a -wal file or a hot rollback journal.
 *
 * Why: the loader opens profiles with immutable=1, which makes SQLite ignore
 * both, yet their committed state is the truth: rows committed in a -wal
 * belong to the database, pages a crashed writer spilled into the file
 * before its journal was rolled back do not.  Letting SQLite recover the
 * profile itself would create a -shm beside it or write the rollback into
 * it; the profile is never written.  So the file and its -wal / -journal
 * are copied into a private folder (in the user's cache), SQLite recovers
 * the copy exactly as it would the original, and the loader reads the copy
 * (sl-loader.c removes the folder once the copy is open).  Costs one copy of the file (about as long as
 * reading it once more from the page cache), only for such profiles. */
#include "sl-recovery.h"
#include "sl-profile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sqlite3.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#define COPY_CHUNK (8u << 20)

struct _SlRecovery {
  char *folder;    /* private, removed by _sl_recovery_free() */
  char *path;      /* folder/profile.sqlite */
  char *warning;
};

/* ---- what needs recovering --------------------------------------------- */

/* A descriptor of @path when it is a regular file, else -1: a FIFO or a
 * device must neither block nor be read here (sl-source.c refuses them). */
static int
open_regular (const char *path)
{
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
  struct stat st;

  if (fd >= 0 && (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)))
    {
      close (fd);
      return -1;
    }
  return fd;
}

/* A -wal with any bytes: SQLite opens it whatever the header says and
 * applies the frames its checksums prove committed. */
static gboolean
has_wal (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  GStatBuf st;

  return g_stat (wal, &st) == 0 && S_ISREG (st.st_mode) && st.st_size > 0;
}

/* A journal is hot when its header is not zeroed (hasHotJournal()); a
 * journal still held by a live writer rolls back to the same pages, since
 * that writer has not yet written into the file. */
static gboolean
has_hot_journal (const char *path)
{
  g_autofree char *journal = g_strconcat (path, "-journal", NULL);
  guint8 first = 0;
  int fd = open_regular (journal);
  gboolean hot;

  if (fd < 0)
    return FALSE;
  hot = read (fd, &first, 1) == 1 && first != 0;
  close (fd);
  return hot;
}

/* Only SQLite files are recovered; the file checks explain the rest. */
static gboolean
is_sqlite_file (const char *path)
{
  char head[16] = { 0 };
  int fd = open_regular (path);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = read (fd, head, sizeof head) == sizeof head && memcmp (head, "SQLite format 3", 16) == 0;
  close (fd);
  return ok;
}

/* ---- the private folder -------------------------------------------------- */

static void
remove_tree (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (folder, name, NULL);
      g_unlink (child);
    }
  g_rmdir (folder);
}

/* Folders of processes that died before removing them ("PID-XXXXXX"). */
static void
remove_stale (const char *base)
{
  g_autoptr(GDir) dir = g_dir_open (base, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      gint64 pid = g_ascii_strtoll (name, NULL, 10);
      if (pid > 0 && pid <= G_MAXINT && kill ((pid_t) pid, 0) != 0 && errno == ESRCH)
        {
          g_autofree char *child = g_build_filename (base, name, NULL);
          remove_tree (child);
        }
    }
}

/* A new folder only we can read, in the cache (profiles can be larger than
 * a RAM-backed /tmp), else in the temporary folder. */
static char *
make_private_folder (GError **error)
{
  g_autofree char *base = g_build_filename (g_get_user_cache_dir (), "sightline", "recovered", NULL);
  g_autofree char *template = NULL;

  if (g_mkdir_with_parents (base, 0700) == 0)
    {
      remove_stale (base);
      template = g_strdup_printf ("%s/%d-XXXXXX", base, (int) getpid ());
      if (g_mkdtemp_full (template, 0700) != NULL)
        return g_steal_pointer (&template);
    }
  return g_dir_make_tmp ("sightline-recovered-XXXXXX", error);
}

/* ---- copying --------------------------------------------------------------- */

/* Copies @in from offset 0 (the descriptor's own offset is left alone, so
 * a descriptor shared with other readers can be passed). */
static gboolean
copy_fd (int in, int out, GCancellable *cancellable, GError **error)
{
  gboolean kernel_copy = TRUE;
  g_autofree char *buf = NULL;
  off_t offset = 0;

  for (;;)
    {
      ssize_t n;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (kernel_copy)
        {
          loff_t in_offset = offset;
          n = copy_file_range (in, &in_offset, out, NULL, COPY_CHUNK, 0);
          if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP))
            {
              kernel_copy = FALSE;
              continue;
            }
        }
      else
        {
          if (buf == NULL)
            buf = g_malloc (COPY_CHUNK);
          n = pread (in, buf, COPY_CHUNK, offset);
          if (n > 0 && write (out, buf, (size_t) n) != n)
            n = -1;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (errno), g_strerror (errno));
          return FALSE;
        }
      if (n == 0)
        return TRUE;
      offset += n;
    }
}

static gboolean
copy_file (const char *from, const char *to, GCancellable *cancellable, GError **error)
{
  int in = g_open (from, O_RDONLY | O_CLOEXEC, 0);
  int out = in >= 0 ? g_open (to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) : -1;
  gboolean ok = FALSE;

  if (in < 0 || out < 0)
    g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (errno), g_strerror (errno));
  else
    ok = copy_fd (in, out, cancellable, error);
  if (in >= 0)
    close (in);
  if (out >= 0)
    close (out);
  return ok;
}

/* The profile and, when present, its -wal and -journal, side by side. */
static gboolean
copy_profile (const char *path, const char *copy, GCancellable *cancellable, GError **error)
{
  static const char *const suffixes[] = { "", "-wal", "-journal" };

  for (gsize i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *from = g_strconcat (path, suffixes[i], NULL);
      g_autofree char *to = g_strconcat (copy, suffixes[i], NULL);
      if (i > 0 && !g_file_test (from, G_FILE_TEST_IS_REGULAR))
        continue;
      if (!copy_file (from, to, cancellable, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- recovering the copy ---------------------------------------------------- */

/* Opening the copy as a normal database makes SQLite recover it: a hot
 * journal is rolled back on the first read, WAL frames are read into a
 * private -shm; then every committed frame is copied into the file and the
 * copy leaves WAL mode, so that it reads alone.  No fsync: the copy lives
 * only as long as the load. */
static gboolean
recover_copy (const char *copy, GError **error)
{
  static const char *const steps[] = {
    "PRAGMA synchronous=OFF",
    "SELECT count(*) FROM sqlite_master",
    "PRAGMA wal_checkpoint(TRUNCATE)",  /* step 2: its first column is 1 when it could not finish */
    "PRAGMA journal_mode=DELETE",
  };
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2 (copy, &db, SQLITE_OPEN_READWRITE, NULL);

  for (gsize i = 0; rc == SQLITE_OK && i < G_N_ELEMENTS (steps); i++)
    {
      sqlite3_stmt *stmt = NULL;
      rc = sqlite3_prepare_v2 (db, steps[i], -1, &stmt, NULL);
      if (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
        rc = i == 2 && sqlite3_column_int (stmt, 0) != 0 ? SQLITE_BUSY : SQLITE_OK;
      else if (rc == SQLITE_DONE)
        rc = SQLITE_OK;
      sqlite3_finalize (stmt);
    }
  if (rc != SQLITE_OK)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (rc));
  sqlite3_close (db);
  return rc == SQLITE_OK;
}

static char *
describe (const char *path, gboolean wal)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *sidecar = g_strconcat (base, wal ? "-wal" : "-journal", NULL);

  if (wal)
    return g_strdup_printf (_("The profile had committed changes in “%s” that were not in the database file yet; they were applied in a private copy."),
                            sidecar);
  return g_strdup_printf (_("The profile had uncommitted changes in “%s”; they were rolled back in a private copy."),
                          sidecar);
}

SlRecovery *
_sl_recovery_new (const char *path, const char *display, GCancellable *cancellable, GError **error)
{
  g_autoptr(GError) local = NULL;
  gboolean wal = has_wal (path);
  SlRecovery *recovery;

  if ((!wal && !has_hot_journal (path)) || !is_sqlite_file (path))
    return NULL;
  recovery = g_new0 (SlRecovery, 1);
  recovery->folder = make_private_folder (&local);
  if (recovery->folder != NULL)
    {
      recovery->path = g_build_filename (recovery->folder, "profile.sqlite", NULL);
      if (copy_profile (path, recovery->path, cancellable, &local) && recover_copy (recovery->path, &local))
        {
          recovery->warning = describe (display, wal);
          return recovery;
        }
    }
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED, _("Opening “%s” was cancelled."), display);
  else
    g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CORRUPT,
                 _("Cannot open “%s”: its %s file has to be recovered first, which failed in a private copy (%s). Check the free disk space, or export the report again."),
                 display, wal ? "-wal" : "-journal", local->message);
  _sl_recovery_free (recovery);
  return NULL;
}

const char *
_sl_recovery_path (SlRecovery *recovery)
{
  return recovery->path;
}

const char *
_sl_recovery_warning (SlRecovery *recovery)
{
  return recovery->warning;
}

void
_sl_recovery_free (SlRecovery *recovery)
{
  if (recovery == NULL)
    return;
  if (recovery->folder != NULL)
    remove_tree (recovery->folder);
  g_free (recovery->folder);
  g_free (recovery->path);
  g_free (recovery->warning);
  g_free (recovery);
}
