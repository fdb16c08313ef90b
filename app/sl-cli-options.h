/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-options.h: the options the analysis commands of sightline-cli share
 * (--gpu, --pid, --range, --json, turned into an SlFilter) and the parsers of
 * option values several commands take (counts, durations, --names, --rules). */
#pragma once

#include <glib.h>
#include "sl-cli.h"

G_BEGIN_DECLS

/* --gpu N (repeatable), --pid N (repeatable), --range START END or
 * --bookmark NAME, --json, --no-cache. */
typedef struct {
  char     **gpus;
  char     **pids;
  char      *range;
  char      *bookmark;     /* --bookmark NAME: the range of that bookmark (sl-cli-bookmark-range.h) */
  gboolean   json;
  gboolean   no_cache;     /* --no-cache: neither read nor write the profile cache */
  SlFilter  *filter;       /* built by sl_cli_common_parse() */
  SlTimePoint range_points[2];  /* --range as written; with "+" set in the */
  gboolean    range_from_start; /* filter once the profile's start is known */
  char     **args;         /* the arguments left after parsing (argv points here) */
} SlCliCommon;

/* --no-cache, which every command takes, setting *@flag. */
GOptionEntry sl_cli_no_cache_entry (gboolean *flag);

/* Makes the common options the main group of @context; the command's own
 * entries added with g_option_context_add_main_entries() follow them. */
void      sl_cli_common_add    (GOptionContext *context, SlCliCommon *common);
/* Parses @argv (accepting "--range START END" as two words), builds the
 * filter.  On error prints one line and returns FALSE (exit SL_CLI_USAGE). */
gboolean  sl_cli_common_parse  (const char *command, GOptionContext *context,
                                SlCliCommon *common, int *argc, char ***argv);
void      sl_cli_common_clear  (SlCliCommon *common);

/* Each parser leaves *@out alone when @text is NULL (the option was not
 * given); on a bad value it prints one line and returns FALSE. */

/* A count ("10"): a number >= 0. */
gboolean  sl_cli_parse_count   (const char *command, const char *option, const char *text, guint *out);
/* A duration >= 0 ("1ms"). */
gboolean  sl_cli_parse_dur     (const char *command, const char *option, const char *text, gint64 *out);
/* --names: "short" (the default, also for NULL) or "demangled". */
gboolean  sl_cli_parse_names   (const char *command, const char *text, SlNameStyle *out);
/* --rules FILE [--model NAME]: *@out is NULL (the default categories) when
 * neither is given. */
gboolean  sl_cli_parse_rules   (const char *command, const char *rules, const char *model,
                                SlCategories **out);
/* The same with --rules repeated (@rules NULL-terminated, or NULL): several
 * gputrc2graph files merged as gputrc2graph merges them. */
gboolean  sl_cli_parse_rule_files (const char *command, char **rules, const char *model,
                                   SlCategories **out);

G_END_DECLS
