/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks-demand.c: a summary rank's full profile, loaded when the user
 * asks for it (its header's button, its heat-map row or cell), by the
 * window's loader (sl-ranks-load.c: off the main thread, with progress).
 * The profile is the one the summary records, relative to the summary's
 * folder when relative; when it is not there the header says so and
 * offers to locate it. */
#include "sl-ranks-window-private.h"
#include "sl-locale-format.h"
#include "sl-file-chooser.h"
#include "sl-format.h"

#include <glib/gi18n.h>

static const SlRanksRow *
table_row (SlRanksWindow *self, SlRank *rank)
{
  for (guint r = 0; self->table != NULL && r < self->table->n_rows; r++)
    if (self->table_ranks->pdata[r] == rank)
      return &self->table->rows[r];
  return NULL;
}

static char *
summary_text (SlRanksWindow *self, SlRank *rank)
{
  const SlRanksRow *row = table_row (self, rank);
  g_autofree char *step = NULL, *wait = NULL;

  if (row == NULL)
    return g_strdup (_("Summary only — click to load the profile"));
  step = row->n_steps > 0 ? sl_locale_duration (row->step_median_ns) : g_strdup ("–");
  wait = sl_locale_duration (row->nccl_wait_ns);
  return g_strdup_printf (_("Summary only — click to load the profile · %u steps · median step %s · NCCL wait %s"),
                          rank->summary->n_steps, step, wait);
}

static void
set_status (SlRank *rank, const char *text, gboolean error)
{
  gtk_label_set_text (GTK_LABEL (rank->status), text);
  gtk_widget_set_tooltip_text (rank->status, text);
  if (error)
    gtk_widget_add_css_class (rank->status, "error");
  else
    gtk_widget_remove_css_class (rank->status, "error");
}

void
_sl_rank_demand_update (SlRanksWindow *self, SlRank *rank)
{
  g_autofree char *text = NULL;
  gboolean waiting = rank->state == SL_RANK_SUMMARY;

  if (rank->summary_file == NULL)
    return;
  gtk_widget_set_visible (rank->load, waiting && rank->summary != NULL);
  gtk_widget_set_visible (rank->locate, waiting && rank->error != NULL);
  gtk_widget_set_visible (rank->progress, rank->state == SL_RANK_WAITING || rank->state == SL_RANK_LOADING);
  if (rank->state == SL_RANK_FAILED)
    text = g_strdup_printf (_("Could not read %s: %s"), rank->summary_file, rank->error);
  else if (waiting && rank->summary == NULL)
    text = g_strdup (_("Reading the summary…"));
  else if (waiting && rank->error != NULL)
    text = g_strdup (rank->error);
  else if (waiting)
    text = summary_text (self, rank);
  else if (rank->state != SL_RANK_READY)
    text = g_strdup_printf (_("Loading %s…"), rank->path);
  else
    text = g_strdup ("");
  set_status (rank, text, rank->state == SL_RANK_FAILED || (waiting && rank->error != NULL));
}

void
_sl_rank_demand_load (SlRanksWindow *self, SlRank *rank)
{
  if (rank->summary_file == NULL || rank->state != SL_RANK_SUMMARY || rank->summary == NULL)
    return;
  g_clear_pointer (&rank->error, g_free);
  if (rank->path == NULL || !g_file_test (rank->path, G_FILE_TEST_IS_REGULAR))
    {
      rank->error = rank->path != NULL
                    ? g_strdup_printf (_("The profile %s recorded in this summary is not there: locate it"), rank->path)
                    : g_strdup (_("This summary records no profile: locate it"));
      self->pending_zoom = 0;
    }
  else
    {
      rank->state = SL_RANK_WAITING;
      rank->fraction = 0;
      _sl_ranks_load_next (self);
    }
  _sl_ranks_window_refresh (self);
}

typedef struct {
  SlRanksWindow *self;   /* (owned) */
  SlRank        *rank;   /* the window's, alive while it is */
} RankRef;

static gboolean
load_idle_cb (gpointer data)
{
  RankRef *l = data;

  _sl_rank_demand_load (l->self, l->rank);
  g_object_unref (l->self);
  g_free (l);
  return G_SOURCE_REMOVE;
}

/* After the click: the load hides the button, which GTK does not allow
 * while the button is still pressed. */
static void
load_clicked_cb (GtkButton *button, SlRank *rank)
{
  RankRef *l = g_new0 (RankRef, 1);

  l->self = g_object_ref (SL_RANKS_WINDOW (gtk_widget_get_root (GTK_WIDGET (button))));
  l->rank = rank;
  g_idle_add (load_idle_cb, l);
}

static void
located_cb (GFile *file, gpointer data)
{
  RankRef *l = data;
  char *path = file != NULL ? g_file_get_path (file) : NULL;

  if (path != NULL && l->rank->state == SL_RANK_SUMMARY)
    {
      g_free (l->rank->path);
      l->rank->path = g_steal_pointer (&path);
      g_free (l->rank->name);
      l->rank->name = g_path_get_basename (l->rank->path);
      _sl_rank_demand_load (l->self, l->rank);
    }
  g_free (path);
  g_object_unref (l->self);
  g_free (l);
}

static void
locate_clicked_cb (GtkButton *button, SlRank *rank)
{
  RankRef *l = g_new0 (RankRef, 1);

  l->self = g_object_ref (SL_RANKS_WINDOW (gtk_widget_get_root (GTK_WIDGET (button))));
  l->rank = rank;
  sl_file_chooser_open (GTK_WINDOW (l->self), located_cb, l);
}

GtkWidget *
_sl_rank_demand_buttons (SlRanksWindow *self, SlRank *rank)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);

  rank->load = gtk_button_new_with_mnemonic (_("_Load Profile"));
  gtk_widget_set_tooltip_text (rank->load, _("Load this rank's full profile and show its timeline"));
  g_signal_connect (rank->load, "clicked", G_CALLBACK (load_clicked_cb), rank);
  rank->locate = gtk_button_new_with_mnemonic (_("_Locate…"));
  gtk_widget_set_tooltip_text (rank->locate, _("Choose this rank's profile"));
  g_signal_connect (rank->locate, "clicked", G_CALLBACK (locate_clicked_cb), rank);
  gtk_widget_set_visible (rank->load, FALSE);
  gtk_widget_set_visible (rank->locate, FALSE);
  gtk_box_append (GTK_BOX (box), rank->load);
  gtk_box_append (GTK_BOX (box), rank->locate);
  return box;
}
