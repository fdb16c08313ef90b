/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-layout.c: one walk of the NVTX tree feeding both modes. */
#include "sl-flame-layout-private.h"
#include "sl-timeline-colors.h"

#include <string.h>

/* ---- the name keys: one per distinct text, so paths merge by name ------------ */

static guint32
text_key (GHashTable *key_of_text, const char *text)
{
  gpointer v;

  if (g_hash_table_lookup_extended (key_of_text, text, NULL, &v))
    return GPOINTER_TO_UINT (v);
  v = GUINT_TO_POINTER (g_hash_table_size (key_of_text));
  g_hash_table_insert (key_of_text, (gpointer) text, v);
  return GPOINTER_TO_UINT (v);
}

guint32
_sl_flame_range_key (SlFlameLayout *self, const SlNvtxNaming *naming, guint32 name_id)
{
  gpointer v;
  guint32 key;

  g_mutex_lock (&self->key_lock);
  if (g_hash_table_lookup_extended (self->range_key, GUINT_TO_POINTER (name_id + 1), NULL, &v))
    key = GPOINTER_TO_UINT (v);
  else
    {
      key = text_key (self->key_of_text, sl_nvtx_naming_get (naming, name_id));
      g_hash_table_insert (self->range_key, GUINT_TO_POINTER (name_id + 1), GUINT_TO_POINTER (key));
    }
  g_mutex_unlock (&self->key_lock);
  return key;
}

/* Kernel functions that share a short name are one flame graph node, as in
 * the tree's text: a key per distinct short name. */
static void
key_funcs (SlFlameLayout *self, const SlProfile *profile)
{
  g_autoptr(GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);

  self->func_key = g_new (guint32, MAX (profile->n_funcs, 1));
  for (guint f = 0; f < profile->n_funcs; f++)
    self->func_key[f] = text_key (keys, sl_profile_kernel_name (profile, f, FALSE));
}

/* ---- the walk ------------------------------------------------------------ */

static void visit (Build *b, const SlTreeNode *nodes, guint n, guint depth, guint32 parent);

static void
visit_kernel (Build *b, const SlTreeNode *node, guint depth, guint32 parent)
{
  const SlProfile *profile = b->layout->model->profile;
  const SlStream *stream = &profile->streams[node->owner];
  const SlKernels *k = &stream->kernels;
  guint32 func = k->func[node->index];
  gint64 start = k->spans.start[node->index], end = sl_spans_end (&k->spans, node->index);
  guint32 id = _sl_flame_graph_child (b, parent, SL_FLAME_KERNEL, b->layout->func_key[func]);
  SlFlameNode *fn = &g_array_index (b->nodes, SlFlameNode, id);

  if (fn->instances++ == 0)
    {
      fn->name = sl_profile_kernel_name (profile, func, FALSE);
      fn->color = func < profile->n_funcs ? b->layout->model->func_color[func] : SL_COLOR_OTHER;
    }
  fn->self_gpu += end - start;
  b->layout->n_kernels++;
  _sl_flame_stack_add (b, stream->pid, depth, start, end, node->owner, node->index | SL_FLAME_BOX_KERNEL);
}

static void
visit_range (Build *b, const SlTreeNode *node, guint depth, guint32 parent)
{
  const SlProfile *profile = b->layout->model->profile;
  const SlNvtxRanges *r = &profile->threads[node->owner].nvtx;
  SlTreeNodeInfo info;
  guint32 key = _sl_flame_range_key (b->layout, &b->naming, r->name[node->index]);
  guint32 id = _sl_flame_graph_child (b, parent, SL_FLAME_RANGE, key);
  SlFlameNode *fn = &g_array_index (b->nodes, SlFlameNode, id);
  g_autoptr(GArray) children = NULL;

  sl_tree_get_info (b->layout->tree, node, &info);
  if (fn->instances++ == 0)
    {
      fn->name = info.name;
      fn->color = sl_timeline_model_event_color (b->layout->model, SL_EVENT_NVTX, &r->spans,
                                                 node->owner, node->index);
    }
  fn->cpu += info.end_ns - info.start_ns;
  b->layout->n_ranges++;
  if (info.has_gpu)
    _sl_flame_stack_add (b, info.pid, depth, info.gpu_start_ns, info.gpu_end_ns, node->owner, node->index);
  if (g_cancellable_is_cancelled (b->cancellable))
    return;
  children = sl_tree_get_children (b->layout->tree, node);
  visit (b, (const SlTreeNode *) children->data, children->len, depth + 1, id);
}

static void
visit (Build *b, const SlTreeNode *nodes, guint n, guint depth, guint32 parent)
{
  for (guint i = 0; i < n; i++)
    if (nodes[i].kind == SL_TREE_KERNEL)
      visit_kernel (b, &nodes[i], depth, parent);
    else
      visit_range (b, &nodes[i], depth, parent);
}

static void
walk_roots (Build *b)
{
  const SlTree *tree = b->layout->tree;
  guint n = sl_tree_get_n_roots (tree);
  g_autofree SlTreeNode *roots = g_new (SlTreeNode, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    roots[i] = sl_tree_get_root (tree, i);
  visit (b, roots, n, 0, 0);
}

SlFlameLayout *
sl_flame_layout_new (SlTimelineModel *model, gboolean has_range, gint64 start, gint64 end,
                     guint32 pid, gboolean exact_names, GCancellable *cancellable)
{
  g_autoptr(SlFlameLayout) self = g_new0 (SlFlameLayout, 1);
  g_autoptr(SlFilter) filter = sl_filter_new ();
  const SlProfile *profile;
  Build b = { 0 };

  /* first: an early return frees it */
  self->ref_count = 1;
  g_mutex_init (&self->key_lock);
  g_return_val_if_fail (model != NULL, NULL);
  profile = model->profile;
  self->model = sl_timeline_model_ref (model);
  self->exact_names = exact_names;
  self->pid = pid;
  self->has_range = has_range;
  self->start = start;
  self->end = end;
  if (has_range)
    sl_filter_set_range (filter, start, end);
  if (pid != SL_NONE)
    sl_filter_add_pid (filter, pid);
  self->range_key = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->key_of_text = g_hash_table_new (g_str_hash, g_str_equal);
  key_funcs (self, profile);
  self->tree = sl_tree_compute_names (profile, filter, exact_names);

  b.layout = self;
  b.naming = sl_nvtx_naming (profile, exact_names);
  b.cancellable = cancellable;
  _sl_flame_graph_begin (&b);
  _sl_flame_stack_begin (&b);
  walk_roots (&b);
  if (g_cancellable_is_cancelled (cancellable))
    {
      _sl_flame_graph_abort (&b);
      _sl_flame_stack_abort (&b);
      return NULL;
    }
  _sl_flame_graph_end (&b);
  _sl_flame_stack_end (&b);
  return g_steal_pointer (&self);
}

SlFlameLayout *
sl_flame_layout_ref (SlFlameLayout *self)
{
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
sl_flame_layout_free (SlFlameLayout *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  for (guint r = 0; r < self->n_rows; r++)
    g_free (self->rows[r].boxes);
  g_free (self->rows);
  g_free (self->nodes);
  g_free (self->func_key);
  g_clear_pointer (&self->range_key, g_hash_table_unref);
  g_clear_pointer (&self->key_of_text, g_hash_table_unref);
  g_mutex_clear (&self->key_lock);
  g_clear_pointer (&self->tree, sl_tree_free);
  g_clear_pointer (&self->model, sl_timeline_model_unref);
  g_free (self);
}

/* ---- boxes --------------------------------------------------------------- */

SlEventRef
sl_flame_box_event (const SlFlameBox *box)
{
  SlEventRef ev;

  ev.owner = box->owner;
  ev.index = box->index & ~SL_FLAME_BOX_KERNEL;
  ev.kind = (box->index & SL_FLAME_BOX_KERNEL) ? SL_EVENT_KERNEL : SL_EVENT_NVTX;
  return ev;
}

const char *
sl_flame_layout_box_name (const SlFlameLayout *self, const SlFlameBox *box)
{
  const SlProfile *profile = self->model->profile;
  SlEventRef ev = sl_flame_box_event (box);

  if (ev.kind == SL_EVENT_KERNEL)
    return sl_profile_kernel_name (profile, profile->streams[ev.owner].kernels.func[ev.index], FALSE);
  return sl_timeline_model_event_name (self->model, &ev);
}

guint8
sl_flame_layout_box_color (const SlFlameLayout *self, const SlFlameBox *box)
{
  const SlProfile *profile = self->model->profile;
  SlEventRef ev = sl_flame_box_event (box);

  if (ev.kind == SL_EVENT_KERNEL)
    {
      guint32 f = profile->streams[ev.owner].kernels.func[ev.index];
      return f < profile->n_funcs ? self->model->func_color[f] : SL_COLOR_OTHER;
    }
  return sl_timeline_model_event_color (self->model, SL_EVENT_NVTX, &profile->threads[ev.owner].nvtx.spans,
                                        ev.owner, ev.index);
}
