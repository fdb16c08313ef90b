/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-store.c: the bookmarks of one profile, in memory and in its
 * file: loading (a bad file kept aside), the changes (each written at
 * once), and the reload when someone else writes the file.  The format is
 * sl-bookmark-file.c's; export and import are sl-bookmark-transfer.c's. */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "sl-bookmark-file.h"
#include "sl-bookmark-store-private.h"
#include "sl-content-id.h"

enum { PROP_0, PROP_PROBLEM, N_PROPS };
enum { SIGNAL_CHANGED, N_SIGNALS };
static GParamSpec *props[N_PROPS];
static guint signals[N_SIGNALS];

struct _SlBookmarkStore {
  GObject       parent_instance;
  char         *content_id;
  gint64        start;
  char         *name;         /* the profile's file name, nullable */
  char         *path;
  char         *problem;
  GPtrArray    *bookmarks;    /* SlBookmark * */
  GBytes       *on_disk;      /* what the file held when last read or written */
  gboolean      blocked;      /* a bad file could not be moved aside: never write over it */
  GFileMonitor *monitor;
  guint         reload_id;
};

G_DEFINE_FINAL_TYPE (SlBookmarkStore, sl_bookmark_store, G_TYPE_OBJECT)

char *
sl_bookmark_store_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "sightline", "bookmarks", NULL);
}

static void
set_problem (SlBookmarkStore *self, char *problem)
{
  g_free (self->problem);
  self->problem = problem;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PROBLEM]);
}

/* Renames the unreadable file to <path>.corrupt-<time> (never over an
 * older one) and says so in "problem". */
static void
keep_aside (SlBookmarkStore *self, const GError *why)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *aside = g_strdup_printf ("%s.corrupt-%s", self->path, stamp);

  for (guint n = 2; g_file_test (aside, G_FILE_TEST_EXISTS); n++)
    {
      g_free (aside);
      aside = g_strdup_printf ("%s.corrupt-%s-%u", self->path, stamp, n);
    }
  if (g_rename (self->path, aside) == 0)
    {
      self->blocked = FALSE;
      set_problem (self, g_strdup_printf (_("The bookmarks file %s could not be read (%s); "
                                            "it was kept as %s."), self->path, why->message, aside));
      return;
    }
  /* Left where it is, so no change may be written over it. */
  self->blocked = TRUE;
  set_problem (self, g_strdup_printf (_("The bookmarks file %s could not be read (%s) nor moved "
                                        "aside (%s); changes to bookmarks will not be saved."),
                                      self->path, why->message, g_strerror (errno)));
}

/* Reads the file.  Returns TRUE when the bookmarks were replaced. */
static gboolean
load (SlBookmarkStore *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlBookmarkFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  char *data = NULL;
  gsize length = 0;

  if (!g_file_get_contents (self->path, &data, &length, &error))
    {
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_warning ("%s", error->message);
      /* No file: no bookmarks (it was never written, or was deleted). */
      data = g_strdup ("");
      length = 0;
    }
  bytes = g_bytes_new_take (data, length);
  if (self->on_disk != NULL && g_bytes_equal (bytes, self->on_disk))
    return FALSE;   /* our own write, or nothing new */
  g_clear_pointer (&self->on_disk, g_bytes_unref);
  if (length == 0)
    {
      self->on_disk = g_steal_pointer (&bytes);
      g_ptr_array_set_size (self->bookmarks, 0);
      return TRUE;
    }
  file = sl_bookmark_file_parse (data, length, &error);
  if (file == NULL)
    {
      /* Kept in memory what there was: the next change writes it anew.
       * The file is gone once aside: its disappearance is no news. */
      keep_aside (self, error);
      if (!self->blocked)
        self->on_disk = g_bytes_new_static ("", 0);
      return FALSE;
    }
  self->on_disk = g_steal_pointer (&bytes);
  g_ptr_array_unref (self->bookmarks);
  self->bookmarks = g_ptr_array_ref (file->bookmarks);
  return TRUE;
}

static gboolean
reload_cb (gpointer data)
{
  SlBookmarkStore *self = data;

  self->reload_id = 0;
  if (load (self))
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  return G_SOURCE_REMOVE;
}

static gboolean
is_our_file (SlBookmarkStore *self, GFile *file)
{
  g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

  return path != NULL && g_str_equal (path, self->path);
}

static void
monitor_cb (GFileMonitor *monitor, GFile *file, GFile *other, GFileMonitorEvent event,
            gpointer data)
{
  SlBookmarkStore *self = data;

  /* Atomic writes arrive as a rename of a temporary file onto ours. */
  if (!is_our_file (self, file) && !is_our_file (self, other))
    return;
  if (self->reload_id == 0)
    self->reload_id = g_idle_add (reload_cb, self);
}

/* Watches the folder rather than the file: the file is replaced, not
 * written, and may not exist yet. */
static void
watch (SlBookmarkStore *self)
{
  g_autofree char *dir = g_path_get_dirname (self->path);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    return;
  self->monitor = g_file_monitor_directory (folder, G_FILE_MONITOR_WATCH_MOVES, NULL, NULL);
  if (self->monitor != NULL)
    g_signal_connect (self->monitor, "changed", G_CALLBACK (monitor_cb), self);
}

SlBookmarkStore *
sl_bookmark_store_new (const char *content_id, gint64 profile_start_ns, const char *profile_name)
{
  SlBookmarkStore *self = g_object_new (SL_TYPE_BOOKMARK_STORE, NULL);
  g_autofree char *dir = sl_bookmark_store_dir ();
  g_autofree char *base = g_strconcat (content_id, ".json", NULL);

  g_return_val_if_fail (content_id != NULL, NULL);
  self->content_id = g_strdup (content_id);
  self->start = profile_start_ns;
  self->name = g_strdup (profile_name);
  self->path = g_build_filename (dir, base, NULL);
  load (self);
  watch (self);
  return self;
}

SlBookmarkStore *
sl_bookmark_store_new_for_profile (SlProfile *profile, GError **error)
{
  const SlProfile *source = profile;
  g_autofree char *id = NULL;
  g_autofree char *name = profile->path != NULL ? g_path_get_basename (profile->path) : NULL;

  /* A subset reads through its parent's file. */
  while (source->source_fd < 0 && source->parent != NULL)
    source = source->parent;
  if (source->source_fd >= 0)
    id = sl_content_id_from_fd (source->source_fd, error);
  else if (profile->path != NULL)
    id = sl_content_id_from_path (profile->path, error);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("the profile has no file"));
  if (id == NULL)
    return NULL;
  return sl_bookmark_store_new (id, profile->start_ns, name);
}

/* ---- reading -------------------------------------------------------------- */

gboolean
sl_bookmark_store_peek_start (const char *content_id, gint64 *start_ns)
{
  g_autofree char *dir = sl_bookmark_store_dir ();
  g_autofree char *base = g_strconcat (content_id, ".json", NULL);
  g_autofree char *path = g_build_filename (dir, base, NULL);
  g_autofree char *data = NULL;
  g_autoptr(SlBookmarkFile) file = NULL;
  gsize length;

  if (!g_file_get_contents (path, &data, &length, NULL))
    return FALSE;
  file = sl_bookmark_file_parse (data, length, NULL);
  if (file == NULL || g_strcmp0 (file->content_id, content_id) != 0)
    return FALSE;
  *start_ns = file->start_ns;
  return TRUE;
}


const char *
sl_bookmark_store_get_content_id (SlBookmarkStore *self)
{
  return self->content_id;
}

gint64
sl_bookmark_store_get_profile_start (SlBookmarkStore *self)
{
  return self->start;
}

const char *
_sl_bookmark_store_profile_name (SlBookmarkStore *self)
{
  return self->name;
}

const char *
sl_bookmark_store_get_path (SlBookmarkStore *self)
{
  return self->path;
}

const char *
sl_bookmark_store_get_problem (SlBookmarkStore *self)
{
  return self->problem;
}

GPtrArray *
sl_bookmark_store_get_bookmarks (SlBookmarkStore *self)
{
  return self->bookmarks;
}

/* The index of @id, or -1. */
int
_sl_bookmark_store_index (SlBookmarkStore *self, const char *id)
{
  for (guint i = 0; i < self->bookmarks->len; i++)
    if (g_strcmp0 (((SlBookmark *) self->bookmarks->pdata[i])->id, id) == 0)
      return (int) i;
  return -1;
}

const SlBookmark *
sl_bookmark_store_find (SlBookmarkStore *self, const char *id)
{
  int i = _sl_bookmark_store_index (self, id);

  return i >= 0 ? self->bookmarks->pdata[i] : NULL;
}

const SlBookmark *
sl_bookmark_store_lookup_name (SlBookmarkStore *self, const char *name)
{
  g_autofree char *needle = g_utf8_casefold (name, -1);
  const SlBookmark *found = NULL;

  for (guint i = 0; i < self->bookmarks->len; i++)
    if (g_str_equal (((SlBookmark *) self->bookmarks->pdata[i])->name, name))
      return self->bookmarks->pdata[i];
  for (guint i = 0; i < self->bookmarks->len; i++)
    {
      const SlBookmark *b = self->bookmarks->pdata[i];
      g_autofree char *hay = g_utf8_casefold (b->name, -1);
      if (strstr (hay, needle) != NULL)
        {
          if (found != NULL)
            return NULL;   /* ambiguous */
          found = b;
        }
    }
  return found;
}

/* ---- writing -------------------------------------------------------------- */

static gboolean save (SlBookmarkStore *self, GError **error);

gboolean
_sl_bookmark_store_changed (SlBookmarkStore *self, GError **error)
{
  gboolean saved = save (self, error);

  /* The change holds in memory even when it could not be written. */
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  return saved;
}

/* Writes the bookmarks to the file. */
static gboolean
save (SlBookmarkStore *self, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (self->path);
  gsize length;
  char *data;

  if (self->blocked)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", self->problem);
      return FALSE;
    }
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not create the bookmarks folder %s: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  data = sl_bookmark_file_to_data (self->content_id, self->start, self->name, self->bookmarks, &length);
  if (!sl_bookmark_file_write (self->path, data, length, error))
    {
      g_free (data);
      return FALSE;
    }
  g_clear_pointer (&self->on_disk, g_bytes_unref);
  self->on_disk = g_bytes_new_take (data, length);
  return TRUE;
}

gboolean
sl_bookmark_store_insert (SlBookmarkStore *self, int position, const SlBookmark *bookmark,
                          GError **error)
{
  g_return_val_if_fail (SL_IS_BOOKMARK_STORE (self), FALSE);
  if (_sl_bookmark_store_index (self, bookmark->id) >= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("A bookmark with the id %s is already there"), bookmark->id);
      return FALSE;
    }
  if (position < 0 || (guint) position > self->bookmarks->len)
    position = (int) self->bookmarks->len;
  g_ptr_array_insert (self->bookmarks, position, sl_bookmark_copy (bookmark));
  return _sl_bookmark_store_changed (self, error);
}

gboolean
sl_bookmark_store_add (SlBookmarkStore *self, const SlBookmark *bookmark, GError **error)
{
  return sl_bookmark_store_insert (self, -1, bookmark, error);
}

/* The index of @id, or -1 with @error set. */
static int
index_or_error (SlBookmarkStore *self, const char *id, GError **error)
{
  int i = _sl_bookmark_store_index (self, id);

  if (i < 0)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("No bookmark has the id %s"), id);
  return i;
}

gboolean
sl_bookmark_store_update (SlBookmarkStore *self, const SlBookmark *bookmark, GError **error)
{
  int i = index_or_error (self, bookmark->id, error);

  if (i < 0)
    return FALSE;
  sl_bookmark_free (self->bookmarks->pdata[i]);
  self->bookmarks->pdata[i] = sl_bookmark_copy (bookmark);
  return _sl_bookmark_store_changed (self, error);
}

gboolean
sl_bookmark_store_remove (SlBookmarkStore *self, const char *id, GError **error)
{
  int i = index_or_error (self, id, error);

  if (i < 0)
    return FALSE;
  g_ptr_array_remove_index (self->bookmarks, (guint) i);
  return _sl_bookmark_store_changed (self, error);
}

gboolean
sl_bookmark_store_move (SlBookmarkStore *self, const char *id, guint position, GError **error)
{
  int i = index_or_error (self, id, error);
  gpointer b;

  if (i < 0)
    return FALSE;
  b = g_ptr_array_steal_index (self->bookmarks, (guint) i);
  g_ptr_array_insert (self->bookmarks, (int) MIN (position, self->bookmarks->len), b);
  return _sl_bookmark_store_changed (self, error);
}

/* ---- the object ----------------------------------------------------------- */

static void
sl_bookmark_store_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlBookmarkStore *self = SL_BOOKMARK_STORE (object);

  switch (prop_id)
    {
    case PROP_PROBLEM:
      g_value_set_string (value, self->problem);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_bookmark_store_finalize (GObject *object)
{
  SlBookmarkStore *self = SL_BOOKMARK_STORE (object);

  g_clear_handle_id (&self->reload_id, g_source_remove);
  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      g_file_monitor_cancel (self->monitor);
      g_clear_object (&self->monitor);
    }
  g_free (self->content_id);
  g_free (self->name);
  g_free (self->path);
  g_free (self->problem);
  g_ptr_array_unref (self->bookmarks);
  g_clear_pointer (&self->on_disk, g_bytes_unref);
  G_OBJECT_CLASS (sl_bookmark_store_parent_class)->finalize (object);
}

static void
sl_bookmark_store_class_init (SlBookmarkStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = sl_bookmark_store_get_property;
  object_class->finalize = sl_bookmark_store_finalize;
  props[PROP_PROBLEM] = g_param_spec_string ("problem", NULL, NULL, NULL,
                                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  /* The bookmarks changed: by a call on this store, or in the file. */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sl_bookmark_store_init (SlBookmarkStore *self)
{
  self->bookmarks = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_bookmark_free);
}
