/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-kernel-details.h: the cold columns of one kernel (launch
 * configuration, mangled name), read from the export by rowid when a user
 * asks about that kernel.  Reading opens the file, so the async variant is
 * the one for a user interface. */
#pragma once

#include <gio/gio.h>

#include "sl-profile.h"

G_BEGIN_DECLS

typedef struct {
  gint64 grid[3];
  gint64 block[3];
  gint64 registers_per_thread;   /* -1 when the export has no such column */
  gint64 static_shared_bytes;    /* -1 when unknown */
  gint64 dynamic_shared_bytes;   /* -1 when unknown */
  char  *mangled_name;           /* nullable */
} SlKernelDetails;

/* Reads the details of kernel @index of stream @stream into @out (cleared
 * first).  Blocks on file I/O. */
gboolean         sl_kernel_details_read         (const SlProfile     *profile,
                                                 guint32              stream,
                                                 guint                index,
                                                 SlKernelDetails     *out,
                                                 GError             **error);
/* The same in a worker thread; the result is an SlKernelDetails. */
void             sl_kernel_details_read_async   (SlProfile           *profile,
                                                 guint32              stream,
                                                 guint                index,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
/* Returns (transfer full) the details, free with sl_kernel_details_free(). */
SlKernelDetails *sl_kernel_details_read_finish  (GAsyncResult        *result,
                                                 GError             **error);
void             sl_kernel_details_clear        (SlKernelDetails     *details);
void             sl_kernel_details_free         (SlKernelDetails     *details);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlKernelDetails, sl_kernel_details_free)

G_END_DECLS
