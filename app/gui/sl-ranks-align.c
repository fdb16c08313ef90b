/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks-align.c: one job clock over the ranks' timelines.  Each file
 * keeps its own capture clock (its model and session are the single-
 * profile ones, untouched); a rank's time t is at job time
 * t - origin + offset, where origin is its capture clock at its session
 * start and offset its session start after the earliest one plus the
 * user's offset (sl_ranks_compute's row offset).  Moving one timeline
 * moves the others to the same job time. */
#include "sl-ranks-window-private.h"

gint64
_sl_rank_offset_ns (SlRanksWindow *self, SlRank *rank)
{
  if (self->table != NULL)
    for (guint r = 0; r < self->table->n_rows; r++)
      if (self->table_ranks->pdata[r] == rank)
        return self->table->rows[r].offset_ns;
  return rank->manual_ns;
}

gint64
_sl_rank_to_job (SlRanksWindow *self, SlRank *rank, gint64 t)
{
  return t - rank->origin_ns + _sl_rank_offset_ns (self, rank);
}

gint64
_sl_rank_from_job (SlRanksWindow *self, SlRank *rank, gint64 t)
{
  return t + rank->origin_ns - _sl_rank_offset_ns (self, rank);
}

static void
show_in (SlRanksWindow *self, SlRank *rank, gint64 start, gint64 end)
{
  SlTimeRange range = { _sl_rank_from_job (self, rank, start), _sl_rank_from_job (self, rank, end) };
  const SlTimeRange *now = sl_session_get_visible_range (rank->session);

  if (now->start != range.start || now->end != range.end)
    sl_session_set_visible_range (rank->session, &range);
}

void
_sl_ranks_show_job_range (SlRanksWindow *self, gint64 start, gint64 end)
{
  self->syncing = TRUE;
  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *rank = self->ranks->pdata[i];
      if (rank->session != NULL)
        show_in (self, rank, start, end);
    }
  self->syncing = FALSE;
  _sl_ranks_stack_update_ruler (self);
  if (self->probe != NULL)
    _sl_ranks_probe_changed (self->probe);
}

void
_sl_ranks_align_from (SlRanksWindow *self, SlRank *rank)
{
  const SlTimeRange *r = sl_session_get_visible_range (rank->session);

  _sl_ranks_show_job_range (self, _sl_rank_to_job (self, rank, r->start), _sl_rank_to_job (self, rank, r->end));
}

typedef struct {
  SlRanksWindow *self;
  SlRank        *rank;
} Watch;

static void
visible_changed_cb (SlSession *session, GParamSpec *pspec, gpointer data)
{
  Watch *w = data;

  /* the others' changes made here come back through their own handlers */
  if (!w->self->syncing && !w->rank->fresh)
    _sl_ranks_align_from (w->self, w->rank);
}

void
_sl_ranks_align_watch (SlRanksWindow *self, SlRank *rank)
{
  Watch *w = g_new (Watch, 1);

  w->self = self;
  w->rank = rank;
  g_signal_connect_data (rank->session, "notify::visible-range", G_CALLBACK (visible_changed_cb), w,
                         (GClosureNotify) (void (*) (void)) g_free, 0);
}

void
_sl_ranks_align_unwatch (SlRank *rank)
{
  if (rank->session != NULL)
    g_signal_handlers_disconnect_matched (rank->session, G_SIGNAL_MATCH_FUNC, 0, 0, NULL,
                                          visible_changed_cb, NULL);
}
