/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-graph.c: the flame graph: NVTX paths merged by name, kernels as leaves. */
#include "sl-flame-layout-private.h"
#include "sl-attribution.h"

#include <stdlib.h>
#include <string.h>

static inline guint64
child_key (guint32 parent, SlFlameKind kind, guint32 key)
{
  return ((guint64) parent << 32) | ((guint64) kind << 30) | (key & 0x3fffffffu);
}

static inline guint
slot_of (const Build *b, guint64 key)
{
  return (guint) ((key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 40) & (b->n_slots - 1);
}

static void
grow_slots (Build *b)
{
  guint old_n = b->n_slots;
  g_autofree guint64 *old_key = b->slot_key;
  g_autofree guint32 *old_node = b->slot_node;

  b->n_slots = old_n ? old_n * 2 : 1024;
  b->slot_key = g_new (guint64, b->n_slots);
  b->slot_node = g_new (guint32, b->n_slots);
  memset (b->slot_node, 0xff, b->n_slots * sizeof (guint32));
  for (guint i = 0; i < old_n; i++)
    if (old_node[i] != SL_NONE)
      {
        guint s = slot_of (b, old_key[i]);
        while (b->slot_node[s] != SL_NONE)
          s = (s + 1) & (b->n_slots - 1);
        b->slot_key[s] = old_key[i];
        b->slot_node[s] = old_node[i];
      }
}

void
_sl_flame_graph_begin (Build *b)
{
  SlFlameNode root = { 0 };

  root.parent = SL_NONE;
  root.kind = SL_FLAME_ROOT;
  root.instances = 1;
  b->nodes = g_array_new (FALSE, TRUE, sizeof (SlFlameNode));
  g_array_append_val (b->nodes, root);
  grow_slots (b);
}

guint32
_sl_flame_graph_child (Build *b, guint32 parent, SlFlameKind kind, guint32 key)
{
  guint64 k = child_key (parent, kind, key);
  guint s = slot_of (b, k);
  SlFlameNode node = { 0 };

  for (; b->slot_node[s] != SL_NONE; s = (s + 1) & (b->n_slots - 1))
    if (b->slot_key[s] == k)
      return b->slot_node[s];
  node.parent = parent;
  node.kind = kind;
  node.key = key;
  node.depth = g_array_index (b->nodes, SlFlameNode, parent).depth + 1;
  b->slot_key[s] = k;
  b->slot_node[s] = b->nodes->len;
  g_array_append_val (b->nodes, node);
  if (2 * b->nodes->len > b->n_slots)
    grow_slots (b);
  return b->nodes->len - 1;
}

void
_sl_flame_graph_abort (Build *b)
{
  g_clear_pointer (&b->nodes, g_array_unref);
  g_clear_pointer (&b->slot_key, g_free);
  g_clear_pointer (&b->slot_node, g_free);
}

/* Totals from the leaves up: children were made after their parents. */
static void
sum_up (SlFlameNode *nodes, guint n)
{
  for (guint id = n; id-- > 1; )
    {
      SlFlameNode *node = &nodes[id], *parent = &nodes[node->parent];

      if (node->kind == SL_FLAME_KERNEL)
        {
          node->total_gpu = node->self_gpu;
          parent->self_gpu += node->total_gpu;
        }
      parent->total_gpu += node->total_gpu;
      if (parent->kind == SL_FLAME_ROOT)
        parent->cpu += node->cpu;
    }
}

static const SlFlameNode *sort_base;

static int
cmp_wider (const void *a, const void *b)
{
  const SlFlameNode *x = &sort_base[*(const guint32 *) a], *y = &sort_base[*(const guint32 *) b];

  if (x->total_gpu != y->total_gpu)
    return x->total_gpu > y->total_gpu ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

/* Children lists of every node (CSR over the build order), widest first. */
static guint32 *
children_of (const SlFlameNode *nodes, guint n, guint32 **first_out)
{
  guint32 *first = g_new0 (guint32, n + 1);
  guint32 *list = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *cursor = NULL;

  for (guint id = 1; id < n; id++)
    first[nodes[id].parent + 1]++;
  for (guint id = 0; id < n; id++)
    first[id + 1] += first[id];
  cursor = g_memdup2 (first, (n + 1) * sizeof (guint32));
  for (guint id = 1; id < n; id++)
    list[cursor[nodes[id].parent]++] = id;
  /* a static comparator base: the build runs in one worker at a time per
   * layout, but two layouts may build at once, so sort under a lock */
  static GMutex lock;
  g_mutex_lock (&lock);
  sort_base = nodes;
  for (guint id = 0; id < n; id++)
    qsort (list + first[id], first[id + 1] - first[id], sizeof (guint32), cmp_wider);
  g_mutex_unlock (&lock);
  *first_out = first;
  return list;
}

/* Breadth first, so that every node's children are contiguous. */
static void
renumber (Build *b)
{
  const SlFlameNode *old = (const SlFlameNode *) b->nodes->data;
  guint n = b->nodes->len;
  g_autofree guint32 *first = NULL;
  g_autofree guint32 *list = children_of (old, n, &first);
  g_autofree guint32 *order = g_new (guint32, n);
  g_autofree guint32 *new_id = g_new (guint32, n);
  SlFlameNode *out = g_new (SlFlameNode, n);
  guint head = 0, tail = 1;

  order[0] = 0;
  new_id[0] = 0;
  while (head < tail)
    {
      guint32 id = order[head++];
      for (guint32 c = first[id]; c < first[id + 1]; c++)
        {
          new_id[list[c]] = tail;
          order[tail++] = list[c];
        }
    }
  for (guint i = 0; i < n; i++)
    {
      out[i] = old[order[i]];
      out[i].parent = i == 0 ? SL_NONE : new_id[old[order[i]].parent];
      out[i].n_children = first[order[i] + 1] - first[order[i]];
      out[i].first_child = out[i].n_children ? new_id[list[first[order[i]]]] : 0;
    }
  for (guint i = 0; i < n; i++)
    {
      gint64 x = out[i].offset;
      for (guint32 c = 0; c < out[i].n_children; c++)
        {
          out[out[i].first_child + c].offset = x;
          x += out[out[i].first_child + c].total_gpu;
        }
    }
  b->layout->nodes = out;
  b->layout->n_nodes = n;
}

void
_sl_flame_graph_end (Build *b)
{
  sum_up ((SlFlameNode *) b->nodes->data, b->nodes->len);
  renumber (b);
  _sl_flame_graph_abort (b);
}

/* ---- lookups ------------------------------------------------------------- */

static guint32
find_child (const SlFlameLayout *self, guint32 parent, SlFlameKind kind, guint32 key)
{
  const SlFlameNode *p = &self->nodes[parent];

  for (guint32 c = p->first_child; c < p->first_child + p->n_children; c++)
    if (self->nodes[c].kind == kind && self->nodes[c].key == key)
      return c;
  return SL_NONE;
}

static guint32
find_range_path (SlFlameLayout *self, const SlNvtxNaming *naming, guint32 thread, guint32 index)
{
  const SlNvtxRanges *r = &self->model->profile->threads[thread].nvtx;
  guint32 parent;

  if (index == SL_NONE)
    return 0;
  parent = find_range_path (self, naming, thread, r->parent[index]);
  if (parent == SL_NONE)
    return SL_NONE;
  return find_child (self, parent, SL_FLAME_RANGE, _sl_flame_range_key (self, naming, r->name[index]));
}

guint32
sl_flame_layout_find_event (const SlFlameLayout *layout, const SlEventRef *event)
{
  SlFlameLayout *self = (SlFlameLayout *) layout;
  const SlProfile *profile = self->model->profile;
  SlNvtxNaming naming = sl_nvtx_naming (profile, self->exact_names);

  if (event->kind == SL_EVENT_NVTX && event->owner < profile->n_threads
      && event->index < profile->threads[event->owner].nvtx.spans.n)
    return find_range_path (self, &naming, event->owner, event->index);
  if (event->kind == SL_EVENT_KERNEL && event->owner < profile->n_streams
      && event->index < profile->streams[event->owner].kernels.spans.n)
    {
      const SlAttribution *attr = sl_attribution_get (profile);
      guint32 r = attr->kernel_range[attr->kernel_base[event->owner] + event->index];
      guint32 parent = 0, func = profile->streams[event->owner].kernels.func[event->index];

      if (r != SL_NONE)
        {
          guint local;
          guint32 t = sl_attribution_range_thread (attr, r, &local);
          parent = find_range_path (self, &naming, t, local);
        }
      if (parent == SL_NONE)
        return SL_NONE;
      return find_child (self, parent, SL_FLAME_KERNEL, self->func_key[func]);
    }
  return SL_NONE;
}

gboolean
sl_flame_layout_is_under (const SlFlameLayout *self, guint32 node, guint32 ancestor)
{
  for (; node != SL_NONE && node < self->n_nodes; node = self->nodes[node].parent)
    if (node == ancestor)
      return TRUE;
  return FALSE;
}
