/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-bookmarks.h: the bookmarks on the timeline: a flag with the
 * name on the ruler at each bookmark's start and a translucent band of its
 * colour over the rows. */
#pragma once

#include <gtk/gtk.h>

#include "sl-bookmark-store.h"
#include "sl-timeline-layout.h"

G_BEGIN_DECLS

/* Draws @store's bookmarks over the frame of @widget (@scale device px per
 * logical px, @width x @height logical px). */
void              sl_timeline_bookmarks_snapshot (GtkWidget              *widget,
                                                  GtkSnapshot            *snapshot,
                                                  const SlTimelineLayout *layout,
                                                  SlBookmarkStore        *store,
                                                  double                  scale,
                                                  int                     width,
                                                  int                     height);
/* (nullable) (transfer none): the bookmark whose flag is at (@x, @y),
 * logical px of @widget. */
const SlBookmark *sl_timeline_bookmarks_flag_at  (GtkWidget              *widget,
                                                  const SlTimelineLayout *layout,
                                                  SlBookmarkStore        *store,
                                                  double                  scale,
                                                  double                  x,
                                                  double                  y);

G_END_DECLS
