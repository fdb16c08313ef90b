/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree-page-item.c: a row of the NVTX page: an aggregated path, or one
 * kernel instance listed under its kernel name. */
#include "sl-tree-page-private.h"
#include "sl-locale-format.h"

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
  at = sl_locale_timestamp (self->start_ns);
  /* TRANSLATORS: a kernel instance: its start, GPU and CUDA stream */
  self->label = g_strdup_printf (_("%s  GPU %u · stream %u"), at, stream->device, stream->stream);
  return self;
}

/* Every instance of a kernel name, each row made when a view asks for its
 * position and not kept: a GtkTreeListModel asks for the child model of
 * every row it shows (to know whether it can expand), a name may have
 * millions of instances, and the view holds the rows it shows. */
#define SL_TYPE_TREE_INSTANCES (sl_tree_instances_get_type ())
G_DECLARE_FINAL_TYPE (SlTreeInstances, sl_tree_instances, SL, TREE_INSTANCES, GObject)

struct _SlTreeInstances {
  GObject          parent_instance;
  SlTreeAgg       *agg;
  guint            node;
  SlProfile       *profile;
  guint            n;
};

static GType
instances_get_item_type (GListModel *list)
{
  return SL_TYPE_TREE_ITEM;
}

static guint
instances_get_n_items (GListModel *list)
{
  SlTreeInstances *self = SL_TREE_INSTANCES (list);

  return self->n;
}

static gpointer
instances_get_item (GListModel *list, guint i)
{
  SlTreeInstances *self = SL_TREE_INSTANCES (list);
  guint64 n;
  const guint64 *inst = sl_tree_agg_get_instances (self->agg, self->node, &n);

  if (i >= self->n || i >= n)
    return NULL;
  return new_instance (self->agg, self->node, i, inst[i], self->profile);
}

static void
instances_list_init (GListModelInterface *iface)
{
  iface->get_item_type = instances_get_item_type;
  iface->get_n_items = instances_get_n_items;
  iface->get_item = instances_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (SlTreeInstances, sl_tree_instances, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, instances_list_init))

static void
sl_tree_instances_finalize (GObject *object)
{
  SlTreeInstances *self = SL_TREE_INSTANCES (object);

  sl_tree_agg_unref (self->agg);
  sl_profile_unref (self->profile);
  G_OBJECT_CLASS (sl_tree_instances_parent_class)->finalize (object);
}

static void
sl_tree_instances_class_init (SlTreeInstancesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_tree_instances_finalize;
}

static void
sl_tree_instances_init (SlTreeInstances *self)
{
}

static GListModel *
instances_new (SlTreeAgg *agg, guint node, const SlProfile *profile)
{
  SlTreeInstances *self = g_object_new (SL_TYPE_TREE_INSTANCES, NULL);
  guint64 n;

  sl_tree_agg_get_instances (agg, node, &n);
  self->agg = sl_tree_agg_ref (agg);
  self->node = node;
  self->profile = sl_profile_ref ((SlProfile *) profile);
  self->n = (guint) MIN (n, G_MAXUINT);
  return G_LIST_MODEL (self);
}

GListModel *
_sl_tree_item_children (SlTreeItem *item, const SlProfile *profile)
{
  const SlTreeAggNode *node;
  GListStore *store;

  if (item->kind != SL_TREE_ITEM_NODE)
    return NULL;
  node = sl_tree_agg_get_node (item->agg, item->node);
  if (node->kind == SL_TREE_KERNEL)
    return profile != NULL && node->instances > 0 ? instances_new (item->agg, item->node, profile) : NULL;
  if (node->n_children == 0)
    return NULL;
  store = g_list_store_new (SL_TYPE_TREE_ITEM);
  for (guint c = 0; c < node->n_children; c++)
    {
      g_autoptr(SlTreeItem) child = _sl_tree_item_new_node (item->agg, node->first_child + c);
      g_list_store_append (store, child);
    }
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
