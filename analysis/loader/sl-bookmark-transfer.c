/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-transfer.c: Export Bookmarks… and Import Bookmarks…: the
 * store's bookmarks to a file of the same format, and back, by absolute
 * time or by the time from the profile's start (another capture of the
 * same job starts elsewhere on the capture clock). */
#include <glib/gi18n-lib.h>

#include "sl-bookmark-file.h"
#include "sl-bookmark-store-private.h"

gboolean
sl_bookmark_store_export (SlBookmarkStore *self, const char *path, GError **error)
{
  g_autofree char *name = NULL;
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (SL_IS_BOOKMARK_STORE (self), FALSE);
  data = sl_bookmark_file_to_data (sl_bookmark_store_get_content_id (self),
                                   sl_bookmark_store_get_profile_start (self),
                                   _sl_bookmark_store_profile_name (self),
                                   sl_bookmark_store_get_bookmarks (self), &length);
  return sl_bookmark_file_write (path, data, length, error);
}

/* The file at @path, parsed; errors name the file. */
static SlBookmarkFile *
read_file (const char *path, GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *data = NULL;
  gsize length;
  SlBookmarkFile *file;

  if (!g_file_get_contents (path, &data, &length, error))
    return NULL;
  file = sl_bookmark_file_parse (data, length, &local);
  if (file == NULL)
    g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);
  return file;
}

int
sl_bookmark_store_import (SlBookmarkStore *self, const char *path, gboolean by_relative_time,
                          GError **error)
{
  g_autoptr(SlBookmarkFile) file = NULL;
  gint64 origin = sl_bookmark_store_get_profile_start (self);
  int added = 0;

  g_return_val_if_fail (SL_IS_BOOKMARK_STORE (self), -1);
  file = read_file (path, error);
  if (file == NULL)
    return -1;
  for (guint i = 0; i < file->bookmarks->len; i++)
    {
      SlBookmark *b = file->bookmarks->pdata[i];
      const SlTimeRange *rel = &g_array_index (file->relative, SlTimeRange, i);

      if (_sl_bookmark_store_index (self, b->id) >= 0)
        continue;   /* imported before, or exported from here */
      if (by_relative_time)
        {
          b->start = origin + rel->start;
          b->end = origin + rel->end;
        }
      g_ptr_array_add (sl_bookmark_store_get_bookmarks (self), sl_bookmark_copy (b));
      added++;
    }
  if (added > 0 && !_sl_bookmark_store_changed (self, error))
    return -1;
  return added;
}
