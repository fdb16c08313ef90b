/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-html-tree.c: the data of the report's NVTX stack tree.
 *
 * The tree is sl-tree-agg's: instances of the same path are merged (×N),
 * which is what keeps a million-kernel profile's tree small.  A node keeps
 * at most MAX_CHILDREN children (its largest), the rest folded into one
 * "N more" node.  Nodes are written breadth first as flat arrays, so each
 * node's children are consecutive and the script can render any subtree on
 * demand; names are written once each, in a table after the nodes.
 * The whole is JSON inside <script type="application/json">, with every
 * string escaped so that nothing in it can end the element. */
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "sl-export-html-private.h"
#include "sl-tree-agg.h"

#define MAX_CHILDREN 50
#define MORE G_MAXUINT32      /* in the queue: the "N more" node of the node before */

typedef struct {
  SlHtml          *html;
  const SlTreeAgg *agg;
  GHashTable      *name_index;   /* const char * -> index + 1 */
  GPtrArray       *names;        /* (element-type const char *) in index order */
  GArray          *queue;        /* guint32 node indexes (or MORE), in output order */
  guint32          next;         /* output index of the next node to be queued */
} TreeWriter;

/* The more-node's totals travel in the queue beside it. */
typedef struct {
  guint64 hidden, instances, kernels;
  gint64  gpu_ns;
} More;

static guint
name_index (TreeWriter *w, const char *name)
{
  gpointer found = g_hash_table_lookup (w->name_index, name);

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  g_ptr_array_add (w->names, (gpointer) name);
  g_hash_table_insert (w->name_index, (gpointer) name, GUINT_TO_POINTER (w->names->len));
  return w->names->len - 1;
}

static gint64
weight (const SlTreeAggNode *node)
{
  return node->kind == SL_TREE_KERNEL ? node->gpu_ns : MAX (node->kernel_ns, node->cpu_ns);
}

static int
compare_desc (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? 1 : x > y ? -1 : 0;
}

/* The weight of the MAX_CHILDREN-th largest of @n children from @first. */
static gint64
keep_threshold (const SlTreeAgg *agg, guint first, guint n)
{
  g_autofree gint64 *w = g_new (gint64, n);

  for (guint i = 0; i < n; i++)
    w[i] = weight (sl_tree_agg_get_node (agg, first + i));
  qsort (w, n, sizeof *w, compare_desc);
  return w[MAX_CHILDREN - 1];
}

/* Queues the children of a node (or the roots) and returns how many output
 * nodes they take; a node past the budget is folded into *more. */
static guint
queue_children (TreeWriter *w, guint first, guint n, GArray *mores)
{
  gint64 threshold = n > MAX_CHILDREN ? keep_threshold (w->agg, first, n) : G_MININT64;
  guint kept = 0;
  More more = { 0 };

  for (guint i = 0; i < n; i++)
    {
      const SlTreeAggNode *node = sl_tree_agg_get_node (w->agg, first + i);
      guint32 index = first + i;

      if (kept < MAX_CHILDREN && weight (node) >= threshold)
        {
          g_array_append_val (w->queue, index);
          kept++;
          continue;
        }
      more.hidden++;
      more.instances += node->instances;
      more.kernels += node->kernels;
      more.gpu_ns += node->kind == SL_TREE_KERNEL ? node->gpu_ns : node->kernel_ns;
    }
  if (more.hidden > 0)
    {
      guint32 mark = MORE;

      g_array_append_val (w->queue, mark);
      g_array_append_val (mores, more);
      kept++;
    }
  return kept;
}

static void
write_node (TreeWriter *w, guint32 index, GArray *mores, guint *more_at)
{
  GString *buf = w->html->buf;
  guint first = w->next, n;

  if (index == MORE)
    {
      const More *m = &g_array_index (mores, More, (*more_at)++);

      g_string_append_printf (buf, "[2,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",0,%" G_GINT64_FORMAT
                              ",%" G_GUINT64_FORMAT ",0,0]", m->hidden, m->instances, m->gpu_ns, m->kernels);
      return;
    }
  const SlTreeAggNode *node = sl_tree_agg_get_node (w->agg, index);

  n = queue_children (w, node->first_child, node->n_children, mores);
  w->next += n;
  g_string_append_printf (buf, "[%d,%u,%" G_GUINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                          ",%" G_GUINT64_FORMAT ",%u,%u]", node->kind == SL_TREE_KERNEL,
                          name_index (w, node->name), node->instances, node->cpu_ns,
                          node->kind == SL_TREE_KERNEL ? node->gpu_ns : node->kernel_ns,
                          node->kernels, n > 0 ? first : 0, n);
}

/* The nodes, breadth first. */
static gboolean
write_nodes (TreeWriter *w)
{
  g_autoptr(GArray) mores = g_array_new (FALSE, FALSE, sizeof (More));
  guint more_at = 0;

  w->next = queue_children (w, 0, sl_tree_agg_get_n_roots (w->agg), mores);
  g_string_append (w->html->buf, "\"roots\":");
  g_string_append_printf (w->html->buf, "%u,\"nodes\":[", w->next);
  for (guint q = 0; q < w->queue->len; q++)
    {
      if (q > 0)
        g_string_append_c (w->html->buf, ',');
      write_node (w, g_array_index (w->queue, guint32, q), mores, &more_at);
      if ((q & 1023) == 0 && !_sl_html_flush (w->html, FALSE))
        return FALSE;
    }
  g_string_append (w->html->buf, "]");
  return TRUE;
}

static void
write_names (TreeWriter *w)
{
  g_string_append (w->html->buf, ",\"names\":[");
  for (guint i = 0; i < w->names->len; i++)
    {
      if (i > 0)
        g_string_append_c (w->html->buf, ',');
      _sl_html_json_string (w->html->buf, g_ptr_array_index (w->names, i));
      _sl_html_flush (w->html, FALSE);
    }
  g_string_append (w->html->buf, "]");
}

/* The labels the script shows, translated here. */
static void
write_labels (SlHtml *html)
{
  g_string_append (html->buf, "\"labels\":{\"more\":");
  /* TRANSLATORS: a folded group of tree nodes; %s is replaced by a number */
  _sl_html_json_string (html->buf, _("%s more"));
  g_string_append (html->buf, ",\"gpu\":");
  _sl_html_json_string (html->buf, _("GPU"));
  g_string_append (html->buf, ",\"matches\":");
  /* TRANSLATORS: %s is replaced by a number of tree nodes */
  _sl_html_json_string (html->buf, _("%s matching nodes"));
  g_string_append (html->buf, ",\"limited\":");
  _sl_html_json_string (html->buf, _("(only the first %s are shown)"));
  g_string_append (html->buf, "},");
}

gboolean
_sl_html_tree (SlHtml *html)
{
  g_autoptr(SlTreeAgg) agg = sl_tree_agg_compute (html->profile, html->options->filter, FALSE,
                                                  html->cancellable);
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) queue = g_array_new (FALSE, FALSE, sizeof (guint32));
  TreeWriter w = { html, agg, index, names, queue, 0 };

  if (agg == NULL)
    {
      if (html->error == NULL)
        g_cancellable_set_error_if_cancelled (html->cancellable, &html->error);
      return FALSE;
    }
  _sl_html_raw (html, "<script type=\"application/json\" id=\"tree-data\">{");
  write_labels (html);
  g_string_append_printf (html->buf, "\"kernel_ns\":%" G_GINT64_FORMAT ",", sl_tree_agg_get_kernel_ns (agg));
  if (!write_nodes (&w))
    return FALSE;
  write_names (&w);
  _sl_html_raw (html, "}</script>\n");
  return html->error == NULL;
}
