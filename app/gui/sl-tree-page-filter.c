/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree-page-filter.c: the NVTX page's name filter (a substring in any
 * case; ancestors of matches stay, to show where they are) and its
 * expansion: to a depth, and back to what was open after a recomputation. */
#include "sl-tree-page-private.h"

#include <string.h>

/* Each opened row tells the sorter, the filter, the selection and the list
 * (5-15 ms a row in a large tree, so opening a hundred froze the window
 * for a second): the chain is detached while many rows open, and sorts
 * and filters once when it is attached again.  The selected row stays
 * selected (the selection finds it again among the rows put back). */
static void
bulk_begin (SlTreePage *self)
{
  if (self->bulk++ > 0)
    return;
  g_set_object (&self->bulk_selected, gtk_single_selection_get_selected_item (self->selection));
  self->swapping = TRUE;
  gtk_sort_list_model_set_model (self->sort_model, NULL);
}

static void
bulk_end (SlTreePage *self)
{
  GListModel *shown = G_LIST_MODEL (self->filter_model);

  if (--self->bulk > 0)
    return;
  gtk_sort_list_model_set_model (self->sort_model, G_LIST_MODEL (self->tree_model));
  for (guint i = 0; self->bulk_selected != NULL && i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (shown, i);

      if (row == self->bulk_selected)
        {
          /* a row not shown yet cannot be selected */
          if (i >= g_list_model_get_n_items (G_LIST_MODEL (self->reveal)))
            sl_reveal_model_finish (self->reveal);
          gtk_single_selection_set_selected (self->selection, i);
          break;
        }
    }
  g_clear_object (&self->bulk_selected);
  self->swapping = FALSE;
}

static SlTreeItem *
row_item (gpointer row)
{
  return SL_TREE_ITEM (gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (row)));
}

gboolean
_sl_tree_page_filter_func (gpointer row, gpointer data)
{
  SlTreePage *self = data;
  g_autoptr(SlTreeItem) item = NULL;

  if (self->keep == NULL)
    return TRUE;
  item = row_item (row);
  /* rows of an aggregate being replaced are filtered out with it */
  return item->agg == self->agg && self->keep[item->node] != 0;
}

/* The names in lower case, once per aggregate: the filter runs per key. */
static void
fold_names (SlTreePage *self)
{
  guint n = sl_tree_agg_get_n_nodes (self->agg);

  if (self->folded != NULL)
    return;
  self->folded = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    self->folded[i] = g_utf8_casefold (sl_tree_agg_get_node (self->agg, i)->name, -1);
}

/* Nodes are numbered breadth first, so a parent comes before its children:
 * one pass backwards marks the ancestors of matches, one forwards their
 * descendants. */
static void
compute_keep (SlTreePage *self)
{
  guint n = sl_tree_agg_get_n_nodes (self->agg);

  fold_names (self);
  self->keep = g_new0 (guint8, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    if (strstr (self->folded[i], self->filter_text) != NULL)
      self->keep[i] = FILTER_SELF;
  for (guint i = n; i-- > 0;)
    {
      guint32 p = sl_tree_agg_get_node (self->agg, i)->parent;

      if (p != SL_NONE && self->keep[i] & (FILTER_SELF | FILTER_BELOW))
        self->keep[p] |= FILTER_BELOW;
    }
  for (guint i = 0; i < n; i++)
    {
      guint32 p = sl_tree_agg_get_node (self->agg, i)->parent;

      if (p != SL_NONE && self->keep[p] & (FILTER_SELF | FILTER_ABOVE))
        self->keep[i] |= FILTER_ABOVE;
    }
}

/* Opens every row with a match below it, so the matches show. */
static void
expand_to_matches (SlTreePage *self)
{
  GListModel *rows = G_LIST_MODEL (self->tree_model);
  bulk_begin (self);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(SlTreeItem) item = row_item (row);

      if (item->kind == SL_TREE_ITEM_NODE && self->keep[item->node] & FILTER_BELOW)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  bulk_end (self);
}

void
_sl_tree_page_refilter (SlTreePage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));

  g_clear_pointer (&self->filter_text, g_free);
  g_clear_pointer (&self->keep, g_free);
  if (text[0] != '\0')
    self->filter_text = g_utf8_casefold (text, -1);
  if (self->filter_text != NULL && self->agg != NULL)
    compute_keep (self);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  if (self->keep != NULL && self->tree_model != NULL)
    expand_to_matches (self);
  _sl_tree_page_changed (self);
}

/* Rows shallower than @depth levels open, deeper ones closed; 0 opens all.
 * A kernel name stays closed: its instances are many and have their own
 * walk (Next, Previous). */
void
_sl_tree_page_expand (SlTreePage *self, int depth)
{
  GListModel *rows = G_LIST_MODEL (self->tree_model);

  if (rows == NULL)
    return;
  bulk_begin (self);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(SlTreeItem) item = row_item (row);
      gboolean open = depth <= 0 || (int) gtk_tree_list_row_get_depth (row) + 1 < depth;

      if (item->kind == SL_TREE_ITEM_NODE && item->stats.kind == SL_TREE_KERNEL)
        open = FALSE;
      if (gtk_tree_list_row_get_expanded (row) != open)
        gtk_tree_list_row_set_expanded (row, open);
    }
  bulk_end (self);
}

GHashTable *
_sl_tree_page_expanded (SlTreePage *self)
{
  GHashTable *paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GListModel *rows = G_LIST_MODEL (self->tree_model);

  for (guint i = 0; rows != NULL && i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);

      if (gtk_tree_list_row_get_expanded (row))
        {
          g_autoptr(SlTreeItem) item = row_item (row);
          g_hash_table_add (paths, _sl_tree_item_path (item));
        }
    }
  return paths;
}

void
_sl_tree_page_reexpand (SlTreePage *self, GHashTable *paths)
{
  GListModel *rows = G_LIST_MODEL (self->tree_model);
  bulk_begin (self);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(SlTreeItem) item = row_item (row);
      g_autofree char *path = NULL;

      if (item->kind != SL_TREE_ITEM_NODE || !gtk_tree_list_row_is_expandable (row))
        continue;
      path = _sl_tree_item_path (item);
      if (g_hash_table_contains (paths, path))
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  bulk_end (self);
}
