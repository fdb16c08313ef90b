/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-table.h: aligned text tables of sightline-cli. */
#pragma once

#include <stdio.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlCliTable SlCliTable;

/* @first...: header names; a header starting with '>' is right-aligned
 * (the '>' is not printed).  NULL-terminated. */
SlCliTable *sl_cli_table_new       (const char *first, ...) G_GNUC_NULL_TERMINATED;
/* Sets the widest a column may be; longer cells are cut with "…". */
void        sl_cli_table_set_max   (SlCliTable *table, guint column, guint max_chars);
/* Adds a row: takes ownership of the n_columns strings given (char*, NULL for ""). */
void        sl_cli_table_add       (SlCliTable *table, ...);
/* Adds a row from an array of n_columns strings, taking ownership of them. */
void        sl_cli_table_add_cells (SlCliTable *table, char **cells);
void        sl_cli_table_print     (SlCliTable *table, FILE *out);
void        sl_cli_table_free      (SlCliTable *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCliTable, sl_cli_table_free)

/* A cell listing names with durations, "a 1.000 ms, b 12 ns" ("a (1.000 ms),
 * b (12 ns)" when @parenthesized), from @n structs of @stride bytes, each
 * with a char * at @name_offset and a gint64 at @ns_offset. (transfer full) */
char       *sl_cli_cell_named_durations (gconstpointer first, guint n, gsize stride,
                                         gsize name_offset, gsize ns_offset, gboolean parenthesized);

/* The printf field width ("%-*s", "%*s") that pads @text to @columns
 * terminal columns: printf pads bytes, and "ü", "µ" or a CJK name take
 * more bytes than columns (sl-text-width.h). */
int         sl_cli_field           (const char *text, guint columns);

G_END_DECLS
