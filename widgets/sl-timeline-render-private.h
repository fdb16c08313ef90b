/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-render-private.h: what the renderer's passes share.
 *
 * A frame is drawn in two phases: the passes first write minimap, ruler and
 * rows straight into the image's pixels, then cairo adds text and outlines
 * on top.  Each pass lives with its concept: sl-timeline-minimap.c,
 * sl-timeline-ruler.c and sl-timeline-rows.c. */
#pragma once

#include <string.h>

#include "sl-timeline-colors.h"
#include "sl-timeline-highlight.h"
#include "sl-timeline-render.h"
#include "sl-timeline-text.h"

G_BEGIN_DECLS

/* A label queued by the pixel phase for the text phase. */
typedef struct {
  const char *text;
  double      x, baseline, max_w;
  guint32     rgb;
  int         top;      /* first line of its part (the pinned band or below) */
} SlLabel;

struct _SlTimelineRenderer {
  double          scale;
  SlTimelineFont  label, header, bold, small;
  guint32        *scan, *band, *bgscan;  /* scanlines: a row, a group band, the body background */
  int             scan_len;
  GArray         *labels;                /* SlLabel */
  GArray         *ticks;                 /* gint64: major tick times */
  GArray         *tick_labels;           /* SlRulerTick: the same ticks, labelled */
  char           *badge;                 /* the selected range's length, NULL: none shown */
  double          badge_x, badge_w;      /* body px */
  const char     *ruler_note;            /* why the ruler has no ticks, NULL: it has */
  /* the highlight (sl-timeline-highlight-draw.c) */
  SlHighlight      *highlight;
  SlHighlightIndex *highlight_index;     /* built on the first frame that shows it */
  GArray           *highlight_spans;     /* SlHighlightSpan: one row's, scratch */
  /* with a ready callback, big indexes are built in a worker */
  void            (*index_ready) (gpointer data);
  gpointer          index_ready_data;
  struct _SlIndexBuild *index_build;     /* the one being built, NULL: none */
};

/* One frame being drawn. */
typedef struct {
  SlTimelineRenderer    *renderer;
  SlTimelineLayout      *layout;
  const SlTimelineStyle *style;
  double                 scale;
  guchar                *data;           /* the image's pixels */
  int                    stride;
  int                    width, height;   /* the layout's, device px */
  int                    header_width, body_y, body_width;
  gint64                 tick_step, tick_origin;
  cairo_t               *cr;             /* text phase only */
  SlRenderStats          stats;
} SlFrame;

static inline guint32
_sl_opaque (guint32 rgb)
{
  return 0xff000000u | rgb;
}

static inline guint32 *
_sl_frame_line (const SlFrame *f, int y)
{
  return (guint32 *) (void *) (f->data + (gsize) y * f->stride);
}

static inline void
_sl_fill_span (guint32 *line, int x0, int x1, guint32 px)
{
  for (int x = x0; x < x1; x++)
    line[x] = px;
}

/* Lines [y0, y1) of the frame become copies of @scan. */
static inline void
_sl_frame_copy_lines (const SlFrame *f, int y0, int y1, const guint32 *scan)
{
  for (int y = y0; y < y1; y++)
    memcpy (_sl_frame_line (f, y), scan, f->width * sizeof (guint32));
}

/* cairo's source from 0xRRGGBB. */
void _sl_set_source_rgba              (cairo_t *cr,
                                       guint32  rgb,
                                       double   alpha);

/* sl-timeline-ruler.c */
void _sl_timeline_ruler_collect_ticks (SlFrame *frame);
void _sl_timeline_ruler_write         (SlFrame *frame);
void _sl_timeline_ruler_draw_labels   (SlFrame *frame);
/* The renderer's ruler state: made with it, freed with it. */
void _sl_timeline_ruler_init          (SlTimelineRenderer *renderer);
void _sl_timeline_ruler_clear         (SlTimelineRenderer *renderer);
/* sl-timeline-minimap.c */
void _sl_timeline_minimap_write       (SlFrame *frame);
void _sl_timeline_minimap_draw_overlay (SlFrame *frame);
/* sl-timeline-rows.c */
void _sl_timeline_rows_write          (SlFrame *frame);
void _sl_timeline_rows_draw_labels    (SlFrame *frame);
void _sl_timeline_rows_draw_headers   (SlFrame *frame);
/* sl-timeline-util-row.c: a GPU's utilization row, lines [top, bottom) */
void _sl_timeline_util_row_write      (SlFrame *frame,
                                       guint    row,
                                       int      y,
                                       int      h,
                                       int      top,
                                       int      bottom);
/* sl-timeline-metrics.c: a counter row's area chart, line by line */
void _sl_timeline_metrics_write       (SlFrame *frame,
                                       guint    row,
                                       int      y,
                                       int      height,
                                       int      top,
                                       int      bottom);
/* sl-timeline-highlight-draw.c: after the text, on the pixels */
void _sl_timeline_highlight_write     (SlFrame *frame);
void _sl_timeline_highlight_clear     (SlTimelineRenderer *renderer);

G_END_DECLS
