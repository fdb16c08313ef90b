/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-util-row.c: drawing a GPU's utilization row, an area chart
 * whose colour also deepens with the busy fraction (a heat strip), so a
 * glance at a thin row tells idle from saturated. */
#include "sl-timeline-gpu-rows.h"
#include "sl-timeline-render-private.h"

/* Busy colour: the greens utilization has in Nsight and in the minimap legend. */
#define UTIL_RGB 0x2e9e4f

static guint32
heat (guint32 bg, float frac)
{
  return _sl_opaque (sl_timeline_color_mix (bg, UTIL_RGB, 0.35f + 0.65f * frac));
}

void
_sl_timeline_util_row_write (SlFrame *f, guint r, int y, int h, int top, int bottom)
{
  const SlTimelineModel *m = f->layout->model;
  guint32 *bgscan = f->renderer->bgscan;
  int pad = MAX (1, (int) (2 * f->scale));
  int y0 = y + pad, y1 = y + h - pad;
  g_autofree float *frac = g_new0 (float, MAX (f->body_width, 1));

  _sl_frame_copy_lines (f, top, bottom, bgscan);
  if (f->body_width <= 0 || y1 <= y0 ||
      !sl_timeline_gpu_util_columns (m, m->rows[r].index, f->layout->t0, f->layout->px_ns,
                                     (guint) f->body_width, frac))
    return;
  for (int line = MAX (y0, top); line < MIN (y1, bottom); line++)
    {
      guint32 *px = _sl_frame_line (f, line) + f->header_width;
      /* the line's level from the bottom; a column fills up to its fraction */
      double level = (double) (y1 - line - 1) / (y1 - y0);

      for (int c = 0; c < f->body_width; c++)
        if (frac[c] > 0 && (frac[c] > level || line == y1 - 1))
          px[c] = heat (f->style->bg, frac[c]);
    }
  f->stats.n_columns += f->body_width;
}
