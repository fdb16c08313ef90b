/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree-page-columns.c: the NVTX page's columns (name with its expander,
 * instances, CPU time, GPU time, kernels, share), each with its sorter. */
#include "sl-tree-page-private.h"
#include "sl-tooltip.h"
#include "sl-locale-format.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sl-ui-state.h"

/* The name column's width, remembered between runs (ui.ini). */
#define NAME_WIDTH_KEY "tree-name-width"
#define NAME_WIDTH_DEFAULT 200

typedef enum {
  COL_NAME,
  COL_INSTANCES,
  COL_CPU,
  COL_GPU,
  COL_KERNELS,
  COL_SHARE,
} Column;

static const char * const titles[] = {
  [COL_NAME] = N_("Name"),
  [COL_INSTANCES] = N_("Count"),
  [COL_CPU] = N_("CPU"),
  [COL_GPU] = N_("GPU"),
  [COL_KERNELS] = N_("Kernels"),
  [COL_SHARE] = N_("Share"),
};

static SlTreeItem *
item_of (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  return row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
}

/* What @column shows for @item; NULL for nothing. (transfer full) */
static char *
cell_text (SlTreeItem *item, Column column)
{
  const SlTreeAggNode *s = &item->stats;
  gboolean node = item->kind == SL_TREE_ITEM_NODE;
  gint64 total = sl_tree_agg_get_kernel_ns (item->agg);

  switch (column)
    {
    case COL_INSTANCES:
      return node ? sl_locale_count ((gint64) s->instances) : NULL;
    case COL_CPU:
      return node && s->kind == SL_TREE_RANGE ? sl_locale_duration (s->cpu_ns) : NULL;
    case COL_GPU:
      return s->gpu_ns > 0 ? sl_locale_duration (s->gpu_ns) : g_strdup ("—");
    case COL_KERNELS:
      return node && s->kernels > 0 ? sl_locale_count ((gint64) s->kernels) : NULL;
    case COL_SHARE:
      return total > 0 && s->kernel_ns > 0 ? sl_locale_percent (100.0 * (double) s->kernel_ns / (double) total) : NULL;
    case COL_NAME:
    default:
      return g_strdup (item->label);
    }
}

static void
setup_name_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (list_item, expander);
}

static void
bind_name_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  SlTreeItem *item = item_of (list_item);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), gtk_list_item_get_item (list_item));
  if (item == NULL)
    return;
  gtk_label_set_text (GTK_LABEL (label), item->label);
  sl_tooltip_set_text (label, item->label);
  if (item->kind != SL_TREE_ITEM_NODE)
    gtk_widget_add_css_class (label, "dim-label");
  else
    gtk_widget_remove_css_class (label, "dim-label");
  /* kernels stand apart from the ranges they hang under */
  if (item->kind == SL_TREE_ITEM_NODE && item->stats.kind == SL_TREE_KERNEL)
    gtk_widget_add_css_class (label, "monospace");
  else
    gtk_widget_remove_css_class (label, "monospace");
}

static void
setup_number_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_number_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  SlTreeItem *item = item_of (list_item);
  g_autofree char *text = item != NULL ? cell_text (item, GPOINTER_TO_INT (data)) : NULL;

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text != NULL ? text : "");
}

static int
compare_int (gint64 a, gint64 b)
{
  return a < b ? -1 : a > b ? 1 : 0;
}

/* Instances keep their order by start under the name column. */
static int
compare_names (SlTreeItem *a, SlTreeItem *b)
{
  int c;

  if (a->kind != SL_TREE_ITEM_NODE || b->kind != SL_TREE_ITEM_NODE)
    return compare_int (a->position, b->position);
  c = g_ascii_strcasecmp (a->label, b->label);
  return c != 0 ? c : strcmp (a->label, b->label);
}

static int
compare_items (gconstpointer pa, gconstpointer pb, gpointer data)
{
  SlTreeItem *a = (SlTreeItem *) pa, *b = (SlTreeItem *) pb;
  int c = 0;

  switch ((Column) GPOINTER_TO_INT (data))
    {
    case COL_NAME:
      c = compare_names (a, b);
      break;
    case COL_INSTANCES:
      c = compare_int ((gint64) a->stats.instances, (gint64) b->stats.instances);
      break;
    case COL_CPU:
      c = compare_int (a->stats.cpu_ns, b->stats.cpu_ns);
      break;
    case COL_GPU:
      c = compare_int (a->stats.gpu_ns, b->stats.gpu_ns);
      break;
    case COL_KERNELS:
      c = compare_int ((gint64) a->stats.kernels, (gint64) b->stats.kernels);
      break;
    case COL_SHARE:
      c = compare_int (a->stats.kernel_ns, b->stats.kernel_ns);
      break;
    }
  if (c == 0)
    c = compare_int (a->node, b->node);
  if (c == 0)
    c = compare_int (a->position, b->position);
  return c < 0 ? GTK_ORDERING_SMALLER : c > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static gboolean
save_name_width_cb (gpointer data)
{
  GtkColumnViewColumn *column = data;
  g_autofree char *text = g_strdup_printf ("%d", gtk_column_view_column_get_fixed_width (column));

  g_object_set_data (G_OBJECT (column), "sl-save-id", NULL);
  sl_ui_state_set_string (NAME_WIDTH_KEY, text);
  return G_SOURCE_REMOVE;
}

/* A drag of the column's edge sets its fixed width many times a second:
 * written once it rests. */
static void
name_width_cb (GtkColumnViewColumn *column)
{
  guint id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (column), "sl-save-id"));

  if (id != 0)
    g_source_remove (id);
  id = g_timeout_add_full (G_PRIORITY_DEFAULT, 500, save_name_width_cb, g_object_ref (column), g_object_unref);
  g_object_set_data (G_OBJECT (column), "sl-save-id", GUINT_TO_POINTER (id));
}

static int
remembered_name_width (void)
{
  g_autofree char *text = sl_ui_state_get_string (NAME_WIDTH_KEY, NULL);
  gint64 width = text != NULL ? g_ascii_strtoll (text, NULL, 10) : 0;

  return width >= 80 && width <= 4000 ? (int) width : NAME_WIDTH_DEFAULT;
}

void
_sl_tree_page_add_columns (GtkColumnView *view)
{
  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;
      GtkSorter *sorter = GTK_SORTER (gtk_custom_sorter_new (compare_items, GINT_TO_POINTER (i), NULL));

      g_signal_connect (factory, "setup", G_CALLBACK (i == COL_NAME ? setup_name_cb : setup_number_cb), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (i == COL_NAME ? bind_name_cb : bind_number_cb),
                        GINT_TO_POINTER (i));
      column = gtk_column_view_column_new (_(titles[i]), factory);
      gtk_column_view_column_set_sorter (column, sorter);
      g_object_unref (sorter);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, i == COL_NAME);
      /* names are long (PyTorch ops, templated kernels): room for them, as
       * wide as the user last dragged it; the list scrolls sideways in a
       * narrow panel */
      if (i == COL_NAME)
        {
          gtk_column_view_column_set_fixed_width (column, remembered_name_width ());
          g_signal_connect (column, "notify::fixed-width", G_CALLBACK (name_width_cb), NULL);
        }
      gtk_column_view_append_column (view, column);
    }
}
