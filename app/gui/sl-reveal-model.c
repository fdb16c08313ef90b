/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-reveal-model.c: a list model that shows a whole new set of rows a
 * slice per main-loop iteration.
 *
 * A GTK 4.8 list or column view makes the widgets of up to 200 rows in
 * the "items-changed" handler of its model, and measures them: handing
 * it a few hundred new rows at once held the main loop ~70 ms (the NVTX
 * tree's first display at 10 M kernels).  Shown a slice at a time, each
 * main-loop iteration makes a slice's widgets, and frames go out between.
 * Once all rows are shown the model is a plain pass-through. */
#include "sl-reveal-model.h"

struct _SlRevealModel {
  GObject     parent_instance;
  GListModel *source;
  guint       shown;     /* rows shown while revealing */
  guint       step;
  guint       idle;      /* revealing: the next slice's source */
};

static GType
get_item_type (GListModel *list)
{
  return g_list_model_get_item_type (SL_REVEAL_MODEL (list)->source);
}

static guint
get_n_items (GListModel *list)
{
  SlRevealModel *self = SL_REVEAL_MODEL (list);

  return self->idle != 0 ? self->shown : g_list_model_get_n_items (self->source);
}

static gpointer
get_item (GListModel *list, guint position)
{
  SlRevealModel *self = SL_REVEAL_MODEL (list);

  if (position >= get_n_items (list))
    return NULL;
  return g_list_model_get_item (self->source, position);
}

static void
list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (SlRevealModel, sl_reveal_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_init))

void
sl_reveal_model_finish (SlRevealModel *self)
{
  guint shown = self->shown;

  g_return_if_fail (SL_IS_REVEAL_MODEL (self));
  if (self->idle == 0)
    return;
  g_clear_handle_id (&self->idle, g_source_remove);
  g_list_model_items_changed (G_LIST_MODEL (self), shown, 0, g_list_model_get_n_items (self->source) - shown);
}

static gboolean
reveal_cb (gpointer data)
{
  SlRevealModel *self = data;
  guint n = g_list_model_get_n_items (self->source);
  guint from = self->shown;
  guint added = MIN (n - from, self->step);

  self->shown += added;
  if (self->shown == n)
    self->idle = 0;   /* a pass-through from now on */
  g_list_model_items_changed (G_LIST_MODEL (self), from, 0, added);
  return self->idle != 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

void
sl_reveal_model_restart (SlRevealModel *self, guint step)
{
  guint had;

  g_return_if_fail (SL_IS_REVEAL_MODEL (self));
  had = get_n_items (G_LIST_MODEL (self));
  g_clear_handle_id (&self->idle, g_source_remove);
  self->shown = 0;
  self->step = MAX (step, 1);
  /* after the frames: each slice is an iteration of its own */
  self->idle = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, reveal_cb, self, NULL);
  if (had > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, had, 0);
}

gboolean
sl_reveal_model_is_done (SlRevealModel *self)
{
  g_return_val_if_fail (SL_IS_REVEAL_MODEL (self), TRUE);
  return self->idle == 0;
}

/* While revealing, a change past the rows shown is shown with the slices
 * to come; one among them ends the slicing (all rows shown, as after it). */
static void
source_changed_cb (GListModel *source, guint position, guint removed, guint added, SlRevealModel *self)
{
  guint shown = self->shown;

  if (self->idle == 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
      return;
    }
  if (position >= shown)
    return;
  g_clear_handle_id (&self->idle, g_source_remove);
  g_list_model_items_changed (G_LIST_MODEL (self), position, shown - position,
                              g_list_model_get_n_items (source) - position);
}

static void
sl_reveal_model_dispose (GObject *object)
{
  SlRevealModel *self = SL_REVEAL_MODEL (object);

  g_clear_handle_id (&self->idle, g_source_remove);
  if (self->source != NULL)
    g_signal_handlers_disconnect_by_data (self->source, self);
  g_clear_object (&self->source);
  G_OBJECT_CLASS (sl_reveal_model_parent_class)->dispose (object);
}

static void
sl_reveal_model_class_init (SlRevealModelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sl_reveal_model_dispose;
}

static void
sl_reveal_model_init (SlRevealModel *self)
{
}

SlRevealModel *
sl_reveal_model_new (GListModel *source)
{
  SlRevealModel *self = g_object_new (SL_TYPE_REVEAL_MODEL, NULL);

  self->source = source;
  g_signal_connect (source, "items-changed", G_CALLBACK (source_changed_cb), self);
  return self;
}
