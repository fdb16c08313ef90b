/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-spans-private.h: building and reordering span arrays (loader only). */
#pragma once

#include "sl-spans.h"

G_BEGIN_DECLS

void      _sl_spans_clear       (SlSpans *spans);
gsize     _sl_spans_bytes       (const SlSpans *spans);
void      _sl_spans_reserve     (SlSpans *spans, guint *capacity, guint wanted);
void      _sl_spans_append      (SlSpans *spans, gint64 start, gint64 dur);
void      _sl_spans_shrink      (SlSpans *spans);
gboolean  _sl_spans_is_sorted   (const SlSpans *spans);
guint32  *_sl_spans_sort_order  (const SlSpans *spans);
/* Sorts @spans by start (stably) and returns (transfer full) the order
 * applied, for the caller's parallel columns; NULL when already sorted. */
guint32  *_sl_spans_sort        (SlSpans *spans);
void      _sl_spans_permute     (SlSpans *spans, const guint32 *order);
/* Widens [*first, *last] to cover every span. */
void      _sl_spans_range       (const SlSpans *spans, gint64 *first, gint64 *last);

/* The position of @index in @sorted (@n ascending entries), or @n when it
 * is absent: side tables (long durations, unlinked kernels) list the
 * indexes of the events they describe. */
guint     _sl_index_table_find  (const guint32 *sorted, guint n, guint32 index);

/* Concatenating the arrays of two builders (parts of a table read in
 * parallel): @into (@into_n values of @size bytes) followed by @from's @n,
 * which is freed (or taken whole when @into is empty).  Returns the array. */
gpointer  _sl_array_append      (gpointer into, guint into_n, gpointer from, guint n, gsize size);
/* Appends @from's spans (and long durations) to @into; @from is left
 * empty.  *@capacity becomes @into's new length. */
void      _sl_spans_merge       (SlSpans *into, guint *capacity, SlSpans *from);

void      _sl_permute           (gpointer values, gsize size, const guint32 *order, guint n);

/* Typed shorthands: the element size comes from the array's type. */
#define _sl_permute_u32(values, order, n) _sl_permute ((values), sizeof (guint32), (order), (n))
#define _sl_permute_u64(values, order, n) _sl_permute ((values), sizeof (guint64), (order), (n))
#define _sl_permute_u16(values, order, n) _sl_permute ((values), sizeof (guint16), (order), (n))
#define _sl_permute_u8(values, order, n)  _sl_permute ((values), sizeof (guint8), (order), (n))

/* Makes room for one more span.  TRUE when the capacity grew: the caller
 * then grows its parallel columns to *capacity too.  Inline: it runs for
 * every row the loader reads. */
static inline gboolean
_sl_spans_grow (SlSpans *spans, guint *capacity)
{
  guint old = *capacity;

  if (G_LIKELY (spans->n < old))
    return FALSE;
  _sl_spans_reserve (spans, capacity, spans->n + 1);
  return *capacity != old;
}

G_END_DECLS
