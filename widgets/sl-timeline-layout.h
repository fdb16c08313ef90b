/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-layout.h: geometry and view of the timeline (no GTK): metrics,
 * time <-> x, zoom and pan, the rows' places and which groups are folded.
 *
 * All coordinates are device pixels of the drawing surface.  The body (the
 * tracks) starts at (header_width, minimap_height + ruler_height); x inside
 * the body maps to time as  t = t0 + x * px_ns.  Rows are laid out from
 * content y 0 downwards and scrolled by scroll_y. */
#pragma once

#include "sl-timeline-model.h"

G_BEGIN_DECLS

/* A cache that a drawing pass keeps with the view it draws: the pass fills
 * it on first use and says how to free it, so the layout frees it with the
 * view without knowing what it holds. */
typedef struct {
  gpointer       data;
  GDestroyNotify destroy;
} SlViewCache;

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
  SlViewCache      columns;    /* the merge's scratch (sl-timeline-columns.c) */
  SlViewCache      overview;   /* the minimap's columns (sl-timeline-minimap.c) */
} SlTimelineLayout;

/* @cache's data: on first use a zeroed block of @size bytes, which
 * @destroy frees with the layout. */
static inline gpointer
sl_view_cache_get (SlViewCache    *cache,
                   gsize           size,
                   GDestroyNotify  destroy)
{
  if (cache->data == NULL)
    {
      cache->data = g_malloc0 (size);
      cache->destroy = destroy;
    }
  return cache->data;
}

/* Closest zoom: 1 ns per 100 px. */
#define SL_TIMELINE_MIN_PX_NS 0.01

SlTimelineLayout *sl_timeline_layout_new          (SlTimelineModel  *model);
void              sl_timeline_layout_free         (SlTimelineLayout *layout);
/* Gives @layout, over a model of the same file that holds more (a staged
 * load), @from's place: scale, size, time window (clamped to the new
 * profile), vertical scroll, and the folding of the groups both have. */
void              sl_timeline_layout_carry_view   (SlTimelineLayout       *layout,
                                                   const SlTimelineLayout *from);
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
double            sl_timeline_layout_max_scroll   (const SlTimelineLayout *layout);
void              sl_timeline_layout_scroll_to    (SlTimelineLayout *layout,
                                                   double            y);

/* Rows. */
guint             sl_timeline_layout_n_rows       (const SlTimelineLayout *layout);
gboolean          sl_timeline_layout_is_group     (const SlTimelineLayout *layout,
                                                   guint                   row);
void              sl_timeline_layout_set_collapsed (SlTimelineLayout *layout,
                                                    guint             row,
                                                    gboolean          collapsed);
gboolean          sl_timeline_layout_get_collapsed (const SlTimelineLayout *layout,
                                                    guint                   row);
/* Widget y and height of a row; FALSE when hidden in a collapsed group. */
gboolean          sl_timeline_layout_row_rect     (const SlTimelineLayout *layout,
                                                   guint                   row,
                                                   int                    *y,
                                                   int                    *height);
/* The row at widget y (SL_NONE outside the body or below the last row). */
guint             sl_timeline_layout_row_at       (const SlTimelineLayout *layout,
                                                   double                  y);
int               sl_timeline_layout_content_height (const SlTimelineLayout *layout);

/* The label column's width for a timeline @width device px wide: 220 px
 * (times @scale), down to 120 px in a narrow window so that the time keeps
 * most of the width; names are cut with an ellipsis. */
int      sl_timeline_layout_fit_header_width (int               width,
                                              double            scale);
/* Changes the label column's width, keeping the visible time span. */
void     sl_timeline_layout_set_header_width (SlTimelineLayout *layout,
                                              int               header_width);

G_END_DECLS
