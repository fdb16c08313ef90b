/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-html.c: placeholder until the HTML report lands (its branch
 * replaces this file), so that the library links meanwhile. */
#include "sl-export.h"

#include <glib/gi18n.h>

gboolean
sl_export_html_write (SlProfile *profile, const SlExportOptions *options, GOutputStream *out,
                      SlExportProgress progress, gpointer progress_data,
                      GCancellable *cancellable, GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("the HTML report is not built yet"));
  return FALSE;
}
