/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-output.c: what every sightline-cli command prints the same way:
 * error lines, JSON, and the line for an empty result. */
#include <stdarg.h>
#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"

void
sl_cli_error (const char *command, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Keep it to one line: scripts read the first line of stderr. */
  g_strdelimit (message, "\n", ' ');
  if (command != NULL)
    fprintf (stderr, "sightline-cli %s: %s\n", command, message);
  else
    fprintf (stderr, "sightline-cli: %s\n", message);
}

static JsonNode *json_scope;

void
sl_cli_set_json_scope (JsonNode *scope)
{
  g_clear_pointer (&json_scope, json_node_unref);
  json_scope = scope;
}

void
sl_cli_print_json (JsonNode *node)
{
  g_autoptr(JsonNode) root = node;
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  if (json_scope != NULL && JSON_NODE_HOLDS_OBJECT (root))
    json_object_set_member (json_node_get_object (root), "scope", json_node_copy (json_scope));

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  /* json-glib 1.6 leaves U+001F raw (it escapes the other control
   * characters); outside strings JSON has no such byte, so escape it here:
   * names in a damaged profile can hold one. */
  for (const char *p = text; *p != '\0'; p++)
    if (*p == '\x1f')
      fputs ("\\u001f", stdout);
    else
      fputc (*p, stdout);
  fputc ('\n', stdout);
}

static void
append_ids (GString *s, GArray *ids, const char *one, const char *many)
{
  if (ids->len == 0)
    return;
  if (s->len)
    g_string_append (s, " · ");
  g_string_append (s, ids->len > 1 ? many : one);
  for (guint i = 0; i < ids->len; i++)
    g_string_append_printf (s, "%s%u", i ? ", " : " ", g_array_index (ids, guint32, i));
}

/* "GPU 0, 1 · pid 42 · [1, 2) ns", or "" for no filter. */
static char *
describe_filter (const SlFilter *f)
{
  GString *s = g_string_new (NULL);

  if (f == NULL || sl_filter_is_empty (f))
    return g_string_free (s, FALSE);
  append_ids (s, f->gpus, _("GPU"), _("GPUs"));
  append_ids (s, f->pids, _("pid"), _("pids"));
  if (f->has_range)
    {
      if (s->len)
        g_string_append (s, " · ");
      g_string_append_printf (s, "[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") ns",
                              f->range_start, f->range_end);
    }
  return g_string_free (s, FALSE);
}

/* " · --nvtx forward · --exclude-category gemm": the scope options in use. */
static void
append_scope (GString *s)
{
  static const char *const members[] = { "nvtx", "exclude_nvtx", "category", "exclude_category", "stream" };
  static const char *const options[] = { "--nvtx", "--exclude-nvtx", "--category", "--exclude-category", "--stream" };
  JsonObject *scope = json_scope != NULL ? json_node_get_object (json_scope) : NULL;

  for (guint m = 0; scope != NULL && m < G_N_ELEMENTS (members); m++)
    {
      JsonArray *values = json_object_has_member (scope, members[m])
                          ? json_object_get_array_member (scope, members[m]) : NULL;
      for (guint i = 0; values != NULL && i < json_array_get_length (values); i++)
        {
          JsonNode *v = json_array_get_element (values, i);
          if (s->len)
            g_string_append (s, " · ");
          if (json_node_get_value_type (v) == G_TYPE_STRING)
            g_string_append_printf (s, "%s %s", options[m], json_node_get_string (v));
          else
            g_string_append_printf (s, "%s %" G_GINT64_FORMAT, options[m], json_node_get_int (v));
        }
    }
}

void
sl_cli_print_empty (const SlFilter *filter, const char *what)
{
  g_autofree char *described = describe_filter (filter);
  GString *full = g_string_new (described);

  append_scope (full);
  g_free (described);
  described = g_string_free (full, FALSE);

  if (*described == '\0')
    printf (_("No %s in this profile.\n"), what);
  else
    printf (_("No %s match the filter (%s).\n"), what, described);
}
