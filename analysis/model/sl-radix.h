/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-radix.h: a stable radix sort of (key, index) pairs, for the loader's
 * sorts of millions of events by time (qsort's comparisons through a
 * function pointer cost four times more).  Model, loader and the
 * timeline's model (widgets/sl-timeline-projected.c). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 key;
  guint32 index;
} SlKeyIndex;

/* Sorts @pairs by key, ascending, keeping the order of equal keys.  Only
 * the bytes in which keys differ cost a pass. */
void    _sl_radix_sort       (SlKeyIndex *pairs, guint n);

/* A time as a key that sorts as the time does (the sign bit flipped). */
static inline guint64
_sl_time_key (gint64 t)
{
  return (guint64) t ^ (G_GUINT64_CONSTANT (1) << 63);
}

G_END_DECLS
