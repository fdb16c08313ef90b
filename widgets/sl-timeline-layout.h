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
#include "sl-row-layout.h"

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
  /* no minimap or ruler: the rows start at y 0 (a timeline stacked under
   * a ruler it shares with others); zero-initialized: shown */
  gboolean hide_header;
  /* relative time counts from origin_ns, not the profile's start */
  gboolean has_origin;
  gint64   origin_ns;
  /* wall clock: the session's start (UTC ns) and the capture clock at that
   * moment; labels show the local time of day.  0: no wall clock */
  gint64   wall_utc_ns, wall_origin_ns;
  /*< private >*/
  SlTimelineModel *model;
  gboolean        *collapsed;
  int             *row_y;      /* content y per row (the band's for pinned rows), -1 when not shown */
  int              content_height;
  int              label_width;  /* of the header column, logical px */
  SlRowLayout     *rows;       /* the user's hidden, pinned and moved rows */
  char           **keys;       /* per row: sl_row_key() */
  guint           *order;      /* every row in the order shown (sl-row-order.h) */
  guint           *shown;      /* rows laid out: the band's, then the scrolled ones, each top-down */
  guint            n_shown, n_band;
  guint8          *state;      /* per row: ROW_HIDDEN, ROW_IN_BAND */
  int              band_height;  /* pinned rows under the ruler, device px */
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

/* The widest label column for a timeline @width device px wide: 30 % of
 * it, at least 120 px (times @scale), so that in a narrow window the time
 * keeps most of the width; the user's width applies up to it. */
int      sl_timeline_layout_fit_header_width (int               width,
                                              double            scale);
/* Changes the label column's width, keeping the visible time span. */
void     sl_timeline_layout_set_header_width (SlTimelineLayout *layout,
                                              int               header_width);
/* Row control.  The band of pinned rows sits under the ruler and does not
 * scroll; the other rows scroll below it. */
#define SL_TIMELINE_LABEL_WIDTH_DEFAULT 220
#define SL_TIMELINE_LABEL_WIDTH_MIN     80
/* Width of the label column in logical px (clamped to a sane range). */
void              sl_timeline_layout_set_label_width (SlTimelineLayout *layout,
                                                      int               width);
int               sl_timeline_layout_band_height  (const SlTimelineLayout *layout);
/* Widget y where row @row's lines may start: under the band for scrolled rows. */
int               sl_timeline_layout_row_clip_top (const SlTimelineLayout *layout,
                                                   guint                   row);
/* Rows laid out, in drawing order (the band's top-down, then the rest). */
guint             sl_timeline_layout_n_shown      (const SlTimelineLayout *layout);
guint             sl_timeline_layout_shown_row    (const SlTimelineLayout *layout,
                                                   guint                   i);
const char       *sl_timeline_layout_row_key      (const SlTimelineLayout *layout,
                                                   guint                   row);
/* The row with @key, SL_NONE when this model has none. */
guint             sl_timeline_layout_find_key     (const SlTimelineLayout *layout,
                                                   const char             *key);
/* Hidden by the user (itself or a group around it). */
gboolean          sl_timeline_layout_row_hidden   (const SlTimelineLayout *layout,
                                                   guint                   row);
/* Pinned itself (not only inside a pinned group). */
gboolean          sl_timeline_layout_row_pinned   (const SlTimelineLayout *layout,
                                                   guint                   row);
gboolean          sl_timeline_layout_row_in_band  (const SlTimelineLayout *layout,
                                                   guint                   row);
void              sl_timeline_layout_set_row_hidden (SlTimelineLayout *layout,
                                                     guint             row,
                                                     gboolean          hidden);
void              sl_timeline_layout_set_row_pinned (SlTimelineLayout *layout,
                                                     guint             row,
                                                     gboolean          pinned);
/* Moves @row to @target's place among its siblings (@target may be inside
 * a sibling).  FALSE when they are not siblings or it is the same row. */
gboolean          sl_timeline_layout_move_row     (SlTimelineLayout *layout,
                                                   guint             row,
                                                   guint             target);
/* (transfer none) */
const SlRowLayout *sl_timeline_layout_get_row_layout (const SlTimelineLayout *layout);
/* Replaces the whole row layout (a copy is kept); NULL resets it. */
void              sl_timeline_layout_set_row_layout (SlTimelineLayout  *layout,
                                                     const SlRowLayout *rows);

G_END_DECLS
