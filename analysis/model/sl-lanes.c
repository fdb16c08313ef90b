/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-lanes.c: greedy interval colouring with two binary heaps: the busy
 * lanes by the end of their last span, the free lanes by index. */
#include "sl-lanes.h"

typedef struct {
  gint64  key;
  guint32 lane;
} HeapItem;

typedef struct {
  HeapItem *items;
  guint     n;
} Heap;

static void
heap_push (Heap *h, gint64 key, guint32 lane)
{
  guint i = h->n++;

  while (i > 0 && h->items[(i - 1) / 2].key > key)
    {
      h->items[i] = h->items[(i - 1) / 2];
      i = (i - 1) / 2;
    }
  h->items[i] = (HeapItem) { key, lane };
}

static HeapItem
heap_pop (Heap *h)
{
  HeapItem top = h->items[0], last = h->items[--h->n];
  guint i = 0;

  for (;;)
    {
      guint c = 2 * i + 1;

      if (c >= h->n)
        break;
      if (c + 1 < h->n && h->items[c + 1].key < h->items[c].key)
        c++;
      if (last.key <= h->items[c].key)
        break;
      h->items[i] = h->items[c];
      i = c;
    }
  if (h->n > 0)
    h->items[i] = last;
  return top;
}

/* Moves the lanes whose last span ended by @t from @busy to @free.  A lane
 * is pushed on @busy once per span it holds but is current only for its
 * last (@lane_end): only that entry frees it. */
static void
release_lanes (Heap *busy, Heap *free_lanes, const gint64 *lane_end, gboolean *is_free, gint64 t)
{
  while (busy->n > 0 && busy->items[0].key <= t)
    {
      HeapItem it = heap_pop (busy);

      if (is_free[it.lane] || it.key != lane_end[it.lane])
        continue;
      is_free[it.lane] = TRUE;
      heap_push (free_lanes, it.lane, it.lane);
    }
}

guint
sl_lanes_assign (const SlSpans *spans,
                 guint          max_lanes,
                 guint16       *lane)
{
  guint n = spans->n, n_lanes = 0;

  g_return_val_if_fail (max_lanes >= 1 && max_lanes <= G_MAXUINT16 + 1u, 0);
  if (n == 0)
    return 0;
  guint cap = MIN (n, max_lanes);
  Heap busy = { g_new (HeapItem, n), 0 }, free_lanes = { g_new (HeapItem, cap), 0 };
  g_autofree gint64 *lane_end = g_new (gint64, cap);
  g_autofree gboolean *is_free = g_new0 (gboolean, cap);

  for (guint i = 0; i < n; i++)
    {
      /* an instant range still shows: it holds its lane for 1 ns */
      gint64 end = MAX (sl_spans_end (spans, i), spans->start[i] + 1);
      guint32 l;

      release_lanes (&busy, &free_lanes, lane_end, is_free, spans->start[i]);
      if (free_lanes.n > 0)
        {
          l = heap_pop (&free_lanes).lane;
          is_free[l] = FALSE;
          lane_end[l] = end;
        }
      else if (n_lanes < cap)
        {
          l = n_lanes++;
          lane_end[l] = end;
        }
      else
        {
          l = cap - 1;      /* over the cap: the last lane takes the rest */
          lane_end[l] = MAX (lane_end[l], end);
        }
      lane[i] = (guint16) l;
      heap_push (&busy, end, l);
    }
  g_free (busy.items);
  g_free (free_lanes.items);
  return n_lanes;
}
