/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-analysis.h: plumbing shared by the analysis subcommands of
 * sightline-cli: the common filter options and aligned text tables. */
#pragma once

#include <stdio.h>
#include <glib.h>
#include "sl-cli.h"

G_BEGIN_DECLS

/* --gpu N (repeatable), --pid N (repeatable), --range START END, --json. */
typedef struct {
  char     **gpus;
  char     **pids;
  char      *range;
  gboolean   json;
  SlFilter  *filter;       /* built by sl_cli_common_parse() */
  char     **args;         /* the arguments left after parsing (argv points here) */
} SlCliCommon;

void      sl_cli_common_add    (GOptionContext *context, SlCliCommon *common);
/* Parses @argv (accepting "--range START END" as two words), builds the
 * filter.  On error prints one line and returns FALSE (exit SL_CLI_USAGE). */
gboolean  sl_cli_common_parse  (const char *command, GOptionContext *context,
                                SlCliCommon *common, int *argc, char ***argv);
void      sl_cli_common_clear  (SlCliCommon *common);
/* Parses the options and loads the profile, the last of 1 + @n_before
 * positional arguments (argv[1 .. n_before] are left for the command);
 * @usage is the positional part of the usage line ("PATTERN PROFILE").
 * Returns -1 on success, else the exit status (the error is printed). */
int       sl_cli_prepare       (const char *command, const char *usage, GOptionContext *context,
                                SlCliCommon *common, guint n_before, int *argc, char ***argv,
                                SlProfile **profile);
/* " on GPU 0, 1 · pid 42 · 1.2 s – 3.4 s", or "" for no filter. (transfer full) */
char     *sl_cli_common_describe (const SlCliCommon *common);
/* Prints "No <what> in this profile." or "No <what> match the filter (...)." */
void      sl_cli_print_empty   (const SlCliCommon *common, const char *what);

/* Parses a count option ("10"); FALSE with a message when not a number >= 0. */
gboolean  sl_cli_parse_count   (const char *command, const char *option, const char *text, guint *out);
/* Parses a duration option ("1ms"). */
gboolean  sl_cli_parse_dur     (const char *command, const char *option, const char *text, gint64 *out);

/* ---- aligned tables -------------------------------------------------- */

typedef struct _SlCliTable SlCliTable;

/* @columns: header names; a header starting with '>' is right-aligned
 * (the '>' is not printed).  NULL-terminated. */
SlCliTable *sl_cli_table_new       (const char *first, ...) G_GNUC_NULL_TERMINATED;
/* Sets the widest a column may be; longer cells are cut with "…". */
void        sl_cli_table_set_max   (SlCliTable *table, guint column, guint max_chars);
/* Adds a row: takes ownership of the n_columns strings given (char*). */
void        sl_cli_table_add       (SlCliTable *table, ...);
void        sl_cli_table_print     (SlCliTable *table, FILE *out);
void        sl_cli_table_free      (SlCliTable *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCliTable, sl_cli_table_free)

/* Formatting helpers: (transfer full). */
char       *sl_cli_fmt_dur         (gint64 ns);
char       *sl_cli_fmt_int         (gint64 value);
char       *sl_cli_fmt_pct         (double pct);
char       *sl_cli_fmt_bytes       (guint64 bytes);

G_END_DECLS
