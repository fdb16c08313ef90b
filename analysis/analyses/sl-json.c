/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-json.c: JSON members shared by the analyses' *_to_json(). */
#include "sl-json.h"

void
sl_json_add_string (JsonBuilder *b, const char *value)
{
  if (value == NULL)
    json_builder_add_null_value (b);
  else if (g_utf8_validate (value, -1, NULL))
    json_builder_add_string_value (b, value);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (value, -1);
      json_builder_add_string_value (b, valid);
    }
}

void
sl_json_member_int (JsonBuilder *b, const char *member, gint64 value)
{
  json_builder_set_member_name (b, member);
  json_builder_add_int_value (b, value);
}

void
sl_json_member_double (JsonBuilder *b, const char *member, double value)
{
  json_builder_set_member_name (b, member);
  json_builder_add_double_value (b, value);
}

void
sl_json_member_boolean (JsonBuilder *b, const char *member, gboolean value)
{
  json_builder_set_member_name (b, member);
  json_builder_add_boolean_value (b, value);
}

void
sl_json_member_int_or_null (JsonBuilder *b, const char *member, gboolean has, gint64 value)
{
  json_builder_set_member_name (b, member);
  if (has)
    json_builder_add_int_value (b, value);
  else
    json_builder_add_null_value (b);
}

void
sl_json_member_string (JsonBuilder *b, const char *member, const char *value)
{
  json_builder_set_member_name (b, member);
  sl_json_add_string (b, value);
}

void
sl_json_member_int_array (JsonBuilder *b, const char *member, const gint64 *values, guint n)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    json_builder_add_int_value (b, values[i]);
  json_builder_end_array (b);
}

void
sl_json_member_named_values (JsonBuilder *b, const char *member, const char *value_member,
                             gconstpointer first, guint n, gsize stride,
                             gsize name_offset, gsize value_offset)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      const char *item = (const char *) first + i * stride;

      json_builder_begin_object (b);
      sl_json_member_string (b, "name", *(char *const *) (item + name_offset));
      sl_json_member_int (b, value_member, *(const gint64 *) (item + value_offset));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

void
sl_json_member_array (JsonBuilder *b, const char *member, gconstpointer first, guint n, gsize stride,
                      SlJsonAddFunc add, gconstpointer data)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    add (b, (const char *) first + i * stride, data);
  json_builder_end_array (b);
}
