/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-search-page-columns.c: what the search page's columns show.  A group:
 * its name (the expander), its count, its total time.  An instance: when
 * it starts, where it ran and its NVTX path, then its duration. */
#include "sl-search-page-private.h"
#include "sl-tooltip.h"
#include "sl-locale-format.h"

#include <glib/gi18n.h>

enum { COL_NAME, COL_COUNT, COL_TIME };

static SlSearchItem *
row_item (GtkListItem *li)
{
  GtkTreeListRow *row = gtk_list_item_get_item (li);

  return row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
}

static const char *
kind_name (SlNameGroupKind kind)
{
  switch (kind)
    {
    case SL_NAME_GROUP_KERNEL:
      return _("Kernel");
    case SL_NAME_GROUP_RANGE:
      return _("NVTX range");
    case SL_NAME_GROUP_API:
    default:
      return _("CUDA API call");
    }
}

/* The kind after a group's name, short: a kernel and an NVTX range often
 * share a name ("saxpy"), and the rows must tell them apart. */
static const char *
kind_tag (SlNameGroupKind kind)
{
  switch (kind)
    {
    case SL_NAME_GROUP_KERNEL:
      return C_("search result kind", "kernel");
    case SL_NAME_GROUP_RANGE:
      return C_("search result kind", "NVTX");
    case SL_NAME_GROUP_API:
    default:
      return C_("search result kind", "API");
    }
}

/* "+1.234567 s · GPU 0 · stream 7 · step › forward" */
static char *
instance_text (SlSearchResult *r, guint hit)
{
  const SlNameHit *h = &r->search->hits[hit];
  static const SlSearchKind kinds[] = { SL_SEARCH_KERNEL, SL_SEARCH_API, SL_SEARCH_RANGE, SL_SEARCH_RANGE };
  SlSearchMatch m;
  g_autofree char *when = sl_locale_timestamp (h->start - r->profile->start_ns);
  g_autofree char *where = NULL;
  g_autofree char *path = NULL;
  char *text;

  sl_search_match_fill (r->profile, kinds[h->kind], h->kind == SL_NAME_HIT_STARTEND, h->owner, h->index, &m);
  where = h->kind == SL_NAME_HIT_KERNEL ? g_strdup_printf (_("GPU %u · stream %u"), m.device, m.stream)
                                        : g_strdup_printf (_("pid %u · tid %u"), m.pid, m.tid);
  path = g_strjoinv (" › ", m.path);
  text = *path ? g_strdup_printf ("+%s · %s · %s", when, where, path) : g_strdup_printf ("+%s · %s", when, where);
  sl_search_match_clear (&m);
  return text;
}

static char *
cell_text (SlSearchItem *item, guint column, char **tooltip)
{
  SlSearchResult *r = _sl_search_item_get_result (item);
  const SlNameGroup *g = &r->search->groups[_sl_search_item_get_group (item)];
  guint hit = _sl_search_item_get_hit (item);

  if (hit == G_MAXUINT)
    switch (column)
      {
      case COL_NAME:
        *tooltip = g_strdup_printf ("%s\n%s", kind_name (g->kind), sl_name_search_group_name (r->profile, g));
        /* TRANSLATORS: a search result: a name, then its kind (kernel, NVTX, API) */
        return g_strdup_printf (_("%s · %s"), sl_name_search_group_name (r->profile, g), kind_tag (g->kind));
      case COL_COUNT:
        return sl_locale_count (g->n);
      default:
        return sl_locale_duration (g->total_ns);
      }
  switch (column)
    {
    case COL_NAME:
      {
        char *text = instance_text (r, hit);
        *tooltip = g_strdup (text);
        return text;
      }
    case COL_COUNT:
      return g_strdup ("");
    default:
      return sl_locale_duration (sl_name_search_hit_end (r->profile, &r->search->hits[hit])
                                 - r->search->hits[hit].start);
    }
}

static void
setup_cb (GtkSignalListItemFactory *factory, GtkListItem *li, gpointer data)
{
  guint column = GPOINTER_TO_UINT (data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_ellipsize (GTK_LABEL (label), column == COL_NAME ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_NONE);
  gtk_label_set_xalign (GTK_LABEL (label), column == COL_NAME ? 0 : 1);
  if (column != COL_NAME)
    gtk_widget_add_css_class (label, "numeric");
  if (column == COL_NAME)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (li, expander);
    }
  else
    gtk_list_item_set_child (li, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory, GtkListItem *li, gpointer data)
{
  guint column = GPOINTER_TO_UINT (data);
  GtkWidget *child = gtk_list_item_get_child (li);
  SlSearchItem *item = row_item (li);
  g_autofree char *tooltip = NULL;
  g_autofree char *text = NULL;

  if (item == NULL)
    return;
  text = cell_text (item, column, &tooltip);
  if (column == COL_NAME)
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), gtk_list_item_get_item (li));
      child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
    }
  gtk_label_set_text (GTK_LABEL (child), text);
  sl_tooltip_set_text (child, tooltip);
  g_object_unref (item);
}

static void
add_column (GtkColumnView *view, const char *title, guint column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GUINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (col, column == COL_NAME);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_append_column (view, col);
  g_object_unref (col);
}

void
_sl_search_columns_add (GtkColumnView *view)
{
  add_column (view, _("Name"), COL_NAME);
  add_column (view, _("Count"), COL_COUNT);
  add_column (view, _("Time"), COL_TIME);
}
