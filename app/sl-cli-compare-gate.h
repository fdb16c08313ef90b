/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-compare-gate.h: `compare --fail-if-slower PCT`, the CI gate: exit
 * status 3 when the step time (or, without iterations, A's calls at each
 * one's time per call) got slower by more than PCT percent. */
#pragma once

#include <glib.h>
#include "sightline.h"

G_BEGIN_DECLS

enum { SL_CLI_SLOWER = 3 };

/* Parses PCT ("5", "2.5%"); prints a usage error and returns FALSE when bad. */
gboolean sl_cli_compare_gate_parse (const char *command, const char *text, double *pct);
/* The exit status for @cmp (the last profile against the first) and @pct
 * (NAN: no gate): SL_CLI_SLOWER after printing the change and the top
 * offenders to stderr, else SL_CLI_OK. */
int      sl_cli_compare_gate_check (const SlCompare *cmp, double pct);

G_END_DECLS
