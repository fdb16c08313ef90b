/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-event-info.c: describing one event for people. */
#include "sl-event-info-private.h"
#include "sl-locale-format.h"
#include "sl-timeline-colors.h"
#include "sl-timeline-gpu-rows.h"

#include <glib/gi18n-lib.h>

static void
field_free (gpointer data)
{
  SlEventField *f = data;

  g_free (f->label);
  g_free (f->value);
  g_free (f->markup);
  g_clear_pointer (&f->links, g_array_unref);
  g_free (f);
}

static void
add (GPtrArray *fields, const char *label, char *value)
{
  SlEventField *f;

  if (value == NULL)
    return;
  f = g_new0 (SlEventField, 1);
  f->label = g_strdup (label);
  f->value = value;
  g_ptr_array_add (fields, f);
}

/* A field whose value is @texts joined by @sep, each part a link to the
 * event of the same position in @events (consumed). */
static void
add_links (GPtrArray *fields, const char *label, GPtrArray *texts, GArray *events, const char *sep)
{
  GString *plain = g_string_new (NULL), *markup = g_string_new (NULL);
  SlEventField *f;

  for (guint i = 0; i < texts->len; i++)
    {
      const char *t = g_ptr_array_index (texts, i);
      g_autofree char *esc = g_markup_escape_text (t, -1);

      if (i > 0)
        {
          g_autofree char *sep_esc = g_markup_escape_text (sep, -1);
          g_string_append (plain, sep);
          g_string_append (markup, sep_esc);
        }
      g_string_append (plain, t);
      if (i < events->len)
        g_string_append_printf (markup, "<a href=\"%u\">%s</a>", i, esc);
      else
        g_string_append (markup, esc);
    }
  add (fields, label, g_string_free (plain, FALSE));
  f = g_ptr_array_index (fields, fields->len - 1);
  f->markup = g_string_free (markup, FALSE);
  f->links = events;
}

/* The ranges open on @thread at @t, outermost first: their names into
 * @names, themselves into @events (nullable). */
static void
nvtx_path_parts (const SlTimelineModel *model, guint32 thread, gint64 t, GPtrArray *names, GArray *events)
{
  const SlProfile *p = model->profile;
  const SlNvtxRanges *nv;

  if (thread >= p->n_threads)
    return;
  nv = &p->threads[thread].nvtx;
  for (guint d = 0; d < nv->n_depths; d++)
    {
      guint lo = nv->depth_first[d], hi = nv->depth_first[d + 1];
      guint i = sl_spans_lower_bound_in (&nv->spans, lo, hi, t + 1);
      SlEventRef ev = { SL_EVENT_NVTX, thread, 0 };

      if (i == lo)
        break;
      i--;
      if (sl_spans_end (&nv->spans, i) < t)
        break;
      ev.index = i;
      g_ptr_array_add (names, (gpointer) sl_strings_get (p->strings, nv->name[i]));
      if (events)
        g_array_append_val (events, ev);
    }
}

/* The NVTX path at @t on @thread, each range a link. */
static void
add_nvtx_path (GPtrArray *fields, const char *label, const SlTimelineModel *model, guint32 thread, gint64 t)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GArray *events = g_array_new (FALSE, FALSE, sizeof (SlEventRef));

  nvtx_path_parts (model, thread, t, names, events);
  if (names->len == 0)
    {
      g_array_unref (events);
      return;
    }
  add_links (fields, label, names, events, " › ");
}

/* One event as a link. */
static void
add_link (GPtrArray *fields, const char *label, const char *text, const SlEventRef *ev)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  GArray *events = g_array_new (FALSE, FALSE, sizeof (SlEventRef));

  g_ptr_array_add (texts, (gpointer) text);
  g_array_append_val (events, *ev);
  add_links (fields, label, texts, events, "");
}

char *
sl_event_info_nvtx_path (const SlTimelineModel *model,
                         guint32                thread,
                         gint64                 t)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  nvtx_path_parts (model, thread, t, names, NULL);
  if (names->len == 0)
    return NULL;
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" › ", (char **) names->pdata);
}

/* Start and duration; instants (marks) have a time only. */
static void
add_times (GPtrArray *fields, const SlTimelineModel *model, gint64 s, gint64 e, gboolean instant)
{
  add (fields, instant ? _("Time") : _("Start"), sl_locale_timestamp (s - model->profile->start_ns));
  if (!instant)
    add (fields, _("Duration"), sl_locale_duration (e - s));
}

static void
add_thread (GPtrArray *fields, const SlProfile *p, guint32 thread)
{
  if (thread >= p->n_threads)
    return;
  add (fields, _("Thread"), g_strdup_printf ("%s · tid %u", sl_profile_thread_name (p, thread),
                                             p->threads[thread].tid));
  add (fields, _("Process"),
       g_strdup_printf ("%s · pid %u", sl_profile_process_name (p, p->threads[thread].process),
                        p->threads[thread].pid));
}

void
_sl_event_info_add (GPtrArray *fields, const char *label, char *value)
{
  add (fields, label, value);
}

void
_sl_event_info_add_thread (GPtrArray *fields, const SlProfile *p, guint32 thread)
{
  add_thread (fields, p, thread);
}

static void
add_stream (GPtrArray *fields, const SlStream *st)
{
  add (fields, _("GPU"), sl_format_count (st->device));
  add (fields, _("Stream"), sl_format_count (st->stream));
}

static void
add_launch (GPtrArray *fields, SlTimelineModel *model, guint32 api, gint64 gpu_start, gboolean loading)
{
  const SlProfile *p = model->profile;
  guint32 thread;

  if (!(p->parts & SL_PART_API))
    {
      /* a staged load's GPU rows: the calls are not read (yet) */
      add (fields, _("Launched by"), g_strdup (loading ? _("still loading (CUDA API calls are being read)")
                                                       : _("not loaded (CUDA API calls were not read)")));
      return;
    }
  if (api == SL_NONE || api >= p->api.spans.n)
    {
      add (fields, _("Launched by"), g_strdup (_("unknown (no API call in the profile)")));
      return;
    }
  thread = sl_profile_api_thread (p, api);
  add_link (fields, _("Launched by"), sl_strings_get (p->strings, p->api.name[api]),
            &(SlEventRef) { SL_EVENT_API, thread, api });
  add (fields, _("Launch duration"), sl_locale_duration (sl_spans_dur (&p->api.spans, api)));
  add (fields, _("Launch latency"), sl_locale_duration (gpu_start - p->api.spans.start[api]));
  add_thread (fields, p, thread);
  add_nvtx_path (fields, _("NVTX"), model, thread, p->api.spans.start[api]);
}

static char *
dim3_text (const gint64 v[3])
{
  return g_strdup_printf ("%" G_GINT64_FORMAT " × %" G_GINT64_FORMAT " × %" G_GINT64_FORMAT,
                          v[0], v[1], v[2]);
}

/* Only its address matters: sl_event_info_details_reading(). */
static const SlKernelDetails details_reading = { { 0, 0, 0 }, { 0, 0, 0 }, 0, 0, 0, NULL };

const SlKernelDetails *
sl_event_info_details_reading (void)
{
  return &details_reading;
}

static void
add_launch_config_reading (GPtrArray *fields)
{
  /* Translators: a value not known yet: read from the file in the background */
  const char *reading = _("reading…");

  add (fields, _("Grid"), g_strdup (reading));
  add (fields, _("Block"), g_strdup (reading));
  add (fields, _("Registers/thread"), g_strdup (reading));
  add (fields, _("Shared memory"), g_strdup (reading));
}

static void
add_launch_config (GPtrArray *fields, const SlKernelDetails *det)
{
  if (det == &details_reading)
    {
      add_launch_config_reading (fields);
      return;
    }
  add (fields, _("Grid"), dim3_text (det->grid));
  add (fields, _("Block"), dim3_text (det->block));
  if (det->registers_per_thread >= 0)
    add (fields, _("Registers/thread"), sl_format_count (det->registers_per_thread));
  if (det->static_shared_bytes >= 0 || det->dynamic_shared_bytes >= 0)
    {
      g_autofree char *st_b = sl_locale_bytes (MAX (det->static_shared_bytes, 0));
      g_autofree char *dyn_b = sl_locale_bytes (MAX (det->dynamic_shared_bytes, 0));
      add (fields, _("Shared memory"), g_strdup_printf (_("%s static, %s dynamic"), st_b, dyn_b));
    }
}

static void
add_kernel (GPtrArray *fields, SlTimelineModel *model, const SlEventRef *ev, gint64 s, gint64 e,
            const SlKernelDetails *details, gboolean loading)
{
  const SlProfile *p = model->profile;
  const SlStream *st = &p->streams[ev->owner];
  guint32 f = st->kernels.func[ev->index];
  const char *name = sl_profile_kernel_name (p, f, FALSE);
  const char *demangled = sl_profile_kernel_name (p, f, TRUE);

  add (fields, _("Kernel"), g_strdup (name));
  if (g_strcmp0 (demangled, name) != 0)
    add (fields, _("Demangled"), g_strdup (demangled));
  add (fields, _("Category"),
       g_strdup (f < p->n_funcs ? sl_timeline_color_label (model->func_color[f]) : NULL));
  add_times (fields, model, s, e, FALSE);
  add_stream (fields, st);
  /* a kernel's correlation id is its launching call's: unknown without the calls */
  if (p->parts & SL_PART_API)
    add (fields, _("Correlation ID"), sl_format_count (sl_kernels_corr (p, &st->kernels, ev->index)));
  add_launch (fields, model, st->kernels.api[ev->index], s, loading);
  /* last: read from the file after the click, its rows (as many as the
   * export knows, values that may wrap) move nothing above them, the
   * "Launched by" and NVTX links under the pointer included */
  if (details != NULL)
    add_launch_config (fields, details);
}

static void
add_copy (GPtrArray *fields, SlTimelineModel *model, const SlEventRef *ev, gint64 s, gint64 e, gboolean loading)
{
  const SlStream *st = &model->profile->streams[ev->owner];
  const SlCopies *c = ev->kind == SL_EVENT_MEMCPY ? &st->memcpy : &st->memset;
  guint64 bytes = c->bytes[ev->index];

  add (fields, ev->kind == SL_EVENT_MEMCPY ? _("Memcpy") : _("Memset"),
       g_strdup (sl_timeline_model_event_name (model, ev)));
  add (fields, _("Size"), sl_locale_bytes (bytes));
  if (e > s)
    {
      g_autofree char *rate = sl_locale_bytes ((guint64) (bytes / ((e - s) / 1e9)));
      add (fields, _("Throughput"), g_strdup_printf (_("%s/s"), rate));
    }
  add_times (fields, model, s, e, FALSE);
  add_stream (fields, st);
  add (fields, _("Correlation ID"), sl_format_count (c->corr[ev->index]));
  add_launch (fields, model, c->api[ev->index], s, loading);
}

/* Every operation a call launched, each a link: one for a kernel launch,
 * all the kernels of a graph for cudaGraphLaunch. */
static void
add_launched_list (GPtrArray *fields, SlTimelineModel *model, GArray *launched)
{
  const SlProfile *p = model->profile;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  GArray *events = g_array_new (FALSE, FALSE, sizeof (SlEventRef));
  guint shown = MIN (launched->len, 50);

  for (guint i = 0; i < shown; i++)
    {
      const SlEventRef *gpu = &g_array_index (launched, SlEventRef, i);

      g_ptr_array_add (texts, g_strdup_printf (_("%s on GPU %u stream %u"), sl_timeline_model_event_name (model, gpu),
                                               p->streams[gpu->owner].device, p->streams[gpu->owner].stream));
      g_array_append_val (events, *gpu);
    }
  /* a graph of thousands of nodes: the first ones, and how many more */
  if (launched->len > shown)
    g_ptr_array_add (texts, g_strdup_printf (ngettext ("… and %u more", "… and %u more", launched->len - shown),
                                             launched->len - shown));
  add_links (fields, launched->len > 1 ? _("Launched (graph)") : _("Launched"), texts, events, "\n");
}

static void
add_api (GPtrArray *fields, SlTimelineModel *model, const SlEventRef *ev, gint64 s, gint64 e)
{
  const SlProfile *p = model->profile;
  guint32 thread = sl_profile_api_thread (p, ev->index);
  g_autoptr(GArray) launched = g_array_new (FALSE, FALSE, sizeof (SlEventRef));
  gint64 gs, ge;

  add (fields, _("CUDA API"), g_strdup (sl_strings_get (p->strings, p->api.name[ev->index])));
  add_times (fields, model, s, e, FALSE);
  add (fields, _("Correlation ID"), sl_format_count (sl_api_corr (&p->api, ev->index)));
  add_thread (fields, p, thread);
  add_nvtx_path (fields, _("NVTX"), model, thread, s);
  if (sl_timeline_model_find_all_launched (model, ev->index, launched) == 0 ||
      !sl_timeline_model_event_span (model, &g_array_index (launched, SlEventRef, 0), &gs, &ge))
    return;
  add_launched_list (fields, model, launched);
  add (fields, _("Launch latency"), sl_locale_duration (gs - s));
}

/* A range projected onto a GPU: its GPU span and time, and the range itself. */
static void
add_projected (GPtrArray *fields, SlTimelineModel *model, const SlEventRef *ev, gint64 s, gint64 e)
{
  const SlProfile *p = model->profile;
  const SlThread *th;
  guint32 thread;
  guint local;

  if (!sl_timeline_projected_range (model, ev->owner, ev->index, &thread, &local))
    return;
  th = &p->threads[thread];
  add (fields, _("NVTX (projected)"), g_strdup (sl_timeline_model_event_name (model, ev)));
  add (fields, _("GPU"), sl_format_count (p->gpus[ev->owner].device));
  add (fields, _("GPU start"), sl_locale_timestamp (s - p->start_ns));
  add (fields, _("Projected span"), sl_locale_duration (e - s));
  add (fields, _("GPU time"), sl_locale_duration (sl_timeline_projected_gpu_time (model, ev->owner, ev->index)));
  add (fields, _("CPU time"), sl_locale_duration (sl_spans_dur (&th->nvtx.spans, local)));
  add_link (fields, _("NVTX range"), sl_strings_get (p->strings, th->nvtx.name[local]),
            &(SlEventRef) { SL_EVENT_NVTX, thread, local });
  add_nvtx_path (fields, _("Path"), model, thread, th->nvtx.spans.start[local]);
  add_thread (fields, p, thread);
}

static void
add_nvtx (GPtrArray *fields, SlTimelineModel *model, const SlEventRef *ev, gint64 s, gint64 e)
{
  const SlProfile *p = model->profile;
  const SlThread *th = &p->threads[ev->owner];
  guint16 domain = ev->kind == SL_EVENT_NVTX
                   ? sl_nvtx_ranges_domain (&th->nvtx, ev->index)
                   : ev->kind == SL_EVENT_NVTX_STARTEND ? sl_nvtx_ranges_domain (&th->nvtx_startend, ev->index)
                                                        : th->marks.domain[ev->index];

  add (fields, ev->kind == SL_EVENT_MARK ? _("NVTX mark") : _("NVTX range"),
       g_strdup (sl_timeline_model_event_name (model, ev)));
  add (fields, _("Domain"), g_strdup (sl_profile_domain_name (p, th->pid, domain)));
  add_times (fields, model, s, e, ev->kind == SL_EVENT_MARK);
  if (ev->kind == SL_EVENT_NVTX)
    {
      add (fields, _("Depth"), sl_format_count (sl_nvtx_ranges_depth (&th->nvtx, ev->index)));
      add_nvtx_path (fields, _("Path"), model, ev->owner, s);
    }
  add_thread (fields, p, ev->owner);
}

GPtrArray *
sl_event_info_fields (SlTimelineModel       *model,
                      const SlEventRef      *ev,
                      const SlKernelDetails *details,
                      gboolean               loading)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (field_free);
  gint64 s, e;

  if (!sl_timeline_model_event_span (model, ev, &s, &e))
    return fields;
  switch (ev->kind)
    {
    case SL_EVENT_KERNEL:
      add_kernel (fields, model, ev, s, e, details, loading);
      break;
    case SL_EVENT_MEMCPY:
    case SL_EVENT_MEMSET:
      add_copy (fields, model, ev, s, e, loading);
      break;
    case SL_EVENT_API:
      add_api (fields, model, ev, s, e);
      break;
    case SL_EVENT_NVTX:
    case SL_EVENT_NVTX_STARTEND:
    case SL_EVENT_MARK:
      add_nvtx (fields, model, ev, s, e);
      break;
    case SL_EVENT_NVTX_PROJECTED:
      add_projected (fields, model, ev, s, e);
      break;
    case SL_EVENT_OSRT:
    case SL_EVENT_SAMPLE:
    case SL_EVENT_METRIC:
      _sl_event_info_add_cpu (fields, model, ev, s, e);
      break;
    case SL_EVENT_NONE:
    default:
      break;
    }
  return fields;
}

char *
sl_event_info_tooltip (SlTimelineModel       *model,
                       const SlEventRef      *ev,
                       const SlKernelDetails *details,
                       gboolean               loading)
{
  g_autoptr(GPtrArray) fields = sl_event_info_fields (model, ev, details, loading);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < fields->len && i < 14; i++)
    {
      const SlEventField *f = g_ptr_array_index (fields, i);
      g_autofree char *v = g_markup_escape_text (f->value, -1);
      g_autofree char *l = g_markup_escape_text (f->label, -1);

      if (i == 0)
        {
          /* very long template names would make a wall of text */
          if (g_utf8_strlen (f->value, -1) > 160)
            {
              g_autofree char *cut = g_utf8_substring (f->value, 0, 160);
              g_free (v);
              v = g_markup_printf_escaped ("%s…", cut);
            }
          g_string_append_printf (s, "<b>%s</b>", v);
        }
      else
        g_string_append_printf (s, "\n<span alpha=\"70%%\">%s:</span> %s", l, v);
    }
  return g_string_free (s, FALSE);
}
