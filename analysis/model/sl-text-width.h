/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-text-width.h: how many columns of a terminal a text takes, for the
 * aligned text of sightline-cli: CJK ideographs, kana and fullwidth forms
 * take two, combining marks none, everything else one. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The columns of the first @bytes bytes of valid UTF-8 @text (all of it
 * when @bytes < 0); a byte that starts no valid character counts as one
 * column (the scan never runs past the end). */
guint sl_text_width        (const char *text,
                            gssize      bytes);

/* The bytes of the longest prefix of valid UTF-8 @text at most @columns
 * wide (never splitting a character), its width in *@width. */
gsize sl_text_width_prefix (const char *text,
                            guint       columns,
                            guint      *width);

G_END_DECLS
