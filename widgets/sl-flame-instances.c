/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-instances.c: the events a flame graph node merges, found again
 * by walking the NVTX tree along the node's path ("Show in timeline"). */
#include "sl-flame-layout-private.h"

typedef struct {
  SlFlameLayout *layout;
  SlNvtxNaming   naming;
  guint32       *path;        /* node ids from the root's child down to the node */
  guint          n_path;
  guint          max;
  GArray        *out;
} Find;

static gboolean
matches (Find *f, const SlTreeNode *node, const SlFlameNode *want)
{
  const SlProfile *profile = f->layout->model->profile;

  if (node->kind == SL_TREE_KERNEL)
    return want->kind == SL_FLAME_KERNEL
           && f->layout->func_key[profile->streams[node->owner].kernels.func[node->index]] == want->key;
  return want->kind == SL_FLAME_RANGE
         && _sl_flame_range_key (f->layout, &f->naming,
                                 profile->threads[node->owner].nvtx.name[node->index]) == want->key;
}

static void
find_in (Find *f, const SlTreeNode *nodes, guint n, guint level)
{
  const SlFlameNode *want = &f->layout->nodes[f->path[level]];

  for (guint i = 0; i < n && f->out->len < f->max; i++)
    {
      if (!matches (f, &nodes[i], want))
        continue;
      if (level + 1 == f->n_path)
        {
          SlEventRef ev = { nodes[i].kind == SL_TREE_KERNEL ? SL_EVENT_KERNEL : SL_EVENT_NVTX,
                            nodes[i].owner, nodes[i].index };
          g_array_append_val (f->out, ev);
        }
      else if (nodes[i].kind == SL_TREE_RANGE)
        {
          g_autoptr(GArray) children = sl_tree_get_children (f->layout->tree, &nodes[i]);
          find_in (f, (const SlTreeNode *) children->data, children->len, level + 1);
        }
    }
}

void
sl_flame_layout_instances (const SlFlameLayout *layout, guint32 node, guint max, GArray *out)
{
  Find f = { (SlFlameLayout *) layout, sl_nvtx_naming (layout->model->profile, layout->exact_names) };
  guint n = sl_tree_get_n_roots (layout->tree);
  g_autofree SlTreeNode *roots = NULL;
  g_autofree guint32 *path = NULL;

  g_return_if_fail (node < layout->n_nodes);
  if (node == 0)
    return;
  path = g_new (guint32, layout->nodes[node].depth);
  for (guint32 id = node; id != 0; id = layout->nodes[id].parent)
    path[layout->nodes[id].depth - 1] = id;
  f.path = path;
  f.n_path = layout->nodes[node].depth;
  f.max = max;
  f.out = out;
  roots = g_new (SlTreeNode, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    roots[i] = sl_tree_get_root (layout->tree, i);
  find_in (&f, roots, n, 0);
}
