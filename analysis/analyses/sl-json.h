/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-json.h: the members every analysis's JSON is made of, one call each:
 * integers, doubles, booleans, nullable integers, strings from the profile
 * (untrusted: invalid UTF-8 is repaired), integer arrays, and arrays of
 * {"name", value} objects.  Each adds a member to an open object. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Adds a string value (not a member), repairing invalid UTF-8; NULL adds null. */
void sl_json_add_string             (JsonBuilder *builder, const char *value);

void sl_json_member_int             (JsonBuilder *builder, const char *member, gint64 value);
void sl_json_member_double          (JsonBuilder *builder, const char *member, double value);
void sl_json_member_boolean         (JsonBuilder *builder, const char *member, gboolean value);
/* @value, or null when not @has. */
void sl_json_member_int_or_null     (JsonBuilder *builder, const char *member, gboolean has, gint64 value);
/* A string (NULL: null), repaired as sl_json_add_string() does. */
void sl_json_member_string          (JsonBuilder *builder, const char *member, const char *value);
/* [values[0], ..., values[n - 1]] */
void sl_json_member_int_array       (JsonBuilder *builder, const char *member, const gint64 *values, guint n);
/* A @member array of {"name": str, @value_member: int} objects from @n
 * structs of @stride bytes, each with a char * at @name_offset and a gint64
 * at @value_offset. */
void sl_json_member_named_values    (JsonBuilder *builder, const char *member, const char *value_member,
                                     gconstpointer first, guint n, gsize stride,
                                     gsize name_offset, gsize value_offset);

/* Adds one item (usually an object) to an open array; @data as given to
 * sl_json_member_array(). */
typedef void (*SlJsonAddFunc) (JsonBuilder *builder, gconstpointer item, gconstpointer data);

/* A @member array of @n items of @stride bytes from @first, each added by @add. */
void sl_json_member_array           (JsonBuilder *builder, const char *member, gconstpointer first,
                                     guint n, gsize stride, SlJsonAddFunc add, gconstpointer data);

G_END_DECLS
