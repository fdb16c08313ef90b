/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tree-page-select.c: a selected row of the NVTX page points out all its
 * instances (the session's highlight) and shows the first; Enter walks them. */
#include "sl-tree-page-private.h"

#include <glib/gi18n.h>

/* Sorting a set this large would hold the main thread: it is built in a
 * worker instead. */
#define SYNC_LIMIT 20000

typedef struct {
  SlTimelineModel *model;
  SlEventRef      *events;
  guint            n;
  char            *label;
  SlEventRef       show;        /* the instance to show; kind NONE: the first */
} Job;

static void
job_free (Job *job)
{
  sl_timeline_model_unref (job->model);
  g_free (job->events);
  g_free (job->label);
  g_free (job);
}

static Job *
job_new (SlTreePage *self, SlTreeItem *item)
{
  const SlTreeAggNode *node = sl_tree_agg_get_node (item->agg, item->node);
  Job *job = g_new0 (Job, 1);
  guint64 n;
  const guint64 *inst = sl_tree_agg_get_instances (item->agg, item->node, &n);
  SlEventKind kind = node->kind == SL_TREE_RANGE ? SL_EVENT_NVTX : SL_EVENT_KERNEL;

  job->model = sl_timeline_model_ref (self->agg_model);
  job->n = (guint) MIN (n, G_MAXUINT);
  job->events = g_new (SlEventRef, MAX (job->n, 1));
  for (guint i = 0; i < job->n; i++)
    job->events[i] = (SlEventRef) { kind, (guint32) (inst[i] >> 32), (guint) (inst[i] & 0xffffffffu) };
  /* TRANSLATORS: what the timeline's highlight is: a range or kernel name */
  job->label = g_strdup_printf (kind == SL_EVENT_NVTX ? _("NVTX: %s") : _("Kernel: %s"), node->name);
  if (item->kind == SL_TREE_ITEM_INSTANCE)
    job->show = (SlEventRef) { SL_EVENT_KERNEL, (guint32) (item->packed >> 32),
                               (guint) (item->packed & 0xffffffffu) };
  return job;
}

static SlHighlight *
job_run (Job *job)
{
  return sl_highlight_new (job->model, job->events, job->n, job->label, FALSE);
}

static void
show (SlTreePage *self, SlHighlight *highlight, const Job *job)
{
  guint at = 0;

  if (self->session == NULL || sl_session_get_model (self->session) != job->model)
    return;
  g_clear_pointer (&self->highlight, sl_highlight_unref);
  self->highlight = sl_highlight_ref (highlight);
  sl_session_set_highlight (self->session, highlight);
  if (job->show.kind != SL_EVENT_NONE)
    at = sl_highlight_find (highlight, job->model, &job->show);
  sl_session_show_highlighted (self->session, at != G_MAXUINT ? at : 0);
  _sl_tree_page_changed (self);
}

static void
job_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  g_task_return_pointer (task, job_run (data), (GDestroyNotify) sl_highlight_unref);
}

static void
job_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  SlTreePage *self = SL_TREE_PAGE (source);
  GTask *task = G_TASK (result);
  g_autoptr(SlHighlight) highlight = g_task_propagate_pointer (task, NULL);

  if (g_task_get_cancellable (task) != self->highlight_cancellable
      || g_cancellable_is_cancelled (g_task_get_cancellable (task)) || highlight == NULL)
    return;
  show (self, highlight, g_task_get_task_data (task));
}

/* The kernel name of a kernel row, for the histogram. */
static void
pick_kernel_name (SlTreePage *self, SlTreeItem *item)
{
  const SlTreeAggNode *node = sl_tree_agg_get_node (item->agg, item->node);

  if (node->kind == SL_TREE_KERNEL)
    sl_session_set_kernel_name (self->session, node->name);
}

static void
highlight_item (SlTreePage *self, SlTreeItem *item)
{
  Job *job;

  g_cancellable_cancel (self->highlight_cancellable);
  g_clear_object (&self->highlight_cancellable);
  if (self->session == NULL || self->agg_model != sl_session_get_model (self->session))
    return;
  pick_kernel_name (self, item);
  job = job_new (self, item);
  if (job->n <= SYNC_LIMIT)
    {
      g_autoptr(SlHighlight) highlight = job_run (job);

      show (self, highlight, job);
      job_free (job);
      return;
    }
  self->highlight_cancellable = g_cancellable_new ();
  g_autoptr(GTask) task = g_task_new (self, self->highlight_cancellable, job_done_cb, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, job_thread);
}

static char **
node_path (SlTreeItem *item)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = item->node; i != SL_NONE; i = sl_tree_agg_get_node (item->agg, i)->parent)
    g_ptr_array_insert (names, 0, g_strdup (sl_tree_agg_get_node (item->agg, i)->name));
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

static SlTreeItem *
selected_item (SlTreePage *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->selection);

  return row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
}

void
_sl_tree_page_selected_cb (SlTreePage *self)
{
  g_autoptr(SlTreeItem) item = NULL;

  if (self->swapping)
    return;
  item = selected_item (self);
  g_clear_pointer (&self->selected_name, g_free);
  g_clear_pointer (&self->selected_path, g_strfreev);
  if (item != NULL)
    {
      self->selected_path = node_path (item);
      self->selected_name = g_strdup (item->kind == SL_TREE_ITEM_NODE ? item->label
                                      : sl_tree_agg_get_node (item->agg, item->node)->name);
      if (!self->revealing)
        highlight_item (self, item);
    }
  _sl_tree_page_changed (self);
}

/* ---- another view's selection, shown here -------------------------------- */

/* The row of @node with its ancestors opened. (transfer full) (nullable) */
static GtkTreeListRow *
open_to (SlTreePage *self, guint node)
{
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkTreeListRow *row = NULL;

  for (guint n = node; n != SL_NONE; n = sl_tree_agg_get_node (self->agg, n)->parent)
    g_array_prepend_val (chain, n);
  row = gtk_tree_list_model_get_child_row (self->tree_model, g_array_index (chain, guint, 0));
  for (guint i = 1; row != NULL && i < chain->len; i++)
    {
      const SlTreeAggNode *parent = sl_tree_agg_get_node (self->agg, g_array_index (chain, guint, i - 1));
      GtkTreeListRow *child;

      gtk_tree_list_row_set_expanded (row, TRUE);
      child = gtk_tree_list_row_get_child_row (row, g_array_index (chain, guint, i) - parent->first_child);
      g_object_unref (row);
      row = child;
    }
  return row;
}

/* Where @row is in the sorted, filtered rows, or GTK_INVALID_LIST_POSITION. */
static guint
position_of (SlTreePage *self, GtkTreeListRow *row)
{
  GListModel *rows = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (rows);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) at = g_list_model_get_item (rows, i);

      if (at == G_OBJECT (row))
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* GTK 4.8's column view scrolls by its inner list view's action. */
static void
scroll_to (SlTreePage *self, guint position)
{
  for (GtkWidget *c = gtk_widget_get_first_child (self->view); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      gtk_widget_activate_action (c, "list.scroll-to-item", "u", position);
}

void
_sl_tree_page_reveal_selected (SlTreePage *self)
{
  const SlEventRef *ev = self->session ? sl_session_get_selected_event (self->session) : NULL;
  g_autoptr(SlTreeItem) current = NULL;
  g_autoptr(GtkTreeListRow) row = NULL;
  guint node, position;

  if (ev == NULL || (ev->kind != SL_EVENT_KERNEL && ev->kind != SL_EVENT_NVTX) || self->agg == NULL
      || self->agg_model != sl_session_get_model (self->session))
    return;
  node = sl_tree_agg_find (self->agg, self->agg_model->profile,
                           ev->kind == SL_EVENT_KERNEL ? SL_TREE_KERNEL : SL_TREE_RANGE, ev->owner, ev->index);
  current = selected_item (self);
  /* the page's own row (or an instance row of it) chose this event */
  if (node == SL_NONE || (current != NULL && current->node == node))
    return;
  row = open_to (self, node);
  position = row != NULL ? position_of (self, row) : GTK_INVALID_LIST_POSITION;
  if (position == GTK_INVALID_LIST_POSITION)
    return;
  self->revealing = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->revealing = FALSE;
  scroll_to (self, position);
}

/* Enter (or a double click): the next instance of the row; its first when
 * another view has highlighted something since. */
void
_sl_tree_page_activate_cb (SlTreePage *self, guint position)
{
  g_autoptr(SlTreeItem) item = NULL;

  if (self->session == NULL)
    return;
  if (self->highlight != NULL && sl_session_get_highlight (self->session) == self->highlight)
    {
      if (!sl_session_step_highlight (self->session, 1))
        gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  item = selected_item (self);
  if (item != NULL)
    highlight_item (self, item);
}
