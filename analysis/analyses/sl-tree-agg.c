/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree-agg.c: the NVTX tree with identical paths merged. */
#include "sl-tree-agg.h"
#include "sl-attribution.h"
#include "sl-json.h"
#include "sl-nvtx-name.h"

#include <string.h>

struct _SlTreeAgg {
  gatomicrefcount  ref_count;
  gboolean         exact_names;
  guint            n_nodes;
  guint            n_roots;
  SlTreeAggNode   *nodes;
  GArray         **instances;   /* per node: guint64 packed owner << 32 | index */
  guint64          kernels;
  gint64           kernel_ns;
  GStringChunk    *names;
};

/* While building: nodes linked to their parent by sibling lists, node 0
 * the invisible root above the real roots. */
typedef struct {
  SlTreeAggNode node;
  guint32       first_child;
  guint32       last_child;
  guint32       next_sibling;
  GArray       *instances;
} Tmp;

typedef struct {
  guint32     parent;
  guint32     kind;
  const char *name;
} Key;

typedef struct {
  const SlTree *tree;
  GArray       *tmp;        /* Tmp */
  GHashTable   *index;      /* Key -> node index + 1 */
  GHashTable   *interned;   /* name text -> the aggregate's copy */
  GStringChunk *names;
  GCancellable *cancellable;
  guint         tick;
  gboolean      cancelled;
} Build;

static guint
key_hash (gconstpointer p)
{
  const Key *k = p;

  return g_direct_hash (k->name) ^ (k->parent * 2654435761u) ^ k->kind;
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  const Key *x = a, *y = b;

  return x->parent == y->parent && x->kind == y->kind && x->name == y->name;
}

static void
index_add (Build *b, guint32 parent, SlTreeKind kind, const char *name, guint32 node)
{
  Key *key = g_new (Key, 1);

  *key = (Key) { parent, kind, name };
  g_hash_table_insert (b->index, key, GUINT_TO_POINTER (node + 1));
}

static guint32
new_node (Build *b, guint32 parent, SlTreeKind kind, const char *name)
{
  guint32 i = b->tmp->len;
  Tmp t = { 0 };
  Tmp *p = &g_array_index (b->tmp, Tmp, parent);

  t.node.kind = kind;
  t.node.name = name;
  t.node.parent = parent;
  t.node.depth = parent == 0 ? 0 : p->node.depth + 1;
  t.first_child = t.last_child = t.next_sibling = SL_NONE;
  t.instances = g_array_new (FALSE, FALSE, sizeof (guint64));
  if (p->last_child == SL_NONE)
    p->first_child = i;
  else
    g_array_index (b->tmp, Tmp, p->last_child).next_sibling = i;
  p->last_child = i;
  g_array_append_val (b->tmp, t);
  return i;
}

/* The child of @parent for a node named @raw.  Names are compared as text,
 * but a name's pointer is stable in the tree, so the pointer is looked up
 * first (one hash of a pointer per node) and the text only when it is new. */
static guint32
child_of (Build *b, guint32 parent, SlTreeKind kind, const char *raw)
{
  Key key = { parent, kind, raw };
  gpointer found = g_hash_table_lookup (b->index, &key);
  const char *name;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  name = g_hash_table_lookup (b->interned, raw);
  if (name == NULL)
    {
      name = g_string_chunk_insert (b->names, raw);
      g_hash_table_insert (b->interned, (gpointer) name, (gpointer) name);
    }
  key.name = name;
  found = g_hash_table_lookup (b->index, &key);
  if (found == NULL)
    {
      guint32 node = new_node (b, parent, kind, name);

      found = GUINT_TO_POINTER (node + 1);
      index_add (b, parent, kind, name, node);
    }
  index_add (b, parent, kind, raw, GPOINTER_TO_UINT (found) - 1);
  return GPOINTER_TO_UINT (found) - 1;
}

/* Files @node and its subtree under aggregate @parent; adds the kernels of
 * the subtree to *kernels and *kernel_ns. */
static void
visit (Build *b, const SlTreeNode *node, guint32 parent, guint64 *kernels, gint64 *kernel_ns)
{
  SlTreeNodeInfo info;
  guint32 a;
  Tmp *t;
  guint64 packed = ((guint64) node->owner << 32) | node->index, k = 0;
  gint64 kns = 0;

  if ((++b->tick & 0xffff) == 0 && g_cancellable_is_cancelled (b->cancellable))
    b->cancelled = TRUE;
  if (b->cancelled)
    return;
  sl_tree_get_info (b->tree, node, &info);
  a = child_of (b, parent, node->kind, info.name);
  t = &g_array_index (b->tmp, Tmp, a);
  g_array_append_val (t->instances, packed);
  t->node.instances++;
  if (node->kind == SL_TREE_KERNEL)
    {
      gint64 dur = info.end_ns - info.start_ns;

      t->node.gpu_ns += dur;
      t->node.kernels++;
      t->node.kernel_ns += dur;
      *kernels += 1;
      *kernel_ns += dur;
      return;
    }
  t->node.cpu_ns += info.end_ns - info.start_ns;
  if (info.has_gpu)
    t->node.gpu_ns += info.gpu_end_ns - info.gpu_start_ns;

  g_autoptr(GArray) children = sl_tree_get_children (b->tree, node);
  for (guint i = 0; i < children->len; i++)
    visit (b, &g_array_index (children, SlTreeNode, i), a, &k, &kns);
  /* the array may have grown: the pointer is stale */
  t = &g_array_index (b->tmp, Tmp, a);
  t->node.kernels += k;
  t->node.kernel_ns += kns;
  *kernels += k;
  *kernel_ns += kns;
}

static gint64
kernel_start (const SlProfile *profile, guint64 packed)
{
  return profile->streams[packed >> 32].kernels.spans.start[packed & 0xffffffffu];
}

static int
compare_kernels (gconstpointer a, gconstpointer b, gpointer data)
{
  gint64 x = kernel_start (data, *(const guint64 *) a), y = kernel_start (data, *(const guint64 *) b);

  if (x != y)
    return x < y ? -1 : 1;
  return *(const guint64 *) a < *(const guint64 *) b ? -1 : *(const guint64 *) a > *(const guint64 *) b;
}

/* A kernel node's instances come per range instance, so they are mostly in
 * order already: sort only those that are not. */
static void
sort_kernels (const SlProfile *profile, GArray *instances)
{
  const guint64 *v = (const guint64 *) instances->data;

  for (guint i = 1; i < instances->len; i++)
    if (compare_kernels (&v[i - 1], &v[i], (gpointer) profile) > 0)
      {
        g_qsort_with_data (instances->data, (gint) instances->len, sizeof (guint64), compare_kernels,
                           (gpointer) profile);
        return;
      }
}

/* Numbers the nodes breadth first, so that the children of each node are
 * contiguous, and moves them into @self. */
static void
finish (SlTreeAgg *self, Build *b, const SlProfile *profile)
{
  guint n = b->tmp->len - 1, out = 0;
  g_autofree guint32 *order = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *renum = g_new (guint32, b->tmp->len);
  Tmp *tmp = (Tmp *) b->tmp->data;

  for (guint32 c = tmp[0].first_child; c != SL_NONE; c = tmp[c].next_sibling)
    order[out++] = c;
  self->n_roots = out;
  for (guint q = 0; q < out; q++)
    for (guint32 c = tmp[order[q]].first_child; c != SL_NONE; c = tmp[c].next_sibling)
      order[out++] = c;
  g_assert (out == n);

  self->n_nodes = n;
  self->nodes = g_new (SlTreeAggNode, MAX (n, 1));
  self->instances = g_new (GArray *, MAX (n, 1));
  renum[0] = SL_NONE;
  for (guint i = 0; i < n; i++)
    renum[order[i]] = i;
  for (guint i = 0, next = self->n_roots; i < n; i++)
    {
      Tmp *t = &tmp[order[i]];
      SlTreeAggNode *node = &self->nodes[i];

      *node = t->node;
      node->parent = renum[t->node.parent];
      node->first_child = next;
      for (guint32 c = t->first_child; c != SL_NONE; c = tmp[c].next_sibling)
        node->n_children++;
      next += node->n_children;
      self->instances[i] = g_steal_pointer (&t->instances);
      if (node->kind == SL_TREE_KERNEL)
        sort_kernels (profile, self->instances[i]);
    }
}

static void
build_clear (Build *b)
{
  for (guint i = 0; i < b->tmp->len; i++)
    g_clear_pointer (&g_array_index (b->tmp, Tmp, i).instances, g_array_unref);
  g_array_unref (b->tmp);
  g_hash_table_unref (b->index);
  g_hash_table_unref (b->interned);
}

SlTreeAgg *
sl_tree_agg_compute (const SlProfile *profile, const SlFilter *filter, gboolean exact_names,
                     GCancellable *cancellable)
{
  g_autoptr(SlTree) tree = NULL;
  SlTreeAgg *self;
  Build b = { 0 };
  Tmp root = { .first_child = SL_NONE, .last_child = SL_NONE, .next_sibling = SL_NONE };

  g_return_val_if_fail (profile != NULL, NULL);
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;
  tree = sl_tree_compute_names (profile, filter, exact_names);
  self = g_new0 (SlTreeAgg, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->exact_names = exact_names;
  self->names = g_string_chunk_new (4096);
  b = (Build) { .tree = tree, .tmp = g_array_new (FALSE, FALSE, sizeof (Tmp)),
                .index = g_hash_table_new_full (key_hash, key_equal, g_free, NULL),
                .interned = g_hash_table_new (g_str_hash, g_str_equal),
                .names = self->names, .cancellable = cancellable };
  root.node.parent = SL_NONE;
  g_array_append_val (b.tmp, root);
  for (guint i = 0; i < sl_tree_get_n_roots (tree) && !b.cancelled; i++)
    {
      SlTreeNode node = sl_tree_get_root (tree, i);

      visit (&b, &node, 0, &self->kernels, &self->kernel_ns);
    }
  if (!b.cancelled)
    finish (self, &b, profile);
  build_clear (&b);
  if (b.cancelled)
    {
      sl_tree_agg_unref (self);
      return NULL;
    }
  return self;
}

SlTreeAgg *
sl_tree_agg_ref (SlTreeAgg *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
sl_tree_agg_unref (SlTreeAgg *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  for (guint i = 0; i < self->n_nodes; i++)
    g_array_unref (self->instances[i]);
  g_free (self->instances);
  g_free (self->nodes);
  g_string_chunk_free (self->names);
  g_free (self);
}

/* Above the roots, as a parent. */
#define TOP (SL_NONE - 1)

static guint
child_named (const SlTreeAgg *self, guint parent, SlTreeKind kind, const char *name)
{
  guint first = parent == TOP ? 0 : self->nodes[parent].first_child;
  guint n = parent == TOP ? self->n_roots : self->nodes[parent].n_children;

  for (guint c = first; name != NULL && c < first + n; c++)
    if (self->nodes[c].kind == kind && strcmp (self->nodes[c].name, name) == 0)
      return c;
  return SL_NONE;
}

/* The node of range @index of @thread by the names of its ranges from the
 * outermost (TOP for no range). */
static guint
range_node (const SlTreeAgg *self, const SlProfile *profile, const SlNvtxNaming *naming, guint32 thread,
            guint32 index)
{
  const SlNvtxRanges *r = &profile->threads[thread].nvtx;
  guint parent;

  if (index == SL_NONE)
    return TOP;
  parent = range_node (self, profile, naming, thread, r->parent[index]);
  if (parent == SL_NONE)
    return SL_NONE;
  return child_named (self, parent, SL_TREE_RANGE, sl_nvtx_naming_get (naming, r->name[index]));
}

static gboolean
holds_instance (const SlTreeAgg *self, guint node, guint32 owner, guint32 index)
{
  guint64 packed = ((guint64) owner << 32) | index;
  const GArray *inst = self->instances[node];

  for (guint i = 0; i < inst->len; i++)
    if (g_array_index (inst, guint64, i) == packed)
      return TRUE;
  return FALSE;
}

guint
sl_tree_agg_find (const SlTreeAgg *self, const SlProfile *profile, SlTreeKind kind, guint32 owner,
                  guint32 index)
{
  SlNvtxNaming naming;
  guint node = SL_NONE;

  g_return_val_if_fail (self != NULL && profile != NULL, SL_NONE);
  naming = sl_nvtx_naming (profile, self->exact_names);
  if (kind == SL_TREE_RANGE && owner < profile->n_threads && index < profile->threads[owner].nvtx.spans.n)
    node = range_node (self, profile, &naming, owner, index);
  else if (kind == SL_TREE_KERNEL && owner < profile->n_streams && index < profile->streams[owner].kernels.spans.n)
    {
      const SlAttribution *attr = sl_attribution_get (profile);
      const char *name = sl_profile_kernel_name (profile, profile->streams[owner].kernels.func[index], FALSE);
      guint32 r = attr->kernel_range[attr->kernel_base[owner] + index];
      guint parent = TOP, local = 0;

      if (r != SL_NONE)
        {
          guint32 thread = sl_attribution_range_thread (attr, r, &local);

          parent = range_node (self, profile, &naming, thread, local);
        }
      if (parent != SL_NONE)
        node = child_named (self, parent, SL_TREE_KERNEL, name);
      /* a kernel whose range's thread the filter left out sits at the top */
      if ((node == SL_NONE || !holds_instance (self, node, owner, index)) && parent != TOP)
        node = child_named (self, TOP, SL_TREE_KERNEL, name);
    }
  return node != SL_NONE && node != TOP && holds_instance (self, node, owner, index) ? node : SL_NONE;
}

gboolean
sl_tree_agg_get_exact_names (const SlTreeAgg *self)
{
  return self->exact_names;
}

guint
sl_tree_agg_get_n_nodes (const SlTreeAgg *self)
{
  return self->n_nodes;
}

guint
sl_tree_agg_get_n_roots (const SlTreeAgg *self)
{
  return self->n_roots;
}

const SlTreeAggNode *
sl_tree_agg_get_node (const SlTreeAgg *self, guint i)
{
  g_return_val_if_fail (i < self->n_nodes, NULL);
  return &self->nodes[i];
}

guint64
sl_tree_agg_get_kernels (const SlTreeAgg *self)
{
  return self->kernels;
}

gint64
sl_tree_agg_get_kernel_ns (const SlTreeAgg *self)
{
  return self->kernel_ns;
}

const guint64 *
sl_tree_agg_get_instances (const SlTreeAgg *self, guint i, guint64 *n_out)
{
  g_return_val_if_fail (i < self->n_nodes, NULL);
  *n_out = self->instances[i]->len;
  return (const guint64 *) self->instances[i]->data;
}

static void
add_json_node (JsonBuilder *b, const SlTreeAgg *self, guint i)
{
  const SlTreeAggNode *n = &self->nodes[i];

  json_builder_begin_object (b);
  sl_json_member_string (b, "kind", n->kind == SL_TREE_RANGE ? "range" : "kernel");
  json_builder_set_member_name (b, "name");
  sl_json_add_string (b, n->name);
  sl_json_member_int (b, "instances", (gint64) n->instances);
  sl_json_member_int (b, "cpu_ns", n->cpu_ns);
  sl_json_member_int (b, "gpu_ns", n->gpu_ns);
  sl_json_member_int (b, "kernels", (gint64) n->kernels);
  sl_json_member_int (b, "kernel_ns", n->kernel_ns);
  json_builder_set_member_name (b, "children");
  json_builder_begin_array (b);
  for (guint c = 0; c < n->n_children; c++)
    add_json_node (b, self, n->first_child + c);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

JsonNode *
sl_tree_agg_to_json (const SlTreeAgg *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_boolean (b, "exact_names", self->exact_names);
  sl_json_member_int (b, "kernels", (gint64) self->kernels);
  sl_json_member_int (b, "kernel_ns", self->kernel_ns);
  json_builder_set_member_name (b, "roots");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->n_roots; i++)
    add_json_node (b, self, i);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
