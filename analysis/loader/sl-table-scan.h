/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-table-scan.h: reading the integer columns of a big table row by row,
 * either straight from the SQLite file's b-tree pages (fast path) or through
 * a plain SQLite statement (fallback). Loader only. */
#pragma once

#include <sqlite3.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlTableScan SlTableScan;

/* Opens a scan of @columns of @table (a column that does not exist reads as
 * NULL; "rowid" is the row id).  @db is the loader's connection, used for
 * the schema and for the fallback.  @path is the file to read.  Returns NULL
 * with @error set when the table cannot be read at all. */
SlTableScan *_sl_table_scan_open   (sqlite3            *db,
                                    const char         *path,
                                    const char         *table,
                                    const char *const  *columns,
                                    guint               n_columns,
                                    GError            **error);
/* Fills @values (n_columns entries; NULL reads as 0) and @nulls (bit i set
 * when column i is NULL or holds no integer, see sl-value.h).  Returns FALSE at the end or on error; then
 * _sl_table_scan_error() tells which. */
gboolean     _sl_table_scan_next   (SlTableScan *scan,
                                    gint64      *values,
                                    guint64     *nulls);
/* The text of column @column of the current row as SQLite shows it (NULL
 * when it is NULL; numbers printed), @len bytes, NOT NUL-terminated; valid
 * until the next row. */
const char  *_sl_table_scan_text   (SlTableScan *scan,
                                    guint        column,
                                    gsize       *len);
/* SQLite result code of a failure (SQLITE_CORRUPT for a damaged page), or
 * SQLITE_OK after a clean end. */
int          _sl_table_scan_error  (SlTableScan *scan);
/* TRUE when the scan reads pages directly (for tests and timing). */
gboolean     _sl_table_scan_is_direct (SlTableScan *scan);
void         _sl_table_scan_free   (SlTableScan *scan);

G_END_DECLS
