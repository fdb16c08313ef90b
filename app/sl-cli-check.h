/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-check.h: the shared options checked against the loaded profiles:
 * --range "+TIME" set from the profile's start, and --gpu / --pid values
 * that name nothing in a profile refused with what it holds. */
#pragma once

#include <glib.h>
#include "sl-cli-options.h"

G_BEGIN_DECLS

/* Sets a "+TIME" --range in @common's filter from the start of
 * @profiles (SlProfile *); refuses when their starts differ.  On error
 * prints one line and returns FALSE (exit SL_CLI_USAGE). */
gboolean  sl_cli_resolve_range  (const char *command, SlCliCommon *common, GPtrArray *profiles);
/* FALSE, with one line naming the GPUs or processes @profile holds, when
 * a --gpu or --pid value of @common matches nothing in it (@path: its file). */
gboolean  sl_cli_check_filter   (const char *command, const SlCliCommon *common,
                                 const SlProfile *profile, const char *path);

G_END_DECLS
