/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-value.h: what a value stored in an SQLite column means to the loader,
 * one rule for the page reader and for SQLite statements alike. Loader only.
 *
 * Integers: the value a column of INTEGER affinity would hold.  INTEGER is
 * itself; a REAL equal to an integer strictly inside the 64-bit range is
 * that integer; TEXT that is a well-formed number ("123", " 1e3 ", "+7",
 * "12.0") is converted the same way.  Anything else (NULL, a fraction, a
 * REAL NaN or out of range, text that is not a number such as "abc" or
 * "12abc", any BLOB) is not an integer: the loader treats it as NULL, so a
 * row without a valid start or end is skipped and counted, never read as 0.
 * This is exactly what SQLite stores when a value is inserted into an
 * INTEGER column, which is what the tests compare against.
 *
 * Text: what sqlite3_column_text() returns: TEXT and BLOB bytes as they
 * are, integers in decimal, REALs as SQLite prints them ("%!.15g"). */
#pragma once

#include <sqlite3.h>
#include <glib.h>

G_BEGIN_DECLS

/* A REAL as an integer; FALSE when it is not one. */
gboolean     _sl_value_real_to_int   (double         value,
                                      gint64        *out);
/* @len bytes of text (not NUL-terminated) as an integer; FALSE when the
 * text is not a well-formed number equal to an integer. */
gboolean     _sl_value_text_to_int   (const char    *text,
                                      gsize          len,
                                      gint64        *out);
/* Column @column of @stmt's current row as an integer; FALSE when it is
 * NULL or not an integer by the rule above. */
gboolean     _sl_value_column_int    (sqlite3_stmt  *stmt,
                                      int            column,
                                      gint64        *out);
/* Column @column of @stmt's current row as text (NULL for NULL), @len
 * bytes, valid until the next step. */
const char  *_sl_value_column_text   (sqlite3_stmt  *stmt,
                                      int            column,
                                      gsize         *len);
/* A REAL as text, as SQLite shows it, into @buf; NULL for NaN (SQLite
 * reads a stored NaN as NULL). */
const char  *_sl_value_real_text     (double         value,
                                      char          *buf,
                                      gsize          size,
                                      gsize         *len);

G_END_DECLS
