/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-launch-table.h: the launch configuration of every kernel, read for an
 * export in ONE scan of the kernel table (the details panel reads one
 * kernel's by rowid: sl-kernel-details.h).
 *
 * Why not a cursor ordered like the model: the model's order (stream after
 * stream, each by start) is not the file's, and SQLite sorting the table
 * ran at 0.8 M rows/s of CPU on a 1 M-kernel export, under the exports'
 * 2 M events/s goal; the scan in rowid order runs at about 6 M.  So the
 * scan files each row under its kernel: 4 bytes a kernel while the export
 * runs (a configuration id), and one copy of each distinct configuration,
 * of which there are few (a kernel is launched with a handful). */
#pragma once

#include <gio/gio.h>

#include "sl-launch-config.h"

G_BEGIN_DECLS

typedef struct _SlLaunchTable SlLaunchTable;

/* Reads the configurations of @profile's kernels; NULL with @error unset
 * when there are none to read (not read from a file, no kernel table). */
SlLaunchTable        *sl_launch_table_read   (SlProfile *profile, GCancellable *cancellable,
                                              GError **error);
/* Kernel @index of stream @stream's, or NULL when unknown. */
const SlLaunchConfig *sl_launch_table_get    (SlLaunchTable *table, guint32 stream, guint index);
void                  sl_launch_table_free   (SlLaunchTable *table);
/* The reader for SlExportOptions.launch. */
const SlLaunchReader *sl_launch_table_reader (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlLaunchTable, sl_launch_table_free)

G_END_DECLS
