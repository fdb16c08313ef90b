/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-popover.h: the popover that makes or edits a bookmark: name,
 * note, colour, Add (or Save) and Cancel. */
#pragma once

#include <gtk/gtk.h>

#include "sl-bookmark-store.h"

G_BEGIN_DECLS

#define SL_TYPE_BOOKMARK_POPOVER (sl_bookmark_popover_get_type ())
G_DECLARE_FINAL_TYPE (SlBookmarkPopover, sl_bookmark_popover, SL, BOOKMARK_POPOVER, GtkPopover)

/* A popover over @bookmark's fields; confirming adds it to @store, or
 * updates it when @store already has its id.  Parent it, pop it up; it
 * unparents itself when closed. */
GtkWidget *sl_bookmark_popover_new (SlBookmarkStore  *store,
                                    const SlBookmark *bookmark);
/* Shows it from @parent, pointing at @rect (nullable: the whole parent). */
void       sl_bookmark_popover_show (GtkWidget          *popover,
                                     GtkWidget          *parent,
                                     const GdkRectangle *rect);

G_END_DECLS
