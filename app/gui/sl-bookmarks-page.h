/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmarks-page.h: the side panel's Bookmarks page: the session's
 * bookmarks (name, start, duration, note) to jump to, edit, reorder and
 * delete (with Undo). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_BOOKMARKS_PAGE (sl_bookmarks_page_get_type ())
G_DECLARE_FINAL_TYPE (SlBookmarksPage, sl_bookmarks_page, SL, BOOKMARKS_PAGE, GtkWidget)

GtkWidget *sl_bookmarks_page_new (void);

G_END_DECLS
