/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree-page.h: the side panel's NVTX tree page. */
#pragma once

#include <gtk/gtk.h>

#include "sl-session.h"

G_BEGIN_DECLS

#define SL_TYPE_TREE_PAGE (sl_tree_page_get_type ())
G_DECLARE_FINAL_TYPE (SlTreePage, sl_tree_page, SL, TREE_PAGE, GtkWidget)

GtkWidget *sl_tree_page_new (void);

G_END_DECLS
