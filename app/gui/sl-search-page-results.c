/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-search-page-results.c: a search's result as the rows of a GTK list:
 * name groups expandable to their instances, made on demand. */
#include "sl-search-page-private.h"

#include <string.h>

#include <glib/gi18n.h>

SlSearchResult *
_sl_search_result_new (SlProfile *profile, SlNameSearch *search, SlHighlight *highlight)
{
  SlSearchResult *self = g_new0 (SlSearchResult, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->profile = sl_profile_ref (profile);
  self->search = search;
  self->highlight = highlight;
  return self;
}

SlSearchResult *
_sl_search_result_ref (SlSearchResult *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
_sl_search_result_unref (SlSearchResult *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  sl_name_search_free (self->search);
  g_clear_pointer (&self->highlight, sl_highlight_unref);
  sl_profile_unref (self->profile);
  g_free (self);
}

SlEventRef
_sl_search_result_event (const SlSearchResult *self, guint i)
{
  static const SlEventKind kinds[] = { SL_EVENT_KERNEL, SL_EVENT_API, SL_EVENT_NVTX, SL_EVENT_NVTX_STARTEND };
  const SlNameHit *h = &self->search->hits[i];

  return (SlEventRef) { kinds[h->kind], h->owner, h->index };
}

/* ---- a row: a group or one of its instances ------------------------------ */

struct _SlSearchItem {
  GObject         parent_instance;
  SlSearchResult *result;
  guint           group;
  guint           hit;     /* G_MAXUINT: the group itself */
};

G_DEFINE_FINAL_TYPE (SlSearchItem, _sl_search_item, G_TYPE_OBJECT)

static void
_sl_search_item_finalize (GObject *object)
{
  _sl_search_result_unref (SL_SEARCH_ITEM (object)->result);
  G_OBJECT_CLASS (_sl_search_item_parent_class)->finalize (object);
}

static void
_sl_search_item_class_init (SlSearchItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = _sl_search_item_finalize;
}

static void
_sl_search_item_init (SlSearchItem *self)
{
}

static SlSearchItem *
item_new (SlSearchResult *result, guint group, guint hit)
{
  SlSearchItem *self = g_object_new (SL_TYPE_SEARCH_ITEM, NULL);

  self->result = _sl_search_result_ref (result);
  self->group = group;
  self->hit = hit;
  return self;
}

SlSearchResult *_sl_search_item_get_result (SlSearchItem *item) { return item->result; }
guint           _sl_search_item_get_group  (SlSearchItem *item) { return item->group; }
guint           _sl_search_item_get_hit    (SlSearchItem *item) { return item->hit; }

/* ---- a group's instances: a list model that makes rows when asked -------- */

#define SL_TYPE_SEARCH_INSTANCES (sl_search_instances_get_type ())
G_DECLARE_FINAL_TYPE (SlSearchInstances, sl_search_instances, SL, SEARCH_INSTANCES, GObject)

struct _SlSearchInstances {
  GObject         parent_instance;
  SlSearchResult *result;
  guint           group;
};

static GType
instances_get_item_type (GListModel *model)
{
  return SL_TYPE_SEARCH_ITEM;
}

static guint
instances_get_n_items (GListModel *model)
{
  SlSearchInstances *self = SL_SEARCH_INSTANCES (model);

  return self->result->search->groups[self->group].n;
}

static gpointer
instances_get_item (GListModel *model, guint position)
{
  SlSearchInstances *self = SL_SEARCH_INSTANCES (model);
  const SlNameSearch *s = self->result->search;

  if (position >= s->groups[self->group].n)
    return NULL;
  return item_new (self->result, self->group, s->order[s->groups[self->group].first + position]);
}

static void
instances_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = instances_get_item_type;
  iface->get_n_items = instances_get_n_items;
  iface->get_item = instances_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (SlSearchInstances, sl_search_instances, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, instances_list_model_init))

static void
sl_search_instances_finalize (GObject *object)
{
  _sl_search_result_unref (SL_SEARCH_INSTANCES (object)->result);
  G_OBJECT_CLASS (sl_search_instances_parent_class)->finalize (object);
}

static void
sl_search_instances_class_init (SlSearchInstancesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_search_instances_finalize;
}

static void
sl_search_instances_init (SlSearchInstances *self)
{
}

/* ---- the tree ------------------------------------------------------------ */

typedef struct {
  const SlSearchResult *result;
  SlSearchSort          sort;
} SortBy;

static int
compare_groups (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const SortBy *by = data;
  const SlNameGroup *a = &by->result->search->groups[*(const guint *) pa];
  const SlNameGroup *b = &by->result->search->groups[*(const guint *) pb];
  int c = 0;

  if (by->sort == SL_SEARCH_SORT_TIME)
    c = a->total_ns > b->total_ns ? -1 : a->total_ns < b->total_ns;
  else if (by->sort == SL_SEARCH_SORT_COUNT)
    c = a->n > b->n ? -1 : a->n < b->n;
  if (c == 0)
    c = strcmp (sl_name_search_group_name (by->result->profile, a), sl_name_search_group_name (by->result->profile, b));
  return c != 0 ? c : (int) a->kind - (int) b->kind;
}

guint
_sl_search_result_n_listed (SlSearchResult *result)
{
  guint n = 0;

  for (guint g = 0; g < result->search->n_groups; g++)
    n += result->search->groups[g].n > 0;
  return n;
}

GListModel *
_sl_search_groups_new (SlSearchResult *result, SlSearchSort sort)
{
  GListStore *store = g_list_store_new (SL_TYPE_SEARCH_ITEM);
  guint n = result->search->n_groups;
  g_autofree gpointer *items = g_new (gpointer, MAX (n, 1));
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  SortBy by = { result, sort };

  /* a name can match with none of its events in the filter's range */
  for (guint g = 0, kept = 0; g < result->search->n_groups; g++)
    if (result->search->groups[g].n > 0)
      order[kept++] = g;
    else
      n--;
  g_qsort_with_data (order, n, sizeof (guint), compare_groups, &by);
  for (guint g = 0; g < n; g++)
    items[g] = item_new (result, order[g], G_MAXUINT);
  g_list_store_splice (store, 0, 0, items, n);
  for (guint g = 0; g < n; g++)
    g_object_unref (items[g]);
  return G_LIST_MODEL (store);
}

static GListModel *
create_children (gpointer item, gpointer data)
{
  SlSearchItem *it = item;
  SlSearchInstances *children;

  if (it->hit != G_MAXUINT)
    return NULL;
  children = g_object_new (SL_TYPE_SEARCH_INSTANCES, NULL);
  children->result = _sl_search_result_ref (it->result);
  children->group = it->group;
  return G_LIST_MODEL (children);
}

GtkTreeListModel *
_sl_search_tree_new (SlSearchResult *result, SlSearchSort sort)
{
  return gtk_tree_list_model_new (_sl_search_groups_new (result, sort), FALSE, FALSE, create_children, NULL, NULL);
}
