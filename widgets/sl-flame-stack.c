/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-stack.c: the stack's rows: boxes gathered per process and depth,
 * sorted by start and dealt into lanes so that no row overlaps itself (the
 * level of detail then merges a row's sub-pixel boxes exactly). */
#include "sl-flame-layout-private.h"

#include <stdlib.h>

/* Beyond this many lanes a depth's boxes share its last lane (overlapping). */
#define MAX_LANES 16

void
_sl_flame_stack_begin (Build *b)
{
  b->band_of_pid = g_hash_table_new (g_direct_hash, g_direct_equal);
  b->bands = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  b->band_pids = g_array_new (FALSE, FALSE, sizeof (guint32));
}

void
_sl_flame_stack_add (Build *b, guint32 pid, guint depth, gint64 start, gint64 end,
                     guint32 owner, guint32 index)
{
  SlFlameBox box = { start, MAX (end, start), owner, index };
  gpointer v;
  GPtrArray *depths;
  guint band;

  if (!g_hash_table_lookup_extended (b->band_of_pid, GUINT_TO_POINTER (pid), NULL, &v))
    {
      v = GUINT_TO_POINTER (b->bands->len);
      g_hash_table_insert (b->band_of_pid, GUINT_TO_POINTER (pid), v);
      g_ptr_array_add (b->bands, g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref));
      g_array_append_val (b->band_pids, pid);
    }
  band = GPOINTER_TO_UINT (v);
  depths = b->bands->pdata[band];
  while (depths->len <= depth)
    g_ptr_array_add (depths, g_array_new (FALSE, FALSE, sizeof (SlFlameBox)));
  g_array_append_val ((GArray *) depths->pdata[depth], box);
}

void
_sl_flame_stack_abort (Build *b)
{
  g_clear_pointer (&b->band_of_pid, g_hash_table_unref);
  g_clear_pointer (&b->bands, g_ptr_array_unref);
  g_clear_pointer (&b->band_pids, g_array_unref);
}

static int
cmp_box (const void *a, const void *b)
{
  const SlFlameBox *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end;
}

/* Sorts @boxes unless they already are (the kernels of one stream are). */
static void
sort_boxes (GArray *boxes)
{
  const SlFlameBox *v = (const SlFlameBox *) boxes->data;

  for (guint i = 1; i < boxes->len; i++)
    if (cmp_box (&v[i - 1], &v[i]) > 0)
      {
        qsort (boxes->data, boxes->len, sizeof (SlFlameBox), cmp_box);
        return;
      }
}

/* Deals the sorted @boxes of one depth into lanes: each box to the first
 * lane free at its start.  Appends one row per lane used. */
static void
deal_lanes (GArray *rows, GArray *boxes, guint32 pid, guint depth)
{
  const SlFlameBox *v = (const SlFlameBox *) boxes->data;
  gint64 lane_end[MAX_LANES];
  guint n_lanes = 0, count[MAX_LANES] = { 0 };
  g_autofree guint8 *lane_of = g_new (guint8, MAX (boxes->len, 1));

  for (guint i = 0; i < boxes->len; i++)
    {
      guint l = 0;
      while (l < n_lanes && lane_end[l] > v[i].start)
        l++;
      if (l == MAX_LANES)
        l = MAX_LANES - 1;
      if (l == n_lanes)
        lane_end[n_lanes++] = G_MININT64;
      lane_end[l] = MAX (lane_end[l], v[i].end);
      lane_of[i] = (guint8) l;
      count[l]++;
    }
  for (guint l = 0; l < n_lanes; l++)
    {
      SlFlameRow row = { pid, (guint16) depth, (guint16) l, 0, g_new (SlFlameBox, count[l]), 0 };
      for (guint i = 0; i < boxes->len; i++)
        if (lane_of[i] == l)
          {
            row.boxes[row.n++] = v[i];
            row.max_dur = MAX (row.max_dur, v[i].end - v[i].start);
          }
      g_array_append_val (rows, row);
    }
}

static int
cmp_pid (const void *a, const void *b, void *data)
{
  const guint32 *pids = data;
  guint32 x = pids[*(const guint *) a], y = pids[*(const guint *) b];

  return x < y ? -1 : x > y;
}

void
_sl_flame_stack_end (Build *b)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (SlFlameRow));
  guint n_bands = b->bands->len;
  g_autofree guint *order = g_new (guint, MAX (n_bands, 1));

  for (guint i = 0; i < n_bands; i++)
    order[i] = i;
  g_qsort_with_data (order, n_bands, sizeof (guint), cmp_pid, b->band_pids->data);
  for (guint i = 0; i < n_bands; i++)
    {
      GPtrArray *depths = b->bands->pdata[order[i]];
      guint32 pid = g_array_index (b->band_pids, guint32, order[i]);

      for (guint d = 0; d < depths->len; d++)
        {
          GArray *boxes = depths->pdata[d];
          sort_boxes (boxes);
          deal_lanes (rows, boxes, pid, d);
          g_array_set_size (boxes, 0);   /* memory back early: 24 bytes per kernel */
        }
    }
  b->layout->n_rows = rows->len;
  b->layout->rows = (SlFlameRow *) g_array_steal (rows, NULL);
  _sl_flame_stack_abort (b);
}
