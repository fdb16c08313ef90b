/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-clock.c: Preferences → Times → wall clock.  The ruler and the
 * details pane show the local time of day from the session's start
 * (TARGET_INFO_SESSION_START_TIME) and the capture clock at that moment
 * (systemClockNs, else the profile's first event: as ranks aligns them),
 * read from the file in a worker. */
#include "sl-window-private.h"
#include "sl-details-pane.h"
#include "sl-session-info.h"
#include "sl-settings.h"

#define CANCELLABLE_KEY "sl-wall-clock-cancellable"

typedef struct {
  gint64 utc_ns, origin_ns;
} WallClock;

static void
apply (SlWindow *self, gboolean on, gint64 utc_ns, gint64 origin_ns)
{
  sl_timeline_set_wall_clock (SL_TIMELINE (self->timeline), on, utc_ns, origin_ns);
  sl_details_pane_set_wall_clock (SL_DETAILS_PANE (self->details), on ? utc_ns : 0, origin_ns);
}

static void
read_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  SlProfile *profile = data;
  const char *path = g_object_get_data (G_OBJECT (task), "path");
  SlSessionInfo info = { 0 };
  WallClock *clock = g_new0 (WallClock, 1);

  if (!sl_session_info_read (path, &info, NULL))
    info.rank = -1;
  clock->utc_ns = info.utc_ns != 0 ? info.utc_ns : profile->session_utc_ns;
  clock->origin_ns = info.has_clock ? info.clock_ns : profile->start_ns;
  sl_session_info_clear (&info);
  g_task_return_pointer (task, clock, g_free);
}

static void
read_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autofree WallClock *clock = g_task_propagate_pointer (G_TASK (result), NULL);

  if (clock != NULL)
    apply (SL_WINDOW (source), TRUE, clock->utc_ns, clock->origin_ns);
}

static void
update (SlWindow *self)
{
  GSettings *settings = sl_settings_get ();
  g_autofree char *mode = settings != NULL ? g_settings_get_string (settings, "time-display") : NULL;
  g_autofree char *path = self->file != NULL ? g_file_get_path (self->file) : NULL;
  GCancellable *cancellable = g_object_get_data (G_OBJECT (self), CANCELLABLE_KEY);
  g_autoptr(GTask) task = NULL;
  SlProfile *profile;

  /* a newer choice or profile wins over a read still running */
  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
  cancellable = g_cancellable_new ();
  g_object_set_data_full (G_OBJECT (self), CANCELLABLE_KEY, cancellable, g_object_unref);
  if (mode == NULL || !g_str_equal (mode, "wall-clock") || self->session == NULL)
    {
      apply (self, FALSE, 0, 0);
      return;
    }
  profile = sl_session_get_profile (self->session);
  if (path == NULL)
    {
      apply (self, TRUE, profile->session_utc_ns, profile->start_ns);
      return;
    }
  task = g_task_new (self, cancellable, read_done_cb, NULL);
  g_task_set_source_tag (task, update);
  g_task_set_check_cancellable (task, TRUE);
  g_task_set_task_data (task, sl_profile_ref (profile), (GDestroyNotify) sl_profile_unref);
  g_object_set_data_full (G_OBJECT (task), "path", g_steal_pointer (&path), g_free);
  g_task_run_in_thread (task, read_thread);
}

static void
changed_cb (SlWindow *self)
{
  update (self);
}

void
_sl_window_clock_init (SlWindow *self)
{
  GSettings *settings = sl_settings_get ();

  if (settings != NULL)
    g_signal_connect_object (settings, "changed::time-display", G_CALLBACK (changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::session", G_CALLBACK (changed_cb), NULL);
}

void
_sl_window_clock_dispose (SlWindow *self)
{
  GCancellable *cancellable = g_object_get_data (G_OBJECT (self), CANCELLABLE_KEY);

  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
}
