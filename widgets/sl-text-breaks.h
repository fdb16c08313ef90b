/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-text-breaks.h: where long C++ and CUDA names may wrap (no GTK).
 *
 * A demangled kernel name or an API name has no spaces for a label to wrap
 * at, so Pango cut it anywhere ("Fla-sh_fwd…").  Zero-width spaces after
 * "::", "<", ",", "(", "_" and "/" give it the places a reader expects. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SL_TEXT_BREAK "\xe2\x80\x8b"   /* U+200B ZERO WIDTH SPACE */

/* @text with a break opportunity after each of those (transfer full). */
char *sl_text_add_breaks   (const char *text);
/* @text without them: what a copy or a test must see (transfer full). */
char *sl_text_strip_breaks (const char *text);

G_END_DECLS
