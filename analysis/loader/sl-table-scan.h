/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-table-scan.h: reading the integer columns of a big table row by row,
 * either straight from the SQLite file's b-tree pages (fast path) or through
 * a plain SQLite statement (fallback). Loader only. */
#pragma once

#include <sqlite3.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlTableScan SlTableScan;
typedef struct _SlScanPlan  SlScanPlan;

/* How @columns of @table will be read (a column that does not exist reads
 * as NULL; "rowid" is the row id): straight from the b-tree pages of the
 * file in @fd, listed once here, or through SQLite.  @db is a connection
 * to the same file, for the schema.  A damaged tree is reported by the
 * first _sl_table_scan_next() of a scan. */
SlScanPlan  *_sl_scan_plan_new     (sqlite3            *db,
                                    int                 fd,
                                    const char         *table,
                                    const char *const  *columns,
                                    guint               n_columns);
/* Leaf pages of a direct plan (0 when SQLite reads the table): how many
 * parts it is worth splitting into. */
guint        _sl_scan_plan_n_leaves (const SlScanPlan *plan);
/* A scan of part @part of @n_parts (contiguous ranges of leaf pages, in
 * key order; a plan read through SQLite has one part, read on @db, the
 * calling thread's connection).  Scans of different parts may run in
 * different threads; the plan must outlive them.  NULL with @error set when
 * SQLite cannot read the table. */
SlTableScan *_sl_scan_plan_open    (const SlScanPlan   *plan,
                                    sqlite3            *db,
                                    guint               part,
                                    guint               n_parts,
                                    GError            **error);
void         _sl_scan_plan_free    (SlScanPlan         *plan);

/* A scan of the whole table: a plan and its one part. */
SlTableScan *_sl_table_scan_open   (sqlite3            *db,
                                    int                 fd,
                                    const char         *table,
                                    const char *const  *columns,
                                    guint               n_columns,
                                    GError            **error);
/* Fills @values (n_columns entries; NULL reads as 0) and @nulls (bit i set
 * when column i is NULL or holds no integer, see sl-value.h).  Returns
 * FALSE at the end or on error; then _sl_table_scan_error() tells which. */
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
