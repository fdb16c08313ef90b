/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree.c: the NVTX hierarchy with kernels as leaves. */
#include "sl-tree.h"
#include "sl-attribution.h"
#include "sl-nvtx-name.h"
#include "sl-stats.h"
#include "sl-text-width.h"

#include <string.h>

struct _SlTree {
  SlProfile           *profile;     /* a reference */
  gboolean             exact_names;
  SlFilter            *filter;
  SlNvtxNaming         naming;      /* range names: grouped or exact */
  const SlAttribution *attr;
  gint64              *gpu_start;   /* projections under the GPU filter */
  gint64              *gpu_end;
  gint64              *se_start;
  gint64              *se_end;
  gboolean             owned;
  gboolean            *thread_ok;
  /* per global range: 1 when a kernel of the filter hangs in its subtree */
  guint8              *holds;
  /* kernels per range (CSR over global range ids), packed stream << 32 | index;
   * @kernels is filled on the first look at a range that holds any, since a
   * tree shown to a few levels ("tree --depth 3") rarely reaches one */
  guint               *first;       /* n_ranges + 1 */
  guint64             *kernels;
  gsize                kernels_filled;
  gboolean             all_threads;
  GArray              *roots;       /* SlTreeNode, by start */
};

static inline guint64
pack (guint32 stream, guint32 index)
{
  return ((guint64) stream << 32) | index;
}

static gint64
node_start (const SlProfile *profile, const SlTreeNode *n)
{
  if (n->kind == SL_TREE_KERNEL)
    return profile->streams[n->owner].kernels.spans.start[n->index];
  return profile->threads[n->owner].nvtx.spans.start[n->index];
}

static int
compare_nodes (gconstpointer a, gconstpointer b, gpointer data)
{
  const SlProfile *profile = data;
  const SlTreeNode *x = a, *y = b;
  gint64 sx = node_start (profile, x), sy = node_start (profile, y);

  if (sx != sy)
    return sx < sy ? -1 : 1;
  /* a range before the kernels it launched at the same instant */
  if (x->kind != y->kind)
    return x->kind == SL_TREE_RANGE ? -1 : 1;
  if (x->owner != y->owner)
    return x->owner < y->owner ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

/* Kernels are kept when their GPU start is in the window; ranges when they
 * hold such a kernel (the GPU runs behind the CPU, so a kernel's whole path
 * may have begun and ended before the window), or overlap the window on the
 * CPU. */
static gboolean
range_kept (const SlTree *self, guint32 thread, guint i)
{
  const SlSpans *spans = &self->profile->threads[thread].nvtx.spans;
  const SlFilter *filter = self->filter;

  if (filter == NULL || !filter->has_range || self->holds[self->attr->range_base[thread] + i])
    return TRUE;
  return spans->start[i] < filter->range_end && sl_spans_end (spans, i) > filter->range_start;
}

/* Under an NVTX scope (a scoped subset), ranges outside it show only as the
 * path to work in scope, which their GPU projection tells. */
static gboolean
range_in_scope (const SlTree *self, guint thread, guint i)
{
  return sl_profile_range_kept (self->profile, thread, i)
         || self->gpu_start[self->attr->range_base[thread] + i] != SL_NO_GPU_START;
}

/* Marks global range @r and its ancestors as holding a kernel; stops at the
 * first one already marked, so marking costs O(ranges) in all. */
static void
mark_path (SlTree *self, guint32 r)
{
  guint local;
  guint32 t = sl_attribution_range_thread (self->attr, r, &local);
  const SlNvtxRanges *ranges = &self->profile->threads[t].nvtx;
  guint base = self->attr->range_base[t];

  for (guint32 i = local; i != SL_NONE && !self->holds[base + i]; i = ranges->parent[i])
    self->holds[base + i] = 1;
}

/* Insertion sort, for the few children most ranges have: the merge sort's
 * arrays cost more than the sorting there (a full tree sorts 250 k of them). */
#define FEW_NODES 16
static void
sort_few_nodes (const SlProfile *profile, SlTreeNode *v, guint n)
{
  for (guint i = 1; i < n; i++)
    {
      SlTreeNode x = v[i];
      guint j = i;

      for (; j > 0 && compare_nodes (&v[j - 1], &x, (gpointer) profile) > 0; j--)
        v[j] = v[j - 1];
      v[j] = x;
    }
}

/* Natural merge sort: the nodes come as a few sorted runs (one per stream or
 * thread), so merging the runs pairwise costs N log(runs), not N log N. */
static void
sort_node_array (const SlProfile *profile, SlTreeNode *v, guint n)
{
  g_autoptr(GArray) bounds = NULL;
  g_autofree SlTreeNode *tmp = NULL;
  guint zero = 0;

  if (n < 2)
    return;
  if (n <= FEW_NODES)
    {
      sort_few_nodes (profile, v, n);
      return;
    }
  bounds = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (bounds, zero);
  for (guint i = 1; i < n; i++)
    if (compare_nodes (&v[i - 1], &v[i], (gpointer) profile) > 0)
      g_array_append_val (bounds, i);
  if (bounds->len == 1)
    return;
  g_array_append_val (bounds, n);

  tmp = g_new (SlTreeNode, n);
  while (bounds->len > 2)
    {
      g_autoptr(GArray) next = g_array_new (FALSE, FALSE, sizeof (guint));
      guint *b = (guint *) bounds->data;
      guint runs = bounds->len - 1;

      for (guint r = 0; r < runs; r += 2)
        {
          guint lo = b[r], mid = b[r + 1], hi = r + 2 <= runs ? b[r + 2] : mid;
          guint i = lo, j = mid, o = lo;

          while (i < mid && j < hi)
            tmp[o++] = compare_nodes (&v[j], &v[i], (gpointer) profile) < 0 ? v[j++] : v[i++];
          while (i < mid)
            tmp[o++] = v[i++];
          while (j < hi)
            tmp[o++] = v[j++];
          g_array_append_val (next, lo);
        }
      g_array_append_val (next, n);
      memcpy (v, tmp, n * sizeof (SlTreeNode));
      g_array_unref (bounds);
      bounds = g_steal_pointer (&next);
    }
}

static void
sort_nodes (const SlProfile *profile, GArray *nodes)
{
  sort_node_array (profile, (SlTreeNode *) nodes->data, nodes->len);
}

/* Which threads the filter keeps; TRUE when it keeps them all. */
static gboolean
match_threads (SlTree *self, const SlProfile *profile, const SlFilter *filter)
{
  gboolean all_threads = TRUE;

  self->thread_ok = g_new0 (gboolean, MAX (profile->n_threads, 1));
  for (guint t = 0; t < profile->n_threads; t++)
    {
      self->thread_ok[t] = sl_filter_match_thread (filter, profile, t);
      all_threads &= self->thread_ok[t];
    }
  return all_threads;
}

/* One pass over the kernels in the filter: without @cursor, counts the
 * kernels of each innermost range into first[r + 1] and makes the others
 * roots; with it, files each kernel under its range. */
static void
scan_kernels (SlTree *self, const SlProfile *profile, const SlFilter *filter, gboolean all_threads,
              guint *cursor)
{
  const SlAttribution *attr = self->attr;

  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];
      const SlKernels *k = &stream->kernels;
      guint lo, hi;

      if (!sl_filter_match_stream (filter, stream))
        continue;
      const guint32 *kernel_range = attr->kernel_range + attr->kernel_base[s];

      sl_filter_span_bounds (filter, &k->spans, 0, k->spans.n, &lo, &hi);
      for (guint i = lo; i < hi; i++)
        {
          guint32 r = kernel_range[i];

          /* a range of a filtered-out thread cannot hold the kernel */
          if (r != SL_NONE && !all_threads
              && !self->thread_ok[sl_attribution_range_thread (attr, r, NULL)])
            r = SL_NONE;
          if (r == SL_NONE)
            {
              if (cursor == NULL)
                {
                  SlTreeNode node = { SL_TREE_KERNEL, s, i };
                  g_array_append_val (self->roots, node);
                }
            }
          else if (cursor == NULL)
            {
              self->first[r + 1]++;
              if (filter != NULL && filter->has_range)
                mark_path (self, r);
            }
          else
            self->kernels[cursor[r]++] = pack (s, i);
        }
    }
}

/* Kernels per innermost range: count and prefix sums (the ranges holding a
 * kernel are marked only when a time range needs to know). */
static void
count_kernels (SlTree *self, const SlProfile *profile, const SlFilter *filter, gboolean all_threads)
{
  guint n_ranges = self->attr->n_ranges;

  self->first = g_new0 (guint, n_ranges + 1);
  self->holds = g_new0 (guint8, MAX (n_ranges, 1));
  scan_kernels (self, profile, filter, all_threads, NULL);
  for (guint r = 0; r < n_ranges; r++)
    self->first[r + 1] += self->first[r];
}

/* Files each kernel under its range, once, whichever thread asks first
 * (the flame stack walks trees in workers). */
static void
fill_kernels (const SlTree *tree)
{
  SlTree *self = (SlTree *) tree;
  guint n_ranges = self->attr->n_ranges;
  g_autofree guint *cursor = NULL;

  if (!g_once_init_enter (&self->kernels_filled))
    return;
  self->kernels = g_new (guint64, MAX (self->first[n_ranges], 1));
  cursor = g_memdup2 (self->first, (n_ranges + 1) * sizeof (guint));
  scan_kernels (self, self->profile, self->filter, self->all_threads, cursor);
  g_once_init_leave (&self->kernels_filled, 1);
}

static void
add_root_ranges (SlTree *self, const SlProfile *profile)
{
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;

      if (!self->thread_ok[t] || r->n_depths == 0)
        continue;
      for (guint i = r->depth_first[0]; i < r->depth_first[1]; i++)
        if (range_kept (self, t, i) && range_in_scope (self, t, i))
          {
            SlTreeNode node = { SL_TREE_RANGE, t, i };
            g_array_append_val (self->roots, node);
          }
    }
}

SlTree *
sl_tree_compute (const SlProfile *profile, const SlFilter *filter)
{
  return sl_tree_compute_names (profile, filter, TRUE);
}

SlTree *
sl_tree_compute_names (const SlProfile *profile, const SlFilter *filter, gboolean exact_names)
{
  SlTree *self = g_new0 (SlTree, 1);
  gboolean all_threads;

  self->profile = sl_profile_ref ((SlProfile *) profile);
  self->exact_names = exact_names;
  self->naming = sl_nvtx_naming (profile, exact_names);
  self->filter = sl_filter_copy (filter);
  self->attr = sl_attribution_get (profile);
  sl_attribution_project (profile, filter, &self->gpu_start, &self->gpu_end,
                          &self->se_start, &self->se_end, &self->owned);
  all_threads = match_threads (self, profile, filter);
  self->all_threads = all_threads;
  self->roots = g_array_new (FALSE, FALSE, sizeof (SlTreeNode));
  count_kernels (self, profile, filter, all_threads);
  add_root_ranges (self, profile);
  sort_nodes (profile, self->roots);
  return self;
}

void
sl_tree_free (SlTree *self)
{
  if (self == NULL)
    return;
  if (self->owned)
    {
      g_free (self->gpu_start);
      g_free (self->gpu_end);
      g_free (self->se_start);
      g_free (self->se_end);
    }
  g_free (self->thread_ok);
  g_free (self->first);
  g_free (self->holds);
  g_free (self->kernels);
  g_array_unref (self->roots);
  sl_filter_free (self->filter);
  sl_profile_unref (self->profile);
  g_free (self);
}

guint
sl_tree_get_n_roots (const SlTree *self)
{
  return self->roots->len;
}

SlTreeNode
sl_tree_get_root (const SlTree *self, guint i)
{
  SlTreeNode none = { SL_TREE_RANGE, SL_NONE, SL_NONE };

  g_return_val_if_fail (i < self->roots->len, none);
  return g_array_index (self->roots, SlTreeNode, i);
}

/* Appends the children of range @node to @out, sorted by start, and
 * returns how many.  The walk keeps them on one stack: an array per node
 * was a sixth of a full tree's walk. */
static guint
append_children (const SlTree *self, const SlTreeNode *node, GArray *out)
{
  const SlProfile *profile = self->profile;
  const SlNvtxRanges *r = &profile->threads[node->owner].nvtx;
  guint depth = sl_nvtx_ranges_depth (r, node->index);
  guint global = self->attr->range_base[node->owner] + node->index;
  guint n_kernels = self->first[global + 1] - self->first[global];
  guint lo = 0, hi = 0, n = 0, at = out->len;
  SlTreeNode *child;

  /* Child ranges: the slice of the next depth row inside this range. */
  if (depth + 1 < r->n_depths)
    {
      guint row_end = r->depth_first[depth + 2];

      lo = sl_spans_lower_bound_in (&r->spans, r->depth_first[depth + 1], row_end,
                                    r->spans.start[node->index]);
      hi = sl_spans_lower_bound_in (&r->spans, lo, row_end, sl_spans_end (&r->spans, node->index));
    }
  /* written in place, in room for the most there can be: appending them
   * one by one was a tenth of the walk (each append divides to check for
   * overflow) */
  g_array_set_size (out, at + (hi - lo) + n_kernels);
  child = (SlTreeNode *) out->data + at;
  for (guint i = lo; i < hi; i++)
    if (r->parent[i] == node->index && range_kept (self, node->owner, i)
        && range_in_scope (self, node->owner, i))
      child[n++] = (SlTreeNode) { SL_TREE_RANGE, node->owner, i };
  if (n_kernels > 0)
    fill_kernels (self);
  for (guint i = self->first[global]; i < self->first[global + 1]; i++)
    child[n++] = (SlTreeNode) { SL_TREE_KERNEL, (guint32) (self->kernels[i] >> 32),
                                (guint32) (self->kernels[i] & 0xffffffffu) };
  g_array_set_size (out, at + n);
  sort_node_array (profile, (SlTreeNode *) out->data + at, n);
  return n;
}

GArray *
sl_tree_get_children (const SlTree *self, const SlTreeNode *node)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (SlTreeNode));

  if (node->kind == SL_TREE_RANGE && node->owner < self->profile->n_threads)
    append_children (self, node, out);
  return out;
}

/* Only what the text tree prints: name, times and GPU projection.  The
 * launching thread (a search over the threads) and the correlation id of
 * every kernel were a third of a full walk, for fields it never shows. */
static void
get_brief_info (const SlTree *self, const SlTreeNode *node, SlTreeNodeInfo *info)
{
  const SlProfile *profile = self->profile;

  memset (info, 0, sizeof *info);
  if (node->kind == SL_TREE_RANGE)
    {
      const SlNvtxRanges *r = &profile->threads[node->owner].nvtx;
      guint global = self->attr->range_base[node->owner] + node->index;

      info->name = sl_nvtx_naming_get (&self->naming, r->name[node->index]);
      info->start_ns = r->spans.start[node->index];
      info->end_ns = sl_spans_end (&r->spans, node->index);
      info->has_gpu = self->gpu_start[global] != SL_NO_GPU_START;
      info->gpu_start_ns = info->has_gpu ? self->gpu_start[global] : 0;
      info->gpu_end_ns = info->has_gpu ? self->gpu_end[global] : 0;
      info->depth = sl_nvtx_ranges_depth (r, node->index);
    }
  else
    {
      const SlKernels *k = &profile->streams[node->owner].kernels;

      info->name = sl_profile_kernel_name (profile, k->func[node->index], FALSE);
      info->start_ns = info->gpu_start_ns = k->spans.start[node->index];
      info->end_ns = info->gpu_end_ns = sl_spans_end (&k->spans, node->index);
      info->has_gpu = TRUE;
    }
}

/* Characters of range names by address (a naming hands out one pointer per
 * name), in a small direct-mapped cache: most ranges repeat a few names. */
#define NAME_SLOTS 1024
typedef struct {
  const char *name;
  guint       chars;
} NameChars;

static guint
name_chars (NameChars *slots, const char *name)
{
  NameChars *slot = &slots[((guintptr) name >> 3) % NAME_SLOTS];

  if (slot->name != name)
    *slot = (NameChars) { name, sl_text_width (name, -1) };
  return slot->chars;
}

/* The widest range label; fills @depth with each global range's depth. */
static guint
widest_range (const SlTree *self, guint indent, guint cap, guint *depth)
{
  const SlProfile *profile = self->profile;
  g_autofree NameChars *slots = g_new0 (NameChars, NAME_SLOTS);
  guint widest = 0;

  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;
      guint base = self->attr->range_base[t];

      for (guint d = 0; d < r->n_depths; d++)
        for (guint i = r->depth_first[d]; i < r->depth_first[d + 1]; i++)
          {
            depth[base + i] = d;
            if (widest < cap)
              widest = MAX (widest,
                            indent * d + name_chars (slots, sl_nvtx_naming_get (&self->naming, r->name[i])));
          }
    }
  return widest;
}

gboolean
sl_tree_widest_label (const SlTree *self, guint indent, const guint *kernel_suffix, guint cap,
                      guint *chars)
{
  const SlProfile *profile = self->profile;
  const SlAttribution *attr = self->attr;
  g_autofree guint *depth = NULL;
  g_autofree guint *func_chars = NULL;
  guint widest;

  g_return_val_if_fail (self != NULL && chars != NULL, FALSE);
  if (!sl_filter_is_empty (self->filter) || profile->ranges_kept != NULL)
    return FALSE;
  depth = g_new (guint, MAX (attr->n_ranges, 1));
  widest = widest_range (self, indent, cap, depth);
  /* a kernel is a child of its innermost range, a root without one */
  func_chars = g_new (guint, MAX (profile->n_funcs, 1));
  memset (func_chars, 0xff, MAX (profile->n_funcs, 1) * sizeof (guint));
  for (guint s = 0; s < profile->n_streams && widest < cap; s++)
    {
      const SlKernels *k = &profile->streams[s].kernels;
      const guint32 *kernel_range = attr->kernel_range + attr->kernel_base[s];

      for (guint i = 0; i < k->spans.n; i++)
        {
          guint32 f = k->func[i], r = kernel_range[i];
          guint name = f < profile->n_funcs ? func_chars[f] : G_MAXUINT;

          if (name == G_MAXUINT)
            {
              name = sl_text_width (sl_profile_kernel_name (profile, f, FALSE), -1);
              if (f < profile->n_funcs)
                func_chars[f] = name;
            }
          widest = MAX (widest, (r == SL_NONE ? 0 : indent * (depth[r] + 1)) + name + kernel_suffix[s]);
        }
    }
  *chars = MIN (widest, cap);
  return TRUE;
}

void
sl_tree_get_info (const SlTree *self, const SlTreeNode *node, SlTreeNodeInfo *info)
{
  const SlProfile *profile = self->profile;

  get_brief_info (self, node, info);
  if (node->kind == SL_TREE_RANGE)
    {
      const SlThread *thread = &profile->threads[node->owner];

      info->pid = thread->pid;
      info->tid = thread->tid;
      info->has_tid = TRUE;
    }
  else
    {
      const SlStream *stream = &profile->streams[node->owner];
      const SlKernels *k = &stream->kernels;
      guint32 a = k->api[node->index];

      info->pid = stream->pid;
      if (a != SL_NONE)
        {
          guint32 t = sl_profile_api_thread (profile, a);
          if (t != SL_NONE)
            {
              info->tid = profile->threads[t].tid;
              info->has_tid = TRUE;
            }
        }
      info->device = stream->device;
      info->stream = stream->stream;
      info->correlation_id = sl_kernels_corr (profile, k, node->index);
    }
}

typedef struct {
  guint            max_depth;
  gint64           min_dur;
  gboolean         brief;
  SlTreeVisitFunc  enter;
  SlTreeVisitFunc  leave;
  gpointer         user_data;
  GArray          *stack;      /* SlTreeNode: the children of the nodes on the path */
} Walk;

static void walk_node (const SlTree *self, const Walk *w, SlTreeNode node,
                       const SlTreeNodeInfo *info, guint level);

/* Visits nodes [@first, @first + @n) of the walk's stack (or of @nodes when
 * not NULL) long enough for @w, at @level.  By index and copied out: the
 * stack grows, and may move, under a node's children. */
static void
walk_nodes (const SlTree *self, const Walk *w, const SlTreeNode *nodes, guint first, guint n, guint level)
{
  for (guint i = first; i < first + n; i++)
    {
      SlTreeNode node = nodes != NULL ? nodes[i] : g_array_index (w->stack, SlTreeNode, i);
      SlTreeNodeInfo info;

      if (w->brief)
        get_brief_info (self, &node, &info);
      else
        sl_tree_get_info (self, &node, &info);
      if (info.end_ns - info.start_ns >= w->min_dur)
        walk_node (self, w, node, &info, level);
    }
}

static void
walk_node (const SlTree *self, const Walk *w, SlTreeNode node, const SlTreeNodeInfo *info,
           guint level)
{
  if (w->enter != NULL)
    w->enter (&node, info, level, w->user_data);
  if (node.kind == SL_TREE_RANGE && (w->max_depth == 0 || level < w->max_depth))
    {
      guint first = w->stack->len;
      guint n = append_children (self, &node, w->stack);

      walk_nodes (self, w, NULL, first, n, level + 1);
      g_array_set_size (w->stack, first);
    }
  if (w->leave != NULL)
    w->leave (&node, info, level, w->user_data);
}

void
sl_tree_walk_roots (const SlTree *self, guint first_root, guint n_roots, guint max_depth,
                    gint64 min_dur_ns, gboolean brief, SlTreeVisitFunc enter, SlTreeVisitFunc leave,
                    gpointer user_data)
{
  Walk w = { max_depth, min_dur_ns, brief, enter, leave, user_data, NULL };

  g_return_if_fail (self != NULL);
  g_return_if_fail (first_root <= self->roots->len && n_roots <= self->roots->len - first_root);
  w.stack = g_array_sized_new (FALSE, FALSE, sizeof (SlTreeNode), 4096);
  walk_nodes (self, &w, (const SlTreeNode *) self->roots->data, first_root, n_roots, 1);
  g_array_unref (w.stack);
}

void
sl_tree_walk (const SlTree *self, guint max_depth, gint64 min_dur_ns,
              SlTreeVisitFunc enter, SlTreeVisitFunc leave, gpointer user_data)
{
  g_return_if_fail (self != NULL);
  sl_tree_walk_roots (self, 0, self->roots->len, max_depth, min_dur_ns, FALSE, enter, leave, user_data);
}

/* Opens the node's object and its "children" array. */
static void
enter_json (const SlTreeNode *node, const SlTreeNodeInfo *info, guint level, gpointer data)
{
  JsonBuilder *b = data;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, node->kind == SL_TREE_RANGE ? "range" : "kernel");
  json_builder_set_member_name (b, "name");
  sl_json_add_string (b, info->name);
  json_builder_set_member_name (b, "start_ns");
  json_builder_add_int_value (b, info->start_ns);
  json_builder_set_member_name (b, "end_ns");
  json_builder_add_int_value (b, info->end_ns);
  json_builder_set_member_name (b, "gpu_start_ns");
  if (info->has_gpu)
    json_builder_add_int_value (b, info->gpu_start_ns);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "gpu_end_ns");
  if (info->has_gpu)
    json_builder_add_int_value (b, info->gpu_end_ns);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "pid");
  json_builder_add_int_value (b, info->pid);
  json_builder_set_member_name (b, "tid");
  if (info->has_tid)
    json_builder_add_int_value (b, info->tid);
  else
    json_builder_add_null_value (b);
  if (node->kind == SL_TREE_KERNEL)
    {
      json_builder_set_member_name (b, "device");
      json_builder_add_int_value (b, info->device);
      json_builder_set_member_name (b, "stream");
      json_builder_add_int_value (b, info->stream);
      json_builder_set_member_name (b, "correlation_id");
      json_builder_add_int_value (b, info->correlation_id);
    }
  json_builder_set_member_name (b, "children");
  json_builder_begin_array (b);
}

static void
leave_json (const SlTreeNode *node, const SlTreeNodeInfo *info, guint level, gpointer data)
{
  JsonBuilder *b = data;

  json_builder_end_array (b);
  json_builder_end_object (b);
}

JsonNode *
sl_tree_to_json (const SlTree *self, guint max_depth, gint64 min_dur_ns)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "exact_names");
  json_builder_add_boolean_value (b, self->exact_names);
  json_builder_set_member_name (b, "roots");
  json_builder_begin_array (b);
  sl_tree_walk (self, max_depth, min_dur_ns, enter_json, leave_json, b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
