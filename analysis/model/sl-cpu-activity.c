/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-activity.c: the CPU side's object: its lifetime and lookups.  The
 * loader (analysis/loader/sl-cpu-loader*.c) builds it; each array is its
 * own allocation, freed here. */
#include "sl-cpu-activity.h"

#include <glib/gi18n-lib.h>

SlCpuActivity *
sl_cpu_activity_ref (SlCpuActivity *activity)
{
  g_return_val_if_fail (activity != NULL, NULL);
  g_atomic_int_inc (&activity->ref_count);
  return activity;
}

static void
cpu_thread_clear (SlCpuThread *t)
{
  g_free (t->osrt.spans.start);
  g_free (t->osrt.spans.dur);
  g_free (t->osrt.spans.long_index);
  g_free (t->osrt.spans.long_dur);
  g_free (t->osrt.name);
  g_free (t->osrt.stack);
  g_free (t->osrt.depth);
  g_free (t->osrt.depth_first);
  g_free (t->samples.time);
  g_free (t->samples.state);
  g_free (t->samples.cpu);
  g_free (t->samples.stack);
  g_free (t->sched.time);
  g_free (t->sched.sched_in);
  g_free (t->sched.cpu);
}

void
sl_cpu_activity_unref (SlCpuActivity *activity)
{
  if (activity == NULL || !g_atomic_int_dec_and_test (&activity->ref_count))
    return;
  for (guint i = 0; i < activity->n_threads; i++)
    cpu_thread_clear (&activity->threads[i]);
  g_free (activity->threads);
  g_free (activity->frame_first);
  g_free (activity->frame_symbol);
  g_free (activity->frame_module);
  for (guint i = 0; i < activity->n_names; i++)
    g_free (activity->names[i]);
  g_free (activity->names);
  g_clear_pointer (&activity->warnings, g_ptr_array_unref);
  g_free (activity);
}

const char *
sl_cpu_activity_name (const SlCpuActivity *activity,
                      guint32              id)
{
  if (activity == NULL || id >= activity->n_names || activity->names[id] == NULL)
    return "";
  return activity->names[id];
}

static guint64
thread_key (guint64 global_tid)
{
  /* (pid, tid) as the threads are sorted: pid in the high half */
  guint64 pid = (global_tid >> 24) & 0xFFFFFF, tid = global_tid & 0xFFFFFF;
  return (pid << 32) | tid;
}

guint32
sl_cpu_activity_find_thread (const SlCpuActivity *activity,
                             guint64              global_tid)
{
  guint lo = 0, hi;
  guint64 key = thread_key (global_tid);

  g_return_val_if_fail (activity != NULL, SL_NONE);
  hi = activity->n_threads;
  /* sorted by (pid, tid): a binary search, then the exact globalTid among
   * equal keys (the high bits of globalTid can differ per VM) */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (thread_key (activity->threads[mid].global_tid) < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < activity->n_threads && thread_key (activity->threads[lo].global_tid) == key; lo++)
    if (activity->threads[lo].global_tid == global_tid)
      return lo;
  return SL_NONE;
}

guint32
sl_cpu_activity_stack_frames (const SlCpuActivity *activity,
                              guint32              stack,
                              guint               *n_frames)
{
  g_return_val_if_fail (activity != NULL && n_frames != NULL, 0);
  if (stack >= activity->n_stacks)
    {
      *n_frames = 0;
      return 0;
    }
  *n_frames = activity->frame_first[stack + 1] - activity->frame_first[stack];
  return activity->frame_first[stack];
}

const char *
sl_thread_state_name (guint8 state)
{
  static const char *const names[SL_THREAD_STATE_COUNT] = {
    N_("Unknown"), N_("Running"), N_("Interruptible"), N_("Uninterruptible"),
    N_("Stopped"), N_("Terminated"), N_("Unscheduled"), N_("Waiting"),
    N_("OS runtime"), N_("Initialized"), N_("Transition"),
  };

  return _(names[state < SL_THREAD_STATE_COUNT ? state : SL_THREAD_STATE_UNKNOWN]);
}
