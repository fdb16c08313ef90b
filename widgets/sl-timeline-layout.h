/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-layout.h: geometry and view of the timeline (no GTK).
 *
 * All coordinates are device pixels of the drawing surface.  The body (the
 * tracks) starts at (header_width, minimap_height + ruler_height); x inside
 * the body maps to time as  t = t0 + x * px_ns.  Rows are laid out from
 * content y 0 downwards and scrolled by scroll_y. */
#pragma once

#include "sl-timeline-model.h"
#include "sl-format.h"

G_BEGIN_DECLS

typedef struct {
  int     x0, x1;          /* body-relative device px, x1 > x0 */
  guint32 rgb;
  guint8  seg;             /* segment of the row */
  guint   index;           /* event index in the segment's array */
} SlBox;

/* The per-pixel-column summary of one row for the current view. */
typedef struct {
  int           n_cols;
  const float  *cov;       /* busy fraction per column (>1 when events overlap) */
  const guint8 *color;     /* palette index of the column's dominant event */
  const SlBox  *boxes;     /* events at least a pixel wide, drawn whole */
  guint         n_boxes;
  int           lod_level; /* -1: drawn from the events */
  guint         n_visited; /* events or buckets read */
} SlRowColumns;

typedef struct {
  /* metrics (device px) */
  int      width, height;
  int      header_width, minimap_height, ruler_height;
  int      row_height, group_height, thread_height;
  double   scale;
  /* view */
  double   t0;             /* ns at body x = 0 */
  double   px_ns;          /* ns per device px */
  double   scroll_y;
  /* selection of a time range */
  gboolean has_range;
  gint64   range_start, range_end;
  gboolean relative_time;
  /*< private >*/
  SlTimelineModel *model;
  gboolean        *collapsed;
  int             *row_y;      /* content y per row, -1 when hidden by a collapsed group */
  int              content_height;
  gboolean         sized;
  int              n_alloc;
  float           *cov, *best;
  guint8          *color;
  GArray          *boxes;
  float           *overview;
  guint8          *overview_color;
  int              overview_width;
} SlTimelineLayout;

/* Closest zoom: 1 ns per 100 px. */
#define SL_TIMELINE_MIN_PX_NS 0.01

SlTimelineLayout *sl_timeline_layout_new          (SlTimelineModel  *model);
void              sl_timeline_layout_free         (SlTimelineLayout *layout);
/* Row heights and margins for a device scale (1 or 2). */
void              sl_timeline_layout_set_scale    (SlTimelineLayout *layout,
                                                   double            scale);
/* Keeps the visible time range; the first call fits the whole profile. */
void              sl_timeline_layout_set_size     (SlTimelineLayout *layout,
                                                   int               width,
                                                   int               height);

int               sl_timeline_layout_body_y       (const SlTimelineLayout *layout);
int               sl_timeline_layout_body_width   (const SlTimelineLayout *layout);
int               sl_timeline_layout_body_height  (const SlTimelineLayout *layout);
double            sl_timeline_layout_max_px_ns    (const SlTimelineLayout *layout);

/* Body-relative x of time @t and back. */
double            sl_timeline_layout_time_to_x    (const SlTimelineLayout *layout,
                                                   double                  t);
double            sl_timeline_layout_x_to_time    (const SlTimelineLayout *layout,
                                                   double                  x);
/* Minimap x (body-relative) of time @t, the minimap always shows the whole run. */
double            sl_timeline_layout_overview_x   (const SlTimelineLayout *layout,
                                                   double                  t);
double            sl_timeline_layout_overview_time (const SlTimelineLayout *layout,
                                                    double                  x);

/* View changes; all clamp to the profile and the zoom limits. */
void              sl_timeline_layout_set_view     (SlTimelineLayout *layout,
                                                   double            t0,
                                                   double            px_ns);
/* Zooms by @factor (< 1 zooms in) keeping the time under body x @x in place. */
void              sl_timeline_layout_zoom_at      (SlTimelineLayout *layout,
                                                   double            x,
                                                   double            factor);
void              sl_timeline_layout_pan          (SlTimelineLayout *layout,
                                                   double            dx);
void              sl_timeline_layout_fit_all      (SlTimelineLayout *layout);
/* Shows [start, end] with @margin (fraction of its length) on each side. */
void              sl_timeline_layout_zoom_to      (SlTimelineLayout *layout,
                                                   double            start,
                                                   double            end,
                                                   double            margin);
void              sl_timeline_layout_center_on    (SlTimelineLayout *layout,
                                                   double            t);
void              sl_timeline_layout_scroll_to    (SlTimelineLayout *layout,
                                                   double            y);
double            sl_timeline_layout_max_scroll   (const SlTimelineLayout *layout);

/* Rows. */
guint             sl_timeline_layout_n_rows       (const SlTimelineLayout *layout);
gboolean          sl_timeline_layout_is_group     (const SlTimelineLayout *layout,
                                                   guint                   row);
gboolean          sl_timeline_layout_get_collapsed (const SlTimelineLayout *layout,
                                                    guint                   row);
void              sl_timeline_layout_set_collapsed (SlTimelineLayout *layout,
                                                    guint             row,
                                                    gboolean          collapsed);
/* Widget y and height of a row; FALSE when hidden in a collapsed group. */
gboolean          sl_timeline_layout_row_rect     (const SlTimelineLayout *layout,
                                                   guint                   row,
                                                   int                    *y,
                                                   int                    *height);
/* The row at widget y (SL_NONE outside the body or below the last row). */
guint             sl_timeline_layout_row_at       (const SlTimelineLayout *layout,
                                                   double                  y);
int               sl_timeline_layout_content_height (const SlTimelineLayout *layout);

/* Culling and merging: the columns and boxes of @row for the current view.
 * The result points into the layout and is valid until the next call. */
void              sl_timeline_layout_row_columns  (SlTimelineLayout *layout,
                                                   guint             row,
                                                   SlRowColumns     *out);
/* The GPU activity of the whole run per minimap column, 0..1, and its colour. */
void              sl_timeline_layout_overview     (SlTimelineLayout *layout,
                                                   const float     **values,
                                                   const guint8    **colors);

/* The event under widget point (@x, @y), within a few pixels. */
gboolean          sl_timeline_layout_hit_test     (SlTimelineLayout *layout,
                                                   double            x,
                                                   double            y,
                                                   SlEventRef       *out);
/* Widget rectangle of an event (x may extend beyond the body). */
gboolean          sl_timeline_layout_event_rect   (const SlTimelineLayout *layout,
                                                   const SlEventRef       *event,
                                                   double                 *x0,
                                                   double                 *x1,
                                                   int                    *y,
                                                   int                    *height);

/* Ruler: tick spacing (ns, 1-2-5 steps) for at least @min_px pixels. */
gint64            sl_timeline_layout_tick_step    (const SlTimelineLayout *layout,
                                                   double                  min_px);
/* Label of tick time @t (absolute ns) for spacing @step: "1.25 ms". */
char             *sl_timeline_layout_format_tick  (const SlTimelineLayout *layout,
                                                   gint64                  t,
                                                   gint64                  step);

G_END_DECLS
