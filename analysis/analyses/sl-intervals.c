/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-intervals.c: k-way merge of start-sorted event arrays. */
#include "sl-intervals.h"

#include <string.h>

#define SCAN_MAX 12   /* up to this many sources, scan instead of a heap */

void
sl_merge_init (SlMerge *m)
{
  memset (m, 0, sizeof *m);
  m->sources = g_array_new (FALSE, FALSE, sizeof (SlMergeSource));
  m->cur = G_MAXUINT;
}

void
sl_merge_clear (SlMerge *m)
{
  g_clear_pointer (&m->sources, g_array_unref);
  g_clear_pointer (&m->head, g_free);
  g_clear_pointer (&m->heap, g_free);
  m->heap_n = m->n = 0;
}

void
sl_merge_add (SlMerge *m, const SlSpans *spans, guint first, guint last, guint tag)
{
  SlMergeSource src = { spans, first, last, tag };

  if (first < last)
    g_array_append_val (m->sources, src);
}

static inline gboolean
head_less (const SlMergeHead *a, const SlMergeHead *b)
{
  return a->start < b->start || (a->start == b->start && a->src < b->src);
}

static void
sift_down (SlMerge *m, guint i)
{
  SlMergeHead *h = m->heap;
  SlMergeHead x = h[i];

  for (;;)
    {
      guint l = 2 * i + 1, best;
      if (l >= m->heap_n)
        break;
      best = l + 1 < m->heap_n && head_less (&h[l + 1], &h[l]) ? l + 1 : l;
      if (!head_less (&h[best], &x))
        break;
      h[i] = h[best];
      i = best;
    }
  h[i] = x;
}

void
sl_merge_start (SlMerge *m)
{
  m->n = m->sources->len;
  m->head = g_new (gint64, MAX (m->n, 1));
  for (guint i = 0; i < m->n; i++)
    {
      const SlMergeSource *src = &g_array_index (m->sources, SlMergeSource, i);
      m->head[i] = src->spans->start[src->pos];
    }
  m->use_heap = m->n > SCAN_MAX;
  m->cur = G_MAXUINT;
  if (m->use_heap)
    {
      m->heap_n = m->n;
      m->heap = g_new (SlMergeHead, m->n);
      for (guint i = 0; i < m->n; i++)
        m->heap[i] = (SlMergeHead) { m->head[i], i };
      for (guint i = m->n / 2; i-- > 0;)
        sift_down (m, i);
    }
}

static inline void
emit (SlMerge *m, guint s, guint *tag, const SlSpans **spans, guint *index)
{
  SlMergeSource *src = &g_array_index (m->sources, SlMergeSource, s);

  *tag = src->tag;
  *spans = src->spans;
  *index = src->pos++;
  m->head[s] = src->pos < src->end ? src->spans->start[src->pos] : G_MAXINT64;
}

/* Heap mode: source @s at the top has moved on (or run out). */
static void
heap_advance_top (SlMerge *m, guint s)
{
  if (m->head[s] == G_MAXINT64)
    m->heap[0] = m->heap[--m->heap_n];
  else
    m->heap[0].start = m->head[s];
  /* when one source stays ahead (the common case) this stops at once */
  if (m->heap_n > 1)
    sift_down (m, 0);
}

gboolean
sl_merge_next (SlMerge *m, guint *tag, const SlSpans **spans, guint *index)
{
  if (m->use_heap)
    {
      guint s;
      if (m->heap_n == 0)
        return FALSE;
      s = m->heap[0].src;
      emit (m, s, tag, spans, index);
      heap_advance_top (m, s);
      return TRUE;
    }

  if (m->cur != G_MAXUINT)
    {
      gint64 h = m->head[m->cur];
      if (h == G_MAXINT64 || !(h < m->limit || (h == m->limit && m->cur < m->limit_src)))
        m->cur = G_MAXUINT;
    }
  if (m->cur == G_MAXUINT)
    {
      guint best;
      if (!_sl_merge_scan_heads (m, &best, &m->limit, &m->limit_src))
        return FALSE;
      m->cur = best;
    }
  emit (m, m->cur, tag, spans, index);
  return TRUE;
}

gboolean
_sl_merge_heap_run_start (SlMerge *m, guint *tag, const SlSpans **spans, guint *first, guint *end,
                          gint64 *limit_out)
{
  guint best;
  gint64 limit = G_MAXINT64;
  guint limit_src = G_MAXUINT;

  m->cur = G_MAXUINT;
  if (m->heap_n == 0)
    return FALSE;
  best = m->heap[0].src;
  /* the next smallest head is a child of the root */
  for (guint c = 1; c <= 2 && c < m->heap_n; c++)
    if (m->heap[c].start < limit || (m->heap[c].start == limit && m->heap[c].src < limit_src))
      {
        limit = m->heap[c].start;
        limit_src = m->heap[c].src;
      }
  return _sl_merge_give_run (m, best, limit, limit_src, tag, spans, first, end, limit_out);
}

void
_sl_merge_heap_run_stop (SlMerge *m, guint best)
{
  heap_advance_top (m, best);
}

gboolean
sl_merge_next_run (SlMerge *m, guint *tag, const SlSpans **spans, guint *first, guint *last)
{
  guint i, end;
  gint64 limit;

  if (!sl_merge_run_start (m, tag, spans, &i, &end, &limit))
    return FALSE;
  *first = i;
  while (++i < end && (*spans)->start[i] < limit)
    ;
  *last = i;
  sl_merge_run_stop (m, i);
  return TRUE;
}
