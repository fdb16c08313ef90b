/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-run.h: the life of an analysis command of sightline-cli, the same
 * for all of them: parse the common and the command's own options, check
 * the command's option values, load the profile(s), show the result, free. */
#pragma once

#include <glib.h>
#include "sl-cli.h"
#include "sl-cli-options.h"
#include "sl-cli-scope.h"

G_BEGIN_DECLS

/* One run of a command, as its show function sees it. */
typedef struct {
  const char  *command;
  SlCliCommon  common;       /* common.args: the positional arguments, args[0] the command */
  GPtrArray   *profiles;     /* SlProfile *, loaded from the last positional arguments */
  SlProfile   *profile;      /* the first of them */
} SlCliRun;

/* Validates the command's own option values (texts in @options) before the
 * profile loads; prints one line per mistake and returns FALSE for a usage
 * error. */
typedef gboolean (*SlCliCheckFunc) (const char *command, gpointer options);
/* Computes and prints; returns the exit status.  Commands that check their
 * option values only once the profile has loaded (gaps, iterations, launch,
 * tree, search: an unreadable profile is reported first) do it here. */
typedef int      (*SlCliShowFunc)  (const SlCliRun *run, gpointer options);

typedef struct {
  const char     *name;            /* "gaps" */
  const char     *parameter;       /* N_() positional part of the usage: "PROFILE", "PATTERN PROFILE" */
  const char     *summary;         /* N_() paragraph of --help */
  guint           n_before;        /* positional arguments before the profile */
  gboolean        many_profiles;   /* two or more profiles (compare) instead of one */
  const char     *wrong_args;      /* N_() message for a wrong argument count; NULL: the usage line */
  SlCliCheckFunc  check;           /* nullable */
  SlCliShowFunc   show;
  /* The parts of the profile the command reads (sl_cli_parts() adds what
   * its options need): only those tables are loaded. */
  SlParts         parts;
  /* nullable: the categories the command's options chose (--rules), for
   * --category; without it (or when it returns NULL) the default rules */
  const SlCategories *(*categories) (gpointer options);
} SlCliSpec;

/* Runs the command @spec with its own option @entries (nullable; their
 * arg_data point into @options) on @argc/@argv.  The strings GOption stored
 * through @entries are freed before it returns.  Returns the exit status. */
int sl_cli_run (const SlCliSpec *spec, const GOptionEntry *entries, gpointer options,
                int argc, char **argv);

G_END_DECLS
