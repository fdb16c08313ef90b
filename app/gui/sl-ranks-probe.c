/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks-probe.c: the ranks window seen from outside, for tests.
 * SIGHTLINE_TEST_STATE=FILE: its state goes to FILE.ranks (a profile
 * window of the same app keeps FILE): the files and their state, rank,
 * offsets, row groups and timeline geometry, and the heat map's cells
 * and stragglers with where they are drawn. */
#include "sl-ranks-window-private.h"
#include "sl-timeline.h"
#include "sl-ranks-ruler.h"
#include "sl-json.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
#include <glib/gstdio.h>

struct _SlRanksProbe {
  SlRanksWindow *window;      /* (unowned) */
  char          *path;
  guint          source;
};

static const char * const state_names[] = { "waiting", "loading", "ready", "failed", "summary" };

/* @widget's (x, y) in surface coordinates: what xdotool clicks. */
static void
add_point (JsonBuilder *b, SlRanksWindow *self, GtkWidget *widget, double x, double y)
{
  graphene_point_t p;
  double sx = 0, sy = 0;

  if (!gtk_widget_compute_point (widget, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &p))
    p = GRAPHENE_POINT_INIT (0, 0);
  gtk_native_get_surface_transform (GTK_NATIVE (self), &sx, &sy);
  sl_json_member_double (b, "x", p.x + sx);
  sl_json_member_double (b, "y", p.y + sy);
}

static void
add_timeline (JsonBuilder *b, SlRanksWindow *self, SlRank *rank)
{
  SlTimelineLayout *l = rank->timeline ? sl_timeline_get_layout (SL_TIMELINE (rank->timeline)) : NULL;
  const SlTimeRange *v;

  if (l == NULL || rank->session == NULL)
    return;
  v = sl_session_get_visible_range (rank->session);
  json_builder_set_member_name (b, "timeline");
  json_builder_begin_object (b);
  add_point (b, self, rank->timeline, 0, 0);
  sl_json_member_boolean (b, "mapped", gtk_widget_get_mapped (rank->timeline));
  sl_json_member_int (b, "width", l->width);
  sl_json_member_int (b, "header_width", l->header_width);
  sl_json_member_double (b, "t0", l->t0);
  sl_json_member_double (b, "px_ns", l->px_ns);
  sl_json_member_int (b, "visible_start", v->start);
  sl_json_member_int (b, "visible_end", v->end);
  sl_json_member_int (b, "job_start", _sl_rank_to_job (self, rank, v->start));
  sl_json_member_int (b, "job_end", _sl_rank_to_job (self, rank, v->end));
  /* stacked as one timeline: no ruler of its own, as tall as its rows,
   * inside the window's one scroll */
  sl_json_member_boolean (b, "show_header", sl_timeline_get_show_header (SL_TIMELINE (rank->timeline)));
  sl_json_member_int (b, "body_y", sl_timeline_layout_body_y (l));
  sl_json_member_int (b, "height", gtk_widget_get_height (rank->timeline));
  sl_json_member_int (b, "rows_height", l->band_height + sl_timeline_layout_content_height (l));
  sl_json_member_int (b, "label_width", sl_timeline_get_label_width (SL_TIMELINE (rank->timeline)));
  sl_json_member_boolean (b, "in_scroller", gtk_widget_is_ancestor (rank->timeline, self->sections_scroller));
  if (sl_session_get_selected_range (rank->session) != NULL)
    {
      const SlTimeRange *sel = sl_session_get_selected_range (rank->session);
      sl_json_member_int (b, "selected_job_start", _sl_rank_to_job (self, rank, sel->start));
      sl_json_member_int (b, "selected_job_end", _sl_rank_to_job (self, rank, sel->end));
    }
  json_builder_end_object (b);
}

/* The one ruler: where its body starts (surface x) and the job time. */
static void
add_ruler (JsonBuilder *b, SlRanksWindow *self)
{
  g_auto(GStrv) labels = sl_ranks_ruler_dup_labels (SL_RANKS_RULER (self->ruler));
  gint64 start, end;
  double x, w;

  sl_ranks_ruler_get_view (SL_RANKS_RULER (self->ruler), &start, &end, &x, &w);
  json_builder_set_member_name (b, "ruler");
  json_builder_begin_object (b);
  sl_json_member_boolean (b, "mapped", gtk_widget_get_mapped (self->ruler));
  sl_json_member_boolean (b, "in_scroller", gtk_widget_is_ancestor (self->ruler, self->sections_scroller));
  json_builder_set_member_name (b, "body");
  json_builder_begin_object (b);
  add_point (b, self, self->ruler, x, 0);
  json_builder_end_object (b);
  sl_json_member_double (b, "body_width", w);
  sl_json_member_int (b, "job_start", start);
  sl_json_member_int (b, "job_end", end);
  json_builder_set_member_name (b, "labels");
  json_builder_begin_array (b);
  for (guint i = 0; labels[i] != NULL; i++)
    json_builder_add_string_value (b, labels[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/* The rows the rank's header groups: the model's top-level groups. */
static void
add_group (JsonBuilder *b, SlRank *rank)
{
  guint gpus = 0, processes = 0;

  json_builder_set_member_name (b, "group");
  json_builder_begin_object (b);
  sl_json_member_string (b, "title", gtk_label_get_text (GTK_LABEL (rank->title)));
  sl_json_member_boolean (b, "expanded", gtk_expander_get_expanded (GTK_EXPANDER (rank->section)));
  if (rank->model != NULL)
    {
      for (guint r = 0; r < rank->model->n_rows; r++)
        {
          gpus += rank->model->rows[r].kind == SL_ROW_GPU;
          processes += rank->model->rows[r].kind == SL_ROW_PROCESS;
        }
      sl_json_member_int (b, "rows", rank->model->n_rows);
    }
  sl_json_member_int (b, "gpus", gpus);
  sl_json_member_int (b, "processes", processes);
  json_builder_end_object (b);
}

/* A button's centre and whether it shows. */
static void
add_button (JsonBuilder *b, SlRanksWindow *self, const char *name, GtkWidget *button)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  sl_json_member_boolean (b, "visible", gtk_widget_get_visible (button) && gtk_widget_get_mapped (button));
  add_point (b, self, button, gtk_widget_get_width (button) / 2.0, gtk_widget_get_height (button) / 2.0);
  json_builder_end_object (b);
}

/* A summary rank: its file, whether its profile is loaded (the state
 * says when the worker is done with it), its buttons. */
static void
add_demand (JsonBuilder *b, SlRanksWindow *self, SlRank *rank)
{
  sl_json_member_string (b, "summary_file", rank->summary_file);
  sl_json_member_boolean (b, "profile_loaded", rank->state == SL_RANK_READY && rank->profile != NULL);
  if (rank->summary_file == NULL)
    return;
  add_button (b, self, "load_button", rank->load);
  add_button (b, self, "locate_button", rank->locate);
}

static void
add_rank (JsonBuilder *b, SlRanksWindow *self, SlRank *rank)
{
  json_builder_begin_object (b);
  sl_json_member_string (b, "path", rank->path);
  sl_json_member_string (b, "name", rank->name);
  sl_json_member_string (b, "state", state_names[rank->state]);
  sl_json_member_string (b, "error", rank->error);
  sl_json_member_string (b, "status", gtk_label_get_text (GTK_LABEL (rank->status)));
  sl_json_member_int (b, "rank", rank->summary ? rank->summary->rank : -1);
  sl_json_member_boolean (b, "aligned", rank->aligned);
  sl_json_member_int (b, "origin_ns", rank->origin_ns);
  sl_json_member_int (b, "manual_ns", rank->manual_ns);
  sl_json_member_int (b, "offset_ns", _sl_rank_offset_ns (self, rank));
  json_builder_set_member_name (b, "offset_entry");
  json_builder_begin_object (b);
  add_point (b, self, rank->offset, gtk_widget_get_width (rank->offset) / 2.0, gtk_widget_get_height (rank->offset) / 2.0);
  json_builder_end_object (b);
  add_group (b, rank);
  add_timeline (b, self, rank);
  add_demand (b, self, rank);
  json_builder_end_object (b);
}

static void
add_cell (JsonBuilder *b, SlRanksWindow *self, guint r, guint i)
{
  const SlRanksCell *c = &self->table->rows[r].cells[i];
  graphene_rect_t rect;

  json_builder_begin_object (b);
  sl_json_member_boolean (b, "present", c->present);
  sl_json_member_int (b, "start_ns", c->start_ns);
  sl_json_member_int (b, "end_ns", c->end_ns);
  sl_json_member_int (b, "late_ns", sl_rank_heatmap_cell_late (self->table, r, i));
  sl_json_member_int (b, "nccl_wait_ns", c->nccl_wait_ns);
  if (sl_rank_heatmap_cell_rect (SL_RANK_HEATMAP (self->heatmap), r, i, &rect))
    add_point (b, self, self->heatmap, rect.origin.x + rect.size.width / 2, rect.origin.y + rect.size.height / 2);
  json_builder_end_object (b);
}

/* Where row @r's label is drawn (a click there activates the row). */
static void
add_row_label (JsonBuilder *b, SlRanksWindow *self, guint r)
{
  graphene_rect_t rect;

  if (!sl_rank_heatmap_cell_rect (SL_RANK_HEATMAP (self->heatmap), r, 0, &rect))
    return;
  json_builder_set_member_name (b, "label");
  json_builder_begin_object (b);
  add_point (b, self, self->heatmap, 20, rect.origin.y + rect.size.height / 2);
  json_builder_end_object (b);
}

static void
add_heatmap (JsonBuilder *b, SlRanksWindow *self)
{
  const SlRanks *t = self->table;

  json_builder_set_member_name (b, "heatmap");
  if (t == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  sl_json_member_int (b, "iterations", t->n_iterations);
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint r = 0; r < t->n_rows; r++)
    {
      json_builder_begin_object (b);
      sl_json_member_int (b, "rank", t->rows[r].rank);
      sl_json_member_string (b, "path", ((SlRank *) self->table_ranks->pdata[r])->path);
      sl_json_member_string (b, "name", ((SlRank *) self->table_ranks->pdata[r])->name);
      add_row_label (b, self, r);
      sl_json_member_int_or_null (b, "step_median_ns", t->rows[r].n_steps > 0, t->rows[r].step_median_ns);
      sl_json_member_int (b, "nccl_wait_ns", t->rows[r].nccl_wait_ns);
      json_builder_set_member_name (b, "cells");
      json_builder_begin_array (b);
      for (guint i = 0; i < t->n_iterations; i++)
        add_cell (b, self, r, i);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "stragglers");
  json_builder_begin_array (b);
  for (guint i = 0; i < t->n_iterations; i++)
    {
      const SlRanksStraggler *s = &t->stragglers[i];
      if (s->rank == G_MAXUINT)
        {
          json_builder_add_null_value (b);
          continue;
        }
      json_builder_begin_object (b);
      sl_json_member_int (b, "row", s->rank);
      sl_json_member_int (b, "rank", t->rows[s->rank].rank);
      sl_json_member_int (b, "late_ns", s->late_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static JsonNode *
build_state (SlRanksWindow *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_string (b, "page", "ranks");
  sl_json_member_string (b, "subtitle", gtk_label_get_text (GTK_LABEL (self->subtitle)));
  sl_json_member_int (b, "reading", self->reading);
  {
    graphene_rect_t rect;
    /* the heat map's height and rows: many ranks shrink the rows, then scroll */
    sl_json_member_int (b, "heatmap_height", gtk_widget_get_height (self->heatmap));
    sl_json_member_int (b, "heatmap_view_height", gtk_widget_get_height (self->heatmap_scroller));
    if (sl_rank_heatmap_cell_rect (SL_RANK_HEATMAP (self->heatmap), 0, 0, &rect))
      sl_json_member_double (b, "heatmap_row_height", rect.size.height);
  }
#ifdef GDK_WINDOWING_X11
  {
    GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (self));
    if (surface && GDK_IS_X11_SURFACE (surface))
      sl_json_member_int (b, "xid", (gint64) gdk_x11_surface_get_xid (surface));
  }
#endif
  json_builder_set_member_name (b, "ranks");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->ranks->len; i++)
    add_rank (b, self, self->ranks->pdata[i]);
  json_builder_end_array (b);
  add_heatmap (b, self);
  add_ruler (b, self);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static gboolean
write_cb (gpointer data)
{
  SlRanksProbe *probe = data;
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = build_state (probe->window);
  g_autofree char *text = NULL;
  g_autofree char *tmp = g_strconcat (probe->path, ".tmp", NULL);

  probe->source = 0;
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  /* whole then renamed: a reader never sees half a file */
  if (g_file_set_contents (tmp, text, -1, NULL))
    g_rename (tmp, probe->path);
  return G_SOURCE_REMOVE;
}

void
_sl_ranks_probe_changed (SlRanksProbe *probe)
{
  /* after the frames that show the change: layouts and cells have moved */
  if (probe->source == 0)
    probe->source = g_timeout_add (150, write_cb, probe);
}

static void
changed_cb (SlRanksProbe *probe)
{
  _sl_ranks_probe_changed (probe);
}

SlRanksProbe *
_sl_ranks_probe_new (SlRanksWindow *self)
{
  const char *state = g_getenv ("SIGHTLINE_TEST_STATE");
  SlRanksProbe *probe;

  if (state == NULL)
    return NULL;
  probe = g_new0 (SlRanksProbe, 1);
  probe->window = self;
  probe->path = g_strconcat (state, ".ranks", NULL);
  g_signal_connect_swapped (self, "map", G_CALLBACK (changed_cb), probe);
  g_signal_connect_swapped (self, "notify::default-width", G_CALLBACK (changed_cb), probe);
  _sl_ranks_probe_changed (probe);
  return probe;
}

void
_sl_ranks_probe_free (SlRanksProbe *probe)
{
  g_signal_handlers_disconnect_by_data (probe->window, probe);
  g_clear_handle_id (&probe->source, g_source_remove);
  g_free (probe->path);
  g_free (probe);
}
