/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-settings.h: the Preferences the CLI honours (kernel names, rules). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The string value of @key in io.github.sightline.Sightline, or NULL when
 * the schema is not installed (nor in GSETTINGS_SCHEMA_DIR): the CLI then
 * keeps its built-in defaults.  (transfer full) (nullable) */
char *sl_cli_settings_get_string (const char *key);

G_END_DECLS
