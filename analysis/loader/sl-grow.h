/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-grow.h: how far a loader array grows when it is full (sl-grow.c).
 * Loader only. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The capacity a full array of @n values (capacity @cap) grows to, @rows
 * rows into a part of a table expected to hold @rows_expected rows (0:
 * unknown), the array's first value at row @first_row: its share of the
 * rows since then, projected over the rest (at most 16 × @n), or double.
 * Always more than @n. */
guint  _sl_grow_capacity  (guint   cap,
                           guint   n,
                           guint64 first_row,
                           guint64 rows,
                           guint64 rows_expected);

G_END_DECLS
