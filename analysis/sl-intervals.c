/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-intervals.c: k-way merge of start-sorted event arrays. */
#include "sl-intervals.h"

void
sl_merge_init (SlMerge *m)
{
  m->sources = g_array_new (FALSE, FALSE, sizeof (SlMergeSource));
  m->heap = NULL;
  m->heap_n = 0;
}

void
sl_merge_clear (SlMerge *m)
{
  g_clear_pointer (&m->sources, g_array_unref);
  g_clear_pointer (&m->heap, g_free);
  m->heap_n = 0;
}

void
sl_merge_add (SlMerge *m, const SlSpans *spans, guint first, guint last, guint tag)
{
  SlMergeSource src = { spans, first, last, tag };

  if (first < last)
    g_array_append_val (m->sources, src);
}

static inline gboolean
less (const SlMerge *m, guint a, guint b)
{
  const SlMergeSource *x = &g_array_index (m->sources, SlMergeSource, a);
  const SlMergeSource *y = &g_array_index (m->sources, SlMergeSource, b);
  gint64 sx = x->spans->start[x->pos], sy = y->spans->start[y->pos];

  return sx < sy || (sx == sy && a < b);
}

static void
sift_down (SlMerge *m, guint i)
{
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, best = i, tmp;
      if (l < m->heap_n && less (m, m->heap[l], m->heap[best]))
        best = l;
      if (r < m->heap_n && less (m, m->heap[r], m->heap[best]))
        best = r;
      if (best == i)
        return;
      tmp = m->heap[i];
      m->heap[i] = m->heap[best];
      m->heap[best] = tmp;
      i = best;
    }
}

void
sl_merge_start (SlMerge *m)
{
  m->heap_n = m->sources->len;
  m->heap = g_new (guint, MAX (m->heap_n, 1));
  for (guint i = 0; i < m->heap_n; i++)
    m->heap[i] = i;
  for (guint i = m->heap_n / 2; i-- > 0;)
    sift_down (m, i);
}

gboolean
sl_merge_next (SlMerge *m, guint *tag, const SlSpans **spans, guint *index)
{
  SlMergeSource *src;

  if (m->heap_n == 0)
    return FALSE;
  src = &g_array_index (m->sources, SlMergeSource, m->heap[0]);
  *tag = src->tag;
  *spans = src->spans;
  *index = src->pos++;
  if (src->pos >= src->end)
    m->heap[0] = m->heap[--m->heap_n];
  /* When one source stays ahead (the common case) this stops at once. */
  if (m->heap_n > 1)
    sift_down (m, 0);
  return TRUE;
}
