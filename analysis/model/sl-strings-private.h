/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-strings-private.h: building the string table (loader only). */
#pragma once

#include "sl-strings.h"

G_BEGIN_DECLS

SlStrings *_sl_strings_new        (void);
void       _sl_strings_free       (SlStrings *strings);
/* Appends without de-duplication (StringIds values are already unique). */
guint32    _sl_strings_add        (SlStrings *strings, const char *value, gsize len);
/* Appends unless an equal string was interned before (NVTX text). */
guint32    _sl_strings_intern     (SlStrings *strings, const char *value);
/* Same for a string of @len bytes that need not be NUL-terminated. */
guint32    _sl_strings_intern_len (SlStrings *strings, const char *value, gsize len);
/* The interned id of the value of @id (added with _sl_strings_add, e.g. a
 * StringIds row an NVTX textId points to): the id that value was interned
 * under before, else @id, which from now on is the value's interned id.  So
 * an NVTX name has one id whether a row stores it inline or by textId. */
guint32    _sl_strings_intern_id  (SlStrings *strings, guint32 id);
/* A copy of the strings as they are now, to intern more into and seal. */
SlStrings *_sl_strings_copy       (const SlStrings *strings);
/* Drops load-time helpers and trims the buffers. */
void       _sl_strings_seal       (SlStrings *strings);
gsize      _sl_strings_bytes      (const SlStrings *strings);

G_END_DECLS
