/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "sl-export-private.h"

gboolean
sl_export_perfetto_write (SlProfile *profile, const SlExportOptions *options,
                          GOutputStream *out, SlExportProgress progress,
                          gpointer progress_data, GCancellable *cancellable,
                          GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not yet");
  return FALSE;
}
