/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-format.h: the one set of formatters for the model's units (durations,
 * points in time, bytes, counts, shares), used by the CLI's tables, the
 * timeline, the details pane and the exports alike.  All return (transfer
 * full) UTF-8 text with translatable unit names. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Three significant digits, for labels: "17 ns", "1.23 ms", "2.50 s". */
char       *sl_format_duration         (gint64 ns);
/* Three decimals in the unit of the magnitude, for tables where columns
 * line up: "12 ns", "120.441 µs", "1.875 s". */
char       *sl_format_duration_precise (gint64 ns);
/* The same, appended to @out without an allocation of its own. */
void        sl_format_duration_precise_append (GString *out,
                                               gint64   ns);
/* The same as its number, into @number, and its unit (a static,
 * translated string): for output of millions of lines. */
#define SL_FORMAT_DURATION_NUMBER_SIZE 40
const char *sl_format_duration_precise_into (gint64       ns,
                                             char         number[SL_FORMAT_DURATION_NUMBER_SIZE],
                                             const char **unit);
/* The same, returning the number's length and giving the unit's in
 * @unit_len (nullable). */
gsize       sl_format_duration_precise_parts (gint64       ns,
                                              char         number[SL_FORMAT_DURATION_NUMBER_SIZE],
                                              const char **unit,
                                              gsize       *unit_len);
/* A point in time to the nanosecond: "1.715654320 s", "12.345 µs". */
char       *sl_format_timestamp        (gint64 ns);
/* @ns in the largest unit that still shows @precision_ns: "1.5 ms". */
char       *sl_format_time             (double ns,
                                        gint64 precision_ns);
/* @ns in the unit of @magnitude_ns, with the decimals @precision_ns needs
 * ("16.305326 s" for a 1 µs step 16 s into a run). */
char       *sl_format_time_in_unit     (double ns,
                                        gint64 magnitude_ns,
                                        gint64 precision_ns);
/* Bytes with a binary unit: "1.5 MiB". */
char       *sl_format_bytes            (guint64 bytes);
/* A plain integer: "143760". */
char       *sl_format_count            (gint64 value);
/* The same into @buf, which it returns: for output of millions of lines. */
#define SL_FORMAT_NUMBER_SIZE 24
const char *sl_format_count_into       (gint64 value,
                                        char   buf[SL_FORMAT_NUMBER_SIZE]);
/* A share from 0 to 100 with one decimal: "26.2%". */
char       *sl_format_percent          (double pct);

G_END_DECLS
