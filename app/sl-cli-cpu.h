/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-cpu.h: the CPU side in sightline-cli: reading it for a command
 * (only the commands and options that show it pay for it), the stacks
 * sampled inside GPU gaps (`gaps --stacks`). */
#pragma once

#include <json-glib/json-glib.h>
#include "sl-cli.h"

G_BEGIN_DECLS

/* The CPU activity of @profile; on failure prints one line and returns NULL. */
SlCpuActivity *sl_cli_cpu_activity  (const char *command, SlProfile *profile);

/* Under each gap of @dev, its samples and top 5 stacks, in the processes
 * owning that GPU that @filter's --pid keeps. */
void           sl_cli_gap_stacks_print (const SlCpuActivity *a, const SlProfile *profile,
                                        const SlFilter *filter, const SlGapsDevice *dev);
/* Adds "samples" and "stacks" to each gap of @gaps_json (sl_gaps_to_json()). */
void           sl_cli_gap_stacks_json  (const SlCpuActivity *a, const SlProfile *profile,
                                        const SlFilter *filter, const SlGaps *gaps, JsonNode *gaps_json);

G_END_DECLS
