/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-name.h: the name a new bookmark is offered. */
#pragma once

#include "sightline.h"

G_BEGIN_DECLS

/* The name of the NVTX range that [@start, @end] covers best (an
 * iteration's "step 412" when the range is one step), else "Bookmark N"
 * with N the next number.  (transfer full) */
char *sl_bookmark_name_guess (const SlProfile *profile,
                              gint64           start,
                              gint64           end,
                              guint            n_bookmarks);

G_END_DECLS
