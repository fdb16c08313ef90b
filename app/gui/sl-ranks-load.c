/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks-load.c: the files of a ranks window, loaded in workers two at
 * a time: each its profile, its rank summary (cmp-cli's analysis) and its
 * timeline model. */
#include "sl-ranks-window-private.h"

#include <glib/gi18n.h>

/* Kernel names kept in a summary: the window shows none, the CLI's default. */
#define TOP_KERNELS 10

void
_sl_rank_free (SlRank *rank)
{
  g_free (rank->path);
  g_free (rank->name);
  g_free (rank->summary_file);
  g_free (rank->error);
  g_clear_pointer (&rank->summary, sl_rank_summary_free);
  g_clear_pointer (&rank->model, sl_timeline_model_unref);
  g_clear_pointer (&rank->profile, sl_profile_unref);
  _sl_ranks_align_unwatch (rank);
  g_clear_object (&rank->session);
  g_free (rank);
}

static void
progress_cb (double fraction, const char *phase, gpointer data)
{
  SlRank *rank = data;

  /* the bar shows loading; the model's build is the last 10 % */
  rank->fraction = 0.9 * CLAMP (fraction, 0.0, 1.0);
}

/* The summary as summarize computes it (sl-cli-rank-input.c), so that the
 * heat map agrees with sightline-cli ranks.  A summary file's rank keeps
 * the file's summary: only its clock origin comes from the profile, found
 * as summarize found it, so its steps land where the summary put them. */
static void
summarize (SlRank *rank)
{
  SlSessionInfo info = { 0 };
  gint64 utc;

  if (!sl_session_info_read (rank->path, &info, NULL))
    info.rank = -1;
  utc = info.utc_ns != 0 ? info.utc_ns : rank->profile->session_utc_ns;
  rank->origin_ns = info.has_clock ? info.clock_ns : rank->profile->start_ns;
  if (rank->summary_file == NULL)
    rank->aligned = utc != 0;
  if (rank->summary_file == NULL)
    rank->summary = sl_rank_summary_compute (rank->profile, info.rank, info.rank_source, utc,
                                           rank->origin_ns, TOP_KERNELS);
  sl_session_info_clear (&info);
}

static void
load_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  SlRank *rank = data;
  GError *error = NULL;

  rank->profile = sl_profile_load_with (rank->path, NULL, cancellable, progress_cb, rank, &error);
  if (rank->profile == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  summarize (rank);
  rank->model = sl_timeline_model_new (rank->profile, cancellable);
  if (rank->model == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
      return;
    }
  rank->fraction = 1.0;
  g_task_return_boolean (task, TRUE);
}

static void
load_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  SlRanksWindow *self = SL_RANKS_WINDOW (source);
  SlRank *rank = data;
  g_autoptr(GError) error = NULL;

  if (g_task_propagate_boolean (G_TASK (result), &error))
    rank->state = SL_RANK_READY;
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
           g_error_matches (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED))
    return;   /* the window is closing */
  else if (rank->summary_file != NULL)
    {
      /* the summary stays in the heat map: the user may locate another file */
      rank->state = SL_RANK_SUMMARY;
      rank->error = g_strdup_printf (_("Could not open %s: %s"), rank->path, error->message);
    }
  else
    {
      rank->state = SL_RANK_FAILED;
      rank->error = g_strdup (error->message);
    }
  _sl_ranks_window_rank_done (self, rank);
  _sl_ranks_load_next (self);
}

void
_sl_ranks_load_next (SlRanksWindow *self)
{
  guint loading = 0;

  for (guint i = 0; i < self->ranks->len; i++)
    loading += ((SlRank *) self->ranks->pdata[i])->state == SL_RANK_LOADING;
  for (guint i = 0; i < self->ranks->len && loading < SL_RANKS_PARALLEL; i++)
    {
      SlRank *rank = self->ranks->pdata[i];
      g_autoptr(GTask) task = NULL;

      if (rank->state != SL_RANK_WAITING)
        continue;
      rank->state = SL_RANK_LOADING;
      loading++;
      task = g_task_new (self, self->cancellable, load_done_cb, rank);
      g_task_set_task_data (task, rank, NULL);
      g_task_run_in_thread (task, load_thread);
    }
}
