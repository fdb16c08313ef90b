/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree-page-private.h: what the NVTX page's files share: the row item
 * (an aggregated path, or one kernel instance under its kernel name) and
 * the columns. */
#pragma once

#include <gtk/gtk.h>

#include "sightline.h"
#include "sl-tree-page.h"
#include "sl-reveal-model.h"

G_BEGIN_DECLS

typedef enum {
  SL_TREE_ITEM_NODE,       /* an aggregated path */
  SL_TREE_ITEM_INSTANCE,   /* one kernel of a kernel name row */
} SlTreeItemKind;

#define SL_TYPE_TREE_ITEM (sl_tree_item_get_type ())
G_DECLARE_FINAL_TYPE (SlTreeItem, sl_tree_item, SL, TREE_ITEM, GObject)

struct _SlTreeItem {
  GObject         parent_instance;

  SlTreeItemKind  kind;
  SlTreeAgg      *agg;
  guint           node;        /* the path, or the kernel name row of an instance */
  SlTreeAggNode   stats;       /* a copy of the node's; an instance's own */
  guint64         packed;      /* an instance: stream << 32 | kernel index */
  guint           position;    /* an instance: its place among the node's instances */
  gint64          start_ns;    /* an instance, from the profile's start */
  char           *label;       /* the name column's text */
};

SlTreeItem *_sl_tree_item_new_node   (SlTreeAgg *agg, guint node);
/* The children of @item for a GtkTreeListModel: the child paths, or a
 * kernel name's instances (made as the view asks for them); NULL for a leaf. (transfer full) */
GListModel *_sl_tree_item_children   (SlTreeItem *item, const SlProfile *profile);
/* "kind:name/kind:name/..." of an item's path, for keeping rows expanded
 * when the tree is computed anew. (transfer full) */
char       *_sl_tree_item_path       (SlTreeItem *item);

void        _sl_tree_page_add_columns (GtkColumnView *view);

struct _SlTreePage {
  GtkWidget           parent_instance;

  GtkWidget          *box;
  GtkWidget          *entry;
  GtkWidget          *status;
  GtkWidget          *view;
  GtkSingleSelection *selection;
  GtkSortListModel   *sort_model;
  GtkFilterListModel *filter_model;
  SlRevealModel      *reveal;         /* the filtered rows, a slice at a time after a new tree */
  GtkCustomFilter    *filter;
  GtkTreeListModel   *tree_model;

  SlSession          *session;
  /* the computation in flight, and what it was asked for */
  GCancellable       *cancellable;
  SlTimelineModel    *want_model;
  gboolean            want_exact;
  gboolean            want_ok;        /* the scope has a range */
  SlTimeRange         want_range;
  guint               compute_source;
  /* what is shown: the aggregate and the model it was computed on */
  SlTreeAgg          *agg;
  SlTimelineModel    *agg_model;
  gboolean            swapping;       /* models being replaced: no selection reactions */
  gboolean            revealing;      /* another view's selection shown: no highlight */
  guint               bulk;           /* rows opening in bulk: the sorted chain detached */
  gpointer            bulk_selected;  /* (owned) the selected row, selected again after */

  /* the filter: casefolded text, and per node bits FILTER_* */
  char               *filter_text;
  char              **folded;         /* per node, made on first use */
  guint8             *keep;

  SlHighlight        *highlight;      /* the last one this page set */
  GCancellable       *highlight_cancellable;
  char               *selected_name;
  char              **selected_path;  /* names from the root down */
};

/* keep[] bits: the node's name matches, a descendant's does, an ancestor's does */
#define FILTER_SELF  1
#define FILTER_BELOW 2
#define FILTER_ABOVE 4

/* Holds a reference to @model (nullable) in *@slot, dropping the old one. */
static inline void
_sl_tree_page_hold_model (SlTimelineModel **slot, SlTimelineModel *model)
{
  if (*slot == model)
    return;
  if (model != NULL)
    sl_timeline_model_ref (model);
  g_clear_pointer (slot, sl_timeline_model_unref);
  *slot = model;
}

/* sl-tree-page-filter.c */
gboolean    _sl_tree_page_filter_func   (gpointer row, gpointer data);
void        _sl_tree_page_refilter      (SlTreePage *self);
void        _sl_tree_page_expand        (SlTreePage *self, int depth);
/* Paths of the expanded rows; expands the rows of @paths again. */
GHashTable *_sl_tree_page_expanded      (SlTreePage *self);
void        _sl_tree_page_reexpand      (SlTreePage *self, GHashTable *paths);

/* sl-tree-page-select.c */
void        _sl_tree_page_selected_cb   (SlTreePage *self);
void        _sl_tree_page_activate_cb   (SlTreePage *self, guint position);
/* The session's selected kernel or range, selected here too: its row's
 * ancestors opened, the row selected and scrolled to (the highlight is
 * left as it is). */
void        _sl_tree_page_reveal_selected (SlTreePage *self);

/* sl-tree-page.c */
void        _sl_tree_page_changed       (SlTreePage *self);

G_END_DECLS
