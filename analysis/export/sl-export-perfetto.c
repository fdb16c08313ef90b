/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-perfetto.c: the Perfetto trace (Chrome Trace Event Format JSON,
 * which ui.perfetto.dev and chrome://tracing open), streamed: a process
 * per GPU with a thread per stream, then the CPU processes and threads
 * (sl-export-perfetto-cpu.c).  Times are capture-clock microseconds with
 * the nanoseconds as three decimals, so nothing is rounded. */
#include "sl-export-perfetto-private.h"

void
sl_perfetto_begin (SlPerfetto *p, const char *ph, const char *cat, gint64 pid, gint64 tid,
                   gint64 ts_ns)
{
  GString *b = p->sink.buf;

  g_string_append (b, p->first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
  p->first = FALSE;
  g_string_append (b, ph);
  g_string_append (b, "\",\"cat\":\"");
  g_string_append (b, cat);
  g_string_append (b, "\",\"pid\":");
  sl_export_append_i64 (b, pid);
  g_string_append (b, ",\"tid\":");
  sl_export_append_i64 (b, tid);
  g_string_append (b, ",\"ts\":");
  sl_export_json_us (b, ts_ns);
}

void
sl_perfetto_name (SlPerfetto *p, const char *name)
{
  g_string_append (p->sink.buf, ",\"name\":");
  sl_export_json_text (p->sink.buf, name);
}

void
sl_perfetto_name_cached (SlPerfetto *p, SlCellCache *cache, guint32 key, const char *name)
{
  g_string_append (p->sink.buf, ",\"name\":");
  sl_cell_cache_append (cache, p->sink.buf, key, name);
}

void
sl_perfetto_dur (SlPerfetto *p, gint64 dur_ns)
{
  g_string_append (p->sink.buf, ",\"dur\":");
  sl_export_json_us (p->sink.buf, dur_ns);
}

void
sl_perfetto_meta (SlPerfetto *p, const char *what, gint64 pid, gint64 tid, const char *arg,
                  const char *text, gint64 number)
{
  sl_perfetto_begin (p, "M", "__metadata", pid, tid, 0);
  sl_perfetto_name (p, what);
  g_string_append_printf (p->sink.buf, ",\"args\":{\"%s\":", arg);
  if (text != NULL)
    sl_export_json_text (p->sink.buf, text);
  else
    sl_export_append_i64 (p->sink.buf, number);
  g_string_append (p->sink.buf, "}}");
}

gboolean
sl_perfetto_api_in_scope (SlPerfetto *p, guint32 api, guint32 *thread)
{
  const SlFilter *f = p->options->filter;

  if (api == SL_NONE || api >= p->profile->api.spans.n)
    return FALSE;
  *thread = sl_profile_api_thread (p->profile, api);
  return *thread != SL_NONE && sl_filter_match_thread (f, p->profile, *thread)
         && sl_filter_match_time (f, p->profile->api.spans.start[api]);
}

/* The arrow from the launching API call to its GPU work: "s" on the call
 * (binding to the slice that encloses its start), "f" on the work with
 * "bp":"e" (binding to the slice it lands in, not the next one). */
static void
write_flow (SlPerfetto *p, guint32 api, gint64 gpu_pid, gint64 gpu_tid, gint64 ts)
{
  const SlProfile *prof = p->profile;
  guint32 thread;
  guint64 id;

  if (!sl_perfetto_api_in_scope (p, api, &thread))
    return;
  id = ++p->flows;
  sl_perfetto_begin (p, "s", "launch", prof->threads[thread].pid, prof->threads[thread].tid,
                     prof->api.spans.start[api]);
  g_string_append (p->sink.buf, ",\"name\":\"launch\",\"id\":");
  sl_export_append_i64 (p->sink.buf, (gint64) id);
  g_string_append (p->sink.buf, "}");
  sl_perfetto_begin (p, "f", "launch", gpu_pid, gpu_tid, ts);
  g_string_append (p->sink.buf, ",\"name\":\"launch\",\"bp\":\"e\",\"id\":");
  sl_export_append_i64 (p->sink.buf, (gint64) id);
  g_string_append (p->sink.buf, "}");
}

static void
write_kernel (SlPerfetto *p, guint32 s, guint i, gint64 pid)
{
  const SlStream *st = &p->profile->streams[s];
  const SlKernels *k = &st->kernels;
  GString *b = p->sink.buf;

  sl_perfetto_begin (p, "X", "kernel", pid, s + 1, k->spans.start[i]);
  sl_perfetto_dur (p, sl_spans_dur (&k->spans, i));
  sl_perfetto_name_cached (p, p->kernel_names, k->func[i],
                           sl_profile_kernel_name (p->profile, k->func[i],
                                                   p->options->names == SL_NAMES_DEMANGLED));
  g_string_append (b, ",\"args\":{\"correlation id\":");
  sl_export_append_i64 (b, sl_kernels_corr (p->profile, k, i));
  sl_export_launch_json (b, sl_export_launch_get (&p->launch, s, i));
  if (p->paths != NULL)
    {
      guint32 range = sl_nvtx_paths_kernel_range (p->paths, s, i);
      if (range != SL_NONE)
        {
          g_string_append (b, ",\"nvtx path\":");
          sl_cell_cache_append (p->path_cells, b, range, sl_nvtx_paths_get (p->paths, range));
        }
    }
  g_string_append (b, "}}");
  write_flow (p, k->api[i], pid, s + 1, k->spans.start[i]);
}

static void
write_copy (SlPerfetto *p, guint32 s, const SlCopies *c, SlCopyType type, guint i, gint64 pid)
{
  GString *b = p->sink.buf;
  g_autofree char *name = type == SL_COPY_MEMSET
                          ? g_strdup ("Memset")
                          : g_strdup_printf ("Memcpy %s", sl_memcpy_kind_name (c->kind[i]));

  sl_perfetto_begin (p, "X", type == SL_COPY_MEMSET ? "memset" : "memcpy", pid, s + 1,
                     c->spans.start[i]);
  sl_perfetto_dur (p, sl_spans_dur (&c->spans, i));
  sl_perfetto_name (p, name);
  g_string_append (b, ",\"args\":{\"bytes\":");
  sl_export_append_i64 (b, (gint64) c->bytes[i]);
  g_string_append (b, ",\"correlation id\":");
  sl_export_append_i64 (b, c->corr[i]);
  g_string_append (b, "}}");
  write_flow (p, c->api[i], pid, s + 1, c->spans.start[i]);
}

static gboolean
write_copies (SlPerfetto *p, guint32 s, const SlCopies *c, SlCopyType type, gint64 pid)
{
  const SlFilter *f = p->options->filter;
  guint first, last;
  gboolean ok = TRUE;

  sl_filter_span_bounds (f, &c->spans, 0, c->spans.n, &first, &last);
  for (guint i = first; ok && i < last; i++)
    {
      write_copy (p, s, c, type, i, pid);
      ok = sl_export_sink_step (&p->sink, 1);
    }
  return ok;
}

static gboolean
write_stream (SlPerfetto *p, guint32 s)
{
  const SlStream *st = &p->profile->streams[s];
  gint64 pid = p->gpu_pid_base + st->gpu;
  g_autofree char *name = g_strdup_printf ("Stream %u · pid %u", st->stream, st->pid);
  guint first, last;
  gboolean ok = TRUE;

  sl_perfetto_meta (p, "thread_name", pid, s + 1, "name", name, 0);
  sl_perfetto_meta (p, "thread_sort_index", pid, s + 1, "sort_index", NULL, st->stream);
  sl_filter_span_bounds (p->options->filter, &st->kernels.spans, 0, st->kernels.spans.n,
                         &first, &last);
  for (guint i = first; ok && i < last; i++)
    {
      write_kernel (p, s, i, pid);
      ok = sl_export_sink_step (&p->sink, 1);
    }
  return ok && write_copies (p, s, &st->memcpy, SL_COPY_MEMCPY, pid)
         && write_copies (p, s, &st->memset, SL_COPY_MEMSET, pid);
}

static gboolean
write_gpus (SlPerfetto *p)
{
  const SlProfile *prof = p->profile;

  for (guint g = 0; g < prof->n_gpus; g++)
    {
      const SlGpu *gpu = &prof->gpus[g];
      g_autofree char *name = gpu->name != NULL
                              ? g_strdup_printf ("GPU %u · %s", gpu->device, gpu->name)
                              : g_strdup_printf ("GPU %u", gpu->device);

      if (!sl_filter_match_device (p->options->filter, gpu->device) || gpu->n_streams == 0)
        continue;
      sl_perfetto_meta (p, "process_name", p->gpu_pid_base + g, 0, "name", name, 0);
      sl_perfetto_meta (p, "process_sort_index", p->gpu_pid_base + g, 0, "sort_index", NULL, g);
      for (guint i = 0; i < gpu->n_streams; i++)
        if (sl_filter_match_stream (p->options->filter, &prof->streams[gpu->streams[i]])
            && !write_stream (p, gpu->streams[i]))
          return FALSE;
    }
  return TRUE;
}

/* The end of the trace: what it is, and whether it carries the capture's
 * environment (always said, so a reader knows it was left out). */
static void
write_footer (SlPerfetto *p)
{
  const SlExportOptions *o = p->options;
  GString *b = p->sink.buf;

  g_string_append (b, "\n],\n\"displayTimeUnit\":\"ns\",\n\"metadata\":{\"exporter\":\"Sightline\"");
  if (o->scope_label != NULL)
    {
      g_string_append (b, ",\"scope\":");
      sl_export_json_text (b, o->scope_label);
    }
  g_string_append_printf (b, ",\"environment included\":%s",
                          o->include_environment ? "true" : "false");
  if (o->include_environment)
    {
      g_string_append (b, ",\"environment\":[");
      for (guint i = 0; o->environment != NULL && o->environment[i] != NULL; i++)
        {
          if (i > 0)
            g_string_append_c (b, ',');
          sl_export_json_text (b, o->environment[i]);
        }
      g_string_append_c (b, ']');
    }
  g_string_append (b, "}}\n");
}

static gint64
gpu_pid_base (const SlProfile *profile)
{
  gint64 max = 0;

  for (guint i = 0; i < profile->n_processes; i++)
    max = MAX (max, (gint64) profile->processes[i].pid);
  return max + 1;
}

gboolean
sl_export_perfetto_write (SlProfile *profile, const SlExportOptions *options,
                          GOutputStream *out, SlExportProgress progress,
                          gpointer progress_data, GCancellable *cancellable,
                          GError **error)
{
  const SlCounts *c = &profile->counts;
  SlPerfetto p = { .profile = profile, .options = options, .first = TRUE };
  gboolean ok;

  g_return_val_if_fail (profile != NULL && options != NULL, FALSE);
  if (!sl_export_launch_open (&p.launch, profile, options, cancellable, error))
    return FALSE;
  sl_export_sink_init (&p.sink, out, c->kernels + c->memcpy + c->memset + c->cuda_api
                                     + c->nvtx_ranges + c->nvtx_marks,
                       progress, progress_data, cancellable);
  if (profile->parts & SL_PART_NVTX)
    p.paths = sl_nvtx_paths_new (profile);
  p.gpu_pid_base = gpu_pid_base (profile);
  p.kernel_names = sl_cell_cache_new (sl_export_json_text);
  p.path_cells = sl_cell_cache_new (sl_export_json_text);
  p.strings = sl_cell_cache_new (sl_export_json_text);
  g_string_append (p.sink.buf, "{\"traceEvents\":[");
  ok = write_gpus (&p) && sl_perfetto_write_cpu (&p) && sl_perfetto_write_bookmarks (&p);
  if (ok)
    write_footer (&p);
  g_clear_pointer (&p.paths, sl_nvtx_paths_free);
  g_clear_pointer (&p.kernel_names, sl_cell_cache_free);
  g_clear_pointer (&p.path_cells, sl_cell_cache_free);
  g_clear_pointer (&p.strings, sl_cell_cache_free);
  sl_export_launch_close (&p.launch);
  return sl_export_sink_finish (&p.sink, error);
}
