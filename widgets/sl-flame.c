/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame.c: the flame stack widget: follows the session, computes its
 * layout in a worker, draws frames with the shared renderer. */
#include "sl-flame-private.h"

#include <glib/gi18n.h>
#include <string.h>

G_DEFINE_FINAL_TYPE (SlFlame, sl_flame, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_MODE,
  PROP_PROBE_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- the layout, off the main thread ---------------------------------------- */

typedef struct {
  SlTimelineModel *model;
  gboolean         has_range;
  SlTimeRange      range;
  guint32          pid;
  gboolean         exact;
} BuildInput;

static void
build_input_free (BuildInput *in)
{
  sl_timeline_model_unref (in->model);
  g_free (in);
}

static void
build_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  BuildInput *in = data;
  SlFlameLayout *layout = sl_flame_layout_new (in->model, in->has_range, in->range.start, in->range.end,
                                               in->pid, in->exact, cancellable);

  if (layout == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, layout, (GDestroyNotify) sl_flame_layout_free);
}

/* A highlight of more events than this finds its nodes in a worker: each
 * event's path is looked up by name (a search of millions of kernels took
 * a few hundred ms). */
#define MATCH_ON_MAIN 100000

/* A worker's match; forgotten (flame = NULL) when no longer wanted. */
typedef struct _SlFlameMatch {
  SlFlame       *flame;
  SlFlameLayout *layout;       /* a reference */
  SlHighlight   *highlight;
} SlFlameMatch;

static void
match_free (SlFlameMatch *m)
{
  sl_flame_layout_free (m->layout);
  sl_highlight_unref (m->highlight);
  g_free (m);
}

static void
match_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  SlFlameMatch *m = data;

  g_task_return_pointer (task, sl_flame_view_match (m->layout, m->highlight), g_free);
}

static void
match_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  SlFlameMatch *m = g_task_get_task_data (G_TASK (result));
  guint8 *matched = g_task_propagate_pointer (G_TASK (result), NULL);
  SlFlame *self = m->flame;

  if (self == NULL)
    {
      g_free (matched);
      return;
    }
  self->matching = NULL;
  g_free (self->matched);
  self->matched = matched;
  gtk_widget_queue_draw (self->canvas);
}

static void
forget_match (SlFlame *self)
{
  if (self->matching != NULL)
    self->matching->flame = NULL;
  self->matching = NULL;
}

static void
recompute_matched (SlFlame *self)
{
  SlHighlight *hl = self->session ? sl_session_get_highlight (self->session) : NULL;
  g_autoptr(GTask) task = NULL;
  SlFlameMatch *m;

  forget_match (self);
  g_clear_pointer (&self->matched, g_free);
  if (self->layout == NULL || hl == NULL || sl_highlight_get_n (hl) == 0)
    return;
  if (sl_highlight_get_n (hl) <= MATCH_ON_MAIN)
    {
      self->matched = sl_flame_view_match (self->layout, hl);
      return;
    }
  m = g_new0 (SlFlameMatch, 1);
  m->flame = self;
  m->layout = sl_flame_layout_ref (self->layout);
  m->highlight = sl_highlight_ref (hl);
  self->matching = m;
  task = g_task_new (NULL, NULL, match_done_cb, NULL);
  g_task_set_task_data (task, m, (GDestroyNotify) match_free);
  g_task_run_in_thread (task, match_thread);
}

static void
build_done (GObject *source, GAsyncResult *result, gpointer data)
{
  SlFlame *self = SL_FLAME (source);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  SlFlameLayout *layout = g_task_propagate_pointer (G_TASK (result), NULL);

  if (layout == NULL || cancellable != self->cancellable)
    {
      g_clear_pointer (&layout, sl_flame_layout_free);
      return;
    }
  g_clear_pointer (&self->layout, sl_flame_layout_free);
  self->prims_layout = NULL;
  self->layout = layout;
  self->zoom = 0;
  self->first_row = 0;
  self->has_hover = FALSE;
  recompute_matched (self);
  _sl_flame_changed (self);
}

static void
start_build (SlFlame *self)
{
  g_autoptr(GTask) task = NULL;
  BuildInput *in;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  forget_match (self);
  g_clear_pointer (&self->layout, sl_flame_layout_free);
  self->prims_layout = NULL;
  g_clear_pointer (&self->matched, g_free);
  /* hidden, it costs nothing: the walk runs over every kernel in scope */
  self->stale = self->session != NULL && !gtk_widget_get_mapped (GTK_WIDGET (self));
  if (self->session == NULL || self->stale)
    {
      _sl_flame_changed (self);
      return;
    }
  in = g_new0 (BuildInput, 1);
  in->model = sl_timeline_model_ref (sl_session_get_model (self->session));
  in->has_range = sl_session_get_scope (self->session) != SL_SCOPE_WHOLE
                  && sl_session_get_scope_range (self->session, &in->range);
  in->pid = self->pid;
  in->exact = sl_session_get_exact_names (self->session);
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, build_done, NULL);
  g_task_set_task_data (task, in, (GDestroyNotify) build_input_free);
  g_task_run_in_thread (task, build_thread);
  _sl_flame_changed (self);
}

static gboolean
rebuild_cb (gpointer data)
{
  SlFlame *self = data;

  self->rebuild_id = 0;
  start_build (self);
  return G_SOURCE_REMOVE;
}

/* Scope changes come in bursts (a drag of the selection): build once they settle. */
void
_sl_flame_queue_rebuild (SlFlame *self)
{
  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  self->rebuild_id = g_timeout_add (120, rebuild_cb, self);
}

/* ---- following the session ------------------------------------------------------ */

static void
scope_changed_cb (SlFlame *self)
{
  SlScope scope = sl_session_get_scope (self->session);

  /* a visible-range scope follows every pan; the others only their range */
  if (scope != SL_SCOPE_WHOLE)
    _sl_flame_queue_rebuild (self);
}

static void
visible_changed_cb (SlFlame *self)
{
  if (sl_session_get_scope (self->session) == SL_SCOPE_VISIBLE)
    _sl_flame_queue_rebuild (self);
  if (self->mode == SL_FLAME_MODE_STACK)
    gtk_widget_queue_draw (self->canvas);
}

static void
highlight_changed_cb (SlFlame *self)
{
  recompute_matched (self);
  gtk_widget_queue_draw (self->canvas);
}

/* The session's selection is outlined here too. */
static void
selected_event_changed_cb (SlFlame *self)
{
  gtk_widget_queue_draw (self->canvas);
  _sl_flame_update_probe (self);
}

static void
model_changed_cb (SlFlame *self)
{
  _sl_flame_header_set_model (self);
  start_build (self);
}

static void
connect_session (SlFlame *self)
{
  g_signal_connect_swapped (self->session, "notify::model", G_CALLBACK (model_changed_cb), self);
  g_signal_connect_swapped (self->session, "notify::scope", G_CALLBACK (_sl_flame_queue_rebuild), self);
  g_signal_connect_swapped (self->session, "notify::exact-names", G_CALLBACK (_sl_flame_queue_rebuild), self);
  g_signal_connect_swapped (self->session, "notify::selected-range", G_CALLBACK (scope_changed_cb), self);
  g_signal_connect_swapped (self->session, "notify::bookmark-range", G_CALLBACK (scope_changed_cb), self);
  g_signal_connect_swapped (self->session, "notify::visible-range", G_CALLBACK (visible_changed_cb), self);
  g_signal_connect_swapped (self->session, "notify::highlight", G_CALLBACK (highlight_changed_cb), self);
  g_signal_connect_swapped (self->session, "notify::selected-event", G_CALLBACK (selected_event_changed_cb), self);
}

SlSession *
sl_flame_get_session (SlFlame *self)
{
  g_return_val_if_fail (SL_IS_FLAME (self), NULL);
  return self->session;
}

void
sl_flame_set_session (SlFlame *self, SlSession *session)
{
  g_return_if_fail (SL_IS_FLAME (self));
  g_return_if_fail (session == NULL || SL_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  self->pid = SL_NONE;
  g_array_set_size (self->stack_crumbs, 0);
  g_ptr_array_set_size (self->stack_names, 0);
  if (session != NULL)
    connect_session (self);
  _sl_flame_header_set_model (self);
  start_build (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

SlFlameMode
sl_flame_get_mode (SlFlame *self)
{
  g_return_val_if_fail (SL_IS_FLAME (self), SL_FLAME_MODE_STACK);
  return self->mode;
}

void
sl_flame_set_mode (SlFlame *self, SlFlameMode mode)
{
  g_return_if_fail (SL_IS_FLAME (self));

  if (self->mode == mode)
    return;
  self->mode = mode;
  self->first_row = 0;
  self->has_hover = FALSE;
  _sl_flame_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}

static void
axis_changed_cb (SlFlame *self)
{
  gtk_widget_queue_draw (self->canvas);
}

void
sl_flame_set_time_axis (SlFlame    *self,
                        SlTimeline *timeline)
{
  g_return_if_fail (SL_IS_FLAME (self));
  g_return_if_fail (timeline == NULL || SL_IS_TIMELINE (timeline));

  if (self->axis == timeline)
    return;
  if (self->axis != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->axis, self);
      g_object_remove_weak_pointer (G_OBJECT (self->axis), (gpointer *) &self->axis);
    }
  self->axis = timeline;
  if (timeline != NULL)
    {
      g_object_add_weak_pointer (G_OBJECT (timeline), (gpointer *) &self->axis);
      g_signal_connect_object (timeline, "notify::label-width", G_CALLBACK (axis_changed_cb), self,
                               G_CONNECT_SWAPPED);
    }
  gtk_widget_queue_draw (self->canvas);
}

/* The timeline's rows' axis on the canvas, when both are shown and it lies
 * inside the canvas: the label column's width (dragged, or narrowed in a
 * small window) and the timeline's scrollbar move it. */
static gboolean
axis_from_timeline (SlFlame *self, double *gutter, double *width)
{
  double x = 0, w = 0;
  int canvas_width = gtk_widget_get_width (self->canvas);
  graphene_point_t at;

  if (self->axis == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self->axis)) ||
      !gtk_widget_get_mapped (self->canvas) || !sl_timeline_get_body_extent (self->axis, &x, &w) ||
      !gtk_widget_compute_point (GTK_WIDGET (self->axis), self->canvas, &GRAPHENE_POINT_INIT (x, 0), &at))
    return FALSE;
  if (at.x < 0 || w < 1 || at.x + w > canvas_width + 0.5)
    return FALSE;
  *gutter = at.x;
  *width = w;
  return TRUE;
}

void
_sl_flame_axis (SlFlame *self, double *gutter, double *width)
{
  int canvas_width = gtk_widget_get_width (self->canvas);

  if (self->mode != SL_FLAME_MODE_STACK)
    {
      *gutter = 0;
      *width = MAX (canvas_width, 1);
      return;
    }
  /* the stack lines up with the timeline's body, right of its row headers */
  if (axis_from_timeline (self, gutter, width))
    return;
  *gutter = MIN (SL_FLAME_GUTTER, canvas_width / 2.0);
  *width = MAX (canvas_width - *gutter, 1);
}

/* ---- drawing ------------------------------------------------------------------- */

void
_sl_flame_viewport (SlFlame *self, SlFlameViewport *vp)
{
  const SlTimeRange *visible = self->session ? sl_session_get_visible_range (self->session) : NULL;

  memset (vp, 0, sizeof *vp);
  vp->mode = self->mode;
  _sl_flame_axis (self, &vp->gutter, &vp->width);
  vp->first_row = self->first_row;
  vp->n_rows = (guint) (gtk_widget_get_height (self->canvas) / SL_FLAME_ROW_HEIGHT) + 1;
  vp->t0 = visible ? visible->start : 0;
  vp->t1 = visible ? visible->end : 1;
  vp->zoom = self->zoom;
  vp->highlight = self->session ? sl_session_get_highlight (self->session) : NULL;
  /* the graph dims by node: nothing until a worker has found the nodes */
  if (self->matching != NULL && self->mode == SL_FLAME_MODE_GRAPH)
    vp->highlight = NULL;
  vp->matched = self->matched;
  vp->selected_node = SL_NONE;
  if (self->session != NULL && sl_session_get_selected_event (self->session) != NULL)
    {
      vp->has_selected = TRUE;
      vp->selected = *sl_session_get_selected_event (self->session);
      if (self->layout != NULL && self->mode == SL_FLAME_MODE_GRAPH)
        vp->selected_node = sl_flame_layout_find_event (self->layout, &vp->selected);
    }
}

static gboolean
is_dark (SlFlame *self)
{
  GdkRGBA fg;

  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &fg);
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

static void
draw_cb (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  SlFlame *self = data;
  SlFlameViewport vp;
  SlTimelineStyle style;

  sl_timeline_style_init (&style, is_dark (self), gtk_widget_get_scale_factor (GTK_WIDGET (area)));
  if (self->layout == NULL)
    {
      g_array_set_size (self->prims, 0);
      self->stats = (SlFlameRenderStats) { 0 };
      _sl_flame_update_probe (self);
      return;
    }
  _sl_flame_viewport (self, &vp);
  sl_flame_renderer_draw (self->renderer, cr, self->layout, &vp, &style, height,
                          _("All GPU work"), self->prims, self->has_hover ? &self->hover : NULL,
                          &self->stats);
  self->prims_layout = self->layout;
  self->prims_mode = self->mode;
  _sl_flame_update_probe (self);
}

void
_sl_flame_changed (SlFlame *self)
{
  _sl_flame_header_sync (self);
  gtk_widget_queue_draw (self->canvas);
  _sl_flame_update_probe (self);
}

/* ---- the test probe ------------------------------------------------------------ */

static void
probe_add_strings (JsonBuilder *b, const char *member, GPtrArray *names)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < names->len; i++)
    json_builder_add_string_value (b, names->pdata[i]);
  json_builder_end_array (b);
}

static guint64
stack_boxes (const SlFlameLayout *layout)
{
  guint64 n = 0;

  for (guint r = 0; r < layout->n_rows; r++)
    n += layout->rows[r].n;
  return n;
}

static int
cmp_wider_prim (gconstpointer a, gconstpointer b)
{
  const SlFlamePrim *x = a, *y = b;
  float wx = x->x1 - x->x0, wy = y->x1 - y->x0;

  return wx > wy ? -1 : wx < wy;
}

/* The middle of @widget in surface coordinates: a button a test clicks. */
static void
probe_point (JsonBuilder *b, const char *member, GtkWidget *widget, double sx, double sy)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t p;

  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  if (native != NULL && gtk_widget_compute_point (widget, GTK_WIDGET (native),
                                                  &GRAPHENE_POINT_INIT (gtk_widget_get_width (widget) / 2.0,
                                                                        gtk_widget_get_height (widget) / 2.0), &p))
    {
      json_builder_add_double_value (b, p.x + sx);
      json_builder_add_double_value (b, p.y + sy);
    }
  json_builder_end_array (b);
}

/* "outlined": the names of the boxes drawn as the session's selection. */
static void
probe_outlined (SlFlame *self, JsonBuilder *b)
{
  json_builder_set_member_name (b, "outlined");
  json_builder_begin_array (b);
  /* the last frame's primitives index its layout's nodes or rows */
  for (guint i = 0; self->prims_layout == self->layout && self->prims_mode == self->mode && i < self->prims->len; i++)
    if (g_array_index (self->prims, SlFlamePrim, i).selected)
      {
        g_autofree char *name = _sl_flame_prim_name (self, &g_array_index (self->prims, SlFlamePrim, i));
        json_builder_add_string_value (b, name ? name : "");
      }
  json_builder_end_array (b);
}

/* The canvas in surface coordinates (what xdotool and import see) and the
 * middles of its widest boxes there: what a test clicks. */
static void
probe_geometry (SlFlame *self, JsonBuilder *b)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
  graphene_point_t o = GRAPHENE_POINT_INIT (0, 0);
  double sx = 0, sy = 0;
  g_autoptr(GArray) wide = g_array_copy (self->prims);

  if (native != NULL)
    {
      if (!gtk_widget_compute_point (self->canvas, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (0, 0), &o))
        o = GRAPHENE_POINT_INIT (0, 0);
      gtk_native_get_surface_transform (native, &sx, &sy);
    }
  json_builder_set_member_name (b, "canvas");
  json_builder_begin_array (b);
  json_builder_add_double_value (b, o.x + sx);
  json_builder_add_double_value (b, o.y + sy);
  json_builder_add_int_value (b, gtk_widget_get_width (self->canvas));
  json_builder_add_int_value (b, gtk_widget_get_height (self->canvas));
  json_builder_end_array (b);
  {
    double gutter, width;

    /* the time axis: where x = the first visible instant, and its width */
    _sl_flame_axis (self, &gutter, &width);
    json_builder_set_member_name (b, "axis");
    json_builder_begin_array (b);
    json_builder_add_double_value (b, o.x + sx + gutter);
    json_builder_add_double_value (b, width);
    json_builder_end_array (b);
  }
  probe_point (b, "stack_button", self->stack_button, sx, sy);
  probe_point (b, "flame_button", self->graph_button, sx, sy);
  probe_point (b, "show_button", self->show_button, sx, sy);
  g_array_sort (wide, cmp_wider_prim);
  json_builder_set_member_name (b, "boxes");
  json_builder_begin_array (b);
  for (guint i = 0, n = 0; i < wide->len && n < 8; i++)
    {
      const SlFlamePrim *p = &g_array_index (wide, SlFlamePrim, i);
      if (p->kind != SL_FLAME_PRIM_BOX || (self->mode == SL_FLAME_MODE_GRAPH && p->node == self->zoom))
        continue;
      json_builder_begin_array (b);
      double gutter, width;
      _sl_flame_axis (self, &gutter, &width);
      json_builder_add_double_value (b, o.x + sx + gutter + MAX (p->x0, 0) / 2 + MIN (p->x1, width) / 2);
      json_builder_add_double_value (b, o.y + sy + (p->row + 0.5) * SL_FLAME_ROW_HEIGHT);
      json_builder_end_array (b);
      n++;
    }
  json_builder_end_array (b);
}

static char *
probe_json (SlFlame *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) crumbs = _sl_flame_crumb_names (self);
  const SlFlameLayout *l = self->layout;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "mode");
  json_builder_add_string_value (b, self->mode == SL_FLAME_MODE_STACK ? "stack" : "flame");
  json_builder_set_member_name (b, "ready");
  json_builder_add_boolean_value (b, l != NULL);
  json_builder_set_member_name (b, "nodes");
  json_builder_add_int_value (b, l == NULL ? 0 : self->mode == SL_FLAME_MODE_STACK ? stack_boxes (l) : l->n_nodes - 1);
  json_builder_set_member_name (b, "rows");
  json_builder_add_int_value (b, l == NULL ? 0 : l->n_rows);
  json_builder_set_member_name (b, "primitives");
  json_builder_add_int_value (b, self->stats.n_prims);
  json_builder_set_member_name (b, "pid");
  json_builder_add_int_value (b, self->pid == SL_NONE ? -1 : (gint64) self->pid);
  probe_add_strings (b, "breadcrumb", crumbs);
  json_builder_set_member_name (b, "depth");
  json_builder_add_int_value (b, crumbs->len);
  json_builder_set_member_name (b, "hovered");
  json_builder_add_boolean_value (b, self->has_hover);
  json_builder_set_member_name (b, "show_enabled");
  json_builder_add_boolean_value (b, self->selected_events->len > 0);
  json_builder_set_member_name (b, "menu_open");
  json_builder_add_boolean_value (b, _sl_flame_menu_open (self));
  json_builder_set_member_name (b, "menu_target");
  {
    g_autofree char *target = _sl_flame_menu_target_valid (self)
                              ? _sl_flame_prim_name (self, &self->menu_target) : NULL;
    if (target != NULL)
      json_builder_add_string_value (b, target);
    else
      json_builder_add_null_value (b);
  }
  probe_geometry (self, b);
  probe_outlined (self, b);
  json_builder_set_member_name (b, "selected");
  if (self->selected)
    json_builder_add_string_value (b, self->selected);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

/* The state the GUI tests read; notified only when it changes. */
void
_sl_flame_update_probe (SlFlame *self)
{
  g_autofree char *text = probe_json (self);

  if (g_strcmp0 (text, self->probe_state) == 0)
    return;
  g_free (self->probe_state);
  self->probe_state = g_steal_pointer (&text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBE_STATE]);
}

/* ---- GObject --------------------------------------------------------------------- */

static void
sl_flame_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlFlame *self = SL_FLAME (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_MODE:
      g_value_set_int (value, self->mode);
      break;
    case PROP_PROBE_STATE:
      g_value_set_string (value, self->probe_state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_flame_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  SlFlame *self = SL_FLAME (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      sl_flame_set_session (self, g_value_get_object (value));
      break;
    case PROP_MODE:
      sl_flame_set_mode (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_flame_dispose (GObject *object)
{
  SlFlame *self = SL_FLAME (object);
  GtkWidget *child;

  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  sl_flame_set_time_axis (self, NULL);
  forget_match (self);
  g_clear_pointer (&self->layout, sl_flame_layout_free);
  self->prims_layout = NULL;
  g_clear_pointer (&self->matched, g_free);
  _sl_flame_menu_dispose (self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (sl_flame_parent_class)->dispose (object);
}

static void
sl_flame_map (GtkWidget *widget)
{
  SlFlame *self = SL_FLAME (widget);

  GTK_WIDGET_CLASS (sl_flame_parent_class)->map (widget);
  if (self->stale)
    start_build (self);
}

static void
sl_flame_finalize (GObject *object)
{
  SlFlame *self = SL_FLAME (object);

  g_clear_pointer (&self->renderer, sl_flame_renderer_free);
  g_clear_pointer (&self->prims, g_array_unref);
  g_clear_pointer (&self->stack_crumbs, g_array_unref);
  g_clear_pointer (&self->stack_names, g_ptr_array_unref);
  g_clear_pointer (&self->selected_events, g_array_unref);
  g_free (self->selected);
  g_free (self->probe_state);
  G_OBJECT_CLASS (sl_flame_parent_class)->finalize (object);
}

static void
sl_flame_class_init (SlFlameClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = sl_flame_get_property;
  object_class->set_property = sl_flame_set_property;
  object_class->dispose = sl_flame_dispose;
  object_class->finalize = sl_flame_finalize;
  widget_class->map = sl_flame_map;
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODE] =
    g_param_spec_int ("mode", NULL, NULL, SL_FLAME_MODE_STACK, SL_FLAME_MODE_GRAPH, SL_FLAME_MODE_STACK,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROBE_STATE] =
    g_param_spec_string ("probe-state", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "flamestack");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sl_flame_init (SlFlame *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  self->pid = SL_NONE;
  self->renderer = sl_flame_renderer_new ();
  self->prims = g_array_new (FALSE, FALSE, sizeof (SlFlamePrim));
  self->stack_crumbs = g_array_new (FALSE, FALSE, sizeof (SlTimeRange));
  self->stack_names = g_ptr_array_new_with_free_func (g_free);
  self->selected_events = g_array_new (FALSE, FALSE, sizeof (SlEventRef));
  _sl_flame_header_init (self);
  self->canvas = gtk_drawing_area_new ();
  gtk_widget_set_vexpand (self->canvas, TRUE);
  gtk_widget_set_hexpand (self->canvas, TRUE);
  gtk_widget_set_size_request (self->canvas, -1, 220);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->canvas), draw_cb, self, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Flame stack"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->canvas), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Flame stack of the selected range"), -1);
  gtk_widget_set_parent (self->canvas, GTK_WIDGET (self));
  _sl_flame_input_init (self);
  _sl_flame_menu_init (self);
  self->probe_state = probe_json (self);
}

GtkWidget *
sl_flame_new (void)
{
  return g_object_new (SL_TYPE_FLAME, NULL);
}
