/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare-table.c: the kernel diff (status, name, A, B, delta, ratio of
 * the basis time), sortable by any column, filtered by status and name;
 * the selected kernel's histograms show below it. */
#include "sl-compare-window-private.h"
#include "sl-accessible-name.h"
#include "sl-locale-format.h"
#include "sl-histogram-overlay.h"

#include <math.h>
#include <glib/gi18n.h>

/* A row: the index of its kernel in the comparison. */
#define SL_TYPE_COMPARE_ITEM (sl_compare_item_get_type ())
G_DECLARE_FINAL_TYPE (SlCompareItem, sl_compare_item, SL, COMPARE_ITEM, GObject)

struct _SlCompareItem {
  GObject parent_instance;
  guint   index;
};

G_DEFINE_FINAL_TYPE (SlCompareItem, sl_compare_item, G_TYPE_OBJECT)

static void sl_compare_item_class_init (SlCompareItemClass *klass) {}
static void sl_compare_item_init (SlCompareItem *self) {}

typedef enum { COL_STATUS, COL_NAME, COL_A, COL_B, COL_DELTA, COL_RATIO, N_COLS } Column;

/* The status filter's entries, "All" first. */
static const int filter_status[] = { -1, SL_COMPARE_ADDED, SL_COMPARE_REMOVED, SL_COMPARE_FASTER,
                                     SL_COMPARE_SLOWER, SL_COMPARE_SAME, SL_COMPARE_CALLS };

static const SlCompareKernel *
kernel_of (SlCompareWindow *self, gpointer item)
{
  return &self->result->compare->kernels[SL_COMPARE_ITEM (item)->index];
}

/* A column's value as a number for sorting (NAN sorts last). */
static double
value_of (SlCompareWindow *self, const SlCompareKernel *k, Column col)
{
  const SlCompare *cmp = self->result->compare;
  guint last = cmp->n_profiles - 1;
  double a = _sl_compare_basis_time (cmp, k, 0), b = _sl_compare_basis_time (cmp, k, last);

  switch (col)
    {
    case COL_STATUS: return k->status;
    case COL_A: return a;
    case COL_B: return b;
    case COL_DELTA:   /* an added kernel's is all of B, a removed one's minus all of A */
      return isnan (a) && isnan (b) ? NAN : (isnan (b) ? 0 : b) - (isnan (a) ? 0 : a);
    case COL_RATIO: return isnan (a) || isnan (b) || a <= 0 ? NAN : b / a;
    case COL_NAME: case N_COLS: default: return 0;
    }
}

static char *
text_of (SlCompareWindow *self, const SlCompareKernel *k, Column col)
{
  double v = value_of (self, k, col);

  switch (col)
    {
    case COL_STATUS: return g_strdup (sl_compare_status_label (k->status));
    case COL_NAME: return g_strdup (k->name);
    case COL_RATIO: return isnan (v) ? g_strdup ("–") : sl_locale_adopt (g_strdup_printf ("%.3f×", v));
    case COL_DELTA:
      {
        g_autofree char *d = isnan (v) ? NULL : sl_locale_duration_precise ((gint64) llround (fabs (v)));
        return d == NULL ? g_strdup ("–") : g_strdup_printf ("%s%s", v < 0 ? "−" : "+", d);
      }
    case COL_A: case COL_B: case N_COLS: default:
      return isnan (v) ? g_strdup ("–") : sl_locale_duration_precise ((gint64) llround (v));
    }
}

static int
sort_cb (gconstpointer a, gconstpointer b, gpointer data)
{
  GtkColumnViewColumn *column = data;
  SlCompareWindow *self = g_object_get_data (G_OBJECT (column), "sl-window");
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "sl-col"));
  const SlCompareKernel *ka = kernel_of (self, (gpointer) a), *kb = kernel_of (self, (gpointer) b);
  double va, vb;

  if (col == COL_NAME)
    return g_strcmp0 (ka->name, kb->name);
  va = value_of (self, ka, col);
  vb = value_of (self, kb, col);
  if (isnan (va) || isnan (vb))
    return isnan (va) - isnan (vb);
  return (va > vb) - (va < vb);
}

static void
setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);
  Column col = GPOINTER_TO_INT (data);

  gtk_label_set_xalign (GTK_LABEL (label), col >= COL_A ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), col == COL_NAME ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  gtk_list_item_set_child (item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  SlCompareWindow *self = g_object_get_data (G_OBJECT (factory), "sl-window");
  const SlCompareKernel *k = kernel_of (self, gtk_list_item_get_item (item));
  g_autofree char *text = text_of (self, k, GPOINTER_TO_INT (data));
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, GPOINTER_TO_INT (data) == COL_NAME ? k->name : NULL);
}

static void
add_column (SlCompareWindow *self, Column col, const char *title)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;
  GtkSorter *sorter;

  g_object_set_data (G_OBJECT (factory), "sl-window", self);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (col));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GINT_TO_POINTER (col));
  column = gtk_column_view_column_new (title, factory);
  g_object_set_data (G_OBJECT (column), "sl-window", self);
  g_object_set_data (G_OBJECT (column), "sl-col", GINT_TO_POINTER (col));
  sorter = GTK_SORTER (gtk_custom_sorter_new (sort_cb, column, NULL));
  gtk_column_view_column_set_sorter (column, sorter);
  g_object_unref (sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, col == COL_NAME);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), column);
  g_object_unref (column);
}

static gboolean
filter_cb (gpointer item, gpointer data)
{
  SlCompareWindow *self = data;
  const SlCompareKernel *k = kernel_of (self, item);
  guint chosen = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->status_drop));
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
  g_autofree char *needle = NULL, *hay = NULL;

  if (chosen < G_N_ELEMENTS (filter_status) && filter_status[chosen] >= 0 && (int) k->status != filter_status[chosen])
    return FALSE;
  if (text == NULL || *text == '\0')
    return TRUE;
  needle = g_utf8_casefold (text, -1);
  hay = g_utf8_casefold (k->name, -1);
  return strstr (hay, needle) != NULL;
}

static void
filter_changed_cb (SlCompareWindow *self)
{
  gtk_filter_changed (self->filter, GTK_FILTER_CHANGE_DIFFERENT);
  self->n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  _sl_compare_probe_changed (self);
}

static void
selected_cb (SlCompareWindow *self)
{
  gpointer item = gtk_single_selection_get_selected_item (self->selection);

  if (item != NULL)
    _sl_compare_hist_show (self, kernel_of (self, item)->name);
}

static GtkWidget *
filter_bar (SlCompareWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  const char *labels[] = { _("All kernels"), _("Added"), _("Removed"), _("Faster"), _("Slower"), _("Same"),
                           _("Call count changed"), NULL };

  self->status_drop = gtk_drop_down_new_from_strings (labels);
  sl_accessible_name_set (self->status_drop, _("Show kernels of this status"));
  self->name_entry = gtk_search_entry_new ();
  gtk_widget_set_hexpand (self->name_entry, TRUE);
  g_object_set (self->name_entry, "placeholder-text", _("Filter kernel names"), NULL);
  sl_accessible_name_set (self->name_entry, _("Filter kernel names"));
  g_signal_connect_swapped (self->status_drop, "notify::selected", G_CALLBACK (filter_changed_cb), self);
  g_signal_connect_swapped (self->name_entry, "search-changed", G_CALLBACK (filter_changed_cb), self);
  gtk_box_append (GTK_BOX (box), self->status_drop);
  gtk_box_append (GTK_BOX (box), self->name_entry);
  return box;
}

/* The filter bar, the table and the histogram of the selected kernel. */
GtkWidget *
_sl_compare_table_new (SlCompareWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6), *scroller = gtk_scrolled_window_new ();
  const char *titles[N_COLS] = { _("Status"), _("Name"), "A", "B", _("Delta"), _("Ratio") };

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_box_append (GTK_BOX (box), filter_bar (self));
  self->column_view = gtk_column_view_new (NULL);
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (self->column_view), TRUE);
  for (Column c = 0; c < N_COLS; c++)
    add_column (self, c, titles[c]);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (box), scroller);
  self->hist = sl_histogram_overlay_new ();
  gtk_box_append (GTK_BOX (box), self->hist);
  return box;
}

void
_sl_compare_table_fill (SlCompareWindow *self)
{
  const SlCompare *cmp = self->result->compare;
  GListStore *store = g_list_store_new (SL_TYPE_COMPARE_ITEM);
  GtkFilterListModel *filtered;
  GtkSortListModel *sorted;
  GtkSorter *sorter = gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view));

  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      SlCompareItem *item = g_object_new (SL_TYPE_COMPARE_ITEM, NULL);
      item->index = i;
      g_list_store_append (store, item);
      g_object_unref (item);
    }
  self->filter = GTK_FILTER (gtk_custom_filter_new (filter_cb, self, NULL));
  filtered = gtk_filter_list_model_new (G_LIST_MODEL (store), self->filter);
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (filtered), sorter ? g_object_ref (sorter) : NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selected_cb), self);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (self->selection));
  g_object_unref (self->selection);   /* the view holds it */
  self->n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  /* the largest change first, as the comparison orders them */
  if (cmp->n_kernels > 0)
    gtk_single_selection_set_selected (self->selection, 0);
}
