/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree-page-item.c: a row of the NVTX page: an aggregated path, or one
 * kernel instance listed under its kernel name. */
#include "sl-tree-page-private.h"

#include <glib/gi18n.h>

G_DEFINE_FINAL_TYPE (SlTreeItem, sl_tree_item, G_TYPE_OBJECT)

static void
sl_tree_item_finalize (GObject *object)
{
  SlTreeItem *self = SL_TREE_ITEM (object);

  g_clear_pointer (&self->agg, sl_tree_agg_unref);
  g_free (self->label);
  G_OBJECT_CLASS (sl_tree_item_parent_class)->finalize (object);
}

static void
sl_tree_item_class_init (SlTreeItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_tree_item_finalize;
}

static void
sl_tree_item_init (SlTreeItem *self)
{
}

SlTreeItem *
_sl_tree_item_new_node (SlTreeAgg *agg, guint node)
{
  SlTreeItem *self = g_object_new (SL_TYPE_TREE_ITEM, NULL);

  self->kind = SL_TREE_ITEM_NODE;
  self->agg = sl_tree_agg_ref (agg);
  self->node = node;
  self->stats = *sl_tree_agg_get_node (agg, node);
  self->label = g_strdup (self->stats.name);
  return self;
}

/* One kernel: "12.345678901 s  GPU 0 · stream 7", its duration as its GPU
 * time and its share. */
static SlTreeItem *
new_instance (SlTreeAgg *agg, guint node, guint position, guint64 packed, const SlProfile *profile)
{
  SlTreeItem *self = g_object_new (SL_TYPE_TREE_ITEM, NULL);
  const SlStream *stream = &profile->streams[packed >> 32];
  guint index = packed & 0xffffffffu;
  gint64 dur = sl_spans_end (&stream->kernels.spans, index) - stream->kernels.spans.start[index];
  g_autofree char *at = NULL;

  self->kind = SL_TREE_ITEM_INSTANCE;
  self->agg = sl_tree_agg_ref (agg);
  self->node = node;
  self->packed = packed;
  self->position = position;
  self->start_ns = stream->kernels.spans.start[index] - profile->start_ns;
  self->stats = (SlTreeAggNode) { .kind = SL_TREE_KERNEL, .instances = 1, .gpu_ns = dur,
                                  .kernels = 1, .kernel_ns = dur };
  at = sl_format_timestamp (self->start_ns);
  /* TRANSLATORS: a kernel instance: its start, GPU and CUDA stream */
  self->label = g_strdup_printf (_("%s  GPU %u · stream %u"), at, stream->device, stream->stream);
  return self;
}

static SlTreeItem *
new_more (SlTreeAgg *agg, guint node, guint64 more)
{
  SlTreeItem *self = g_object_new (SL_TYPE_TREE_ITEM, NULL);
  g_autofree char *count = NULL;

  self->kind = SL_TREE_ITEM_MORE;
  self->agg = sl_tree_agg_ref (agg);
  self->node = node;
  count = sl_format_count ((gint64) more);
  self->label = g_strdup_printf (ngettext ("%s more instance (Next walks them all)",
                                           "%s more instances (Next walks them all)", (gulong) more), count);
  return self;
}

GListModel *
_sl_tree_item_children (SlTreeItem *item, const SlProfile *profile)
{
  const SlTreeAggNode *node;
  GListStore *store;

  if (item->kind != SL_TREE_ITEM_NODE)
    return NULL;
  node = sl_tree_agg_get_node (item->agg, item->node);
  store = g_list_store_new (SL_TYPE_TREE_ITEM);
  if (node->kind == SL_TREE_RANGE)
    for (guint c = 0; c < node->n_children; c++)
      {
        g_autoptr(SlTreeItem) child = _sl_tree_item_new_node (item->agg, node->first_child + c);
        g_list_store_append (store, child);
      }
  else if (profile != NULL)
    {
      guint64 n;
      const guint64 *inst = sl_tree_agg_get_instances (item->agg, item->node, &n);
      guint listed = (guint) MIN (n, SL_TREE_PAGE_MAX_INSTANCES);
      g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < listed; i++)
        g_ptr_array_add (items, new_instance (item->agg, item->node, i, inst[i], profile));
      if (n > listed)
        g_ptr_array_add (items, new_more (item->agg, item->node, n - listed));
      g_list_store_splice (store, 0, 0, items->pdata, items->len);
    }
  if (g_list_model_get_n_items (G_LIST_MODEL (store)) == 0)
    g_clear_object (&store);
  return G_LIST_MODEL (store);
}

char *
_sl_tree_item_path (SlTreeItem *item)
{
  GString *path = g_string_new (NULL);

  for (guint i = item->node; i != SL_NONE;)
    {
      const SlTreeAggNode *n = sl_tree_agg_get_node (item->agg, i);

      g_string_prepend (path, n->name);
      g_string_prepend (path, n->kind == SL_TREE_RANGE ? "/r:" : "/k:");
      i = n->parent;
    }
  if (item->kind != SL_TREE_ITEM_NODE)
    g_string_append_printf (path, "/i:%u", item->position);
  return g_string_free (path, FALSE);
}
