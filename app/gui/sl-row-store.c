/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-row-store.c: row layouts read and written in workers. */
#include "sl-row-store.h"
#include "sl-content-id.h"

#include <glib/gstdio.h>

typedef struct {
  char        *id;
  SlRowLayout *rows;
} Loaded;

static void
loaded_free (Loaded *l)
{
  g_free (l->id);
  sl_row_layout_free (l->rows);
  g_free (l);
}

static char *
layout_path (const char *id)
{
  g_autofree char *name = g_strconcat (id, ".json", NULL);

  return g_build_filename (g_get_user_state_dir (), "sightline", "rows", name, NULL);
}

static void
load_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Loaded *l = g_new0 (Loaded, 1);
  g_autofree char *path = NULL, *text = NULL;
  GError *error = NULL;

  l->id = sl_content_id_from_path (data, &error);
  if (l->id == NULL)
    {
      loaded_free (l);
      g_task_return_error (task, error);
      return;
    }
  path = layout_path (l->id);
  /* none saved, or not ours to read: the default layout */
  if (g_file_get_contents (path, &text, NULL, NULL))
    l->rows = sl_row_layout_from_json (text, NULL);
  g_task_return_pointer (task, l, (GDestroyNotify) loaded_free);
}

void
sl_row_store_load_async (const char          *profile_path,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, data);

  g_task_set_source_tag (task, sl_row_store_load_async);
  g_task_set_task_data (task, g_strdup (profile_path), g_free);
  g_task_run_in_thread (task, load_thread);
}

SlRowLayout *
sl_row_store_load_finish (GAsyncResult  *result,
                          char         **content_id,
                          GError       **error)
{
  Loaded *l = g_task_propagate_pointer (G_TASK (result), error);
  SlRowLayout *rows;

  if (l == NULL)
    return NULL;
  *content_id = g_steal_pointer (&l->id);
  rows = g_steal_pointer (&l->rows);
  loaded_free (l);
  return rows;
}

typedef struct {
  char *path;
  char *text;   /* NULL: remove the file */
} Write;

static void
write_func (gpointer data, gpointer user_data)
{
  Write *w = data;
  g_autofree char *dir = g_path_get_dirname (w->path);
  GError *error = NULL;

  if (w->text == NULL)
    g_unlink (w->path);
  else if (g_mkdir_with_parents (dir, 0700) != 0 ||
           !g_file_set_contents (w->path, w->text, -1, &error))
    {
      g_warning ("could not save the row layout in %s: %s", w->path,
                 error ? error->message : g_strerror (errno));
      g_clear_error (&error);
    }
  g_free (w->path);
  g_free (w->text);
  g_free (w);
}

void
sl_row_store_save (const char        *content_id,
                   const SlRowLayout *rows)
{
  /* one writer: the saves land in the order they were made */
  static GThreadPool *pool;
  Write *w;

  g_return_if_fail (content_id != NULL && rows != NULL);
  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (write_func, NULL, 1, FALSE, NULL));
  w = g_new0 (Write, 1);
  w->path = layout_path (content_id);
  w->text = sl_row_layout_is_default (rows) ? NULL : sl_row_layout_to_json (rows);
  g_thread_pool_push (pool, w, NULL);
}
