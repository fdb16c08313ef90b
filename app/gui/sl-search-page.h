/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-search-page.h: the side panel's kernel search page. */
#pragma once

#include <gtk/gtk.h>

#include "sl-session.h"

G_BEGIN_DECLS

#define SL_TYPE_SEARCH_PAGE (sl_search_page_get_type ())
G_DECLARE_FINAL_TYPE (SlSearchPage, sl_search_page, SL, SEARCH_PAGE, GtkWidget)

GtkWidget *sl_search_page_new (void);

G_END_DECLS
