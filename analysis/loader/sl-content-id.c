/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-content-id.c: the identity of a profile's contents (see sl-content-id.h
 * for the exact recipe, which bookmarks depend on). */
#include "sl-content-id.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#define HEAD_BYTES   (64 * 1024)
#define BLOCK_BYTES  4096
#define N_BLOCKS     64
#define WHOLE_FILE   (1024 * 1024)

static gboolean
set_errno_error (GError **error, int saved, const char *what)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", what, g_strerror (saved));
  return FALSE;
}

/* Hashes bytes [@offset, @offset + @len) of @fd; a short read means the
 * file shrank while we read it. */
static gboolean
hash_range (GChecksum *sum, int fd, guint64 offset, gsize len, guint8 *buf, GError **error)
{
  while (len > 0)
    {
      gsize want = MIN (len, (gsize) HEAD_BYTES);
      gssize got = pread (fd, buf, want, (off_t) offset);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return set_errno_error (error, errno, "pread");
      if (got == 0)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the file shrank while it was read");
          return FALSE;
        }
      g_checksum_update (sum, buf, got);
      offset += (guint64) got;
      len -= (gsize) got;
    }
  return TRUE;
}

static gboolean
hash_samples (GChecksum *sum, int fd, guint64 size, guint8 *buf, GError **error)
{
  if (size <= WHOLE_FILE)
    return hash_range (sum, fd, 0, size, buf, error);
  if (!hash_range (sum, fd, 0, HEAD_BYTES, buf, error))
    return FALSE;
  for (guint i = 0; i < N_BLOCKS; i++)
    {
      guint64 offset = (size / (N_BLOCKS + 1) * (i + 1) + size % (N_BLOCKS + 1) * (i + 1) / (N_BLOCKS + 1))
                       & ~(guint64) (BLOCK_BYTES - 1);
      if (!hash_range (sum, fd, offset, BLOCK_BYTES, buf, error))
        return FALSE;
    }
  return hash_range (sum, fd, size - BLOCK_BYTES, BLOCK_BYTES, buf, error);
}

char *
sl_content_id_from_fd (int fd, GError **error)
{
  static const char prefix[] = "sightline-content-id/1\n";
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guint8 *buf = g_malloc (HEAD_BYTES);
  struct stat st, after;
  guint64 size_le;

  g_return_val_if_fail (fd >= 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (fstat (fd, &st) != 0)
    {
      set_errno_error (error, errno, "fstat");
      return NULL;
    }
  size_le = GUINT64_TO_LE ((guint64) st.st_size);
  g_checksum_update (sum, (const guchar *) prefix, sizeof prefix - 1);
  g_checksum_update (sum, (const guchar *) &size_le, sizeof size_le);
  if (!hash_samples (sum, fd, (guint64) st.st_size, buf, error))
    return NULL;
  /* A file that grew while sampled has no one identity. */
  if (fstat (fd, &after) != 0 || after.st_size != st.st_size)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the file changed size while it was read");
      return NULL;
    }
  return g_strdup (g_checksum_get_string (sum));
}

char *
sl_content_id_from_path (const char *path, GError **error)
{
  int fd;
  char *id;

  g_return_val_if_fail (path != NULL, NULL);
  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path, g_strerror (saved));
      return NULL;
    }
  id = sl_content_id_from_fd (fd, error);
  close (fd);
  return id;
}
