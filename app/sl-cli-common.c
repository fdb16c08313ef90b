/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-common.c: helpers shared by the sightline-cli subcommands. */
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

SlProfile *
sl_cli_open_profile (const char *path)
{
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_load (path, NULL, NULL, NULL, &error);

  if (profile == NULL)
    sl_cli_error (NULL, "%s", error->message);
  return profile;
}

void
sl_cli_print_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);
  fputs (text, stdout);
  fputc ('\n', stdout);
}

char *
sl_cli_format_duration (gint64 ns)
{
  double v = (double) ns;
  gint64 a = ns < 0 ? -ns : ns;

  if (a >= G_GINT64_CONSTANT (1000000000))
    return g_strdup_printf ("%.3f s", v / 1e9);
  if (a >= 1000000)
    return g_strdup_printf ("%.3f ms", v / 1e6);
  if (a >= 1000)
    return g_strdup_printf ("%.3f µs", v / 1e3);
  return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
}
