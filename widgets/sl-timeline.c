/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline.c: the timeline widget.
 *
 * The frame itself is drawn by sl-timeline-render.c into an image surface
 * that becomes a texture; it is redrawn only when the view changes.  Hover,
 * selection and the API-to-GPU link are cheap render nodes on top.
 *
 * The view state lives in an SlSession: the timeline writes the visible
 * range, the selected range and the selected event into it as the user
 * works, and follows it when another view (or the history) changes them. */
#include "sl-timeline.h"
#include "sl-locale-format.h"
#include "sl-timeline-a11y.h"
#include "sl-timeline-render.h"
#include "sl-timeline-bookmarks.h"
#include "sl-timeline-hit.h"
#include "sl-timeline-link.h"
#include "sl-timeline-gpu-rows.h"
#include "sl-timeline-row-menu.h"
#include "sl-timeline-rows.h"
#include "sl-event-info.h"
#include "sl-kernel-details.h"
#include "sl-timeline-zoom.h"
#include "sl-int.h"

#include <glib/gi18n-lib.h>
#include <math.h>

struct _SlTimeline {
  GtkWidget           parent_instance;

  SlSession          *session;
  SlTimelineModel    *model;       /* the session's, borrowed */
  GSignalGroup       *bookmark_signals;  /* the session's bookmark store: "changed" redraws */
  gboolean            publishing;  /* writing the view into the session */
  gint64              last_gesture_us;
  SlTimelineLayout   *layout;
  SlTimelineRenderer *renderer;
  cairo_surface_t    *surface;
  GdkTexture         *texture;
  gboolean            dirty;
  double              last_frame_ms;
  guint64             n_snapshots;   /* frames handed to GTK, for tests that read the screen */
  gboolean            relative_time;
  /* wall clock asked for (sl_timeline_set_wall_clock); utc 0: the file
   * has no session start, the ruler stays relative and says why */
  gboolean            wall_clock;
  gint64              wall_utc_ns, wall_origin_ns;
  /* stacked in the ranks window: no header, as tall as the rows, a time
   * origin shared with the other timelines */
  gboolean            hide_header;
  gboolean            natural_height;
  int                 natural_px;
  gboolean            has_origin;
  gint64              origin_ns;

  GtkWidget          *vscrollbar;
  GtkAdjustment      *vadjustment;
  gboolean            syncing_adjustment;

  /* pointer, widget coordinates */
  double              pointer_x, pointer_y;
  gboolean            pointer_inside;

  SlEventRef          hover;
  SlEventRef          selected;   /* the session's selected event, for drawing */
  SlEventRef          linked;     /* the other end of the API/GPU link */
  GArray             *launched;   /* SlEventRef: the selected call's GPU work (a graph's: many) */
  SlEventRef          tooltip_event;
  char               *tooltip_markup;
  /* launch configuration of the kernel under the tooltip, read in a worker */
  SlKernelDetails    *tooltip_details;
  SlEventRef          tooltip_details_event;
  GCancellable       *details_cancellable;

  /* row control: the row the context menu is about (SL_NONE: none), the
   * label column's width (logical px) */
  GtkWidget          *row_menu;
  guint               menu_row;
  int                 label_width;
  gboolean            edge_cursor;
  guint               drag_row;
  int                 drag_width;
  double              drop_y;

  /* dragging */
  enum { DRAG_NONE, DRAG_PAN, DRAG_SELECT, DRAG_MINIMAP, DRAG_ROW, DRAG_EDGE } drag_mode;
  double              drag_x, drag_y;
  double              drag_t0, drag_scroll;
  double              drag_dist;
  /* pinch */
  double              pinch_px_ns, pinch_anchor_t, pinch_x;
};

enum {
  PROP_0,
  PROP_SESSION,
  PROP_RELATIVE_TIME,
  PROP_LABEL_WIDTH,
  N_PROPS
};

enum {
  VIEW_CHANGED,
  ROW_LAYOUT_CHANGED,
  N_SIGNALS
};

/* A gesture this long after the previous one starts a new history step. */
#define GESTURE_PAUSE_US (G_USEC_PER_SEC)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SlTimeline, sl_timeline, GTK_TYPE_WIDGET)

static double
widget_scale (SlTimeline *self)
{
  return gtk_widget_get_scale_factor (GTK_WIDGET (self));
}

static int
drawing_width (SlTimeline *self)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  int sw = 0;

  if (self->vscrollbar && gtk_widget_get_visible (self->vscrollbar))
    gtk_widget_measure (self->vscrollbar, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &sw, NULL, NULL);
  return MAX (w - sw, 1);
}

static void
sync_adjustment (SlTimeline *self)
{
  double s = widget_scale (self);
  SlTimelineLayout *l = self->layout;

  if (l == NULL)
    return;
  self->syncing_adjustment = TRUE;
  gtk_adjustment_configure (self->vadjustment, l->scroll_y / s, 0,
                            sl_timeline_layout_content_height (l) / s,
                            l->row_height / s, sl_timeline_layout_body_height (l) / s,
                            sl_timeline_layout_body_height (l) / s);
  self->syncing_adjustment = FALSE;
}

/* Writes the layout's time window into the session (whole nanoseconds). */
static void
publish_view (SlTimeline *self)
{
  SlTimelineLayout *l = self->layout;
  SlTimeRange range;

  if (self->session == NULL || l == NULL || !l->sized)
    return;
  range.start = sl_int64_from_double (floor (l->t0));
  range.end = sl_int64_from_double (ceil (l->t0 + l->px_ns * sl_timeline_layout_body_width (l)));
  self->publishing = TRUE;
  sl_session_set_visible_range (self->session, &range);
  self->publishing = FALSE;
}

/* The rows' whole height, logical px: the natural height's size. */
static int
natural_px (SlTimeline *self)
{
  SlTimelineLayout *l = self->layout;

  if (l == NULL)
    return 1;
  return (int) ceil ((sl_timeline_layout_body_y (l) + l->band_height + sl_timeline_layout_content_height (l))
                     / widget_scale (self));
}

/* Rows folded, shown or hidden change the natural height. */
static void
check_natural_height (SlTimeline *self)
{
  if (self->natural_height && natural_px (self) != self->natural_px)
    {
      self->natural_px = natural_px (self);
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
}

/* The view (range, rows or size) changed: the frame must be drawn again. */
static void
invalidate (SlTimeline *self)
{
  check_natural_height (self);
  self->dirty = TRUE;
  sync_adjustment (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  publish_view (self);
  g_signal_emit (self, signals[VIEW_CHANGED], 0);
}

/* Before a jump (fit, zoom to the selection or an event): the view it
 * leaves becomes a step back. */
static void
remember_view (SlTimeline *self)
{
  if (self->session != NULL)
    sl_session_push_history (self->session);
}

/* Before a continuous change (wheel, drag, keys): a burst of them is one
 * step back, counted from its first event. */
static void
remember_view_before_gesture (SlTimeline *self)
{
  gint64 now = g_get_monotonic_time ();

  if (now - self->last_gesture_us > GESTURE_PAUSE_US)
    remember_view (self);
  self->last_gesture_us = now;
}

static void
adjustment_value_changed_cb (SlTimeline    *self,
                             GtkAdjustment *adj)
{
  if (self->syncing_adjustment || self->layout == NULL)
    return;
  sl_timeline_layout_scroll_to (self->layout, gtk_adjustment_get_value (adj) * widget_scale (self));
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[VIEW_CHANGED], 0);
}


/* The label column: the user's width, narrowed in a narrow timeline so
 * that the time keeps most of the width (names are cut in the middle). */
static void
fit_label_column (SlTimeline *self, int w, double s)
{
  int fit = sl_timeline_layout_fit_header_width (w, s);

  sl_timeline_layout_set_header_width (self->layout, MIN ((int) (self->label_width * s), fit));
}

static void
ensure_layout_size (SlTimeline *self)
{
  double s = widget_scale (self);
  int w = (int) (drawing_width (self) * s);
  int h = (int) (gtk_widget_get_height (GTK_WIDGET (self)) * s);

  if (self->layout == NULL)
    return;
  if (self->layout->scale != s)
    {
      sl_timeline_layout_set_scale (self->layout, s);
      self->dirty = TRUE;
    }
  if (self->layout->width != w || self->layout->height != h || !self->layout->sized)
    {
      fit_label_column (self, w, s);
      sl_timeline_layout_set_size (self->layout, w, h);
      self->dirty = TRUE;
      sync_adjustment (self);
      publish_view (self);
      /* a new width can keep the time range yet move everything */
      g_signal_emit (self, signals[VIEW_CHANGED], 0);
    }
}

static gboolean
is_dark (SlTimeline *self)
{
  GdkRGBA fg;

  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &fg);
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

static void
render_frame (SlTimeline *self)
{
  SlTimelineLayout *l = self->layout;
  SlTimelineStyle style;
  g_autoptr(GBytes) bytes = NULL;
  gint64 begin = g_get_monotonic_time ();

  if (self->surface == NULL ||
      cairo_image_surface_get_width (self->surface) != l->width ||
      cairo_image_surface_get_height (self->surface) != l->height)
    {
      g_clear_pointer (&self->surface, cairo_surface_destroy);
      self->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, l->width, l->height);
    }
  sl_timeline_style_init (&style, is_dark (self), l->scale);
  sl_timeline_renderer_draw (self->renderer, l, &style, self->surface, NULL);
  cairo_surface_flush (self->surface);
  bytes = g_bytes_new (cairo_image_surface_get_data (self->surface),
                       (gsize) cairo_image_surface_get_stride (self->surface) * l->height);
  g_clear_object (&self->texture);
  self->texture = gdk_memory_texture_new (l->width, l->height, GDK_MEMORY_DEFAULT, bytes,
                                          cairo_image_surface_get_stride (self->surface));
  self->dirty = FALSE;
  self->last_frame_ms = (g_get_monotonic_time () - begin) / 1000.0;
}

static void
append_outline (GtkSnapshot *snapshot, const graphene_rect_t *r, const GdkRGBA *color, float w)
{
  GskRoundedRect rr;
  float widths[4] = { w, w, w, w };
  GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&rr, r, 0);
  gtk_snapshot_append_border (snapshot, &rr, widths, colors);
}

static gboolean
event_widget_rect (SlTimeline *self, const SlEventRef *ev, graphene_rect_t *out)
{
  SlTimelineLayout *l = self->layout;
  double s = widget_scale (self);
  double x0, x1;
  int y, h, by;

  if (ev->kind == SL_EVENT_NONE || !sl_timeline_layout_event_rect (l, ev, &x0, &x1, &y, &h))
    return FALSE;
  by = sl_timeline_layout_body_y (l);
  if (y + h <= by || y >= l->height)
    return FALSE;
  x0 = MAX (x0, l->header_width - 2 * s);
  x1 = MIN (x1, l->width + 2 * s);
  if (x1 - x0 < 2 * s)
    {
      double c = (x0 + x1) / 2;
      x0 = c - s;
      x1 = c + s;
    }
  if (x1 < l->header_width - 2 * s || x0 > l->width)
    return FALSE;
  graphene_rect_init (out, x0 / s, y / s, (x1 - x0) / s, h / s);
  return TRUE;
}

/* An event's rectangle in widget coordinates wherever it is, off screen
 * too (x clamped far out, for floats): a link line's end. */
static gboolean
event_anchor_rect (SlTimeline *self, const SlEventRef *ev, graphene_rect_t *out)
{
  double s = widget_scale (self);
  double x0, x1;
  int y, h;

  if (ev->kind == SL_EVENT_NONE || !sl_timeline_layout_event_rect (self->layout, ev, &x0, &x1, &y, &h))
    return FALSE;
  x0 = CLAMP (x0, -1e6, 1e6);
  x1 = CLAMP (x1, x0, 1e6);
  graphene_rect_init (out, x0 / s, y / s, MAX (x1 - x0, 2 * s) / s, h / s);
  return TRUE;
}

static void
snapshot_elbow (SlTimeline *self, GtkSnapshot *snapshot, const GdkRGBA *color,
                const SlEventRef *api, const SlEventRef *gpu)
{
  SlTimelineLayout *l = self->layout;
  double s = widget_scale (self);
  graphene_rect_t a, b, body;
  float top = sl_timeline_layout_body_y (l) / s;

  if (!event_anchor_rect (self, api, &a) || !event_anchor_rect (self, gpu, &b))
    return;
  graphene_rect_init (&body, l->header_width / s, top, drawing_width (self) - l->header_width / s,
                      gtk_widget_get_height (GTK_WIDGET (self)) - top);
  sl_timeline_link_snapshot (snapshot, &body, &a, &b, color);
}

/* From a selected API call to all the GPU work it launched (every kernel of
 * a CUDA graph), or from selected GPU work to its call. */
static void
snapshot_link (SlTimeline *self, GtkSnapshot *snapshot, const GdkRGBA *color)
{
  if (self->linked.kind == SL_EVENT_NONE)
    return;
  if (self->selected.kind != SL_EVENT_API)
    {
      snapshot_elbow (self, snapshot, color, &self->linked, &self->selected);
      return;
    }
  for (guint i = 0; i < self->launched->len; i++)
    snapshot_elbow (self, snapshot, color, &self->selected, &g_array_index (self->launched, SlEventRef, i));
}

static GdkRGBA
rgba_from (guint32 rgb, float alpha)
{
  return (GdkRGBA) { ((rgb >> 16) & 0xff) / 255.0f, ((rgb >> 8) & 0xff) / 255.0f,
                     (rgb & 0xff) / 255.0f, alpha };
}

/* The selected time range: the time outside it veiled, its edges in the
 * accent (its length is on the ruler, drawn with the frame).  Veiling the
 * outside keeps the colours inside true, also after zooming to it. */
static void
snapshot_range (SlTimeline *self, GtkSnapshot *snapshot, const SlTimelineStyle *style, int w, int h)
{
  SlTimelineLayout *l = self->layout;
  double s = widget_scale (self);
  double left = l->header_width / s;
  double x0 = (l->header_width + sl_timeline_layout_time_to_x (l, l->range_start)) / s;
  double x1 = (l->header_width + sl_timeline_layout_time_to_x (l, l->range_end)) / s;
  double top = l->minimap_height / s;
  GdkRGBA accent = rgba_from (style->accent, 1);
  GdkRGBA veil = rgba_from (style->bg, 0.55f);

  x0 = CLAMP (x0, left - 1, w + 1);
  x1 = CLAMP (x1, left - 1, w + 1);
  if (x0 > left)
    gtk_snapshot_append_color (snapshot, &veil, &GRAPHENE_RECT_INIT (left, top, x0 - left, h));
  if (x1 < w)
    gtk_snapshot_append_color (snapshot, &veil, &GRAPHENE_RECT_INIT (x1, top, w - x1, h));
  if (x1 > x0)
    {
      gtk_snapshot_append_color (snapshot, &accent, &GRAPHENE_RECT_INIT (x0, top, 1, h));
      gtk_snapshot_append_color (snapshot, &accent, &GRAPHENE_RECT_INIT (x1 - 1, top, 1, h));
    }
}

/* Hover, selection and the API-to-GPU link. */
static void
snapshot_outlines (SlTimeline *self, GtkSnapshot *snapshot, const SlTimelineStyle *style)
{
  GdkRGBA accent = rgba_from (style->accent, 1);
  GdkRGBA hover = rgba_from (style->hover, style->hover_alpha);
  graphene_rect_t r;

  if (self->hover.kind != SL_EVENT_NONE && event_widget_rect (self, &self->hover, &r))
    append_outline (snapshot, &r, &hover, 1);
  snapshot_link (self, snapshot, &accent);
  if (event_widget_rect (self, &self->linked, &r))
    append_outline (snapshot, &r, &accent, 2);
  for (guint i = 1; i < self->launched->len; i++)
    if (event_widget_rect (self, &g_array_index (self->launched, SlEventRef, i), &r))
      append_outline (snapshot, &r, &accent, 2);
  if (event_widget_rect (self, &self->selected, &r))
    append_outline (snapshot, &r, &accent, 2);
}

/* Where a dragged label would go: a line over the row it takes the place of. */
static void
snapshot_drop (SlTimeline *self, GtkSnapshot *snapshot, const SlTimelineStyle *style, int w)
{
  SlTimelineLayout *l = self->layout;
  double s = widget_scale (self);
  guint target = sl_timeline_layout_row_at (l, self->drop_y * s);
  GdkRGBA accent = rgba_from (style->accent, 1);
  int y, h, dy, dh;

  if (target == SL_NONE || target == self->drag_row ||
      !sl_timeline_layout_row_rect (l, target, &y, &h) ||
      !sl_timeline_layout_row_rect (l, self->drag_row, &dy, &dh))
    return;
  if (dy < y)
    y += h;
  gtk_snapshot_append_color (snapshot, &accent, &GRAPHENE_RECT_INIT (0, y / s - 1, w, 2));
}

static void
sl_timeline_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  SlTimeline *self = SL_TIMELINE (widget);
  SlTimelineLayout *l = self->layout;
  double s = widget_scale (self);
  int w = drawing_width (self), h = gtk_widget_get_height (widget);
  SlTimelineStyle style;

  if (l == NULL)
    return;
  self->n_snapshots++;
  ensure_layout_size (self);
  if (self->dirty || self->texture == NULL)
    render_frame (self);
  gtk_snapshot_append_texture (snapshot, self->texture, &GRAPHENE_RECT_INIT (0, 0, w, h));

  sl_timeline_style_init (&style, is_dark (self), s);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (l->header_width / s, l->minimap_height / s,
                                                         w - l->header_width / s, h));
  if (l->has_range)
    snapshot_range (self, snapshot, &style, w, h);
  if (self->session != NULL)
    sl_timeline_bookmarks_snapshot (widget, snapshot, l, sl_session_get_bookmarks (self->session), s, w, h);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (l->header_width / s, sl_timeline_layout_body_y (l) / s,
                                                         w - l->header_width / s, h));
  snapshot_outlines (self, snapshot, &style);
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_pop (snapshot);
  if (self->drag_mode == DRAG_ROW && self->drag_dist > 4)
    snapshot_drop (self, snapshot, &style, w);

  gtk_widget_snapshot_child (widget, self->vscrollbar, snapshot);
}

static void
sl_timeline_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  SlTimeline *self = SL_TIMELINE (widget);

  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 320 : 160;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 1000 : 600;
  if (orientation == GTK_ORIENTATION_VERTICAL && self->natural_height)
    *minimum = *natural = MAX (natural_px (self), 1);
}

static void
sl_timeline_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  SlTimeline *self = SL_TIMELINE (widget);
  int sw = 0, top = 0;

  /* the layout first: it configures the scrollbar's adjustment, which must
   * happen before the scrollbar is allocated, not between that and drawing */
  ensure_layout_size (self);
  gtk_widget_measure (self->vscrollbar, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &sw, NULL, NULL);
  if (self->layout)
    top = sl_timeline_layout_body_y (self->layout) / widget_scale (self);
  gtk_widget_size_allocate (self->vscrollbar,
                            &(GtkAllocation) { width - sw, top, sw, MAX (height - top, 1) }, -1);
  if (self->row_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->row_menu));
}

/* ---- interaction -------------------------------------------------------- */

static double
body_x (SlTimeline *self, double widget_x)
{
  return widget_x * widget_scale (self) - self->layout->header_width;
}

static double
zoom_anchor (SlTimeline *self)
{
  if (self->pointer_inside && self->pointer_x * widget_scale (self) >= self->layout->header_width)
    return body_x (self, self->pointer_x);
  return sl_timeline_layout_body_width (self->layout) / 2.0;
}

static void
update_link (SlTimeline *self)
{
  const SlProfile *p;

  self->linked.kind = SL_EVENT_NONE;
  g_array_set_size (self->launched, 0);
  if (self->model == NULL)
    return;
  p = self->model->profile;
  switch (self->selected.kind)
    {
    case SL_EVENT_KERNEL:
    case SL_EVENT_MEMCPY:
    case SL_EVENT_MEMSET:
      {
        const SlStream *st = &p->streams[self->selected.owner];
        const guint32 *api = self->selected.kind == SL_EVENT_KERNEL ? st->kernels.api
                             : self->selected.kind == SL_EVENT_MEMCPY ? st->memcpy.api : st->memset.api;
        guint32 a = api ? api[self->selected.index] : SL_NONE;

        if (a != SL_NONE && a < p->api.spans.n)
          {
            self->linked.kind = SL_EVENT_API;
            self->linked.owner = sl_profile_api_thread (p, a);
            self->linked.index = a;
          }
      }
      break;
    case SL_EVENT_API:
      if (sl_timeline_model_find_all_launched (self->model, self->selected.index, self->launched) > 0)
        self->linked = g_array_index (self->launched, SlEventRef, 0);
      break;
    case SL_EVENT_NVTX:
    case SL_EVENT_NVTX_STARTEND:
    case SL_EVENT_MARK:
    case SL_EVENT_NONE:
    default:
      break;
    }
}

static void
select_event (SlTimeline *self, const SlEventRef *event)
{
  sl_session_set_selected_event (self->session, event);
}

static void
select_range (SlTimeline *self, gboolean has, double a, double b)
{
  SlTimeRange range = { sl_int64_from_double (floor (MIN (a, b))), sl_int64_from_double (ceil (MAX (a, b))) };

  sl_session_set_selected_range (self->session, has ? &range : NULL);
}

static gboolean
scroll_cb (SlTimeline               *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  SlTimelineLayout *l = self->layout;
  GdkModifierType state;
  gboolean wheel;
  double s = widget_scale (self);

  if (l == NULL)
    return FALSE;
  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  wheel = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL;

  /* as tall as its rows: the scrolled window around scrolls them */
  if (self->natural_height && !(state & (GDK_CONTROL_MASK | GDK_SHIFT_MASK)) && dx == 0)
    return FALSE;
  if (state & (GDK_CONTROL_MASK | GDK_SHIFT_MASK) || dx != 0)
    remember_view_before_gesture (self);
  if (state & GDK_CONTROL_MASK)
    {
      sl_timeline_layout_zoom_at (l, zoom_anchor (self), sl_timeline_zoom_factor (dy, wheel));
    }
  else if (state & GDK_SHIFT_MASK)
    sl_timeline_layout_pan (l, (dx + dy) * (wheel ? 80 * s : s));
  else
    {
      if (dx != 0)
        sl_timeline_layout_pan (l, dx * (wheel ? 80 * s : s));
      if (dy != 0)
        sl_timeline_layout_scroll_to (l, l->scroll_y + dy * (wheel ? 3 * l->row_height : s));
    }
  invalidate (self);
  return TRUE;
}

/* On the label column's right edge, where a drag resizes it. */
static gboolean
near_label_edge (SlTimeline *self, double x, double y)
{
  SlTimelineLayout *l = self->layout;
  double s = widget_scale (self);

  return l != NULL && y * s >= l->minimap_height && fabs (x * s - l->header_width) <= 4 * s;
}

static void
motion_cb (SlTimeline               *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  SlEventRef ev = { SL_EVENT_NONE, 0, 0 };
  double s = widget_scale (self);

  self->pointer_x = x;
  self->pointer_y = y;
  self->pointer_inside = TRUE;
  self->menu_row = SL_NONE;
  if (self->drag_mode == DRAG_NONE && near_label_edge (self, x, y) != self->edge_cursor)
    {
      self->edge_cursor = !self->edge_cursor;
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), self->edge_cursor ? "col-resize" : NULL);
    }
  if (self->layout == NULL || self->drag_mode != DRAG_NONE)
    return;
  sl_timeline_layout_hit_test (self->layout, x * s, y * s, &ev);
  if (memcmp (&ev, &self->hover, sizeof ev) != 0)
    {
      self->hover = ev;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (SlTimeline               *self,
          GtkEventControllerMotion *controller)
{
  self->pointer_inside = FALSE;
  if (self->hover.kind != SL_EVENT_NONE)
    {
      self->hover.kind = SL_EVENT_NONE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
apply_label_width (SlTimeline *self, int width)
{
  self->label_width = MAX (width, SL_TIMELINE_LABEL_WIDTH_MIN);
  if (self->layout == NULL)
    return;
  sl_timeline_layout_set_label_width (self->layout, self->label_width);
  self->label_width = self->layout->label_width;
  if (self->layout->sized)
    fit_label_column (self, self->layout->width, self->layout->scale);
  invalidate (self);
}

static void
row_layout_changed (SlTimeline *self)
{
  self->menu_row = SL_NONE;
  invalidate (self);
  g_signal_emit (self, signals[ROW_LAYOUT_CHANGED], 0);
}

/* A label dropped on another row takes its place among its siblings. */
static void
drop_row (SlTimeline *self, double y)
{
  guint target = sl_timeline_layout_row_at (self->layout, y * widget_scale (self));

  if (target != SL_NONE && sl_timeline_layout_move_row (self->layout, self->drag_row, target))
    row_layout_changed (self);
}

/* Labels start row drags, their right edge resizes the column. */
static gboolean
begin_label_drag (SlTimeline *self, double x, double y)
{
  SlTimelineLayout *l = self->layout;
  double s = widget_scale (self);

  if (near_label_edge (self, x, y))
    {
      self->drag_mode = DRAG_EDGE;
      self->drag_width = self->label_width;
      return TRUE;
    }
  if (x * s >= l->header_width)
    return FALSE;
  self->drag_row = sl_timeline_layout_row_at (l, y * s);
  if (self->drag_row != SL_NONE)
    self->drag_mode = DRAG_ROW;
  return TRUE;
}

static void
drag_begin_cb (SlTimeline     *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  SlTimelineLayout *l = self->layout;
  double s = widget_scale (self);
  GdkModifierType state;

  self->drag_mode = DRAG_NONE;
  self->drag_dist = 0;
  if (l == NULL)
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  self->drag_x = x;
  self->drag_y = y;
  self->drag_t0 = l->t0;
  self->drag_scroll = l->scroll_y;
  if (begin_label_drag (self, x, y))
    return;
  if (y * s < l->minimap_height)
    {
      remember_view (self);
      self->drag_mode = DRAG_MINIMAP;
      sl_timeline_layout_center_on (l, sl_timeline_layout_overview_time (l, body_x (self, x)));
      invalidate (self);
    }
  else if (y * s < sl_timeline_layout_body_y (l) || (state & GDK_SHIFT_MASK))
    self->drag_mode = DRAG_SELECT;
  else
    {
      remember_view_before_gesture (self);
      self->drag_mode = DRAG_PAN;
    }
}

static void
drag_update_cb (SlTimeline     *self,
                double          ox,
                double          oy,
                GtkGestureDrag *gesture)
{
  SlTimelineLayout *l = self->layout;
  double s = widget_scale (self);

  self->drag_dist = MAX (self->drag_dist, hypot (ox, oy));
  switch (self->drag_mode)
    {
    case DRAG_PAN:
      sl_timeline_layout_set_view (l, self->drag_t0 - ox * s * l->px_ns, l->px_ns);
      sl_timeline_layout_scroll_to (l, self->drag_scroll - oy * s);
      invalidate (self);
      break;
    case DRAG_SELECT:
      if (fabs (ox) >= 2)
        select_range (self, TRUE, sl_timeline_layout_x_to_time (l, body_x (self, self->drag_x)),
                   sl_timeline_layout_x_to_time (l, body_x (self, self->drag_x + ox)));
      break;
    case DRAG_MINIMAP:
      sl_timeline_layout_center_on (l, sl_timeline_layout_overview_time (l, body_x (self, self->drag_x + ox)));
      invalidate (self);
      break;
    case DRAG_EDGE:
      apply_label_width (self, self->drag_width + (int) lround (ox));
      break;
    case DRAG_ROW:
      self->drop_y = self->drag_y + oy;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    case DRAG_NONE:
    default:
      break;
    }
}

static void
drag_end_cb (SlTimeline     *self,
             double          ox,
             double          oy,
             GtkGestureDrag *gesture)
{
  /* The release carries the pointer's last position, which a busy main loop
   * may not have delivered as motion: without it a quick pan ends short. */
  if (ox != 0 || oy != 0)
    drag_update_cb (self, ox, oy, gesture);
  if (self->drag_mode == DRAG_ROW && self->drag_dist > 4)
    drop_row (self, self->drag_y + oy);
  else if (self->drag_mode == DRAG_EDGE)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LABEL_WIDTH]);
  self->drag_mode = DRAG_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
click_pressed_cb (SlTimeline      *self,
                  int              n_press,
                  double           x,
                  double           y,
                  GtkGestureClick *gesture)
{
  SlTimelineLayout *l = self->layout;
  double s = widget_scale (self);
  SlEventRef ev;

  if (l == NULL || n_press != 2)
    return;
  if (sl_timeline_layout_hit_test (l, x * s, y * s, &ev))
    {
      gint64 a, b;
      sl_timeline_model_event_span (self->model, &ev, &a, &b);
      remember_view (self);
      sl_timeline_layout_zoom_to (l, a, b, 0.1);
      invalidate (self);
    }
}

/* A click on a bookmark's flag selects its range. */
static void
select_flag (SlTimeline *self, double x, double y)
{
  const SlBookmark *b;

  if (self->session == NULL)
    return;
  b = sl_timeline_bookmarks_flag_at (GTK_WIDGET (self), self->layout, sl_session_get_bookmarks (self->session),
                                     widget_scale (self), x, y);
  if (b != NULL)
    sl_session_set_selected_range (self->session, &(SlTimeRange) { b->start, b->end });
}

static void
click_released_cb (SlTimeline      *self,
                   int              n_press,
                   double           x,
                   double           y,
                   GtkGestureClick *gesture)
{
  SlTimelineLayout *l = self->layout;
  double s = widget_scale (self);
  SlEventRef ev;
  guint row;

  if (l == NULL || n_press != 1 || self->drag_dist > 4)
    return;
  row = sl_timeline_layout_row_at (l, y * s);
  if (near_label_edge (self, x, y))
    return;
  if (x * s < l->header_width)
    {
      if (row != SL_NONE && sl_timeline_layout_is_group (l, row))
        {
          sl_timeline_layout_set_collapsed (l, row, !sl_timeline_layout_get_collapsed (l, row));
          invalidate (self);
        }
      return;
    }
  if (y * s < sl_timeline_layout_body_y (l))
    {
      select_flag (self, x, y);
      return;
    }
  select_event (self, sl_timeline_layout_hit_test (l, x * s, y * s, &ev) ? &ev : NULL);
}

/* Over an event, the menu starts with Bookmark: its span (the window's
 * win.bookmark-range asks for the name). */
static void
add_bookmark_item (SlTimeline *self, GMenu *menu, double x, double y)
{
  double s = widget_scale (self);
  g_autoptr(GMenu) section = NULL;
  g_autoptr(GMenuItem) item = NULL;
  SlEventRef ev;
  gint64 a, b;

  if (!sl_timeline_layout_hit_test (self->layout, x * s, y * s, &ev))
    return;
  sl_timeline_model_event_span (self->model, &ev, &a, &b);
  section = g_menu_new ();
  item = g_menu_item_new (_("Bookmark…"), NULL);
  g_menu_item_set_action_and_target_value (item, "win.bookmark-range", g_variant_new ("(xx)", a, b));
  g_menu_append_item (section, item);
  g_menu_prepend_section (menu, NULL, G_MENU_MODEL (section));
}

/* A right click on a row opens its menu (hide, pin, show hidden rows). */
static void
context_menu_cb (SlTimeline      *self,
                 int              n_press,
                 double           x,
                 double           y,
                 GtkGestureClick *gesture)
{
  SlTimelineLayout *l = self->layout;
  g_autoptr(GMenuModel) menu = NULL;

  if (l == NULL || y * widget_scale (self) < sl_timeline_layout_body_y (l))
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  self->menu_row = sl_timeline_layout_row_at (l, y * widget_scale (self));
  menu = sl_timeline_row_menu_new (l, self->menu_row);
  add_bookmark_item (self, G_MENU (menu), x, y);
  if (self->row_menu == NULL)
    {
      self->row_menu = gtk_popover_menu_new_from_model (menu);
      gtk_popover_set_has_arrow (GTK_POPOVER (self->row_menu), FALSE);
      gtk_widget_set_halign (self->row_menu, GTK_ALIGN_START);
      gtk_widget_set_parent (self->row_menu, GTK_WIDGET (self));
    }
  else
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->row_menu), menu);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->row_menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->row_menu));
}

/* The mouse's back and forward buttons walk the session's history. */
static void
history_button_cb (SlTimeline      *self,
                   int              n_press,
                   double           x,
                   double           y,
                   GtkGestureClick *gesture)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  if (self->session == NULL)
    return;
  if (button == 8)
    sl_session_go_back (self->session);
  else if (button == 9)
    sl_session_go_forward (self->session);
}

static void
zoom_begin_cb (SlTimeline     *self,
               GdkEventSequence *sequence,
               GtkGestureZoom *gesture)
{
  double cx, cy;

  if (self->layout == NULL)
    return;
  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    cx = self->pointer_x;
  self->pinch_x = body_x (self, cx);
  self->pinch_px_ns = self->layout->px_ns;
  self->pinch_anchor_t = sl_timeline_layout_x_to_time (self->layout, self->pinch_x);
}

static void
zoom_scale_changed_cb (SlTimeline     *self,
                       double          scale,
                       GtkGestureZoom *gesture)
{
  SlTimelineLayout *l = self->layout;
  double px_ns;

  if (l == NULL || scale <= 0)
    return;
  px_ns = self->pinch_px_ns / scale;
  remember_view_before_gesture (self);
  sl_timeline_layout_set_view (l, self->pinch_anchor_t - self->pinch_x * px_ns, px_ns);
  invalidate (self);
}

static void
tooltip_details_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      data)
{
  g_autoptr(SlTimeline) self = data;
  g_autoptr(SlKernelDetails) details = sl_kernel_details_read_finish (result, NULL);

  if (details == NULL || self->model == NULL)
    return;
  g_clear_pointer (&self->tooltip_details, sl_kernel_details_free);
  self->tooltip_details = g_steal_pointer (&details);
  /* the tooltip is asked again and now shows the launch configuration */
  g_clear_pointer (&self->tooltip_markup, g_free);
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
}

/* Reads the kernel's launch configuration in a worker: the file is not
 * touched on the main thread. */
static void
fetch_tooltip_details (SlTimeline *self, const SlEventRef *ev)
{
  g_cancellable_cancel (self->details_cancellable);
  g_clear_object (&self->details_cancellable);
  self->details_cancellable = g_cancellable_new ();
  self->tooltip_details_event = *ev;
  g_clear_pointer (&self->tooltip_details, sl_kernel_details_free);
  sl_kernel_details_read_async (self->model->profile, ev->owner, ev->index, self->details_cancellable,
                                tooltip_details_cb, g_object_ref (self));
}

/* Over a GPU's utilization row: the busy share of the pointer's column. */
static gboolean
util_tooltip (SlTimeline *self, double x, double y, GtkTooltip *tooltip)
{
  SlTimelineLayout *l = self->layout;
  guint r = sl_timeline_layout_row_at (l, y);
  double bx = x - l->header_width;
  float frac;
  g_autofree char *text = NULL;

  if (r == SL_NONE || self->model->rows[r].kind != SL_ROW_GPU_UTIL || bx < 0)
    return FALSE;
  if (!sl_timeline_gpu_util_columns (self->model, self->model->rows[r].index,
                                     sl_timeline_layout_x_to_time (l, floor (bx)), l->px_ns, 1, &frac))
    return FALSE;
  /* Translators: a GPU's busy share under the pointer, e.g. "GPU 0 busy: 57.3 %" */
  g_autofree char *share = sl_locale_adopt (g_strdup_printf ("%.1f", 100.0 * frac));
  text = g_strdup_printf (_("GPU %u busy: %s %%"), self->model->profile->gpus[self->model->rows[r].index].device,
                          share);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* Over the ruler: which clock it shows, and why not the wall clock. */
static gboolean
ruler_tooltip (SlTimeline *self, double y, GtkTooltip *tooltip)
{
  const SlTimelineLayout *l = self->layout;
  g_autoptr(GDateTime) start = NULL;
  g_autofree char *when = NULL;
  g_autofree char *text = NULL;

  if (!self->wall_clock || y < l->minimap_height || y >= l->minimap_height + l->ruler_height)
    return FALSE;
  if (self->wall_utc_ns == 0)
    {
      gtk_tooltip_set_text (tooltip, _("This profile does not record when its session started: "
                                       "times are shown from the profile start instead of the wall clock."));
      return TRUE;
    }
  start = g_date_time_new_from_unix_local (self->wall_utc_ns / 1000000000);
  when = start != NULL ? g_date_time_format (start, "%x %X") : g_strdup ("–");
  /* Translators: the ruler's tooltip; %s is the local date and time */
  text = g_strdup_printf (_("Wall clock (local time); the session started %s"), when);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static gboolean
sl_timeline_query_tooltip (GtkWidget  *widget,
                           int         x,
                           int         y,
                           gboolean    keyboard,
                           GtkTooltip *tooltip)
{
  SlTimeline *self = SL_TIMELINE (widget);
  double s = widget_scale (self);
  SlEventRef ev;

  if (self->layout == NULL || keyboard || self->drag_mode != DRAG_NONE)
    return FALSE;
  if (util_tooltip (self, x * s, y * s, tooltip))
    return TRUE;
  if (self->row_menu != NULL && gtk_widget_get_visible (self->row_menu))
    return FALSE;
  if (ruler_tooltip (self, y * s, tooltip))
    return TRUE;
  if (x * s < self->layout->header_width)
    {
      /* a label may be cut in the middle: the whole name */
      guint r = sl_timeline_layout_row_at (self->layout, y * s);
      g_autofree char *title = r != SL_NONE ? sl_timeline_row_title (self->model, r) : NULL;

      if (title == NULL)
        return FALSE;
      gtk_tooltip_set_text (tooltip, title);
      return TRUE;
    }
  if (!sl_timeline_layout_hit_test (self->layout, x * s, y * s, &ev))
    return FALSE;
  if (self->tooltip_markup == NULL || memcmp (&ev, &self->tooltip_event, sizeof ev) != 0)
    {
      gboolean have_details = self->tooltip_details != NULL &&
                              memcmp (&ev, &self->tooltip_details_event, sizeof ev) == 0;

      g_free (self->tooltip_markup);
      self->tooltip_markup = sl_event_info_tooltip (self->model, &ev, have_details ? self->tooltip_details : NULL,
                                                    sl_session_get_loading (self->session));
      self->tooltip_event = ev;
      if (ev.kind == SL_EVENT_KERNEL && !have_details)
        fetch_tooltip_details (self, &ev);
    }
  gtk_tooltip_set_markup (tooltip, self->tooltip_markup);
  return TRUE;
}

/* ---- actions -------------------------------------------------------------- */

/* Zooms to the selected range, else to the selected event; FALSE when
 * nothing is selected. */
static gboolean
zoom_to_selection (SlTimeline *self)
{
  SlTimelineLayout *l = self->layout;
  gint64 a, b;

  if (l->has_range)
    a = l->range_start, b = l->range_end;
  else if (self->selected.kind == SL_EVENT_NONE ||
           !sl_timeline_model_event_span (self->model, &self->selected, &a, &b))
    return FALSE;
  remember_view (self);
  sl_timeline_layout_zoom_to (l, a, b, l->has_range ? 0 : 0.1);
  return TRUE;
}

/* The row a row action is about: the context menu's, else the one under
 * the pointer, else the selected event's. */
static guint
target_row (SlTimeline *self)
{
  const SlEventRef *ev;

  if (self->menu_row != SL_NONE)
    return self->menu_row;
  if (self->pointer_inside)
    {
      guint r = sl_timeline_layout_row_at (self->layout, self->pointer_y * widget_scale (self));
      if (r != SL_NONE)
        return r;
    }
  ev = self->session != NULL ? sl_session_get_selected_event (self->session) : NULL;
  return ev != NULL ? sl_timeline_model_event_row (self->model, ev) : SL_NONE;
}

/* Hide, pin, show and reset rows; FALSE when @name is none of them. */
static gboolean
row_action (SlTimeline *self, const char *name, GVariant *param)
{
  SlTimelineLayout *l = self->layout;
  g_autoptr(SlRowLayout) rows = sl_row_layout_copy (sl_timeline_layout_get_row_layout (l));
  guint r = target_row (self);

  if (g_str_equal (name, "timeline.hide-row"))
    {
      if (r == SL_NONE)
        return TRUE;
      sl_timeline_layout_set_row_hidden (l, r, TRUE);
    }
  else if (g_str_equal (name, "timeline.pin-row"))
    {
      if (r == SL_NONE)
        return TRUE;
      sl_timeline_layout_set_row_pinned (l, r, !sl_timeline_layout_row_pinned (l, r));
    }
  else if (g_str_equal (name, "timeline.show-row"))
    {
      sl_row_layout_set_hidden (rows, g_variant_get_string (param, NULL), FALSE);
      sl_timeline_layout_set_row_layout (l, rows);
    }
  else if (g_str_equal (name, "timeline.show-all-rows"))
    {
      sl_row_layout_show_all (rows);
      sl_timeline_layout_set_row_layout (l, rows);
    }
  else if (g_str_equal (name, "timeline.reset-row-layout"))
    sl_timeline_layout_set_row_layout (l, NULL);
  else
    return FALSE;
  row_layout_changed (self);
  return TRUE;
}

/* A page of rows: what shows below the pinned band, less a row kept. */
static double
page_height (SlTimelineLayout *l)
{
  int page = sl_timeline_layout_body_height (l) - sl_timeline_layout_band_height (l) - l->row_height;

  return MAX (page, l->row_height);
}

static void
action_cb (GtkWidget  *widget,
           const char *name,
           GVariant   *param)
{
  SlTimeline *self = SL_TIMELINE (widget);
  SlTimelineLayout *l = self->layout;
  int bw;

  if (l == NULL)
    return;
  bw = sl_timeline_layout_body_width (l);
  if (row_action (self, name, param))
    return;
  if (g_str_has_prefix (name, "timeline.zoom-i") || g_str_has_prefix (name, "timeline.zoom-o") ||
      g_str_has_prefix (name, "timeline.pan-"))
    remember_view_before_gesture (self);
  if (g_str_equal (name, "timeline.zoom-in"))
    sl_timeline_layout_zoom_at (l, zoom_anchor (self), 1 / 1.5);
  else if (g_str_equal (name, "timeline.zoom-out"))
    sl_timeline_layout_zoom_at (l, zoom_anchor (self), 1.5);
  else if (g_str_equal (name, "timeline.pan-left"))
    sl_timeline_layout_pan (l, -bw * 0.15);
  else if (g_str_equal (name, "timeline.pan-right"))
    sl_timeline_layout_pan (l, bw * 0.15);
  else if (g_str_equal (name, "timeline.scroll-up"))
    sl_timeline_layout_scroll_to (l, l->scroll_y - 3 * l->row_height);
  else if (g_str_equal (name, "timeline.scroll-down"))
    sl_timeline_layout_scroll_to (l, l->scroll_y + 3 * l->row_height);
  else if (g_str_equal (name, "timeline.scroll-page-up"))
    sl_timeline_layout_scroll_to (l, l->scroll_y - page_height (l));
  else if (g_str_equal (name, "timeline.scroll-page-down"))
    sl_timeline_layout_scroll_to (l, l->scroll_y + page_height (l));
  else if (g_str_equal (name, "timeline.fit"))
    {
      remember_view (self);
      sl_timeline_layout_fit_all (l);
    }
  else if (g_str_equal (name, "timeline.zoom-to-selection"))
    {
      if (!zoom_to_selection (self))
        return;
    }
  else if (g_str_equal (name, "timeline.clear-selection"))
    {
      select_range (self, FALSE, 0, 0);
      select_event (self, NULL);
      return;
    }
  else if (g_str_equal (name, "timeline.toggle-relative-time"))
    {
      sl_timeline_set_relative_time (self, !self->relative_time);
      return;
    }
  invalidate (self);
}

/* ---- GObject -------------------------------------------------------------- */

static void
sl_timeline_css_changed (GtkWidget         *widget,
                         GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (sl_timeline_parent_class)->css_changed (widget, change);
  SL_TIMELINE (widget)->dirty = TRUE;
  gtk_widget_queue_draw (widget);
}

static void
scale_factor_cb (SlTimeline *self)
{
  self->dirty = TRUE;
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static void
sl_timeline_dispose (GObject *object)
{
  SlTimeline *self = SL_TIMELINE (object);

  sl_timeline_set_session (self, NULL);
  g_clear_object (&self->bookmark_signals);
  g_clear_pointer (&self->vscrollbar, gtk_widget_unparent);
  g_clear_pointer (&self->row_menu, gtk_widget_unparent);
  g_clear_object (&self->vadjustment);
  g_clear_object (&self->texture);
  g_clear_pointer (&self->surface, cairo_surface_destroy);
  g_clear_pointer (&self->renderer, sl_timeline_renderer_free);
  G_OBJECT_CLASS (sl_timeline_parent_class)->dispose (object);
  g_clear_pointer (&self->launched, g_array_unref);
}

static void
sl_timeline_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SlTimeline *self = SL_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_RELATIVE_TIME:
      g_value_set_boolean (value, self->relative_time);
      break;
    case PROP_LABEL_WIDTH:
      g_value_set_int (value, self->label_width);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  SlTimeline *self = SL_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      sl_timeline_set_session (self, g_value_get_object (value));
      break;
    case PROP_RELATIVE_TIME:
      sl_timeline_set_relative_time (self, g_value_get_boolean (value));
      break;
    case PROP_LABEL_WIDTH:
      sl_timeline_set_label_width (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_key (GtkWidgetClass *klass, guint key, GdkModifierType mods, const char *action)
{
  gtk_widget_class_add_binding_action (klass, key, mods, action, NULL);
}

static void
sl_timeline_class_init (SlTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char * const actions[] = {
    "timeline.zoom-in", "timeline.zoom-out", "timeline.pan-left", "timeline.pan-right",
    "timeline.scroll-up", "timeline.scroll-down", "timeline.fit", "timeline.zoom-to-selection",
    "timeline.clear-selection", "timeline.toggle-relative-time",
    "timeline.scroll-page-up", "timeline.scroll-page-down",
    "timeline.hide-row", "timeline.pin-row", "timeline.show-all-rows", "timeline.reset-row-layout",
  };

  object_class->dispose = sl_timeline_dispose;
  object_class->get_property = sl_timeline_get_property;
  object_class->set_property = sl_timeline_set_property;
  widget_class->snapshot = sl_timeline_snapshot;
  widget_class->measure = sl_timeline_measure;
  widget_class->size_allocate = sl_timeline_size_allocate;
  widget_class->query_tooltip = sl_timeline_query_tooltip;
  widget_class->css_changed = sl_timeline_css_changed;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RELATIVE_TIME] =
    g_param_spec_boolean ("relative-time", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* set by dragging the label column's edge: notified when the drag ends */
  properties[PROP_LABEL_WIDTH] =
    g_param_spec_int ("label-width", NULL, NULL, SL_TIMELINE_LABEL_WIDTH_MIN, G_MAXINT,
                      SL_TIMELINE_LABEL_WIDTH_DEFAULT,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* the drawn view changed (time window, rows, size): for whoever watches
   * the frames, such as the app's test probe */
  signals[VIEW_CHANGED] = g_signal_new ("view-changed", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* the user hid, pinned, moved rows or reset them: for whoever saves it */
  signals[ROW_LAYOUT_CHANGED] = g_signal_new ("row-layout-changed", G_TYPE_FROM_CLASS (klass),
                                              G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i], NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "timeline.show-row", "s", action_cb);

  add_key (widget_class, GDK_KEY_w, 0, "timeline.zoom-in");
  add_key (widget_class, GDK_KEY_s, 0, "timeline.zoom-out");
  add_key (widget_class, GDK_KEY_a, 0, "timeline.pan-left");
  add_key (widget_class, GDK_KEY_d, 0, "timeline.pan-right");
  add_key (widget_class, GDK_KEY_Left, 0, "timeline.pan-left");
  add_key (widget_class, GDK_KEY_Right, 0, "timeline.pan-right");
  add_key (widget_class, GDK_KEY_Up, 0, "timeline.scroll-up");
  add_key (widget_class, GDK_KEY_Down, 0, "timeline.scroll-down");
  add_key (widget_class, GDK_KEY_Home, 0, "timeline.fit");
  add_key (widget_class, GDK_KEY_Page_Up, 0, "timeline.scroll-page-up");
  add_key (widget_class, GDK_KEY_Page_Down, 0, "timeline.scroll-page-down");
  add_key (widget_class, GDK_KEY_h, 0, "timeline.hide-row");
  add_key (widget_class, GDK_KEY_Delete, 0, "timeline.hide-row");
  add_key (widget_class, GDK_KEY_p, 0, "timeline.pin-row");
  add_key (widget_class, GDK_KEY_z, 0, "timeline.zoom-to-selection");
  add_key (widget_class, GDK_KEY_Escape, 0, "timeline.clear-selection");
  add_key (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "timeline.zoom-in");
  add_key (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "timeline.zoom-in");
  add_key (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "timeline.zoom-out");
  add_key (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "timeline.fit");

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void highlight_index_ready_cb (gpointer data);

static void
sl_timeline_init (SlTimeline *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->relative_time = TRUE;
  self->menu_row = SL_NONE;
  self->label_width = SL_TIMELINE_LABEL_WIDTH_DEFAULT;
  self->launched = g_array_new (FALSE, FALSE, sizeof (SlEventRef));
  self->renderer = sl_timeline_renderer_new ();
  sl_timeline_renderer_set_highlight_ready (self->renderer, highlight_index_ready_cb, self);
  self->bookmark_signals = g_signal_group_new (SL_TYPE_BOOKMARK_STORE);
  g_signal_group_connect_swapped (self->bookmark_signals, "changed", G_CALLBACK (gtk_widget_queue_draw), self);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"), -1);
  sl_timeline_a11y_update (GTK_WIDGET (self), NULL);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, 1, 1, 1));
  g_signal_connect_object (self->vadjustment, "value-changed",
                           G_CALLBACK (adjustment_value_changed_cb), self, G_CONNECT_SWAPPED);
  self->vscrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->vadjustment);
  gtk_widget_set_parent (self->vscrollbar, GTK_WIDGET (self));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect_swapped (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (controller, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect_swapped (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect_swapped (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect_swapped (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect_swapped (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  g_signal_connect_swapped (gesture, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect_swapped (gesture, "pressed", G_CALLBACK (history_button_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect_swapped (gesture, "pressed", G_CALLBACK (context_menu_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect_swapped (gesture, "begin", G_CALLBACK (zoom_begin_cb), self);
  g_signal_connect_swapped (gesture, "scale-changed", G_CALLBACK (zoom_scale_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  g_signal_connect (self, "notify::scale-factor", G_CALLBACK (scale_factor_cb), NULL);
}

GtkWidget *
sl_timeline_new (void)
{
  return g_object_new (SL_TYPE_TIMELINE, NULL);
}

/* ---- following the session ------------------------------------------------ */

static void
visible_range_changed_cb (SlTimeline *self)
{
  const SlTimeRange *range = sl_session_get_visible_range (self->session);

  /* our own write, or a frame not laid out yet (it fits on its first size),
   * or a range of a model we do not draw yet (model_changed_cb follows) */
  if (self->publishing || self->layout == NULL || !self->layout->sized ||
      self->model != sl_session_get_model (self->session))
    return;
  sl_timeline_layout_zoom_to (self->layout, range->start, range->end, 0);
  invalidate (self);
}

static void
selected_range_changed_cb (SlTimeline *self)
{
  const SlTimeRange *range = sl_session_get_selected_range (self->session);
  SlTimelineLayout *l = self->layout;

  l->has_range = range != NULL;
  l->range_start = range ? range->start : 0;
  l->range_end = range ? range->end : 0;
  /* the range's length sits on the ruler, in the frame */
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A selected event whose row is out of the body (a link followed, a list's
 * pick) scrolls to the middle of it; folded groups around it open. */
static void
reveal_selected (SlTimeline *self)
{
  SlTimelineLayout *l = self->layout;
  guint r;
  int y, h, by;

  if (l == NULL || !l->sized || self->selected.kind == SL_EVENT_NONE ||
      (r = sl_timeline_model_event_row (self->model, &self->selected)) == SL_NONE)
    return;
  for (guint p = self->model->rows[r].parent; p != SL_NONE; p = self->model->rows[p].parent)
    if (sl_timeline_layout_get_collapsed (l, p))
      sl_timeline_layout_set_collapsed (l, p, FALSE);
  if (!sl_timeline_layout_row_rect (l, r, &y, &h))
    return;
  by = sl_timeline_layout_body_y (l);
  if (y >= by && y + h <= l->height)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  sl_timeline_layout_scroll_to (l, l->scroll_y + (y - by) - (sl_timeline_layout_body_height (l) - h) / 2);
  invalidate (self);
}

static void
selected_event_changed_cb (SlTimeline *self)
{
  const SlEventRef *event = sl_session_get_selected_event (self->session);
  SlEventRef none = { SL_EVENT_NONE, 0, 0 };

  self->selected = event ? *event : none;
  update_link (self);
  reveal_selected (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A big highlight's index came from its worker: the frame shows it now. */
static void
highlight_index_ready_cb (gpointer data)
{
  SlTimeline *self = data;

  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The highlight is drawn into the frame: a new one redraws it. */
static void
highlight_changed_cb (SlTimeline *self)
{
  sl_timeline_renderer_set_highlight (self->renderer, sl_session_get_highlight (self->session));
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* What a screen reader says of the view (sl-timeline-a11y.c). */
static const char * const a11y_signals[] = { "notify::visible-range", "notify::selected-event", "notify::model" };

static void
a11y_changed_cb (SlTimeline *self)
{
  sl_timeline_a11y_update (GTK_WIDGET (self), self->session);
}

static void forget_event_texts (SlTimeline *self);

static void
reset_view_state (SlTimeline *self)
{
  forget_event_texts (self);
  g_clear_pointer (&self->layout, sl_timeline_layout_free);
  memset (&self->selected, 0, sizeof self->selected);
  memset (&self->hover, 0, sizeof self->hover);
  memset (&self->linked, 0, sizeof self->linked);
  g_array_set_size (self->launched, 0);
  if (self->renderer != NULL)
    sl_timeline_renderer_set_highlight (self->renderer, NULL);
  self->model = NULL;
}

static void
make_layout (SlTimeline *self)
{
  SlTimelineModel *model = self->model;

  self->layout = sl_timeline_layout_new (model);
  self->layout->relative_time = self->relative_time;
  self->layout->wall_utc_ns = self->wall_clock ? self->wall_utc_ns : 0;
  self->layout->wall_origin_ns = self->wall_origin_ns;
  self->layout->hide_header = self->hide_header;
  self->layout->has_origin = self->has_origin;
  self->layout->origin_ns = self->origin_ns;
  sl_timeline_layout_set_label_width (self->layout, self->label_width);
  /* a profile with hundreds of threads starts with its processes folded */
  if (model->n_rows > 200)
    for (guint r = 0; r < model->n_rows; r++)
      if (model->rows[r].kind == SL_ROW_PROCESS)
        sl_timeline_layout_set_collapsed (self->layout, r, TRUE);
}

/* What was said or linked about events of the old model goes. */
static void
forget_event_texts (SlTimeline *self)
{
  g_cancellable_cancel (self->details_cancellable);
  g_clear_object (&self->details_cancellable);
  g_clear_pointer (&self->tooltip_details, sl_kernel_details_free);
  g_clear_pointer (&self->tooltip_markup, g_free);
}

/* The session's model was replaced by a more complete one (a staged load's
 * complete profile): a layout over it in the old one's place, then the
 * session's view, which may have widened to the new whole. */
static void
model_changed_cb (SlTimeline *self)
{
  SlTimelineLayout *old = g_steal_pointer (&self->layout);

  forget_event_texts (self);
  memset (&self->hover, 0, sizeof self->hover);
  self->model = sl_session_get_model (self->session);
  make_layout (self);
  if (old != NULL)
    sl_timeline_layout_carry_view (self->layout, old);
  sl_timeline_layout_free (old);
  selected_range_changed_cb (self);
  selected_event_changed_cb (self);
  self->dirty = TRUE;
  if (self->layout->sized)
    {
      const SlTimeRange *range = sl_session_get_visible_range (self->session);
      sl_timeline_layout_zoom_to (self->layout, range->start, range->end, 0);
      invalidate (self);
    }
  else
    gtk_widget_queue_allocate (GTK_WIDGET (self));
}

/* The flags and bands follow the session's bookmark store. */
static void
bookmarks_changed_cb (SlTimeline *self)
{
  g_signal_group_set_target (self->bookmark_signals,
                             self->session != NULL ? sl_session_get_bookmarks (self->session) : NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_timeline_set_session (SlTimeline *self,
                         SlSession  *session)
{
  g_return_if_fail (SL_IS_TIMELINE (self));
  g_return_if_fail (session == NULL || SL_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  reset_view_state (self);
  g_set_object (&self->session, session);
  bookmarks_changed_cb (self);
  if (session != NULL)
    {
      self->model = sl_session_get_model (session);
      make_layout (self);
      g_signal_connect_object (session, "notify::visible-range", G_CALLBACK (visible_range_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selected-range", G_CALLBACK (selected_range_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selected-event", G_CALLBACK (selected_event_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::model", G_CALLBACK (model_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::loading", G_CALLBACK (forget_event_texts),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::highlight", G_CALLBACK (highlight_changed_cb),
                               self, G_CONNECT_SWAPPED);
      for (guint i = 0; i < G_N_ELEMENTS (a11y_signals); i++)
        g_signal_connect_object (session, a11y_signals[i], G_CALLBACK (a11y_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::bookmarks", G_CALLBACK (bookmarks_changed_cb),
                               self, G_CONNECT_SWAPPED);
      highlight_changed_cb (self);
      selected_range_changed_cb (self);
      selected_event_changed_cb (self);
    }
  a11y_changed_cb (self);
  self->dirty = TRUE;
  gtk_widget_queue_allocate (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

SlSession *
sl_timeline_get_session (SlTimeline *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE (self), NULL);
  return self->session;
}

SlTimelineLayout *
sl_timeline_get_layout (SlTimeline *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE (self), NULL);
  if (self->layout)
    ensure_layout_size (self);
  return self->layout;
}

gboolean
sl_timeline_get_relative_time (SlTimeline *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE (self), TRUE);
  return self->relative_time;
}

void
sl_timeline_set_relative_time (SlTimeline *self,
                               gboolean    relative)
{
  g_return_if_fail (SL_IS_TIMELINE (self));
  relative = !!relative;
  if (self->relative_time == relative)
    return;
  self->relative_time = relative;
  if (self->layout)
    {
      self->layout->relative_time = relative;
      invalidate (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RELATIVE_TIME]);
}

void
sl_timeline_set_wall_clock (SlTimeline *self,
                            gboolean    wall_clock,
                            gint64      utc_ns,
                            gint64      origin_ns)
{
  g_return_if_fail (SL_IS_TIMELINE (self));
  wall_clock = !!wall_clock;
  if (self->wall_clock == wall_clock && self->wall_utc_ns == utc_ns && self->wall_origin_ns == origin_ns)
    return;
  self->wall_clock = wall_clock;
  self->wall_utc_ns = utc_ns;
  self->wall_origin_ns = origin_ns;
  if (self->layout)
    {
      self->layout->wall_utc_ns = wall_clock ? utc_ns : 0;
      self->layout->wall_origin_ns = origin_ns;
      invalidate (self);
    }
}

double
sl_timeline_get_last_frame_ms (SlTimeline *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE (self), 0);
  return self->last_frame_ms;
}

guint64
sl_timeline_get_n_snapshots (SlTimeline *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE (self), 0);
  return self->n_snapshots;
}

char **
sl_timeline_dup_ruler_text (SlTimeline *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE (self), NULL);
  return sl_timeline_renderer_dup_ruler_text (self->renderer);
}

const char *
sl_timeline_get_range_label (SlTimeline *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE (self), NULL);
  return sl_timeline_renderer_get_range_label (self->renderer);
}

const SlRowLayout *
sl_timeline_get_row_layout (SlTimeline *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE (self), NULL);
  return self->layout != NULL ? sl_timeline_layout_get_row_layout (self->layout) : NULL;
}

void
sl_timeline_set_row_layout (SlTimeline        *self,
                            const SlRowLayout *rows)
{
  g_return_if_fail (SL_IS_TIMELINE (self));
  if (self->layout == NULL)
    return;
  sl_timeline_layout_set_row_layout (self->layout, rows);
  invalidate (self);
}

gboolean
sl_timeline_get_body_extent (SlTimeline *self,
                             double     *x,
                             double     *width)
{
  double s;

  g_return_val_if_fail (SL_IS_TIMELINE (self), FALSE);
  if (self->layout == NULL || !self->layout->sized)
    return FALSE;
  s = widget_scale (self);
  *x = self->layout->header_width / s;
  *width = sl_timeline_layout_body_width (self->layout) / s;
  return TRUE;
}

int
sl_timeline_get_label_width (SlTimeline *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE (self), SL_TIMELINE_LABEL_WIDTH_DEFAULT);
  return self->label_width;
}

void
sl_timeline_set_label_width (SlTimeline *self,
                             int         width)
{
  int old;

  g_return_if_fail (SL_IS_TIMELINE (self));
  old = self->label_width;
  apply_label_width (self, width);
  if (self->label_width != old)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LABEL_WIDTH]);
}

void
sl_timeline_set_show_header (SlTimeline *self,
                             gboolean    show)
{
  g_return_if_fail (SL_IS_TIMELINE (self));
  self->hide_header = !show;
  if (self->layout == NULL)
    return;
  self->layout->hide_header = !show;
  /* the heights of the minimap and ruler come with the scale */
  sl_timeline_layout_set_scale (self->layout, self->layout->scale);
  sl_timeline_layout_scroll_to (self->layout, self->layout->scroll_y);
  invalidate (self);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

gboolean
sl_timeline_get_show_header (SlTimeline *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE (self), TRUE);
  return !self->hide_header;
}

void
sl_timeline_set_natural_height (SlTimeline *self,
                                gboolean    natural)
{
  g_return_if_fail (SL_IS_TIMELINE (self));
  self->natural_height = natural;
  gtk_widget_set_visible (self->vscrollbar, !natural);
  self->natural_px = -1;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
sl_timeline_set_time_origin (SlTimeline *self,
                             gboolean    set,
                             gint64      origin_ns)
{
  g_return_if_fail (SL_IS_TIMELINE (self));
  if (self->has_origin == set && (!set || self->origin_ns == origin_ns))
    return;
  self->has_origin = set;
  self->origin_ns = origin_ns;
  if (self->layout == NULL)
    return;
  self->layout->has_origin = set;
  self->layout->origin_ns = origin_ns;
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
