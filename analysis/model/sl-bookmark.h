/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark.h: a named time region of one profile, with a note and a
 * colour: what users come back to ("step 412, the slow all-reduce").
 *
 * Times are the capture clock (ns, as the file stores them, as SlTimeRange
 * and --range use); the bookmark file also records them relative to the
 * profile's start (see sl-bookmark-store.h).  A plain boxed struct, so the
 * model, the analyses, the exports and the views can all hold them. */
#pragma once

#include <glib-object.h>

#include "sl-time-range.h"

G_BEGIN_DECLS

typedef struct {
  char   *id;        /* stable, unique within a profile's bookmarks (a GUID) */
  char   *name;      /* never NULL, may be "" */
  char   *note;      /* never NULL, "" when none; may be multi-line */
  char   *color;     /* "#rrggbb" */
  gint64  start;     /* capture clock, ns; start <= end */
  gint64  end;
} SlBookmark;

#define SL_TYPE_BOOKMARK (sl_bookmark_get_type ())
GType       sl_bookmark_get_type (void) G_GNUC_CONST;

/* A new bookmark with a fresh id; @note and @color nullable (""; the first
 * colour of sl_bookmark_palette()).  (transfer full) */
SlBookmark *sl_bookmark_new      (const char       *name,
                                  const char       *note,
                                  const char       *color,
                                  gint64            start,
                                  gint64            end);
SlBookmark *sl_bookmark_copy     (const SlBookmark *bookmark);
void        sl_bookmark_free     (SlBookmark       *bookmark);
gboolean    sl_bookmark_equal    (const SlBookmark *a,
                                  const SlBookmark *b);
/* Whether [start, end) of @bookmark overlaps @range (NULL: everything). */
gboolean    sl_bookmark_in_range (const SlBookmark *bookmark,
                                  const SlTimeRange *range);
/* The colours offered when making a bookmark, "#rrggbb", NULL-terminated. */
const char * const *sl_bookmark_palette (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlBookmark, sl_bookmark_free)

G_END_DECLS
