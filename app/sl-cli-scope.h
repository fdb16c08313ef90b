/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-scope.h: the scope options every analysis command takes (--nvtx,
 * --exclude-nvtx, --category, --exclude-category, --stream), applied by
 * replacing each loaded profile with the subset in scope (sl-work-scope.h), and
 * echoed as "scope" in the JSON output. */
#pragma once

#include <glib.h>
#include "sl-cli.h"

G_BEGIN_DECLS

typedef struct {
  char    **nvtx;
  char    **exclude_nvtx;
  char    **category;
  char    **exclude_category;
  char    **streams;
  SlWorkScope  *scope;          /* built by sl_cli_scope_parse() */
} SlCliScope;

/* Adds the "Scope options" group to @context. */
void      sl_cli_scope_add    (GOptionContext *context, SlCliScope *scope);
/* Builds the scope from the parsed texts; on a bad --stream prints one line
 * and returns FALSE (exit SL_CLI_USAGE). */
gboolean  sl_cli_scope_parse  (const char *command, SlCliScope *scope);
/* Replaces each SlProfile of @profiles with its subset in scope, categories
 * by @categories (nullable: the default rules), and makes the JSON output
 * echo the scope and @filter.  Nothing happens for an empty scope.  When a
 * part of the scope matches nothing prints one line listing what exists and
 * returns FALSE (exit SL_CLI_USAGE). */
gboolean  sl_cli_scope_apply  (const char *command, SlCliScope *scope, const SlCategories *categories,
                               const SlFilter *filter, GPtrArray *profiles);
void      sl_cli_scope_clear  (SlCliScope *scope);

G_END_DECLS
