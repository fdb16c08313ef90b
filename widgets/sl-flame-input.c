/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-input.c: the flame stack under the pointer: click to zoom,
 * drag and scroll to move (the stack shares the timeline's visible range),
 * tooltips, "Show in timeline". */
#include "sl-flame-private.h"
#include "sl-timeline-zoom.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sl-locale-format.h"

/* Most instances a "Show in timeline" selects: F3 walks them one by one. */
#define MAX_SHOWN 100000

/* The width of the time axis. */
static double
body_width (SlFlame *self)
{
  double gutter, width;

  _sl_flame_axis (self, &gutter, &width);
  return width;
}

static void
set_selected (SlFlame *self, const char *name)
{
  g_free (self->selected);
  self->selected = g_strdup (name);
}

static void
activate_graph (SlFlame *self, const SlFlamePrim *prim)
{
  const SlFlameNode *node = &self->layout->nodes[prim->node];

  if (prim->kind != SL_FLAME_PRIM_BOX)
    return;
  set_selected (self, node->name ? node->name : _("All GPU work"));
  g_array_set_size (self->selected_events, 0);
  sl_flame_layout_instances (self->layout, prim->node, MAX_SHOWN, self->selected_events);
  if (prim->node != self->zoom && node->total_gpu > 0)
    {
      self->zoom = prim->node;
      self->first_row = 0;
    }
}

static void
activate_stack (SlFlame *self, const SlFlamePrim *prim)
{
  const SlFlameBox *box = &self->layout->rows[prim->node].boxes[prim->box];
  const SlTimeRange *visible = sl_session_get_visible_range (self->session);
  SlTimeRange to;
  SlEventRef ev = sl_flame_box_event (box);

  if (prim->kind == SL_FLAME_PRIM_MORE)
    {
      double ns_per_px = (visible->end - visible->start) / body_width (self);
      to.start = visible->start + (gint64) (prim->x0 * ns_per_px);
      to.end = visible->start + (gint64) (prim->x1 * ns_per_px) + 1;
      set_selected (self, NULL);
      g_ptr_array_add (self->stack_names, g_strdup_printf (_("%u more"), prim->count));
    }
  else
    {
      gint64 margin = MAX ((box->end - box->start) / 20, 1);
      to.start = box->start - margin;
      to.end = box->end + margin;
      set_selected (self, sl_flame_layout_box_name (self->layout, box));
      g_array_set_size (self->selected_events, 0);
      g_array_append_val (self->selected_events, ev);
      g_ptr_array_add (self->stack_names, g_strdup (self->selected));
    }
  g_array_append_val (self->stack_crumbs, *visible);
  sl_session_navigate_to (self->session, &to);
  /* one selection for every view: the details pane and the timeline show
   * the clicked range or kernel too (part of the same history step) */
  if (prim->kind == SL_FLAME_PRIM_BOX)
    sl_session_set_selected_event (self->session, &ev);
}

void
_sl_flame_pick (SlFlame *self, const SlFlamePrim *prim)
{
  g_autofree char *name = _sl_flame_prim_name (self, prim);

  if (self->layout == NULL || name == NULL)
    return;
  set_selected (self, name);
  g_array_set_size (self->selected_events, 0);
  if (self->mode == SL_FLAME_MODE_GRAPH)
    sl_flame_layout_instances (self->layout, prim->node, MAX_SHOWN, self->selected_events);
  else
    {
      SlEventRef ev = sl_flame_box_event (&self->layout->rows[prim->node].boxes[prim->box]);
      g_array_append_val (self->selected_events, ev);
    }
}

char *
_sl_flame_prim_name (SlFlame *self, const SlFlamePrim *prim)
{
  const SlFlameNode *node;

  if (self->layout == NULL || prim->kind != SL_FLAME_PRIM_BOX)
    return NULL;
  if (self->mode == SL_FLAME_MODE_STACK)
    return g_strdup (sl_flame_layout_box_name (self->layout, &self->layout->rows[prim->node].boxes[prim->box]));
  node = &self->layout->nodes[prim->node];
  return g_strdup (node->name ? node->name : _("All GPU work"));
}

/* A click: the flame graph zooms into the node (it becomes the root), the
 * stack shows the node's span; both add a breadcrumb entry. */
void
_sl_flame_activate (SlFlame *self, const SlFlamePrim *prim)
{
  if (self->layout == NULL || self->session == NULL || prim == NULL)
    return;
  if (self->mode == SL_FLAME_MODE_GRAPH)
    activate_graph (self, prim);
  else
    activate_stack (self, prim);
  _sl_flame_changed (self);
}

void
_sl_flame_show_in_timeline (SlFlame *self)
{
  g_autoptr(SlHighlight) hl = NULL;
  g_autofree char *label = NULL;

  if (self->session == NULL || self->selected_events->len == 0)
    return;
  label = g_strdup_printf (_("flame: %s"), self->selected ? self->selected : "");
  hl = sl_highlight_new (sl_session_get_model (self->session), (const SlEventRef *) self->selected_events->data,
                         self->selected_events->len, label, FALSE);
  sl_session_set_highlight (self->session, hl);
  sl_session_show_highlighted (self->session, 0);
}

/* ---- pointer ------------------------------------------------------------------ */

static void
set_hover (SlFlame *self, const SlFlamePrim *prim)
{
  if (prim == NULL && !self->has_hover)
    return;
  if (prim != NULL && self->has_hover && prim->node == self->hover.node && prim->box == self->hover.box
      && prim->row == self->hover.row && prim->kind == self->hover.kind)
    return;
  self->has_hover = prim != NULL;
  if (prim != NULL)
    self->hover = *prim;
  gtk_widget_queue_draw (self->canvas);
}

/* The primitive under a point of the canvas. */
const SlFlamePrim *
_sl_flame_hit (SlFlame *self, double x, double y)
{
  double gutter, width;

  _sl_flame_axis (self, &gutter, &width);
  if (self->layout == NULL || x < gutter || x > gutter + width)
    return NULL;
  return sl_flame_view_hit (self->prims, x - gutter, y);
}

static void
motion_cb (GtkEventControllerMotion *motion, double x, double y, SlFlame *self)
{
  set_hover (self, _sl_flame_hit (self, x, y));
}

static void
leave_cb (GtkEventControllerMotion *motion, SlFlame *self)
{
  set_hover (self, NULL);
}

static void
drag_begin_cb (GtkGestureDrag *drag, double x, double y, SlFlame *self)
{
  self->dragging = FALSE;
  if (self->session != NULL)
    self->drag_range = *sl_session_get_visible_range (self->session);
}

static void
drag_update_cb (GtkGestureDrag *drag, double dx, double dy, SlFlame *self)
{
  double width = body_width (self);
  SlTimeRange r = self->drag_range;
  gint64 shift;

  if (self->session == NULL || self->mode != SL_FLAME_MODE_STACK)
    return;
  if (!self->dragging && fabs (dx) < 4 && fabs (dy) < 4)
    return;
  self->dragging = TRUE;
  shift = (gint64) (-dx * (double) (r.end - r.start) / width);
  r.start += shift;
  r.end += shift;
  sl_session_set_visible_range (self->session, &r);
}

static void
drag_end_cb (GtkGestureDrag *drag, double dx, double dy, SlFlame *self)
{
  double x, y;

  if (self->dragging || !gtk_gesture_drag_get_start_point (drag, &x, &y))
    return;
  _sl_flame_activate (self, _sl_flame_hit (self, x, y));
}

/* ---- scrolling ------------------------------------------------------------------- */

static void
zoom_stack (SlFlame *self, double x, double factor)
{
  SlTimeRange r = *sl_session_get_visible_range (self->session);
  double width = body_width (self);
  double at = r.start + (r.end - r.start) * (x / width);
  gint64 span = MAX ((gint64) ((r.end - r.start) * factor), 1000);

  r.start = (gint64) (at - (at - r.start) * ((double) span / (r.end - r.start)));
  r.end = r.start + span;
  sl_session_set_visible_range (self->session, &r);
}

static void
pan_stack (SlFlame *self, double pixels)
{
  SlTimeRange r = *sl_session_get_visible_range (self->session);
  gint64 shift = (gint64) (pixels * (r.end - r.start) / body_width (self));

  r.start += shift;
  r.end += shift;
  sl_session_set_visible_range (self->session, &r);
}

static void
scroll_rows (SlFlame *self, double dy)
{
  SlFlameViewport vp;
  guint n_rows, fit;
  int row = (int) self->first_row + (dy > 0 ? 1 : dy < 0 ? -1 : 0);

  _sl_flame_viewport (self, &vp);
  n_rows = sl_flame_view_n_rows (self->layout, &vp);
  fit = MAX (vp.n_rows, 2) - 1;
  row = CLAMP (row, 0, (int) MAX (n_rows, fit) - (int) fit);
  if ((guint) row != self->first_row)
    {
      self->first_row = row;
      gtk_widget_queue_draw (self->canvas);
    }
}

/* Stack: Ctrl+wheel zooms at the pointer, Shift+wheel or a sideways swipe
 * pans, as in the timeline; the plain wheel scrolls the rows. */
static gboolean
scroll_cb (GtkEventControllerScroll *scroll, double dx, double dy, SlFlame *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  double x = self->has_hover ? (self->hover.x0 + self->hover.x1) / 2 : body_width (self) / 2.0;

  if (self->layout == NULL || self->session == NULL)
    return FALSE;
  if (self->mode == SL_FLAME_MODE_STACK && (mods & GDK_CONTROL_MASK))
    zoom_stack (self, x, sl_timeline_zoom_factor (dy, gtk_event_controller_scroll_get_unit (scroll) ==
                                                          GDK_SCROLL_UNIT_WHEEL));
  else if (self->mode == SL_FLAME_MODE_STACK && ((mods & GDK_SHIFT_MASK) || dx != 0))
    pan_stack (self, 40 * ((mods & GDK_SHIFT_MASK) ? dy : dx));
  else
    scroll_rows (self, dy);
  return TRUE;
}

/* ---- tooltips -------------------------------------------------------------------- */

static char *
graph_tooltip (SlFlame *self, const SlFlameNode *n)
{
  const SlFlameNode *root = &self->layout->nodes[0];
  g_autofree char *total = sl_locale_duration (n->total_gpu);
  g_autofree char *self_gpu = sl_locale_duration (n->self_gpu);
  g_autofree char *cpu = sl_locale_duration (n->cpu);
  g_autofree char *count = sl_locale_count ((gint64) n->instances);
  g_autofree char *share = sl_locale_percent (root->total_gpu ? 100.0 * n->total_gpu / root->total_gpu : 0);

  return g_strdup_printf (_("%s\nGPU time: %s (%s of the scope)\nSelf GPU time: %s\nCPU time: %s\nInstances: %s"),
                          n->name ? n->name : _("All GPU work"), total, share, self_gpu,
                          n->kind == SL_FLAME_KERNEL ? "—" : cpu, count);
}

static char *
stack_tooltip (SlFlame *self, const SlFlameBox *box)
{
  SlEventRef ev = sl_flame_box_event (box);
  g_autofree char *gpu = sl_locale_duration (box->end - box->start);
  const char *name = sl_flame_layout_box_name (self->layout, box);
  gint64 s, e;

  if (ev.kind == SL_EVENT_KERNEL)
    return g_strdup_printf (_("%s\nKernel, GPU time: %s"), name, gpu);
  sl_timeline_model_event_span (self->layout->model, &ev, &s, &e);
  g_autofree char *cpu = sl_locale_duration (e - s);
  return g_strdup_printf (_("%s\nNVTX range, GPU span: %s, CPU time: %s"), name, gpu, cpu);
}

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, SlFlame *self)
{
  const SlFlamePrim *p = _sl_flame_hit (self, x, y);
  g_autofree char *text = NULL;

  if (p == NULL)
    return FALSE;
  if (p->kind == SL_FLAME_PRIM_MORE)
    text = g_strdup_printf (ngettext ("%u more node, each narrower than a pixel: click or zoom in",
                                      "%u more nodes, each narrower than a pixel: click or zoom in", p->count),
                            p->count);
  else if (self->mode == SL_FLAME_MODE_GRAPH)
    text = graph_tooltip (self, &self->layout->nodes[p->node]);
  else
    text = stack_tooltip (self, &self->layout->rows[p->node].boxes[p->box]);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
_sl_flame_input_init (SlFlame *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES
                                                                | GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (self->canvas, motion);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (self->canvas, GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (self->canvas, scroll);
  gtk_widget_set_has_tooltip (self->canvas, TRUE);
  g_signal_connect (self->canvas, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
}
