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
      highlight_item (self, item);
    }
  _sl_tree_page_changed (self);
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
