/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli.h: the subcommands of sightline-cli and the output every one of
 * them shares (error lines, JSON, "nothing found"). */
#pragma once

#include <stdio.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include "sightline.h"

G_BEGIN_DECLS

/* Exit statuses: 0 success, 1 usage error, 2 the profile could not be opened
 * (or another input error), as the issues specify. */
enum {
  SL_CLI_OK = 0,
  SL_CLI_USAGE = 1,
  SL_CLI_INPUT = 2,
};

/* A subcommand: gets argv with argv[0] = command name. */
typedef int (*SlCliCommandFunc) (int argc, char **argv);

typedef struct {
  const char      *name;
  SlCliCommandFunc run;
  const char      *summary;   /* translatable, one line */
} SlCliCommand;

/* Prints "sightline-cli <command>: <message>" (or "sightline-cli: <message>"
 * for a NULL @command) as one line on stderr. */
void       sl_cli_error        (const char *command, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Serialises @node (transfer full) pretty-printed to stdout with a trailing newline. */
void       sl_cli_print_json   (JsonNode *node);

/* Makes sl_cli_print_json() add @scope (transfer full; NULL: nothing) as the
 * member "scope" of every object it prints: the scope a command used. */
void       sl_cli_set_json_scope (JsonNode *scope);

/* Prints "No <what> in this profile." or, when @filter restricts anything,
 * "No <what> match the filter (<the filter>)." */
void       sl_cli_print_empty  (const SlFilter *filter, const char *what);

/* Loads the @parts of @path for a command; on failure prints one line
 * "sightline-cli: <message>" on stderr and returns NULL (exit with SL_CLI_INPUT). */
SlProfile *sl_cli_open_profile (const char *path, SlParts parts);

/* The commands, app/sl-cli-<command>.c. */
int sl_cli_info       (int argc, char **argv);
int sl_cli_kernels    (int argc, char **argv);
int sl_cli_api        (int argc, char **argv);
int sl_cli_nvtx       (int argc, char **argv);
int sl_cli_memcpy     (int argc, char **argv);
int sl_cli_gaps       (int argc, char **argv);
int sl_cli_overlap    (int argc, char **argv);
int sl_cli_nccl       (int argc, char **argv);
int sl_cli_iterations (int argc, char **argv);
int sl_cli_launch     (int argc, char **argv);
int sl_cli_categories (int argc, char **argv);
int sl_cli_compare    (int argc, char **argv);
int sl_cli_tree       (int argc, char **argv);
int sl_cli_search     (int argc, char **argv);
int sl_cli_cpu        (int argc, char **argv);
int sl_cli_bookmarks  (int argc, char **argv);

G_END_DECLS
