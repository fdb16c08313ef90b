/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-csv.c: kernels.csv, one row per kernel of the scope, streamed
 * stream after stream (each in start order). */
#include "sl-export-private.h"

static const char header[] =
  "start_ns,end_ns,duration_ns,device,stream,pid,tid,name,demangled_name,correlation_id,"
  "grid,block,registers,static_smem,dynamic_smem,nvtx_path\r\n";

/* The kernels of the scope, for progress. */
static guint64
count_kernels (const SlProfile *profile, const SlFilter *filter)
{
  guint64 n = 0;

  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *st = &profile->streams[s];
      guint first, last;

      if (!sl_filter_match_stream (filter, st))
        continue;
      sl_filter_span_bounds (filter, &st->kernels.spans, 0, st->kernels.spans.n, &first, &last);
      n += last - first;
    }
  return n;
}

static void
write_int (GString *buf, gint64 v)
{
  sl_export_append_i64 (buf, v);
  g_string_append_c (buf, ',');
}

typedef struct {
  SlCellCache    *name, *demangled, *path;
  SlNvtxPaths    *paths;    /* nullable */
  SlExportLaunch *launch;   /* the launch configuration's five columns */
} Cells;

static void
write_row (GString *buf, SlProfile *profile, const SlExportOptions *o, guint32 s, guint i,
           const Cells *cells)
{
  const SlStream *st = &profile->streams[s];
  const SlKernels *k = &st->kernels;
  gint64 start = k->spans.start[i], dur = sl_spans_dur (&k->spans, i);
  guint32 func = k->func[i], api = k->api[i];
  guint32 thread = api != SL_NONE ? sl_profile_api_thread (profile, api) : SL_NONE;

  write_int (buf, start);
  write_int (buf, start + dur);
  write_int (buf, dur);
  write_int (buf, st->device);
  write_int (buf, st->stream);
  write_int (buf, st->pid);
  if (thread != SL_NONE)
    sl_export_append_i64 (buf, profile->threads[thread].tid);
  g_string_append_c (buf, ',');
  sl_cell_cache_append (cells->name, buf, func,
                        sl_profile_kernel_name (profile, func, o->names == SL_NAMES_DEMANGLED));
  g_string_append_c (buf, ',');
  sl_cell_cache_append (cells->demangled, buf, func, sl_profile_kernel_name (profile, func, TRUE));
  g_string_append_c (buf, ',');
  write_int (buf, sl_kernels_corr (profile, k, i));
  sl_export_launch_csv (buf, sl_export_launch_get (cells->launch, s, i));
  if (cells->paths != NULL)
    {
      guint32 range = sl_nvtx_paths_kernel_range (cells->paths, s, i);
      if (range != SL_NONE)
        sl_cell_cache_append (cells->path, buf, range, sl_nvtx_paths_get (cells->paths, range));
    }
  g_string_append (buf, "\r\n");
}

gboolean
sl_export_csv_kernels_write (SlProfile *profile, const SlExportOptions *options,
                             GOutputStream *out, SlExportProgress progress,
                             gpointer progress_data, GCancellable *cancellable,
                             GError **error)
{
  SlExportSink sink;
  g_autoptr(SlNvtxPaths) paths = NULL;
  g_autoptr(SlCellCache) name = sl_cell_cache_new (sl_export_csv_text);
  g_autoptr(SlCellCache) demangled = sl_cell_cache_new (sl_export_csv_text);
  g_autoptr(SlCellCache) path = sl_cell_cache_new (sl_export_csv_text);
  SlExportLaunch launch;
  Cells cells = { name, demangled, path, NULL, &launch };
  gboolean ok = TRUE;

  g_return_val_if_fail (profile != NULL && options != NULL, FALSE);
  if (!sl_export_launch_open (&launch, profile, options, cancellable, error))
    return FALSE;
  if (profile->parts & SL_PART_NVTX)
    cells.paths = paths = sl_nvtx_paths_new (profile);
  sl_export_sink_init (&sink, out, count_kernels (profile, options->filter), progress,
                       progress_data, cancellable);
  g_string_append (sink.buf, header);
  for (guint s = 0; ok && s < profile->n_streams; s++)
    {
      const SlStream *st = &profile->streams[s];
      guint first, last;

      if (!sl_filter_match_stream (options->filter, st))
        continue;
      sl_filter_span_bounds (options->filter, &st->kernels.spans, 0, st->kernels.spans.n,
                             &first, &last);
      for (guint i = first; ok && i < last; i++)
        {
          write_row (sink.buf, profile, options, s, i, &cells);
          ok = sl_export_sink_step (&sink, 1);
        }
    }
  sl_export_launch_close (&launch);
  return sl_export_sink_finish (&sink, error);
}
