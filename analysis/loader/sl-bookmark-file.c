/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-file.c: the bookmarks file format, version 1. */
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-bookmark-file.h"

SlBookmarkFile *
sl_bookmark_file_new (const char *content_id, gint64 start_ns, const char *name)
{
  SlBookmarkFile *file = g_new0 (SlBookmarkFile, 1);

  file->content_id = g_strdup (content_id);
  file->start_ns = start_ns;
  file->name = g_strdup (name);
  file->bookmarks = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_bookmark_free);
  file->relative = g_array_new (FALSE, FALSE, sizeof (SlTimeRange));
  return file;
}

void
sl_bookmark_file_free (SlBookmarkFile *file)
{
  if (file == NULL)
    return;
  g_free (file->content_id);
  g_free (file->name);
  g_ptr_array_unref (file->bookmarks);
  g_array_unref (file->relative);
  g_free (file);
}

/* ---- reading ----------------------------------------------------------------- */

/* The integer member @name of @o into *@out; FALSE when it is there but no
 * integer, or missing and not @optional. */
static gboolean
get_int (JsonObject *o, const char *name, gboolean optional, gint64 *out)
{
  JsonNode *node = json_object_get_member (o, name);

  if (node == NULL)
    return optional;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *out = json_node_get_int (node);
  return TRUE;
}

/* The string member @name of @o (NULL when missing), into *@out; FALSE
 * when it is there and no string. */
static gboolean
get_string (JsonObject *o, const char *name, const char **out)
{
  JsonNode *node = json_object_get_member (o, name);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  *out = json_node_get_string (node);
  return TRUE;
}

/* The member @name of @o when it holds @type, else NULL (json-glib 1.6
 * has no _if_exists getters for these). */
static JsonNode *
get_typed (JsonObject *o, const char *name, JsonNodeType type)
{
  JsonNode *node = json_object_get_member (o, name);

  return node != NULL && JSON_NODE_TYPE (node) == type ? node : NULL;
}

static gboolean
is_color (const char *text)
{
  if (text == NULL || text[0] != '#' || strlen (text) != 7)
    return FALSE;
  for (int i = 1; i < 7; i++)
    if (!g_ascii_isxdigit (text[i]))
      return FALSE;
  return TRUE;
}

/* One bookmark object into @file; FALSE when it is malformed. */
static gboolean
parse_bookmark (JsonNode *node, SlBookmarkFile *file)
{
  JsonObject *o = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *id, *name, *note, *color;
  gint64 start = 0, end = 0;
  SlTimeRange rel;
  SlBookmark *b;

  if (o == NULL || !get_string (o, "id", &id) || !get_string (o, "name", &name)
      || !get_string (o, "note", &note) || !get_string (o, "color", &color)
      || !get_int (o, "start_ns", FALSE, &start) || !get_int (o, "end_ns", FALSE, &end)
      || end < start)
    return FALSE;
  /* Relative times default to the absolute ones from the file's start. */
  rel.start = start - file->start_ns;
  rel.end = end - file->start_ns;
  if (!get_int (o, "start_rel_ns", TRUE, &rel.start) || !get_int (o, "end_rel_ns", TRUE, &rel.end)
      || rel.end < rel.start)
    return FALSE;
  /* A hand-written file may leave out the id or use a colour we cannot show. */
  b = sl_bookmark_new (name, note, is_color (color) ? color : NULL, start, end);
  if (id != NULL && *id != '\0')
    g_free (g_steal_pointer (&b->id)), b->id = g_strdup (id);
  g_ptr_array_add (file->bookmarks, b);
  g_array_append_val (file->relative, rel);
  return TRUE;
}

/* The header checks: the format's name and a version we can read. */
static gboolean
check_header (JsonObject *root, GError **error)
{
  const char *format = NULL;
  gint64 version = 0;

  if (!get_string (root, "format", &format) || g_strcmp0 (format, SL_BOOKMARKS_FORMAT_NAME) != 0
      || !get_int (root, "version", FALSE, &version) || version < 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("not a Sightline bookmarks file (no “format”: “%s” with a “version”)"),
                   SL_BOOKMARKS_FORMAT_NAME);
      return FALSE;
    }
  if (version > SL_BOOKMARK_FILE_VERSION)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("the bookmarks file has format version %" PRId64
                     ", newer than this Sightline reads (%d)"), version, SL_BOOKMARK_FILE_VERSION);
      return FALSE;
    }
  return TRUE;
}

static SlBookmarkFile *
parse_root (JsonObject *root, GError **error)
{
  JsonNode *profile_node = get_typed (root, "profile", JSON_NODE_OBJECT);
  JsonNode *list_node = get_typed (root, "bookmarks", JSON_NODE_ARRAY);
  JsonObject *profile = profile_node != NULL ? json_node_get_object (profile_node) : NULL;
  JsonArray *list = list_node != NULL ? json_node_get_array (list_node) : NULL;
  const char *content_id = NULL, *name = NULL;
  gint64 start = 0;
  g_autoptr(SlBookmarkFile) file = NULL;

  if (!check_header (root, error))
    return NULL;
  if (list == NULL || (profile != NULL && (!get_string (profile, "content_id", &content_id)
                                           || !get_string (profile, "name", &name)
                                           || !get_int (profile, "start_ns", TRUE, &start))))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("the bookmarks file has no “bookmarks” list or a malformed “profile”"));
      return NULL;
    }
  file = sl_bookmark_file_new (content_id, start, name);
  for (guint i = 0; i < json_array_get_length (list); i++)
    if (!parse_bookmark (json_array_get_element (list, i), file))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("bookmark %u of the file is malformed (it needs start_ns <= end_ns, "
                       "integers, and strings for id, name, note and color)"), i + 1);
        return NULL;
      }
  return g_steal_pointer (&file);
}

SlBookmarkFile *
sl_bookmark_file_parse (const char *data, gsize length, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) json_error = NULL;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, data, (gssize) length, &json_error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("not JSON: %s"), json_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("not a Sightline bookmarks file (not a JSON object)"));
      return NULL;
    }
  return parse_root (json_node_get_object (root), error);
}

/* ---- writing ----------------------------------------------------------------- */

JsonNode *
sl_bookmark_file_bookmark_to_json (const SlBookmark *bm, gint64 start_ns)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_string_value (b, bm->id);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, bm->name);
  json_builder_set_member_name (b, "note");
  json_builder_add_string_value (b, bm->note);
  json_builder_set_member_name (b, "color");
  json_builder_add_string_value (b, bm->color);
  json_builder_set_member_name (b, "start_ns");
  json_builder_add_int_value (b, bm->start);
  json_builder_set_member_name (b, "end_ns");
  json_builder_add_int_value (b, bm->end);
  json_builder_set_member_name (b, "start_rel_ns");
  json_builder_add_int_value (b, bm->start - start_ns);
  json_builder_set_member_name (b, "end_rel_ns");
  json_builder_add_int_value (b, bm->end - start_ns);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

char *
sl_bookmark_file_to_data (const char *content_id, gint64 start_ns, const char *name,
                          GPtrArray *bookmarks, gsize *length)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, SL_BOOKMARKS_FORMAT_NAME);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, SL_BOOKMARK_FILE_VERSION);
  json_builder_set_member_name (b, "profile");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "content_id");
  json_builder_add_string_value (b, content_id);
  json_builder_set_member_name (b, "start_ns");
  json_builder_add_int_value (b, start_ns);
  json_builder_set_member_name (b, "name");
  if (name != NULL)
    json_builder_add_string_value (b, name);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "bookmarks");
  json_builder_begin_array (b);
  for (guint i = 0; i < bookmarks->len; i++)
    json_builder_add_value (b, sl_bookmark_file_bookmark_to_json (bookmarks->pdata[i], start_ns));
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, length);
}

gboolean
sl_bookmark_file_write (const char *path, const char *data, gsize length, GError **error)
{
  /* g_file_set_contents_full() writes a temporary file beside @path,
   * fsyncs it (CONSISTENT) and renames it over @path, unlinking it on any
   * failure: a reader never sees half a file, a crash never loses the old. */
  return g_file_set_contents_full (path, data, (gssize) length,
                                   G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
}
