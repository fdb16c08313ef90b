/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-intervals.h: walking several start-sorted event arrays as one (k-way
 * merge) and measuring the union of intervals, the building blocks of the
 * busy / idle / overlap analyses. */
#pragma once

#include <glib.h>
#include "sl-profile.h"

G_BEGIN_DECLS

typedef struct {
  const SlSpans *spans;
  guint          pos;      /* next index */
  guint          end;      /* one past the last index */
  guint          tag;      /* caller's id of this source */
} SlMergeSource;

/* Events of all sources in start order (ties: lower source first).  Few
 * sources: a scan for the smallest head, then a run from that source while it
 * stays ahead of all others (no scan at all when one stream leads for a
 * while).  Many sources: a binary heap of (start, source) pairs. */
typedef struct {
  gint64 start;
  guint  src;
} SlMergeHead;

typedef struct {
  GArray      *sources;    /* SlMergeSource */
  gint64      *head;       /* current start per source, G_MAXINT64 when exhausted */
  guint        n;
  gboolean     use_heap;
  guint        cur;        /* source of the current run, G_MAXUINT when none */
  gint64       limit;      /* the best start among the other sources */
  guint        limit_src;
  SlMergeHead *heap;
  guint        heap_n;
  guint        run_src;    /* source of the run begun by sl_merge_run_start */
} SlMerge;

void     sl_merge_init   (SlMerge *merge);
void     sl_merge_clear  (SlMerge *merge);
/* Adds spans[first, last) (sorted by start); empty slices are ignored. */
void     sl_merge_add    (SlMerge *merge, const SlSpans *spans, guint first, guint last, guint tag);
/* Call once after the last sl_merge_add(). */
void     sl_merge_start  (SlMerge *merge);
/* The next event: its source's tag, the spans and its index.  FALSE at the end. */
gboolean sl_merge_next   (SlMerge *merge, guint *tag, const SlSpans **spans, guint *index);

/* The same events a run at a time: spans[*first, *last) of the source
 * @tag, all of them before the next event of every other source (in the
 * order of sl_merge_next).  Cheaper when sources take turns in stretches,
 * as streams do.  Do not mix with sl_merge_next() on one merge. */
gboolean sl_merge_next_run (SlMerge *merge, guint *tag, const SlSpans **spans, guint *first, guint *last);

/* Heap mode of sl_merge_run_start() and sl_merge_run_stop(). */
gboolean _sl_merge_heap_run_start (SlMerge *merge, guint *tag, const SlSpans **spans, guint *first,
                                   guint *end, gint64 *limit);
void     _sl_merge_heap_run_stop  (SlMerge *merge, guint src);

/* Scan mode: the source with the smallest head (the lower index on ties)
 * and the smallest head after it (@limit, of @limit_src; G_MAXINT64 and
 * G_MAXUINT when none).  FALSE when every source is exhausted. */
static inline gboolean
_sl_merge_scan_heads (const SlMerge *m, guint *best_out, gint64 *limit, guint *limit_src)
{
  guint best = G_MAXUINT, second = G_MAXUINT;
  gint64 bs = G_MAXINT64, ss = G_MAXINT64;

  /* strict < keeps the lower index on ties */
  for (guint i = 0; i < m->n; i++)
    {
      gint64 h = m->head[i];
      if (h < bs)
        {
          second = best;
          ss = bs;
          best = i;
          bs = h;
        }
      else if (h < ss)
        {
          second = i;
          ss = h;
        }
    }
  if (best == G_MAXUINT || bs == G_MAXINT64)
    return FALSE;
  *best_out = best;
  *limit = ss;
  *limit_src = second;
  return TRUE;
}

/* Source @best's run, up to the next source's head (@limit, from source
 * @limit_src), into the out arguments of sl_merge_run_start(). */
static inline gboolean
_sl_merge_give_run (SlMerge *m, guint best, gint64 limit, guint limit_src, guint *tag, const SlSpans **spans,
                    guint *first, guint *end, gint64 *limit_out)
{
  const SlMergeSource *src = &g_array_index (m->sources, SlMergeSource, best);

  /* ties with the next source's head: the lower source goes first */
  if (limit == G_MAXINT64 || limit_src == G_MAXUINT)
    limit = G_MAXINT64;
  else if (best < limit_src)
    limit++;
  m->run_src = best;
  *tag = src->tag;
  *spans = src->spans;
  *first = src->pos;
  *end = src->end;
  *limit_out = limit;
  return TRUE;
}

/* The same with the end of the run left to the caller, who walks the events
 * and tests the starts on the way (one test instead of two):
 *
 *   while (sl_merge_run_start (&m, &tag, &spans, &i, &end, &limit))
 *     {
 *       do
 *         use (spans, i);
 *       while (++i < end && spans->start[i] < limit);
 *       sl_merge_run_stop (&m, i);
 *     }
 *
 * The run is spans[first, end) up to the first start >= @limit; its first
 * event always belongs to it.
 *
 * Inline: the callers' hot loops take a run every few events (streams take
 * turns), and a call each way costs as much as the scan. */
static inline gboolean
sl_merge_run_start (SlMerge *m, guint *tag, const SlSpans **spans, guint *first, guint *end, gint64 *limit_out)
{
  guint best, limit_src;
  gint64 limit;

  if (m->use_heap)
    return _sl_merge_heap_run_start (m, tag, spans, first, end, limit_out);
  m->cur = G_MAXUINT;
  if (!_sl_merge_scan_heads (m, &best, &limit, &limit_src))
    return FALSE;
  return _sl_merge_give_run (m, best, limit, limit_src, tag, spans, first, end, limit_out);
}

static inline void
sl_merge_run_stop (SlMerge *m, guint pos)
{
  guint best = m->run_src;
  SlMergeSource *src = &g_array_index (m->sources, SlMergeSource, best);

  src->pos = pos;
  m->head[best] = pos < src->end ? src->spans->start[pos] : G_MAXINT64;
  if (m->use_heap)
    _sl_merge_heap_run_stop (m, best);
}

/* Union of intervals fed in start order. */
typedef struct {
  gboolean open;
  gint64   cur_start;
  gint64   cur_end;
  gint64   busy;           /* length of the closed part of the union */
  guint64  n_intervals;    /* disjoint intervals so far */
} SlUnion;

static inline void
sl_union_init (SlUnion *u)
{
  u->open = FALSE;
  u->cur_start = u->cur_end = 0;
  u->busy = 0;
  u->n_intervals = 0;
}

/* Returns TRUE when [s, e) starts a new disjoint interval (a gap before it,
 * unless it is the first). */
static inline gboolean
sl_union_add (SlUnion *u, gint64 s, gint64 e)
{
  if (u->open && s <= u->cur_end)
    {
      if (e > u->cur_end)
        u->cur_end = e;
      return FALSE;
    }
  if (u->open)
    u->busy += u->cur_end - u->cur_start;
  u->open = TRUE;
  u->cur_start = s;
  u->cur_end = e;
  u->n_intervals++;
  return TRUE;
}

/* Total length including the still-open interval. */
static inline gint64
sl_union_total (const SlUnion *u)
{
  return u->busy + (u->open ? u->cur_end - u->cur_start : 0);
}

G_END_DECLS
