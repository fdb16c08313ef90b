/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-settings.c: the CLI reads the window's preferences as defaults, so
 * that both name kernels alike; options always win over them.  The schema
 * is looked up first: g_settings_new() on a missing schema aborts. */
#include <gio/gio.h>

#include "sl-cli-settings.h"

char *
sl_cli_settings_get_string (const char *key)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;

  g_return_val_if_fail (key != NULL, NULL);
  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, SL_APP_ID, TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, key))
    return NULL;
  settings = g_settings_new_full (schema, NULL, NULL);
  return g_settings_get_string (settings, key);
}
