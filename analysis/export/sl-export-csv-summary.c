/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-csv-summary.c: the summary tables of a CSV directory export.
 * Each is the rows of the matching command's --json output, one column per
 * key in the order of the JSON, so the two can never disagree; nested
 * values (a category's top kernels, a gap's CPU calls) stay JSON text. */
#include "sl-export-private.h"

#include "sl-api-summary.h"
#include "sl-category-summary.h"
#include "sl-gaps.h"
#include "sl-iterations.h"
#include "sl-json.h"
#include "sl-memcpy-summary.h"
#include "sl-nvtx-summary.h"

static const char *const tables[] = {
  "kernels", "api", "nvtx", "memcpy", "categories", "iterations", "gaps", "bookmarks", NULL,
};

const char *const *
sl_export_csv_tables (void)
{
  return tables;
}

/* {"bookmarks": [...]}: those in scope, as `sightline-cli bookmarks --json`
 * lists them (without the relative times, which need the complete start). */
static JsonNode *
bookmarks_json (const SlExportOptions *o)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  SlTimeRange scope = { G_MININT64, G_MAXINT64 };

  if (o->filter != NULL && o->filter->has_range)
    scope = (SlTimeRange) { o->filter->range_start, o->filter->range_end };
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "bookmarks");
  json_builder_begin_array (b);
  for (guint i = 0; o->bookmarks != NULL && i < o->bookmarks->len; i++)
    {
      const SlBookmark *bm = o->bookmarks->pdata[i];

      if (!sl_bookmark_in_range (bm, &scope))
        continue;
      json_builder_begin_object (b);
      sl_json_member_string (b, "name", bm->name);
      sl_json_member_int (b, "start_ns", bm->start);
      sl_json_member_int (b, "end_ns", bm->end);
      sl_json_member_int (b, "dur_ns", bm->end - bm->start);
      sl_json_member_string (b, "color", bm->color);
      sl_json_member_string (b, "note", bm->note);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* The command's JSON (as `sightline-cli TABLE --json` with no --top limit). */
static JsonNode *
table_json (SlProfile *profile, const SlExportOptions *o, const char *table)
{
  const SlFilter *f = o->filter;

  if (g_str_equal (table, "kernels"))
    {
      g_autoptr(SlKernelSummary) s = sl_kernel_summary_compute (profile, f, o->names, 0);
      return sl_kernel_summary_to_json (s);
    }
  if (g_str_equal (table, "api"))
    {
      g_autoptr(SlApiSummary) s = sl_api_summary_compute (profile, f, 0);
      return sl_api_summary_to_json (s);
    }
  if (g_str_equal (table, "nvtx"))
    {
      g_autoptr(SlNvtxSummary) s = sl_nvtx_summary_compute (profile, f, 0);
      return sl_nvtx_summary_to_json (s);
    }
  if (g_str_equal (table, "memcpy"))
    {
      g_autoptr(SlMemcpySummary) s = sl_memcpy_summary_compute (profile, f);
      return sl_memcpy_summary_to_json (s);
    }
  if (g_str_equal (table, "categories"))
    {
      g_autoptr(SlCategorySummary) s = sl_category_summary_compute (profile, f, o->categories,
                                                                    o->names, 5);
      return sl_category_summary_to_json (s);
    }
  if (g_str_equal (table, "iterations"))
    {
      g_autoptr(SlIterations) s = sl_iterations_compute (profile, f, NULL, 0, NULL);
      return s != NULL ? sl_iterations_to_json (s) : NULL;
    }
  if (g_str_equal (table, "bookmarks"))
    return bookmarks_json (o);
  g_autoptr(SlGaps) s = sl_gaps_compute (profile, f, 0, 50);
  return sl_gaps_to_json (s);
}

static void
write_value (GString *buf, JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType t = json_node_get_value_type (node);
      char num[G_ASCII_DTOSTR_BUF_SIZE];

      if (t == G_TYPE_STRING)
        sl_export_csv_text (buf, json_node_get_string (node));
      else if (t == G_TYPE_BOOLEAN)
        g_string_append (buf, json_node_get_boolean (node) ? "true" : "false");
      else if (t == G_TYPE_DOUBLE)
        g_string_append (buf, g_ascii_dtostr (num, sizeof num, json_node_get_double (node)));
      else
        sl_export_append_i64 (buf, json_node_get_int (node));
      return;
    }
  g_autofree char *text = json_to_string (node, FALSE);
  sl_export_csv_text (buf, text);
}

/* A copy of @row with @key = @value in front. */
static JsonObject *
with_key (JsonObject *row, const char *key, JsonNode *value)
{
  JsonObject *o = json_object_new ();
  g_autoptr(GList) members = json_object_get_members (row);

  json_object_set_member (o, key, value);
  for (GList *l = members; l != NULL; l = l->next)
    json_object_set_member (o, l->data, json_object_dup_member (row, l->data));
  return o;
}

static void
add_array (GPtrArray *rows, JsonObject *root, const char *member, const char *key, JsonNode *value)
{
  JsonArray *a = json_object_has_member (root, member)
                 ? json_object_get_array_member (root, member) : NULL;

  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      JsonObject *row = json_array_get_object_element (a, i);

      if (key == NULL)
        g_ptr_array_add (rows, json_object_ref (row));
      else
        g_ptr_array_add (rows, with_key (row, key, json_node_copy (value)));
    }
  if (value != NULL)
    json_node_unref (value);
}

/* The rows of @table in @root: iterations list the full steps then the
 * partial ones (column "partial"); gaps are listed per device (column
 * "device"). */
static GPtrArray *
table_rows (const char *table, JsonObject *root)
{
  static const char *const members[] = {
    "kernels", "calls", "ranges", "operations", "categories",
  };
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);

  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    if (g_str_equal (table, tables[i]))
      add_array (rows, root, members[i], NULL, NULL);
  if (g_str_equal (table, "bookmarks"))
    add_array (rows, root, "bookmarks", NULL, NULL);
  if (g_str_equal (table, "iterations"))
    {
      add_array (rows, root, "iterations", "partial", json_node_init_boolean (json_node_alloc (), FALSE));
      add_array (rows, root, "partial", "partial", json_node_init_boolean (json_node_alloc (), TRUE));
    }
  if (g_str_equal (table, "gaps") && json_object_has_member (root, "devices"))
    {
      JsonArray *devices = json_object_get_array_member (root, "devices");

      for (guint d = 0; d < json_array_get_length (devices); d++)
        {
          JsonObject *dev = json_array_get_object_element (devices, d);
          add_array (rows, dev, "gaps", "device", json_object_dup_member (dev, "device"));
        }
    }
  return rows;
}

/* Every key of every row, in the order first seen. */
static GPtrArray *
table_columns (GPtrArray *rows)
{
  GPtrArray *columns = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint r = 0; r < rows->len; r++)
    {
      g_autoptr(GList) members = json_object_get_members (rows->pdata[r]);

      for (GList *l = members; l != NULL; l = l->next)
        if (!g_hash_table_contains (seen, l->data))
          {
            char *key = g_strdup (l->data);
            g_ptr_array_add (columns, key);
            g_hash_table_add (seen, key);
          }
    }
  return columns;
}

gboolean
sl_export_csv_table_write (SlProfile *profile, const SlExportOptions *options, const char *table,
                           GOutputStream *out, GCancellable *cancellable, GError **error)
{
  g_autoptr(JsonNode) root = table_json (profile, options, table);
  g_autoptr(GPtrArray) rows = NULL, columns = NULL;
  SlExportSink sink;

  rows = root != NULL && JSON_NODE_HOLDS_OBJECT (root)
         ? table_rows (table, json_node_get_object (root))
         : g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  columns = table_columns (rows);
  sl_export_sink_init (&sink, out, 0, NULL, NULL, cancellable);
  for (guint c = 0; c < columns->len; c++)
    {
      if (c > 0)
        g_string_append_c (sink.buf, ',');
      sl_export_csv_text (sink.buf, columns->pdata[c]);
    }
  g_string_append (sink.buf, "\r\n");
  for (guint r = 0; r < rows->len && sl_export_sink_step (&sink, 1); r++)
    {
      for (guint c = 0; c < columns->len; c++)
        {
          if (c > 0)
            g_string_append_c (sink.buf, ',');
          write_value (sink.buf, json_object_get_member (rows->pdata[r], columns->pdata[c]));
        }
      g_string_append (sink.buf, "\r\n");
    }
  return sl_export_sink_finish (&sink, error);
}

gboolean
sl_export_csv_info_write (const SlExportOptions *options, GOutputStream *out,
                          GCancellable *cancellable, GError **error)
{
  gboolean env = options->include_environment;
  SlExportSink sink;

  sl_export_sink_init (&sink, out, 0, NULL, NULL, cancellable);
  g_string_append (sink.buf, "key,value\r\nformat,sightline csv\r\n");
  g_string_append_printf (sink.buf, "environment included,%s\r\n", env ? "true" : "false");
  for (guint i = 0; env && options->environment != NULL && options->environment[i] != NULL; i++)
    {
      g_string_append (sink.buf, "environment,");
      sl_export_csv_text (sink.buf, options->environment[i]);
      g_string_append (sink.buf, "\r\n");
    }
  if (options->scope_label != NULL)
    {
      g_string_append (sink.buf, "scope,");
      sl_export_csv_text (sink.buf, options->scope_label);
      g_string_append (sink.buf, "\r\n");
    }
  return sl_export_sink_finish (&sink, error);
}
