/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-search-page-private.h: the search page's results as GTK lists.
 *
 * A search's result (SlSearchResult: the matches, the profile and the
 * highlight made of them) is shared by every row; a row (SlSearchItem) is
 * a name group or one instance of it, made only when the list shows it, so
 * a group of millions costs nothing until it is scrolled through. */
#pragma once

#include <gtk/gtk.h>

#include "sightline.h"
#include "sl-session.h"

G_BEGIN_DECLS

typedef struct {
  gatomicrefcount  ref_count;
  SlProfile       *profile;
  SlNameSearch    *search;
  SlHighlight     *highlight;   /* every match, for the session */
} SlSearchResult;

SlSearchResult *_sl_search_result_new   (SlProfile    *profile,
                                         SlNameSearch *search,
                                         SlHighlight  *highlight);
SlSearchResult *_sl_search_result_ref   (SlSearchResult *result);
void            _sl_search_result_unref (SlSearchResult *result);
/* The timeline's name for hit @i. */
SlEventRef      _sl_search_result_event (const SlSearchResult *result,
                                         guint                 i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSearchResult, _sl_search_result_unref)

#define SL_TYPE_SEARCH_ITEM (_sl_search_item_get_type ())
G_DECLARE_FINAL_TYPE (SlSearchItem, _sl_search_item, SL, SEARCH_ITEM, GObject)

/* How the name groups are listed. */
typedef enum {
  SL_SEARCH_SORT_TIME,      /* total time, longest first */
  SL_SEARCH_SORT_COUNT,     /* most matches first */
  SL_SEARCH_SORT_NAME,      /* by name (byte order), A first */
} SlSearchSort;

/* The name groups of @result (a GListModel of SlSearchItem), in @sort's
 * order; ties by name, then by kind. */
/* The names listed: those with at least one match in the filter's range. */
guint       _sl_search_result_n_listed (SlSearchResult *result);
GListModel     *_sl_search_groups_new   (SlSearchResult *result,
                                         SlSearchSort    sort);
/* The rows of the view: groups, each expandable to its instances. */
GtkTreeListModel *_sl_search_tree_new   (SlSearchResult *result,
                                         SlSearchSort    sort);

SlSearchResult *_sl_search_item_get_result (SlSearchItem *item);
/* The group's index; its instances' hit index, or G_MAXUINT for a group. */
guint           _sl_search_item_get_group  (SlSearchItem *item);
guint           _sl_search_item_get_hit    (SlSearchItem *item);

/* The view's columns: name (with the expander), count, time. */
void            _sl_search_columns_add  (GtkColumnView *view);

G_END_DECLS
