/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-spans.c: start/duration arrays, their builders and sorting. */
#include "sl-spans-private.h"

#include <string.h>

guint
_sl_index_table_find (const guint32 *sorted, guint n, guint32 index)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (sorted[mid] < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < n && sorted[lo] == index ? lo : n;
}

gint64
_sl_spans_long_dur (const SlSpans *spans, guint i)
{
  guint k = _sl_index_table_find (spans->long_index, spans->n_long, i);

  /* Absent only in a damaged table; a zero length is the safe answer. */
  return k < spans->n_long ? spans->long_dur[k] : 0;
}

guint
sl_times_lower_bound (const gint64 *times, guint lo, guint hi, gint64 t)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (times[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint
sl_spans_lower_bound_in (const SlSpans *spans, guint lo, guint hi, gint64 t)
{
  return sl_times_lower_bound (spans->start, lo, hi, t);
}

guint
sl_spans_lower_bound (const SlSpans *spans, gint64 t)
{
  return sl_spans_lower_bound_in (spans, 0, spans->n, t);
}

void
_sl_spans_clear (SlSpans *spans)
{
  g_clear_pointer (&spans->start, g_free);
  g_clear_pointer (&spans->dur, g_free);
  g_clear_pointer (&spans->long_index, g_free);
  g_clear_pointer (&spans->long_dur, g_free);
  spans->n = 0;
  spans->n_long = 0;
}

gsize
_sl_spans_bytes (const SlSpans *spans)
{
  return (gsize) spans->n * (sizeof (gint64) + sizeof (guint32)) +
         (gsize) spans->n_long * (sizeof (guint32) + sizeof (gint64));
}

/* ---- builder ------------------------------------------------------------ */

void
_sl_spans_reserve (SlSpans *spans, guint *capacity, guint wanted)
{
  guint cap = *capacity;

  if (wanted <= cap)
    return;
  cap = MAX (cap, 64u);
  while (cap < wanted)
    cap = cap > G_MAXUINT / 2 ? G_MAXUINT : cap * 2;
  spans->start = g_renew (gint64, spans->start, cap);
  spans->dur = g_renew (guint32, spans->dur, cap);
  *capacity = cap;
}

/* Appends one span at index spans->n (the caller reserved room).  Long
 * durations go to the overflow table, which stays sorted by index because
 * spans are appended in index order. */
void
_sl_spans_append (SlSpans *spans, gint64 start, gint64 dur)
{
  guint i = spans->n++;

  spans->start[i] = start;
  if (G_LIKELY (dur < (gint64) SL_LONG_DUR))
    {
      spans->dur[i] = (guint32) dur;
      return;
    }
  spans->dur[i] = SL_LONG_DUR;
  spans->long_index = g_renew (guint32, spans->long_index, spans->n_long + 1);
  spans->long_dur = g_renew (gint64, spans->long_dur, spans->n_long + 1);
  spans->long_index[spans->n_long] = i;
  spans->long_dur[spans->n_long] = dur;
  spans->n_long++;
}

void
_sl_spans_shrink (SlSpans *spans)
{
  if (spans->n == 0)
    {
      _sl_spans_clear (spans);
      return;
    }
  spans->start = g_renew (gint64, spans->start, spans->n);
  spans->dur = g_renew (guint32, spans->dur, spans->n);
}

gboolean
_sl_spans_is_sorted (const SlSpans *spans)
{
  for (guint i = 1; i < spans->n; i++)
    if (spans->start[i] < spans->start[i - 1])
      return FALSE;
  return TRUE;
}

static const gint64 *sort_keys;

static int
compare_by_key (const void *a, const void *b)
{
  gint64 ka = sort_keys[*(const guint32 *) a];
  gint64 kb = sort_keys[*(const guint32 *) b];

  if (ka != kb)
    return ka < kb ? -1 : 1;
  /* Stable: equal starts keep their file order. */
  return (*(const guint32 *) a > *(const guint32 *) b) - (*(const guint32 *) a < *(const guint32 *) b);
}

static GMutex sort_lock;

/* Returns the permutation (new position -> old index) that sorts @spans by
 * start.  Data is nearly sorted in practice, so this runs rarely. */
guint32 *
_sl_spans_sort_order (const SlSpans *spans)
{
  guint32 *order = g_new (guint32, MAX (spans->n, 1u));

  for (guint i = 0; i < spans->n; i++)
    order[i] = i;
  /* qsort has no user data; the lock keeps the static key pointer safe
   * when two loader threads sort at once. */
  g_mutex_lock (&sort_lock);
  sort_keys = spans->start;
  qsort (order, spans->n, sizeof (guint32), compare_by_key);
  sort_keys = NULL;
  g_mutex_unlock (&sort_lock);
  return order;
}

guint32 *
_sl_spans_sort (SlSpans *spans)
{
  guint32 *order;

  if (_sl_spans_is_sorted (spans))
    return NULL;
  order = _sl_spans_sort_order (spans);
  _sl_spans_permute (spans, order);
  return order;
}

/* Reorders @n elements of @size bytes so that element i becomes old
 * element order[i].  Typed loops per width keep it a plain load/store. */
void
_sl_permute (gpointer values, gsize size, const guint32 *order, guint n)
{
  if (values == NULL || n == 0)
    return;
  gpointer copy = g_memdup2 (values, (gsize) n * size);
#define PERMUTE_AS(type) \
  for (guint i = 0; i < n; i++) ((type *) values)[i] = ((const type *) copy)[order[i]]
  switch (size)
    {
    case 1: PERMUTE_AS (guint8); break;
    case 2: PERMUTE_AS (guint16); break;
    case 4: PERMUTE_AS (guint32); break;
    case 8: PERMUTE_AS (guint64); break;
    default:
      for (guint i = 0; i < n; i++)
        memcpy ((guint8 *) values + i * size, (const guint8 *) copy + (gsize) order[i] * size, size);
    }
#undef PERMUTE_AS
  g_free (copy);
}

typedef struct {
  guint32 index;
  gint64  dur;
} LongEntry;

static int
compare_long_entry (const void *a, const void *b)
{
  const LongEntry *x = a, *y = b;
  return (x->index > y->index) - (x->index < y->index);
}

/* Reorders start/dur and the overflow table by @order. */
void
_sl_spans_permute (SlSpans *spans, const guint32 *order)
{
  guint n = spans->n;
  _sl_permute (spans->start, sizeof (gint64), order, n);
  _sl_permute_u32 (spans->dur, order, n);

  if (spans->n_long > 0)
    {
      /* old index -> new index, then re-sort the overflow table. */
      guint32 *inverse = g_new (guint32, n);
      LongEntry *entries = g_new (LongEntry, spans->n_long);

      for (guint i = 0; i < n; i++)
        inverse[order[i]] = i;
      for (guint k = 0; k < spans->n_long; k++)
        {
          entries[k].index = inverse[spans->long_index[k]];
          entries[k].dur = spans->long_dur[k];
        }
      qsort (entries, spans->n_long, sizeof (LongEntry), compare_long_entry);
      for (guint k = 0; k < spans->n_long; k++)
        {
          spans->long_index[k] = entries[k].index;
          spans->long_dur[k] = entries[k].dur;
        }
      g_free (entries);
      g_free (inverse);
    }
}

void
_sl_spans_range (const SlSpans *spans, gint64 *first, gint64 *last)
{
  /* Sorted by start, but the latest end can belong to any span. */
  if (spans->n == 0)
    return;
  *first = MIN (*first, spans->start[0]);
  for (guint i = 0; i < spans->n; i++)
    {
      gint64 end = sl_spans_end (spans, i);
      if (end > *last)
        *last = end;
    }
}

/* ---- concatenating builders ------------------------------------------------ */

gpointer
_sl_array_append (gpointer into, guint into_n, gpointer from, guint n, gsize size)
{
  if (into_n == 0)
    {
      g_free (into);
      return from;
    }
  into = g_realloc_n (into, (gsize) into_n + n, size);
  if (n > 0)
    memcpy ((char *) into + (gsize) into_n * size, from, (gsize) n * size);
  g_free (from);
  return into;
}

void
_sl_spans_merge (SlSpans *into, guint *capacity, SlSpans *from)
{
  guint base = into->n;

  if (from->n == 0)
    return;
  into->start = _sl_array_append (into->start, base, g_steal_pointer (&from->start), from->n, sizeof (gint64));
  into->dur = _sl_array_append (into->dur, base, g_steal_pointer (&from->dur), from->n, sizeof (guint32));
  /* the side table's indexes move with their spans */
  for (guint k = 0; k < from->n_long; k++)
    from->long_index[k] += base;
  into->long_index = _sl_array_append (into->long_index, into->n_long, g_steal_pointer (&from->long_index),
                                       from->n_long, sizeof (guint32));
  into->long_dur = _sl_array_append (into->long_dur, into->n_long, g_steal_pointer (&from->long_dur),
                                     from->n_long, sizeof (gint64));
  into->n += from->n;
  into->n_long += from->n_long;
  *capacity = into->n;
  from->n = from->n_long = 0;
}
