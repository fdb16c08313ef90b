/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-columns.h: culling and per-pixel merging (no GTK).
 *
 * For the current view, each row becomes one summary per pixel column of
 * the body (events narrower than a pixel, merged) plus the boxes of the
 * events at least a pixel wide, drawn whole.  Large tracks zoomed out read
 * their level-of-detail pyramid instead of the events. */
#pragma once

#include "sl-timeline-layout.h"

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

/* The columns and boxes of @row for the current view.  The result points
 * into the layout and is valid until the next call. */
void sl_timeline_layout_row_columns  (SlTimelineLayout *layout,
                                      guint             row,
                                      SlRowColumns     *out);
/* The merged columns of track @row, no boxes, as if the view started at @t0
 * with @px_ns per pixel (the minimap's whole run).  Same lifetime. */
void _sl_timeline_layout_track_summary (SlTimelineLayout *layout,
                                        guint             row,
                                        double            t0,
                                        double            px_ns,
                                        SlRowColumns     *out);

G_END_DECLS
