/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-perfetto-cpu.c: the CPU half of the Perfetto trace: a process
 * per CPU process, its threads with their CUDA API calls and push/pop NVTX
 * ranges (which nest), start/end ranges on a thread per lane (they do not),
 * NVTX marks as instant events; then the bookmarks on a track of their own. */
#include "sl-export-perfetto-private.h"

static gboolean
write_api (SlPerfetto *p, const SlThread *th)
{
  const SlApiCalls *api = &p->profile->api;
  guint first, last;
  gboolean ok = TRUE;

  sl_filter_span_bounds (p->options->filter, &api->spans, th->api_first,
                         th->api_first + th->api_count, &first, &last);
  for (guint i = first; ok && i < last; i++)
    {
      sl_perfetto_begin (p, "X", "cuda_api", th->pid, th->tid, api->spans.start[i]);
      sl_perfetto_dur (p, sl_spans_dur (&api->spans, i));
      sl_perfetto_name_cached (p, p->strings, api->name[i], sl_strings_get (p->profile->strings, api->name[i]));
      g_string_append (p->sink.buf, ",\"args\":{\"correlation id\":");
      sl_export_append_i64 (p->sink.buf, sl_api_corr (api, i));
      g_string_append (p->sink.buf, "}}");
      ok = sl_export_sink_step (&p->sink, 1);
    }
  return ok;
}

/* Push/pop ranges on the thread itself; start/end ranges on their lane's
 * thread, named once the first range of the lane appears. */
static gboolean
write_ranges (SlPerfetto *p, guint32 t, const SlNvtxRanges *r, gboolean startend)
{
  const SlThread *th = &p->profile->threads[t];
  gboolean ok = TRUE;
  guint64 named = 0;   /* lanes (< 64) whose thread has its name */

  for (guint i = 0; ok && i < r->spans.n; i++)
    {
      guint depth = startend ? sl_nvtx_ranges_depth (r, i) : 0;
      gint64 tid = startend ? SL_PERFETTO_SE_TID (t, depth) : th->tid;
      guint lane = MIN (depth, 63);

      if (!sl_filter_match_time (p->options->filter, r->spans.start[i]))
        continue;
      if (startend && !(named & (G_GUINT64_CONSTANT (1) << lane)))
        {
          g_autofree char *name = g_strdup_printf ("%s · NVTX start/end %u",
                                                   sl_profile_thread_name (p->profile, t), lane);
          sl_perfetto_meta (p, "thread_name", th->pid, tid, "name", name, 0);
          named |= G_GUINT64_CONSTANT (1) << lane;
        }
      sl_perfetto_begin (p, "X", "nvtx", th->pid, tid, r->spans.start[i]);
      sl_perfetto_dur (p, sl_spans_dur (&r->spans, i));
      sl_perfetto_name_cached (p, p->strings, r->name[i], sl_strings_get (p->profile->strings, r->name[i]));
      g_string_append (p->sink.buf, "}");
      ok = sl_export_sink_step (&p->sink, 1);
    }
  return ok;
}

static gboolean
write_marks (SlPerfetto *p, const SlThread *th)
{
  const SlNvtxMarks *m = &th->marks;
  gboolean ok = TRUE;

  for (guint i = 0; ok && i < m->n; i++)
    {
      if (!sl_filter_match_time (p->options->filter, m->time[i]))
        continue;
      sl_perfetto_begin (p, "i", "nvtx", th->pid, th->tid, m->time[i]);
      sl_perfetto_name (p, sl_strings_get (p->profile->strings, m->name[i]));
      g_string_append (p->sink.buf, ",\"s\":\"t\"}");
      ok = sl_export_sink_step (&p->sink, 1);
    }
  return ok;
}

gboolean
sl_perfetto_write_cpu (SlPerfetto *p)
{
  const SlProfile *prof = p->profile;
  guint32 last_pid = G_MAXUINT32;

  for (guint32 t = 0; t < prof->n_threads; t++)
    {
      const SlThread *th = &prof->threads[t];

      if (!sl_filter_match_thread (p->options->filter, prof, t))
        continue;
      if (th->pid != last_pid)
        {
          sl_perfetto_meta (p, "process_name", th->pid, 0, "name",
                            sl_profile_process_name (prof, th->process), 0);
          sl_perfetto_meta (p, "process_sort_index", th->pid, 0, "sort_index", NULL,
                            prof->n_gpus + th->process);
          last_pid = th->pid;
        }
      sl_perfetto_meta (p, "thread_name", th->pid, th->tid, "name",
                        sl_profile_thread_name (prof, t), 0);
      sl_perfetto_meta (p, "thread_sort_index", th->pid, th->tid, "sort_index", NULL, th->tid);
      if (!write_api (p, th) || !write_ranges (p, t, &th->nvtx, FALSE)
          || !write_ranges (p, t, &th->nvtx_startend, TRUE) || !write_marks (p, th))
        return FALSE;
    }
  return TRUE;
}

gboolean
sl_perfetto_write_bookmarks (SlPerfetto *p)
{
  const SlExportOptions *o = p->options;
  gint64 pid = p->gpu_pid_base + p->profile->n_gpus;
  gboolean named = FALSE;

  for (guint i = 0; o->bookmarks != NULL && i < o->bookmarks->len; i++)
    {
      const SlBookmark *bm = o->bookmarks->pdata[i];

      if (o->filter != NULL && o->filter->has_range
          && (bm->end < o->filter->range_start || bm->start >= o->filter->range_end))
        continue;
      if (!named)
        {
          sl_perfetto_meta (p, "process_name", pid, 0, "name", "Bookmarks", 0);
          sl_perfetto_meta (p, "process_sort_index", pid, 0, "sort_index", NULL, -1);
          named = TRUE;
        }
      sl_perfetto_begin (p, "X", "bookmark", pid, 1, bm->start);
      sl_perfetto_dur (p, bm->end - bm->start);
      sl_perfetto_name (p, bm->name);
      g_string_append (p->sink.buf, ",\"args\":{\"note\":");
      sl_export_json_text (p->sink.buf, bm->note);
      g_string_append (p->sink.buf, "}}");
    }
  return sl_export_sink_flush (&p->sink);
}
