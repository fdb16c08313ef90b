/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-view.c: the primitives of one frame, bounded by the pixels shown. */
#include "sl-flame-view.h"

#include <math.h>
#include <string.h>

/* A hard cap on primitives per frame, whatever the layout holds. */
#define MAX_PRIMS 20000

/* Appends a primitive; FALSE when the frame has its fill. */
static gboolean
emit (GArray *prims, SlFlamePrimKind kind, double x0, double x1, guint row, guint8 color,
      gboolean dim, guint32 count, guint32 node, guint32 box)
{
  SlFlamePrim p = { (float) x0, (float) x1, row, kind, color, dim, FALSE, count, node, box };

  if (prims->len >= MAX_PRIMS)
    return FALSE;
  g_array_append_val (prims, p);
  return TRUE;
}

static void
mark_last_selected (GArray *prims)
{
  g_array_index (prims, SlFlamePrim, prims->len - 1).selected = TRUE;
}

/* ---- stack ---------------------------------------------------------------- */

/* First box of @row ending after @t (a row's boxes never overlap: ends rise). */
static guint
first_ending_after (const SlFlameRow *row, gint64 t)
{
  guint lo = 0, hi = row->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (row->boxes[mid].end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static guint
first_starting_at (const SlFlameRow *row, guint lo, gint64 t)
{
  guint hi = row->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (row->boxes[mid].start < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

typedef struct {
  const SlFlameLayout   *layout;
  const SlFlameViewport *vp;
  double                 scale;   /* pixels per ns */
  GArray                *prims;
} StackFrame;

static inline double
px (const StackFrame *f, gint64 t)
{
  return (double) (t - f->vp->t0) * f->scale;
}

/* Merges the sub-pixel boxes from @i on: column after column, the boxes
 * starting in one column are skipped by one binary search; a run ends at a
 * gap or at a box a pixel wide.  Returns the index after the run. */
static guint
stack_merge_run (const StackFrame *f, const SlFlameRow *row, guint r, guint screen_row, guint i)
{
  guint first = i;
  double x0 = MAX (px (f, row->boxes[i].start), 0.0), x_end = x0 + 1;

  while (i < row->n && row->boxes[i].start < f->vp->t1)
    {
      const SlFlameBox *b = &row->boxes[i];
      double bx = px (f, b->start);
      gint64 next_col;
      guint j;

      if (bx - x_end > 1.0 || px (f, b->end) - bx >= 1.0)
        break;
      next_col = MIN (f->vp->t0 + (gint64) ceil ((floor (bx) + 1.0) / f->scale), f->vp->t1);
      j = MAX (first_starting_at (row, i, next_col), i + 1);
      if (j - 1 > i && px (f, row->boxes[j - 1].end) - px (f, row->boxes[j - 1].start) >= 1.0)
        j--;   /* the last box of the column is wide: it is drawn itself */
      x_end = MAX (x_end, px (f, row->boxes[j - 1].end));
      i = j;
    }
  emit (f->prims, SL_FLAME_PRIM_MORE, x0, MAX (x_end, x0 + 1), screen_row, 0, FALSE, i - first, r, first);
  return i;
}

static void
stack_row (const StackFrame *f, guint r, guint screen_row)
{
  const SlFlameRow *row = &f->layout->rows[r];
  const SlHighlight *hl = f->vp->highlight;
  guint i = first_ending_after (row, f->vp->t0);

  while (i < row->n && row->boxes[i].start < f->vp->t1 && f->prims->len < MAX_PRIMS)
    {
      const SlFlameBox *b = &row->boxes[i];
      double x0 = px (f, b->start), x1 = px (f, b->end);

      if (x1 - x0 < 1.0)
        {
          i = stack_merge_run (f, row, r, screen_row, i);
          continue;
        }
      gboolean dim = FALSE;
      SlEventRef ev = sl_flame_box_event (b);
      if (hl != NULL && sl_highlight_get_n (hl) > 0)
        dim = !sl_highlight_contains (hl, f->layout->model, &ev);
      if (emit (f->prims, SL_FLAME_PRIM_BOX, MAX (x0, -1.0), MIN (x1, f->vp->width + 1), screen_row,
                sl_flame_layout_box_color (f->layout, b), dim, 1, r, i)
          && f->vp->has_selected && memcmp (&ev, &f->vp->selected, sizeof ev) == 0)
        mark_last_selected (f->prims);
      i++;
    }
}

static void
build_stack (const SlFlameLayout *layout, const SlFlameViewport *vp, GArray *prims)
{
  StackFrame f = { layout, vp, 0, prims };

  if (vp->t1 <= vp->t0 || vp->width <= 0)
    return;
  f.scale = vp->width / (double) (vp->t1 - vp->t0);
  for (guint r = vp->first_row; r < layout->n_rows && r < vp->first_row + vp->n_rows; r++)
    stack_row (&f, r, r - vp->first_row);
}

/* ---- flame graph ------------------------------------------------------------ */

typedef struct {
  const SlFlameLayout   *layout;
  const SlFlameViewport *vp;
  double                 scale;   /* pixels per ns of GPU time */
  gint64                 origin;  /* the zoom node's offset */
  gboolean               dimming;
  GArray                *prims;
} GraphFrame;

static void
graph_box (const GraphFrame *f, guint32 id, guint depth)
{
  const SlFlameNode *n = &f->layout->nodes[id];
  double x0 = (n->offset - f->origin) * f->scale;

  if (depth >= f->vp->first_row)
    {
      if (emit (f->prims, SL_FLAME_PRIM_BOX, x0, x0 + n->total_gpu * f->scale, depth - f->vp->first_row,
                n->color, f->dimming && !(f->vp->matched && f->vp->matched[id]), 1, id, 0)
          && id == f->vp->selected_node)
        mark_last_selected (f->prims);
    }
}

static void
graph_children (const GraphFrame *f, guint32 id, guint depth)
{
  const SlFlameNode *n = &f->layout->nodes[id];

  if (depth >= f->vp->first_row + f->vp->n_rows || f->prims->len >= MAX_PRIMS)
    return;
  for (guint32 c = n->first_child; c < n->first_child + n->n_children; c++)
    {
      const SlFlameNode *child = &f->layout->nodes[c];

      if (child->total_gpu * f->scale < 1.0)
        {
          guint32 count = 0, end = n->first_child + n->n_children;
          double x0 = (child->offset - f->origin) * f->scale;
          double x1 = (n->offset + n->total_gpu - f->origin) * f->scale;   /* children fill their parent */

          for (guint32 k = c; k < end && f->layout->nodes[k].total_gpu > 0; k++)
            count++;
          if (count > 0 && depth >= f->vp->first_row)
            emit (f->prims, SL_FLAME_PRIM_MORE, x0, MAX (x1, x0 + 1), depth - f->vp->first_row, 0, FALSE,
                  count, c, 0);
          return;
        }
      graph_box (f, c, depth);
      graph_children (f, c, depth + 1);
    }
}

static void
build_graph (const SlFlameLayout *layout, const SlFlameViewport *vp, GArray *prims)
{
  GraphFrame f = { layout, vp, 0, 0, FALSE, prims };
  guint32 zoom = vp->zoom < layout->n_nodes ? vp->zoom : 0;
  const SlFlameNode *z = &layout->nodes[zoom];

  if (z->total_gpu <= 0 || vp->width <= 0)
    return;
  f.scale = vp->width / (double) z->total_gpu;
  f.origin = z->offset;
  f.dimming = vp->highlight != NULL && sl_highlight_get_n (vp->highlight) > 0;
  graph_box (&f, zoom, 0);
  graph_children (&f, zoom, 1);
}

void
sl_flame_view_build (const SlFlameLayout *layout, const SlFlameViewport *vp, GArray *prims)
{
  g_return_if_fail (layout != NULL && vp != NULL && prims != NULL);
  g_array_set_size (prims, 0);
  if (vp->mode == SL_FLAME_MODE_STACK)
    build_stack (layout, vp, prims);
  else
    build_graph (layout, vp, prims);
}

guint
sl_flame_view_n_rows (const SlFlameLayout *layout, const SlFlameViewport *vp)
{
  guint32 zoom;
  guint deepest = 0;

  if (vp->mode == SL_FLAME_MODE_STACK)
    return layout->n_rows;
  zoom = vp->zoom < layout->n_nodes ? vp->zoom : 0;
  /* breadth-first numbering: the nodes under @zoom lie after it */
  for (guint32 id = zoom; id < layout->n_nodes; id++)
    if (layout->nodes[id].depth > deepest && sl_flame_layout_is_under (layout, id, zoom))
      deepest = layout->nodes[id].depth;
  return deepest - layout->nodes[zoom].depth + 1;
}
