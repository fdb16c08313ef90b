/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-row-layout.c: hidden, pinned and reordered rows, and their JSON. */
#include "sl-row-layout.h"

#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

struct _SlRowLayout {
  GPtrArray  *hidden;   /* char*, in the order hidden: the menu lists them so */
  GPtrArray  *pinned;   /* char*, the band's order */
  GHashTable *rank;     /* char* -> GINT_TO_POINTER (rank + 1) */
};

SlRowLayout *
sl_row_layout_new (void)
{
  SlRowLayout *self = g_new0 (SlRowLayout, 1);

  self->hidden = g_ptr_array_new_with_free_func (g_free);
  self->pinned = g_ptr_array_new_with_free_func (g_free);
  self->rank = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return self;
}

SlRowLayout *
sl_row_layout_copy (const SlRowLayout *self)
{
  SlRowLayout *copy = sl_row_layout_new ();
  GHashTableIter it;
  gpointer k, v;

  for (guint i = 0; i < self->hidden->len; i++)
    g_ptr_array_add (copy->hidden, g_strdup (self->hidden->pdata[i]));
  for (guint i = 0; i < self->pinned->len; i++)
    g_ptr_array_add (copy->pinned, g_strdup (self->pinned->pdata[i]));
  g_hash_table_iter_init (&it, self->rank);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_hash_table_insert (copy->rank, g_strdup (k), v);
  return copy;
}

void
sl_row_layout_free (SlRowLayout *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->hidden);
  g_ptr_array_unref (self->pinned);
  g_hash_table_unref (self->rank);
  g_free (self);
}

gboolean
sl_row_layout_is_default (const SlRowLayout *self)
{
  return self->hidden->len == 0 && self->pinned->len == 0 && g_hash_table_size (self->rank) == 0;
}

void
sl_row_layout_reset (SlRowLayout *self)
{
  g_ptr_array_set_size (self->hidden, 0);
  g_ptr_array_set_size (self->pinned, 0);
  g_hash_table_remove_all (self->rank);
}

static int
find_key (GPtrArray *keys, const char *key)
{
  for (guint i = 0; i < keys->len; i++)
    if (g_str_equal (keys->pdata[i], key))
      return (int) i;
  return -1;
}

/* Adds or removes @key, keeping the others' order. */
static void
set_member (GPtrArray *keys, const char *key, gboolean member)
{
  int i = find_key (keys, key);

  if (member && i < 0)
    g_ptr_array_add (keys, g_strdup (key));
  else if (!member && i >= 0)
    g_ptr_array_remove_index (keys, i);
}

void
sl_row_layout_set_hidden (SlRowLayout *self, const char *key, gboolean hidden)
{
  g_return_if_fail (self != NULL && key != NULL);
  set_member (self->hidden, key, hidden);
}

gboolean
sl_row_layout_get_hidden (const SlRowLayout *self, const char *key)
{
  return find_key (self->hidden, key) >= 0;
}

GPtrArray *
sl_row_layout_get_hidden_keys (const SlRowLayout *self)
{
  GPtrArray *keys = g_ptr_array_new ();

  for (guint i = 0; i < self->hidden->len; i++)
    g_ptr_array_add (keys, self->hidden->pdata[i]);
  return keys;
}

void
sl_row_layout_show_all (SlRowLayout *self)
{
  g_ptr_array_set_size (self->hidden, 0);
}

void
sl_row_layout_set_pinned (SlRowLayout *self, const char *key, gboolean pinned)
{
  g_return_if_fail (self != NULL && key != NULL);
  set_member (self->pinned, key, pinned);
}

int
sl_row_layout_get_pin_position (const SlRowLayout *self, const char *key)
{
  return find_key (self->pinned, key);
}

guint
sl_row_layout_get_n_pinned (const SlRowLayout *self)
{
  return self->pinned->len;
}

const char *
sl_row_layout_get_pinned_key (const SlRowLayout *self, guint i)
{
  g_return_val_if_fail (i < self->pinned->len, NULL);
  return self->pinned->pdata[i];
}

void
sl_row_layout_set_order (SlRowLayout *self, const char *const *keys, guint n_keys)
{
  for (guint i = 0; i < n_keys; i++)
    g_hash_table_insert (self->rank, g_strdup (keys[i]), GINT_TO_POINTER (i + 1));
}

int
sl_row_layout_get_rank (const SlRowLayout *self, const char *key)
{
  return GPOINTER_TO_INT (g_hash_table_lookup (self->rank, key)) - 1;
}

static void
add_keys (JsonBuilder *b, const char *name, GPtrArray *keys)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < keys->len; i++)
    json_builder_add_string_value (b, keys->pdata[i]);
  json_builder_end_array (b);
}

static int
compare_keys (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The ranks sorted by key: the same layout always writes the same text. */
static void
add_ranks (JsonBuilder *b, GHashTable *rank)
{
  g_autofree gpointer *keys = g_hash_table_get_keys_as_array (rank, NULL);
  guint n = g_hash_table_size (rank);

  qsort (keys, n, sizeof (gpointer), compare_keys);
  json_builder_set_member_name (b, "order");
  json_builder_begin_object (b);
  for (guint i = 0; i < n; i++)
    {
      json_builder_set_member_name (b, keys[i]);
      json_builder_add_int_value (b, GPOINTER_TO_INT (g_hash_table_lookup (rank, keys[i])) - 1);
    }
  json_builder_end_object (b);
}

char *
sl_row_layout_to_json (const SlRowLayout *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, 1);
  add_keys (b, "hidden", self->hidden);
  add_keys (b, "pinned", self->pinned);
  add_ranks (b, self->rank);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

/* Strings of the array member @name (absent: none); FALSE when not strings. */
static gboolean
read_keys (JsonObject *o, const char *name, GPtrArray *out)
{
  JsonNode *node = json_object_get_member (o, name);
  JsonArray *a;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  a = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      if (json_node_get_value_type (e) != G_TYPE_STRING)
        return FALSE;
      set_member (out, json_node_get_string (e), TRUE);
    }
  return TRUE;
}

static gboolean
read_ranks (JsonObject *o, GHashTable *rank)
{
  JsonNode *node = json_object_get_member (o, "order");
  JsonObjectIter it;
  const char *key;
  JsonNode *value;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  json_object_iter_init (&it, json_node_get_object (node));
  while (json_object_iter_next (&it, &key, &value))
    {
      gint64 r;

      if (json_node_get_value_type (value) != G_TYPE_INT64)
        return FALSE;
      r = json_node_get_int (value);
      if (r < 0 || r >= G_MAXINT - 1)
        return FALSE;
      g_hash_table_insert (rank, g_strdup (key), GINT_TO_POINTER ((int) r + 1));
    }
  return TRUE;
}

SlRowLayout *
sl_row_layout_from_json (const char *text, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(SlRowLayout) self = sl_row_layout_new ();
  JsonNode *root;
  JsonObject *o;

  g_return_val_if_fail (text != NULL, NULL);
  if (!json_parser_load_from_data (parser, text, -1, error))
    return NULL;
  root = json_parser_get_root (parser);
  o = root != NULL && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  if (o == NULL || json_object_get_int_member_with_default (o, "version", 0) != 1 ||
      !read_keys (o, "hidden", self->hidden) || !read_keys (o, "pinned", self->pinned) ||
      !read_ranks (o, self->rank))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "not a row layout (version 1)");
      return NULL;
    }
  return g_steal_pointer (&self);
}
