/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-recent.h: the profiles Sightline opened recently (GtkRecentManager
 * entries it wrote), shared by the welcome page and the Recent menu. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* At most this many entries are shown. */
#define SL_RECENT_MAX 8

/* Local, existing profiles opened by Sightline, newest first: (transfer
 * full) list of GtkRecentInfo. */
GList *sl_recent_list (void);
/* Records that @file was opened. */
void   sl_recent_add  (GFile *file);

G_END_DECLS
