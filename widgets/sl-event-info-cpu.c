/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-event-info-cpu.c: describing a CPU sample, an OS runtime call or a
 * GPU counter's sample for people. */
#include "sl-event-info-private.h"
#include "sl-locale-format.h"

#include <glib/gi18n-lib.h>

/* Beyond this, a stack says how many frames it left out. */
#define MAX_FRAMES 32

/* One frame a line, leaf first: "symbol — module". */
static char *
stack_text (const SlCpuActivity *cpu, guint32 stack)
{
  GString *text;
  guint n = 0, first;

  if (stack == SL_NONE || stack >= cpu->n_stacks)
    return NULL;
  first = sl_cpu_activity_stack_frames (cpu, stack, &n);
  if (n == 0)
    return NULL;
  text = g_string_new (NULL);
  for (guint k = 0; k < MIN (n, MAX_FRAMES); k++)
    {
      const char *module = sl_cpu_activity_name (cpu, cpu->frame_module[first + k]);

      if (k > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, sl_cpu_activity_name (cpu, cpu->frame_symbol[first + k]));
      if (*module)
        g_string_append_printf (text, " — %s", module);
    }
  if (n > MAX_FRAMES)
    g_string_append_printf (text, "\n%s", _("… and more frames"));
  return g_string_free (text, FALSE);
}

static void
add_cpu_thread (GPtrArray *fields, const SlTimelineModel *model, const SlCpuThread *th)
{
  if (th->thread != SL_NONE && th->thread < model->profile->n_threads)
    {
      _sl_event_info_add_thread (fields, model->profile, th->thread);
      return;
    }
  if (th->name != SL_NONE)
    _sl_event_info_add (fields, _("Thread"), g_strdup_printf ("%s · tid %u", sl_cpu_activity_name (model->cpu, th->name), th->tid));
  else
    _sl_event_info_add (fields, _("Thread"), g_strdup_printf ("tid %u", th->tid));
  _sl_event_info_add (fields, _("Process"), g_strdup_printf ("pid %u", th->pid));
}

static void
add_sample (GPtrArray *fields, SlTimelineModel *model, const SlEventRef *ev, gint64 s)
{
  const SlCpuActivity *cpu = model->cpu;
  const SlCpuThread *th = &cpu->threads[ev->owner];
  guint8 state = th->samples.state[ev->index];

  _sl_event_info_add (fields, _("CPU sample"), g_strdup (sl_timeline_model_event_name (model, ev)));
  _sl_event_info_add (fields, _("Time"), sl_locale_timestamp (s - model->profile->start_ns));
  _sl_event_info_add (fields, _("State"), g_strdup (sl_thread_state_name (state)));
  _sl_event_info_add (fields, _("CPU"), sl_format_count (th->samples.cpu[ev->index]));
  add_cpu_thread (fields, model, th);
  _sl_event_info_add (fields, _("Call stack"), stack_text (cpu, th->samples.stack[ev->index]));
}

static void
add_osrt (GPtrArray *fields, SlTimelineModel *model, const SlEventRef *ev, gint64 s, gint64 e)
{
  const SlCpuActivity *cpu = model->cpu;
  const SlCpuThread *th = &cpu->threads[ev->owner];

  _sl_event_info_add (fields, _("OS runtime call"), g_strdup (sl_timeline_model_event_name (model, ev)));
  _sl_event_info_add (fields, _("Start"), sl_locale_timestamp (s - model->profile->start_ns));
  _sl_event_info_add (fields, _("Duration"), sl_locale_duration (e - s));
  add_cpu_thread (fields, model, th);
  _sl_event_info_add (fields, _("Call stack"), stack_text (cpu, th->osrt.stack[ev->index]));
}

static void
add_metric (GPtrArray *fields, SlTimelineModel *model, const SlEventRef *ev, gint64 s)
{
  const SlMetricSeries *ser = &model->metrics->series[ev->owner];
  float v = ser->value[ev->index];

  _sl_event_info_add (fields, _("GPU metric"), g_strdup (ser->name));
  if (ser->percent)
    _sl_event_info_add (fields, _("Value"), sl_locale_adopt (g_strdup_printf ("%.1f %%", v)));
  else
    _sl_event_info_add (fields, _("Value"), g_strdup_printf ("%.4g %s", v, ser->unit ? ser->unit : ""));
  _sl_event_info_add (fields, _("Sampled at"), sl_locale_timestamp (s - model->profile->start_ns));
  _sl_event_info_add (fields, _("GPU"), sl_format_count (ser->device));
}

void
_sl_event_info_add_cpu (GPtrArray        *fields,
                        SlTimelineModel  *model,
                        const SlEventRef *ev,
                        gint64            s,
                        gint64            e)
{
  switch (ev->kind)
    {
    case SL_EVENT_SAMPLE:
      add_sample (fields, model, ev, s);
      break;
    case SL_EVENT_OSRT:
      add_osrt (fields, model, ev, s, e);
      break;
    case SL_EVENT_METRIC:
      add_metric (fields, model, ev, s);
      break;
    default:
      break;
    }
}
