/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-cli.h: sightline-cli commands against the sqlite3 shell. */
#pragma once

#include <json-glib/json-glib.h>

/* Adds "cli_ms" ({command: median ms}) and "sqlite_group_by_ms" to @result
 * for the profile at @path, running @cli (sightline-cli). */
void sl_bench_cli (const char *cli, const char *path, JsonObject *result);
