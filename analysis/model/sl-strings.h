/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-strings.h: the profile's string table, read side (building it is in
 * sl-strings-private.h, for the loader). */
#pragma once

#include "sl-types.h"

G_BEGIN_DECLS

typedef struct _SlStrings SlStrings;

/* The profile's string table: every name is a guint32 id.  Returns "" for
 * SL_NONE and for unknown ids, never NULL. */
const char *sl_strings_get    (const SlStrings *strings, guint32 id);
guint32     sl_strings_count  (const SlStrings *strings);
/* Looks a string up without adding it: SL_NONE when absent. */
guint32     sl_strings_lookup (const SlStrings *strings, const char *value);

G_END_DECLS
