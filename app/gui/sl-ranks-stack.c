/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks-stack.c: the ranks' timelines read as one timeline.  Each
 * rank's timeline hides its own ruler and minimap and is as tall as its
 * rows, all in one scrolled window under one ruler on the job clock
 * (sl-ranks-ruler.c).  So that the time axis lines up to the pixel, every
 * timeline has the same label column width (a drag in one resizes all);
 * a range selected in one is selected, on the job clock, in all. */
#include "sl-ranks-window-private.h"
#include "sl-ranks-ruler.h"
#include "sl-timeline.h"

/* The first rank whose timeline is on screen: the ruler's reference. */
static SlRank *
reference_rank (SlRanksWindow *self)
{
  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *rank = self->ranks->pdata[i];
      if (rank->timeline != NULL && rank->session != NULL && gtk_widget_get_mapped (rank->timeline) &&
          sl_timeline_get_layout (SL_TIMELINE (rank->timeline)) != NULL)
        return rank;
    }
  return NULL;
}

/* The ruler spans what the reference timeline's body shows, at its x. */
void
_sl_ranks_stack_update_ruler (SlRanksWindow *self)
{
  SlRank *rank;
  SlTimelineLayout *l;
  const SlTimeRange *v;
  graphene_point_t p;
  double s;

  if (self->placing_ruler)
    return;
  self->placing_ruler = TRUE;
  rank = reference_rank (self);
  if (rank == NULL || self->ruler == NULL)
    {
      self->placing_ruler = FALSE;
      return;
    }
  l = sl_timeline_get_layout (SL_TIMELINE (rank->timeline));
  s = gtk_widget_get_scale_factor (rank->timeline);
  v = sl_session_get_visible_range (rank->session);
  if (gtk_widget_compute_point (rank->timeline, self->ruler, &GRAPHENE_POINT_INIT (l->header_width / s, 0), &p))
    sl_ranks_ruler_set_view (SL_RANKS_RULER (self->ruler), _sl_rank_to_job (self, rank, v->start),
                             _sl_rank_to_job (self, rank, v->end), p.x, sl_timeline_layout_body_width (l) / s);
  /* the grid under each rank's rows on the ruler's ticks: job time 0 */
  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *r = self->ranks->pdata[i];
      if (r->timeline != NULL)
        sl_timeline_set_time_origin (SL_TIMELINE (r->timeline), TRUE, _sl_rank_from_job (self, r, 0));
    }
  self->placing_ruler = FALSE;
}

static void
label_width_cb (GObject *timeline, GParamSpec *pspec, SlRanksWindow *self)
{
  int width = sl_timeline_get_label_width (SL_TIMELINE (timeline));

  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *rank = self->ranks->pdata[i];
      if (rank->timeline != NULL && rank->timeline != (GtkWidget *) timeline &&
          sl_timeline_get_label_width (SL_TIMELINE (rank->timeline)) != width)
        sl_timeline_set_label_width (SL_TIMELINE (rank->timeline), width);
    }
}

/* A range selected (or cleared) in one rank: the same job time in all. */
static void
selected_cb (SlSession *session, GParamSpec *pspec, SlRank *from)
{
  SlRanksWindow *self = SL_RANKS_WINDOW (gtk_widget_get_root (from->timeline));
  const SlTimeRange *sel = sl_session_get_selected_range (session);

  if (self == NULL || self->syncing)
    return;
  self->syncing = TRUE;
  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *rank = self->ranks->pdata[i];
      SlTimeRange r;
      if (rank == from || rank->session == NULL)
        continue;
      if (sel != NULL)
        {
          r.start = _sl_rank_from_job (self, rank, _sl_rank_to_job (self, from, sel->start));
          r.end = _sl_rank_from_job (self, rank, _sl_rank_to_job (self, from, sel->end));
        }
      sl_session_set_selected_range (rank->session, sel != NULL ? &r : NULL);
    }
  self->syncing = FALSE;
  if (self->probe != NULL)
    _sl_ranks_probe_changed (self->probe);
}

static void
view_changed_cb (GtkWidget *timeline, SlRanksWindow *self)
{
  _sl_ranks_stack_update_ruler (self);
}

/* A rank's timeline joins the stack: header hidden, as tall as its rows,
 * the others' label width and selection. */
void
_sl_ranks_stack_add (SlRanksWindow *self, SlRank *rank)
{
  SlRank *other = reference_rank (self);

  sl_timeline_set_show_header (SL_TIMELINE (rank->timeline), FALSE);
  sl_timeline_set_natural_height (SL_TIMELINE (rank->timeline), TRUE);
  if (other != NULL && other != rank)
    sl_timeline_set_label_width (SL_TIMELINE (rank->timeline),
                                 sl_timeline_get_label_width (SL_TIMELINE (other->timeline)));
  g_signal_connect_object (rank->timeline, "notify::label-width", G_CALLBACK (label_width_cb), self, 0);
  g_signal_connect_object (rank->timeline, "view-changed", G_CALLBACK (view_changed_cb), self, 0);
  g_signal_connect (rank->session, "notify::selected-range", G_CALLBACK (selected_cb), rank);
}
