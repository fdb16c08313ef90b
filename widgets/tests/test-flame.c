/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-flame.c: the flame stack's layout, level of detail and hit testing,
 * without a display, on a generated profile and every real one.
 *
 * The flame graph must agree with "sightline-cli tree --json", aggregated
 * here independently: every path of names, its kernels' GPU time and its
 * instances.  The stack must hold every kernel of the scope once, in rows
 * that never overlap; a frame's primitives must account for every box in
 * view, merge only sub-pixel ones, and stay bounded by the pixels. */
#include "sl-flame-render.h"
#include "sl-test-util.h"

#include <math.h>

typedef struct {
  gint64  gpu;
  guint64 instances;
} PathSum;

/* Adds the node's subtree to @sums under its path; returns its GPU time. */
static gint64
sum_json_node (JsonObject *node, const char *parent_path, GHashTable *sums)
{
  const char *kind = json_object_get_string_member (node, "kind");
  JsonArray *children = json_object_get_array_member (node, "children");
  g_autofree char *path = g_strdup_printf ("%s\x1f%c%s", parent_path, kind[0],
                                           json_object_get_string_member (node, "name"));
  PathSum *sum = g_hash_table_lookup (sums, path);
  gint64 gpu = 0;

  if (g_str_equal (kind, "kernel"))
    gpu = json_object_get_int_member (node, "gpu_end_ns") - json_object_get_int_member (node, "gpu_start_ns");
  for (guint i = 0; i < json_array_get_length (children); i++)
    gpu += sum_json_node (json_array_get_object_element (children, i), path, sums);
  if (sum == NULL)
    {
      sum = g_new0 (PathSum, 1);
      g_hash_table_insert (sums, g_strdup (path), sum);
    }
  sum->gpu += gpu;
  sum->instances++;
  return gpu;
}

/* The paths of "sightline-cli tree --json PROFILE ARGS". */
static GHashTable *
cli_tree_sums (const char *path, const char *args, gint64 *total)
{
  g_autofree char *cmd = g_strdup_printf ("'%s' tree --json --no-cache %s '%s'", g_getenv ("SL_CLI"), args, path);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  GHashTable *sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  int status;
  JsonArray *roots;

  g_assert_true (g_spawn_command_line_sync (cmd, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  roots = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "roots");
  *total = 0;
  for (guint i = 0; i < json_array_get_length (roots); i++)
    *total += sum_json_node (json_array_get_object_element (roots, i), "", sums);
  return sums;
}

static char *
node_path (const SlFlameLayout *layout, guint32 id)
{
  const SlFlameNode *n = &layout->nodes[id];
  g_autofree char *parent = NULL;

  if (id == 0)
    return g_strdup ("");
  parent = node_path (layout, n->parent);
  return g_strdup_printf ("%s\x1f%c%s", parent, n->kind == SL_FLAME_KERNEL ? 'k' : 'r', n->name);
}

/* Children lie inside their parent, side by side; widths are GPU time. */
static void
check_graph_shape (const SlFlameLayout *layout)
{
  for (guint id = 0; id < layout->n_nodes; id++)
    {
      const SlFlameNode *n = &layout->nodes[id];
      gint64 sum = 0, x = n->offset, kernels = 0;

      for (guint32 c = n->first_child; c < n->first_child + n->n_children; c++)
        {
          const SlFlameNode *child = &layout->nodes[c];
          g_assert_cmpuint (child->parent, ==, id);
          g_assert_cmpint (child->offset, ==, x);
          g_assert_cmpint (child->total_gpu, <=, n->total_gpu);
          x += child->total_gpu;
          sum += child->total_gpu;
          kernels += child->kind == SL_FLAME_KERNEL ? child->total_gpu : 0;
        }
      if (n->kind == SL_FLAME_KERNEL)
        g_assert_cmpint (n->self_gpu, ==, n->total_gpu);
      else
        {
          g_assert_cmpint (sum, ==, n->total_gpu);
          g_assert_cmpint (n->self_gpu, ==, kernels);
        }
    }
}

static void
check_against_cli (const SlFlameLayout *layout, const char *path, const char *args)
{
  gint64 cli_total;
  g_autoptr(GHashTable) sums = cli_tree_sums (path, args, &cli_total);

  g_assert_cmpint (layout->nodes[0].total_gpu, ==, cli_total);
  g_assert_cmpuint (layout->n_nodes - 1, ==, g_hash_table_size (sums));
  for (guint id = 1; id < layout->n_nodes; id++)
    {
      g_autofree char *p = node_path (layout, id);
      PathSum *sum = g_hash_table_lookup (sums, p);

      if (sum == NULL)
        g_error ("%s: path %s not in sightline-cli tree", path, p);
      g_assert_cmpint (layout->nodes[id].total_gpu, ==, sum->gpu);
      g_assert_cmpuint (layout->nodes[id].instances, ==, sum->instances);
    }
}

/* Every kernel of the scope once; rows sorted and never overlapping. */
static void
check_stack (const SlFlameLayout *layout)
{
  guint64 kernels = 0;

  for (guint r = 0; r < layout->n_rows; r++)
    {
      const SlFlameRow *row = &layout->rows[r];
      for (guint i = 0; i < row->n; i++)
        {
          kernels += (row->boxes[i].index & SL_FLAME_BOX_KERNEL) != 0;
          g_assert_cmpint (row->boxes[i].end, >=, row->boxes[i].start);
          if (i > 0 && row->lane < 15)
            g_assert_cmpint (row->boxes[i].start, >=, row->boxes[i - 1].end);
        }
    }
  g_assert_cmpuint (kernels, ==, layout->n_kernels);
}

/* A stack frame: per row, BOX + MORE counts add up to the boxes in view
 * (counted by a plain scan), MORE blocks hold only sub-pixel boxes. */
static void
check_stack_lod (const SlFlameLayout *layout, gint64 t0, gint64 t1, double width)
{
  SlFlameViewport vp = { .mode = SL_FLAME_MODE_STACK, .width = width, .n_rows = layout->n_rows, .t0 = t0, .t1 = t1 };
  g_autoptr(GArray) prims = g_array_new (FALSE, FALSE, sizeof (SlFlamePrim));
  g_autofree guint64 *seen = g_new0 (guint64, MAX (layout->n_rows, 1));
  double scale = width / (double) (t1 - t0);

  sl_flame_view_build (layout, &vp, prims);
  g_assert_cmpuint (prims->len, <=, 2 * (guint) width * MAX (layout->n_rows, 1) + 1);
  for (guint i = 0; i < prims->len; i++)
    {
      const SlFlamePrim *p = &g_array_index (prims, SlFlamePrim, i);
      const SlFlameRow *row = &layout->rows[p->node];

      seen[p->node] += p->count;
      for (guint b = p->box; p->kind == SL_FLAME_PRIM_MORE && b < p->box + p->count; b++)
        g_assert_cmpfloat ((row->boxes[b].end - row->boxes[b].start) * scale, <, 1.0);
      if (p->kind == SL_FLAME_PRIM_BOX)
        {
          g_assert_cmpfloat (p->x1 - p->x0, >=, 1.0 - 1e-3);
          /* hit testing: the box's middle finds it */
          const SlFlamePrim *hit = sl_flame_view_hit (prims, (p->x0 + p->x1) / 2, (p->row + 0.5) * SL_FLAME_ROW_HEIGHT);
          g_assert_nonnull (hit);
          g_assert_cmpuint (hit->node, ==, p->node);
          g_assert_cmpuint (hit->box, ==, p->box);
        }
    }
  for (guint r = 0; r < layout->n_rows && prims->len < 20000; r++)
    {
      guint64 in_view = 0;
      for (guint i = 0; i < layout->rows[r].n; i++)
        in_view += layout->rows[r].boxes[i].end > t0 && layout->rows[r].boxes[i].start < t1;
      g_assert_cmpuint (seen[r], ==, in_view);
    }
}

/* A flame graph frame: boxes are the nodes at least a pixel wide, at their
 * GPU time's share; a hit in a box's middle finds its node. */
static void
check_graph_lod (const SlFlameLayout *layout, guint32 zoom, double width)
{
  SlFlameViewport vp = { .mode = SL_FLAME_MODE_GRAPH, .width = width, .n_rows = 64, .zoom = zoom };
  g_autoptr(GArray) prims = g_array_new (FALSE, FALSE, sizeof (SlFlamePrim));
  const SlFlameNode *z = &layout->nodes[zoom];
  guint64 boxes = 0, want = 0;

  sl_flame_view_build (layout, &vp, prims);
  if (z->total_gpu == 0)
    return;
  for (guint i = 0; i < prims->len; i++)
    {
      const SlFlamePrim *p = &g_array_index (prims, SlFlamePrim, i);
      const SlFlameNode *n = &layout->nodes[p->node];

      if (p->kind != SL_FLAME_PRIM_BOX)
        continue;
      boxes++;
      g_assert_true (sl_flame_layout_is_under (layout, p->node, zoom));
      g_assert_cmpfloat (fabs ((p->x1 - p->x0) - n->total_gpu * width / z->total_gpu), <, 1e-2);
      g_assert_cmpuint (p->row, ==, n->depth - z->depth);
      const SlFlamePrim *hit = sl_flame_view_hit (prims, (p->x0 + p->x1) / 2, (p->row + 0.5) * SL_FLAME_ROW_HEIGHT);
      g_assert_nonnull (hit);
      g_assert_cmpuint (hit->node, ==, p->node);
    }
  /* the boxes a plain scan expects: wide nodes whose ancestors up to the zoom are wide */
  for (guint id = 0; id < layout->n_nodes; id++)
    {
      gboolean wide = sl_flame_layout_is_under (layout, id, zoom);
      for (guint32 a = id; wide && a != zoom; a = layout->nodes[a].parent)
        wide = layout->nodes[a].total_gpu * width / z->total_gpu >= 1.0;
      want += wide && layout->nodes[id].depth - z->depth < 64;
    }
  g_assert_cmpuint (boxes, ==, want);
}

static void
check_profile (const char *path, guint32 pid, const char *cli_args)
{
  g_autoptr(SlProfile) profile = sl_test_load (path);
  g_autoptr(SlTimelineModel) model = sl_timeline_model_new (profile, NULL);
  g_autoptr(SlFlameLayout) layout = sl_flame_layout_new (model, FALSE, 0, 0, pid, FALSE, NULL);
  gint64 t0 = profile->start_ns, t1 = MAX (profile->end_ns, t0 + 1);

  g_assert_nonnull (layout);
  check_graph_shape (layout);
  check_against_cli (layout, path, cli_args);
  check_stack (layout);
  check_stack_lod (layout, t0, t1, 1200);
  check_stack_lod (layout, t0 + (t1 - t0) / 3, t0 + (t1 - t0) / 3 + (t1 - t0) / 500 + 1, 800);
  check_graph_lod (layout, 0, 1200);
  if (layout->n_nodes > 1)
    check_graph_lod (layout, layout->nodes[0].first_child, 300);
}

static void
test_real_profiles (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint i = 0; paths[i]; i++)
    {
      g_test_message ("%s", paths[i]);
      check_profile (paths[i], SL_NONE, "");
    }
}

/* One process of a two-GPU run, as "tree --pid". */
static void
test_one_process (void)
{
  g_autofree char *path = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autoptr(SlProfile) profile = NULL;
  g_autofree char *args = NULL;

  if (path == NULL)
    {
      g_test_skip ("no nsysai-h100-2gpu-1s.sqlite");
      return;
    }
  profile = sl_test_load (path);
  g_assert_cmpuint (profile->n_processes, >, 0);
  args = g_strdup_printf ("--pid %u", profile->processes[0].pid);
  check_profile (path, profile->processes[0].pid, args);
}

static void
test_generated (void)
{
  const SlTestFixture *f = sl_test_fixture ("flame", "--kernels 30000 --iterations 10 --nvtx-depth 4 "
                                            "--streams 2 --processes 2 --threads 2 --seed 5");
  check_profile (f->path, SL_NONE, "");
}

/* A node's instances are the tree's nodes on its path; the highlight of a
 * kernel lights its path up to the root. */
static void
test_instances (void)
{
  const SlTestFixture *f = sl_test_fixture ("flame", "--kernels 30000 --iterations 10 --nvtx-depth 4 "
                                            "--streams 2 --processes 2 --threads 2 --seed 5");
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlTimelineModel) model = sl_timeline_model_new (profile, NULL);
  g_autoptr(SlFlameLayout) layout = sl_flame_layout_new (model, FALSE, 0, 0, SL_NONE, FALSE, NULL);

  for (guint id = 1; id < MIN (layout->n_nodes, 200u); id++)
    {
      g_autoptr(GArray) ev = g_array_new (FALSE, FALSE, sizeof (SlEventRef));
      g_autoptr(SlHighlight) hl = NULL;
      g_autofree guint8 *matched = NULL;

      sl_flame_layout_instances (layout, id, G_MAXUINT, ev);
      g_assert_cmpuint (ev->len, ==, layout->nodes[id].instances);
      for (guint i = 0; i < ev->len; i++)
        g_assert_cmpuint (sl_flame_layout_find_event (layout, &g_array_index (ev, SlEventRef, i)), ==, id);
      hl = sl_highlight_new (model, (SlEventRef *) ev->data, MIN (ev->len, 1u), "test", TRUE);
      matched = sl_flame_view_match (layout, hl);
      for (guint32 a = id; a != SL_NONE; a = layout->nodes[a].parent)
        g_assert_true (matched[a]);
    }
}

/* A highlight of every kernel lights every kernel node and its path, also
 * those whose kernels come after the first 200 000 (a cap once did not). */
static void
test_match_all (void)
{
  const SlTestFixture *f = sl_test_fixture ("flame-big", "--kernels 260000 --iterations 13 --nvtx-depth 3 "
                                            "--streams 2 --processes 1 --threads 1 --seed 9");
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlTimelineModel) model = sl_timeline_model_new (profile, NULL);
  g_autoptr(SlFlameLayout) layout = sl_flame_layout_new (model, FALSE, 0, 0, SL_NONE, FALSE, NULL);
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (SlEventRef));
  g_autoptr(SlHighlight) hl = NULL;
  g_autofree guint8 *matched = NULL;
  guint kernel_nodes = 0;

  for (guint s = 0; s < profile->n_streams; s++)
    for (guint i = 0; i < profile->streams[s].kernels.spans.n; i++)
      g_array_append_val (all, ((SlEventRef) { SL_EVENT_KERNEL, s, i }));
  g_assert_cmpuint (all->len, >, 250000);
  hl = sl_highlight_new (model, (SlEventRef *) (void *) all->data, all->len, "all", TRUE);
  matched = sl_flame_view_match (layout, hl);
  for (guint id = 1; id < layout->n_nodes; id++)
    if (layout->nodes[id].kind == SL_FLAME_KERNEL)
      {
        kernel_nodes++;
        for (guint32 a = id; a != SL_NONE; a = layout->nodes[a].parent)
          g_assert_true (matched[a]);
      }
  g_assert_cmpuint (kernel_nodes, >, 13);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/flame/generated", test_generated);
  g_test_add_func ("/widgets/flame/instances", test_instances);
  g_test_add_func ("/widgets/flame/match-all", test_match_all);
  g_test_add_func ("/widgets/flame/real-profiles", test_real_profiles);
  g_test_add_func ("/widgets/flame/one-process", test_one_process);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
