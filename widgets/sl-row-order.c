/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-row-order.c: the rows' tree walked with each group's children sorted. */
#include "sl-row-order.h"
#include "sl-int.h"

typedef struct {
  guint row;
  int   place;   /* the rank, else the place among the model's siblings */
} Child;

static int
compare_children (gconstpointer a, gconstpointer b)
{
  const Child *x = a, *y = b;

  if (x->place != y->place)
    return x->place < y->place ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

typedef struct {
  const SlTimelineModel *model;
  guint                 *first;   /* n_rows + 2: children of parent p in kids[first[p+1] .. first[p+2]) */
  Child                 *kids;
  guint                 *order;
  guint                  n;
} Walk;

/* Slot of parent @p (SL_NONE: the top level) in Walk.first. */
static guint
slot (guint32 p)
{
  return p == SL_NONE ? 0 : p + 1;
}

/* A parent index past the rows counts as the top level. */
static guint
parent_slot (const SlTimelineModel *m, guint r)
{
  guint32 p = m->rows[r].parent;

  return p < m->n_rows ? slot (p) : 0;
}

static void
walk (Walk *w, guint32 parent)
{
  guint s = slot (parent);

  for (guint k = w->first[s]; k < w->first[s + 1]; k++)
    {
      w->order[w->n++] = w->kids[k].row;
      walk (w, w->kids[k].row);
    }
}

void
sl_row_order_fill (const SlTimelineModel *m,
                   char *const           *keys,
                   const SlRowLayout     *rows,
                   guint                 *order)
{
  guint n = m->n_rows;
  g_autofree guint *first = g_new0 (guint, n + 2);
  g_autofree guint *fill = NULL;
  g_autofree Child *kids = g_new (Child, MAX (n, 1));
  Walk w = { m, first, kids, order, 0 };

  /* count the children of each parent, then place them */
  for (guint r = 0; r < n; r++)
    first[parent_slot (m, r) + 1]++;
  for (guint s = 1; s < n + 2; s++)
    first[s] += first[s - 1];
  fill = g_memdup2 (first, sizeof (guint) * (n + 2));
  for (guint r = 0; r < n; r++)
    {
      guint s = parent_slot (m, r);
      int rank = rows ? sl_row_layout_get_rank (rows, keys[r]) : -1;

      kids[fill[s]].row = r;
      kids[fill[s]].place = rank >= 0 ? rank : (int) (fill[s] - first[s]);
      fill[s]++;
    }
  for (guint s = 0; s < n + 1; s++)
    if (first[s + 1] - first[s] > 1)
      qsort (kids + first[s], first[s + 1] - first[s], sizeof (Child), compare_children);
  walk (&w, SL_NONE);
  g_assert (w.n == n);
}
