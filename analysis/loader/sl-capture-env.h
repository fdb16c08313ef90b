/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-capture-env.h: the capture's environment, for an export that the
 * user asked to carry it (SlExportOptions.include_environment): capture
 * settings and command lines (META_DATA_CAPTURE) and the target system
 * (TARGET_INFO_SYSTEM_ENV: host name, environment variables, ...).  These
 * can hold secrets, which is why exports leave them out by default. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Reads the environment of the export at @path as "SOURCE: NAME=value"
 * lines (SOURCE is the table's name), in the tables' order.  A table an
 * older nsys did not write is no error: its lines are simply absent.
 * Returns (transfer full) a NULL-terminated array, or NULL with @error when
 * the file cannot be read. */
char **sl_capture_env_read (const char *path, GError **error);

G_END_DECLS
