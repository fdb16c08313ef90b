/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-launch-config.h: a kernel's launch configuration, and the reader through
 * which the exports get it.
 *
 * The configuration is not in the model: nine integers would more than
 * double a kernel's 24 bytes, and only the kernel details panel and the
 * exports want them.  The loader implements the reader
 * (sl-launch-table.h); the exports, which may not include the loader,
 * receive it from their caller in SlExportOptions.  The type lives here,
 * in the room both may include. */
#pragma once

#include <gio/gio.h>

#include "sl-profile.h"

G_BEGIN_DECLS

/* -1 in a field: the export has no such column, or the row a NULL. */
typedef struct {
  gint64 grid[3];
  gint64 block[3];
  gint64 registers;       /* registers per thread */
  gint64 static_smem;     /* bytes */
  gint64 dynamic_smem;    /* bytes */
} SlLaunchConfig;

/* open() is called once, in the writer's thread; it returns NULL with
 * @error unset when the profile has no configurations to give (not read
 * from a file, no kernel table), NULL with @error set when reading failed
 * (then the export fails too), or a cursor.  get() is asked for kernels
 * stream by stream, each in index order (the order the writers walk), and
 * returns NULL when that kernel's configuration is unknown; what it
 * returns lives until the next get() or close(). */
typedef struct {
  gpointer               (*open)  (SlProfile *profile, GCancellable *cancellable, GError **error);
  const SlLaunchConfig * (*get)   (gpointer cursor, guint32 stream, guint index);
  void                   (*close) (gpointer cursor);
} SlLaunchReader;

G_END_DECLS
