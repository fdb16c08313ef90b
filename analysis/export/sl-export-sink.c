/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-sink.c: the buffered output of the writers; the one place that
 * checks for cancel and reports progress, once per block written. */
#include "sl-export-private.h"

void
sl_export_sink_init (SlExportSink *sink, GOutputStream *out, guint64 total,
                     SlExportProgress progress, gpointer progress_data,
                     GCancellable *cancellable)
{
  *sink = (SlExportSink) {
    .out = out,
    .buf = g_string_sized_new (SL_EXPORT_BLOCK + 64 * 1024),
    .cancellable = cancellable,
    .progress = progress,
    .progress_data = progress_data,
    .total = total,
  };
}

gboolean
sl_export_sink_flush (SlExportSink *sink)
{
  if (sink->error != NULL)
    return FALSE;
  if (g_cancellable_set_error_if_cancelled (sink->cancellable, &sink->error))
    return FALSE;
  if (sink->buf->len > 0
      && !g_output_stream_write_all (sink->out, sink->buf->str, sink->buf->len, NULL,
                                     sink->cancellable, &sink->error))
    return FALSE;
  g_string_truncate (sink->buf, 0);
  if (sink->progress != NULL && sink->total > 0)
    sink->progress (MIN (1.0, (double) sink->done / (double) sink->total), sink->progress_data);
  return TRUE;
}

gboolean
sl_export_sink_finish (SlExportSink *sink, GError **error)
{
  gboolean ok = sl_export_sink_flush (sink);

  g_string_free (sink->buf, TRUE);
  sink->buf = NULL;
  if (!ok)
    {
      g_propagate_error (error, sink->error);
      sink->error = NULL;
    }
  return ok;
}
