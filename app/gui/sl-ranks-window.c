/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks-window.c: the ranks of one job in one window.
 *
 * Design: each rank keeps its own single-profile model, session and
 * timeline (the single-profile path stays exactly as fast as before);
 * the window stacks them under a collapsible header per rank and keeps
 * them on one job clock (sl-ranks-align.c).  The heat map above shows
 * cmp-cli's rank x iteration table (sl-ranks.h) of the ranks loaded. */
#include "sl-ranks-window-private.h"
#include "sl-ranks-ruler.h"
#include "sl-timeline.h"

#include <glib/gi18n.h>

G_DEFINE_FINAL_TYPE (SlRanksWindow, sl_ranks_window, GTK_TYPE_APPLICATION_WINDOW)

char *
_sl_rank_title (SlRank *rank)
{
  if (rank->summary != NULL && rank->summary->rank >= 0)
    return g_strdup_printf (_("Rank %d · %s"), rank->summary->rank, rank->name);
  return g_strdup (rank->name);
}

static void
rebuild_table (SlRanksWindow *self)
{
  g_autoptr(GPtrArray) sums = g_ptr_array_new ();
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  g_clear_pointer (&self->table, sl_ranks_free);
  g_ptr_array_set_size (self->table_ranks, 0);
  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *rank = self->ranks->pdata[i];
      if (!SL_RANK_IN_TABLE (rank))
        continue;
      g_ptr_array_add (sums, rank->summary);
      g_array_append_val (offsets, rank->manual_ns);
    }
  if (sums->len > 0)
    self->table = sl_ranks_compute ((SlRankSummary *const *) sums->pdata, sums->len, (gint64 *) offsets->data);
  /* rows are sorted by rank: find each row's file by its summary's path */
  for (guint r = 0; self->table && r < self->table->n_rows; r++)
    for (guint i = 0; i < self->ranks->len; i++)
      {
        SlRank *rank = self->ranks->pdata[i];
        if (SL_RANK_IN_TABLE (rank) && rank->summary->path == self->table->rows[r].path)
          {
            g_ptr_array_add (self->table_ranks, rank);
            g_ptr_array_add (labels, _sl_rank_title (rank));
          }
      }
  g_ptr_array_add (labels, NULL);
  sl_rank_heatmap_set_ranks (SL_RANK_HEATMAP (self->heatmap), self->table, (const char *const *) labels->pdata);
}

/* The job's whole time: every ready rank's profile on the job clock. */
static void
show_whole_job (SlRanksWindow *self)
{
  gint64 start = G_MAXINT64, end = G_MININT64;

  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *rank = self->ranks->pdata[i];
      if (rank->state != SL_RANK_READY)
        continue;
      start = MIN (start, _sl_rank_to_job (self, rank, rank->model->start_ns));
      end = MAX (end, _sl_rank_to_job (self, rank, rank->model->end_ns));
    }
  if (start < end)
    _sl_ranks_show_job_range (self, start, end);
}

static void
update_subtitle (SlRanksWindow *self)
{
  guint ready = 0, failed = 0, summaries = 0;
  g_autoptr(GString) notes = g_string_new (NULL);
  g_autofree char *text = NULL;

  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *rank = self->ranks->pdata[i];
      ready += rank->state == SL_RANK_READY;
      failed += rank->state == SL_RANK_FAILED;
      summaries += rank->state == SL_RANK_SUMMARY;
      if (rank->state == SL_RANK_READY && !rank->aligned)
        g_string_append_printf (notes, _("%s records no session start: aligned at its first event. "), rank->name);
    }
  if (self->ranks->len == 0)
    text = g_strdup (_("No profiles or rank summaries (*.json) found"));
  else if (summaries == 0)
    text = g_strdup_printf (_("%u of %u files open, %u failed"), ready, self->ranks->len, failed);
  else
    text = g_strdup_printf (_("%u ranks: %u profiles open, %u summaries only, %u failed"),
                            self->ranks->len, ready, summaries, failed);
  gtk_label_set_text (GTK_LABEL (self->subtitle), text);
  g_string_append (notes, _("Colour: how late each rank's step ends after the iteration's median end; "
                            "outlined: the straggler. Click a cell to zoom every rank to that iteration."));
  if (summaries > 0)
    g_string_append (notes, _(" A rank known by its summary only loads its profile when you click its row."));
  gtk_label_set_text (GTK_LABEL (self->heatmap_label), notes->str);
}

static void
show_ready (SlRanksWindow *self, SlRank *rank)
{
  g_autofree char *title = _sl_rank_title (rank);

  rank->session = sl_session_new (rank->model);
  gtk_label_set_text (GTK_LABEL (rank->title), title);
  rank->timeline = sl_timeline_new ();
  sl_timeline_set_session (SL_TIMELINE (rank->timeline), rank->session);
  _sl_ranks_stack_add (self, rank);
  gtk_expander_set_child (GTK_EXPANDER (rank->section), rank->timeline);
  gtk_expander_set_expanded (GTK_EXPANDER (rank->section), TRUE);
  gtk_widget_set_visible (rank->progress, FALSE);
  gtk_widget_set_sensitive (rank->offset, TRUE);
  _sl_ranks_align_watch (self, rank);
}

/* The table, the headers and the titles after a rank changed. */
void
_sl_ranks_window_refresh (SlRanksWindow *self)
{
  rebuild_table (self);
  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *rank = self->ranks->pdata[i];
      g_autofree char *title = _sl_rank_title (rank);
      if (rank->summary_file == NULL)
        continue;
      gtk_label_set_text (GTK_LABEL (rank->title), title);
      _sl_rank_demand_update (self, rank);
    }
  update_subtitle (self);
  if (self->probe != NULL)
    _sl_ranks_probe_changed (self->probe);
}

static void
fresh_sized_cb (GtkWidget *timeline, SlRank *rank)
{
  SlRanksWindow *self = SL_RANKS_WINDOW (gtk_widget_get_root (timeline));

  g_signal_handlers_disconnect_by_func (timeline, fresh_sized_cb, rank);
  rank->fresh = FALSE;
  _sl_ranks_show_job_range (self, rank->want_start, rank->want_end);
}

/* Where a rank loaded on demand opens: the iteration whose cell was
 * clicked, or the job time the others show. */
static gboolean
wanted_range (SlRanksWindow *self, SlRank *rank, gint64 *start, gint64 *end)
{
  guint pending = self->pending_zoom;

  self->pending_zoom = 0;
  if (pending > 0 && _sl_ranks_iteration_range (self, pending - 1, start, end))
    return TRUE;
  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *other = self->ranks->pdata[i];
      if (other != rank && other->session != NULL)
        {
          const SlTimeRange *r = sl_session_get_visible_range (other->session);
          *start = _sl_rank_to_job (self, other, r->start);
          *end = _sl_rank_to_job (self, other, r->end);
          return TRUE;
        }
    }
  return FALSE;
}

/* Profiles given as such show the whole job as they come; one loaded on
 * demand shows the range wanted once its timeline has a size. */
static void
show_loaded (SlRanksWindow *self, SlRank *rank)
{
  if (rank->summary_file == NULL || !wanted_range (self, rank, &rank->want_start, &rank->want_end))
    {
      show_whole_job (self);
      return;
    }
  rank->fresh = TRUE;
  g_signal_connect (rank->timeline, "view-changed", G_CALLBACK (fresh_sized_cb), rank);
}

void
_sl_ranks_window_rank_done (SlRanksWindow *self, SlRank *rank)
{
  if (rank->state == SL_RANK_READY)
    show_ready (self, rank);
  else if (rank->summary_file == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Could not open %s: %s"), rank->name, rank->error);
      gtk_widget_set_visible (rank->progress, FALSE);
      gtk_label_set_text (GTK_LABEL (rank->status), text);
      gtk_widget_set_tooltip_text (rank->status, text);
      gtk_widget_add_css_class (rank->status, "error");
    }
  _sl_ranks_window_refresh (self);
  if (rank->state == SL_RANK_READY)
    show_loaded (self, rank);
}

static void
offset_changed_cb (GtkSpinButton *spin, SlRank *rank)
{
  SlRanksWindow *self = SL_RANKS_WINDOW (gtk_widget_get_root (GTK_WIDGET (spin)));
  SlRank *anchor = NULL;
  gint64 start = 0, end = 0;

  /* keep the job time shown: read it before the clocks move */
  for (guint i = 0; i < self->ranks->len && anchor == NULL; i++)
    if (((SlRank *) self->ranks->pdata[i])->session != NULL)
      anchor = self->ranks->pdata[i];
  if (anchor != NULL)
    {
      const SlTimeRange *r = sl_session_get_visible_range (anchor->session);
      start = _sl_rank_to_job (self, anchor, r->start);
      end = _sl_rank_to_job (self, anchor, r->end);
    }
  rank->manual_ns = (gint64) (gtk_spin_button_get_value (spin) * 1e6);
  rebuild_table (self);
  if (anchor != NULL)
    _sl_ranks_show_job_range (self, start, end);
}

static GtkWidget *
rank_header (SlRanksWindow *self, SlRank *rank)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);

  rank->title = gtk_label_new (rank->name);
  gtk_widget_add_css_class (rank->title, "heading");
  gtk_box_append (GTK_BOX (box), rank->title);
  rank->status = gtk_label_new (NULL);
  /* a long reason must not widen the window: the tooltip has it all */
  gtk_label_set_ellipsize (GTK_LABEL (rank->status), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (rank->status, TRUE);
  gtk_label_set_xalign (GTK_LABEL (rank->status), 0);
  rank->progress = gtk_progress_bar_new ();
  gtk_widget_set_valign (rank->progress, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (rank->progress, 160, -1);
  rank->offset = gtk_spin_button_new_with_range (-1e6, 1e6, 0.1);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (rank->offset), 3);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (rank->offset), 0);
  gtk_widget_set_sensitive (rank->offset, FALSE);
  gtk_widget_set_tooltip_text (rank->offset, _("Manual clock offset of this file, in milliseconds"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (rank->offset), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Manual clock offset of this file, in milliseconds"), -1);
  g_signal_connect (rank->offset, "value-changed", G_CALLBACK (offset_changed_cb), rank);
  gtk_box_append (GTK_BOX (box), rank->progress);
  if (rank->summary_file != NULL)
    {
      gtk_box_append (GTK_BOX (box), _sl_rank_demand_buttons (self, rank));
      gtk_widget_set_visible (rank->progress, FALSE);
    }
  gtk_box_append (GTK_BOX (box), gtk_label_new (_("Offset (ms)")));
  gtk_box_append (GTK_BOX (box), rank->offset);
  gtk_box_append (GTK_BOX (box), rank->status);
  return box;
}

static void
add_rank (SlRanksWindow *self, const SlRankInput *in)
{
  SlRank *rank = g_new0 (SlRank, 1);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);

  if (in->summary)
    {
      rank->summary_file = g_strdup (in->path);
      rank->state = SL_RANK_SUMMARY;
    }
  else
    rank->path = g_strdup (in->path);
  rank->name = g_path_get_basename (in->path);
  /* the offset, progress and status sit in the expander's own header line,
   * so each rank reads "header line, then its rows" */
  rank->section = gtk_expander_new (NULL);
  gtk_expander_set_label_widget (GTK_EXPANDER (rank->section), rank_header (self, rank));
  gtk_box_append (GTK_BOX (row), rank->section);
  gtk_box_append (GTK_BOX (self->sections), row);
  g_ptr_array_add (self->ranks, rank);
}

static gboolean
poll_progress_cb (gpointer data)
{
  SlRanksWindow *self = data;

  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *rank = self->ranks->pdata[i];
      if (rank->state == SL_RANK_LOADING)
        gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (rank->progress), rank->fraction);
    }
  return G_SOURCE_CONTINUE;
}

gboolean
_sl_ranks_iteration_range (SlRanksWindow *self, guint iteration, gint64 *out_start, gint64 *out_end)
{
  gint64 start = G_MAXINT64, end = G_MININT64, margin;

  if (self->table == NULL || iteration >= self->table->n_iterations)
    return FALSE;
  for (guint r = 0; r < self->table->n_rows; r++)
    {
      const SlRanksCell *c = &self->table->rows[r].cells[iteration];
      if (!c->present)
        continue;
      start = MIN (start, c->start_ns);
      end = MAX (end, c->end_ns);
    }
  if (start >= end)
    return FALSE;
  margin = (end - start) / 20;
  *out_start = start - margin;
  *out_end = end + margin;
  return TRUE;
}

void
_sl_ranks_show_iteration (SlRanksWindow *self, guint iteration)
{
  gint64 start, end;

  if (_sl_ranks_iteration_range (self, iteration, &start, &end))
    _sl_ranks_show_job_range (self, start, end);
}

static SlRank *
row_rank (SlRanksWindow *self, guint row)
{
  return self->table != NULL && row < self->table_ranks->len ? self->table_ranks->pdata[row] : NULL;
}

/* A summary-only rank's cell loads its profile, then zooms to the step. */
static void
cell_activated_cb (SlRankHeatmap *heatmap, guint row, guint iteration, SlRanksWindow *self)
{
  SlRank *rank = row_rank (self, row);

  if (rank != NULL && rank->state == SL_RANK_SUMMARY)
    {
      self->pending_zoom = iteration + 1;
      _sl_rank_demand_load (self, rank);
    }
  _sl_ranks_show_iteration (self, iteration);
}

static void
row_activated_cb (SlRankHeatmap *heatmap, guint row, SlRanksWindow *self)
{
  SlRank *rank = row_rank (self, row);

  if (rank != NULL)
    _sl_rank_demand_load (self, rank);
}

static GtkWidget *
heatmap_pane (SlRanksWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  self->heatmap = sl_rank_heatmap_new ();
  gtk_widget_set_vexpand (self->heatmap, TRUE);
  g_signal_connect (self->heatmap, "cell-activated", G_CALLBACK (cell_activated_cb), self);
  g_signal_connect (self->heatmap, "row-activated", G_CALLBACK (row_activated_cb), self);
  /* a thousand ranks: rows shrink to a few pixels, then the map scrolls */
  self->heatmap_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->heatmap_scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->heatmap_scroller), self->heatmap);
  gtk_widget_set_vexpand (self->heatmap_scroller, TRUE);
  self->heatmap_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->heatmap_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->heatmap_label), 0);
  gtk_widget_add_css_class (self->heatmap_label, "dim-label");
  gtk_box_append (GTK_BOX (box), self->heatmap_scroller);
  gtk_box_append (GTK_BOX (box), self->heatmap_label);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  return box;
}

static void
build_ui (SlRanksWindow *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *title = gtk_label_new (_("Ranks"));
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *stack = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_widget_add_css_class (title, "title");
  self->subtitle = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->subtitle, "subtitle");
  gtk_box_append (GTK_BOX (titles), title);
  gtk_box_append (GTK_BOX (titles), self->subtitle);
  gtk_widget_set_valign (titles, GTK_ALIGN_CENTER);
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (header), titles);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  self->sections = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (self->sections, 6);
  gtk_widget_set_margin_end (self->sections, 6);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->sections);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_paned_set_start_child (GTK_PANED (paned), heatmap_pane (self));
  /* one ruler over every rank, out of the scroll: always in sight */
  self->ruler = sl_ranks_ruler_new ();
  gtk_widget_set_margin_start (self->ruler, 6);
  gtk_widget_set_margin_end (self->ruler, 6);
  gtk_widget_set_vexpand (scroller, TRUE);
  self->sections_scroller = scroller;
  gtk_box_append (GTK_BOX (stack), self->ruler);
  gtk_box_append (GTK_BOX (stack), scroller);
  gtk_paned_set_end_child (GTK_PANED (paned), stack);
  gtk_paned_set_position (GTK_PANED (paned), 230);
  gtk_window_set_child (GTK_WINDOW (self), paned);
  gtk_window_set_default_size (GTK_WINDOW (self), 1400, 900);
}

static void
sl_ranks_window_dispose (GObject *object)
{
  SlRanksWindow *self = SL_RANKS_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->poll_source, g_source_remove);
  g_clear_pointer (&self->probe, _sl_ranks_probe_free);
  if (self->heatmap != NULL)
    sl_rank_heatmap_set_ranks (SL_RANK_HEATMAP (self->heatmap), NULL, NULL);
  G_OBJECT_CLASS (sl_ranks_window_parent_class)->dispose (object);
}

/* The ranks go last: a load still running holds the window (its task's
 * source object), so nothing frees a rank under a worker. */
static void
sl_ranks_window_finalize (GObject *object)
{
  SlRanksWindow *self = SL_RANKS_WINDOW (object);

  g_clear_pointer (&self->table, sl_ranks_free);
  g_ptr_array_unref (self->table_ranks);
  g_ptr_array_unref (self->ranks);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (sl_ranks_window_parent_class)->finalize (object);
}

static void
sl_ranks_window_class_init (SlRanksWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sl_ranks_window_dispose;
  G_OBJECT_CLASS (klass)->finalize = sl_ranks_window_finalize;
}

static void
sl_ranks_window_init (SlRanksWindow *self)
{
  self->ranks = g_ptr_array_new_with_free_func ((GDestroyNotify) _sl_rank_free);
  self->table_ranks = g_ptr_array_new ();
  self->cancellable = g_cancellable_new ();
  build_ui (self);
}

SlRanksWindow *
sl_ranks_window_new (GtkApplication *app, const char *const *paths)
{
  SlRanksWindow *self = g_object_new (SL_TYPE_RANKS_WINDOW, "application", app, NULL);
  g_autoptr(GPtrArray) inputs = _sl_ranks_inputs_expand (paths);

  for (guint i = 0; i < inputs->len; i++)
    add_rank (self, inputs->pdata[i]);
  self->probe = _sl_ranks_probe_new (self);
  self->poll_source = g_timeout_add (100, poll_progress_cb, self);
  _sl_ranks_read_summaries (self);
  _sl_ranks_window_refresh (self);
  _sl_ranks_load_next (self);
  return self;
}
