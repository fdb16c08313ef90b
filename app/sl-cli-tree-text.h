/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-tree-text.h: the text of `sightline-cli tree`, written on two
 * cores when the tree is big. */
#pragma once

#include "sightline.h"

G_BEGIN_DECLS

/* Prints @tree of @profile to stdout, one line per node: the indented name
 * (kernels with their GPU and stream), padded to the widest name (at most
 * 110 characters), the CPU duration and, for ranges, the GPU projection.
 * @max_depth and @min_dur_ns as sl_tree_walk() takes them.  Returns the
 * number of lines. */
guint sl_cli_tree_print_text (const SlProfile *profile, const SlTree *tree,
                              guint max_depth, gint64 min_dur_ns);

G_END_DECLS
