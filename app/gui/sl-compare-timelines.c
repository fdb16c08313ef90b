/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare-timelines.c: the first and the last profile's timelines one
 * above the other.  Zoom and pan are linked through the two sessions: a
 * change of either's visible range moves the other by the alignment
 * offset (the profiles' starts, or a chosen iteration of each, the median
 * one by default), so the same step is seen side by side.  The kernels
 * whose name got slower are highlighted in the last profile's timeline. */
#include "sl-compare-window-private.h"
#include "sl-accessible-name.h"
#include "sl-row-key.h"
#include "sl-timeline.h"

#include <stdlib.h>
#include <glib/gi18n.h>

enum { ALIGN_START, ALIGN_ITERATION };

/* The profile of timeline @t (0: A, 1: the last). */
static guint
profile_of (SlCompareWindow *self, guint t)
{
  return t == 0 ? 0 : self->n - 1;
}

static gint64
iteration_start (const SlIteration *it)
{
  return it->has_cpu ? it->cpu_start_ns : it->gpu_start_ns;
}

static const SlIterations *
iterations_of (SlCompareWindow *self, guint t)
{
  const SlIterations *its = self->result->iterations[profile_of (self, t)];

  return its != NULL && its->n_iterations > 0 ? its : NULL;
}

static int
cmp_dur (const void *a, const void *b, void *data)
{
  const SlIteration *its = data;
  gint64 x = its[*(const guint *) a].dur_ns, y = its[*(const guint *) b].dur_ns;

  return (x > y) - (x < y);
}

/* The iteration of median duration (the lower middle of an even count). */
static guint
median_iteration (const SlIterations *its)
{
  g_autofree guint *order = g_new (guint, its->n_iterations);

  for (guint i = 0; i < its->n_iterations; i++)
    order[i] = i;
  g_qsort_with_data (order, its->n_iterations, sizeof (guint), cmp_dur, its->iterations);
  return order[(its->n_iterations - 1) / 2];
}

/* Moves timeline @to so that it shows what @from shows, shifted by the offset. */
static void
follow (SlCompareWindow *self, guint from, guint to)
{
  const SlTimeRange *r = sl_session_get_visible_range (self->sessions[from]);
  gint64 shift = self->anchor[to] - self->anchor[from];
  SlTimeRange moved = { r->start + shift, r->end + shift };

  if (self->linking)
    return;
  self->linking = TRUE;
  sl_session_set_visible_range (self->sessions[to], &moved);
  self->linking = FALSE;
  _sl_compare_probe_changed (self);
}

static void
visible_a_cb (SlCompareWindow *self)
{
  follow (self, 0, 1);
}

static void
visible_b_cb (SlCompareWindow *self)
{
  follow (self, 1, 0);
}

/* The name of the iteration chosen in timeline @t ("iteration_3"), as
 * its NVTX range reads in the timeline: the spin counts from 0, as
 * `sightline-cli iterations` does ("#"), so "3" and "iteration_3" agree
 * when the profile names its steps from 0; the name settles it when not. */
static void
show_name (SlCompareWindow *self, guint t, const SlIterations *its, guint i)
{
  g_autofree char *text = NULL;

  g_clear_pointer (&self->anchor_names[t], g_free);
  if (its != NULL && i < its->n_iterations)
    self->anchor_names[t] = g_strdup (its->iterations[i].name);
  /* Translators: the chosen iteration's own name, after its number */
  text = self->anchor_names[t] != NULL ? g_strdup_printf (_("(%s)"), self->anchor_names[t]) : g_strdup ("");
  gtk_label_set_text (GTK_LABEL (self->names[t]), text);
}

/* The anchors from the alignment chosen; B follows A at once. */
static void
align (SlCompareWindow *self)
{
  gboolean by_iteration = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->align_drop)) == ALIGN_ITERATION;

  for (guint t = 0; t < 2; t++)
    {
      const SlIterations *its = iterations_of (self, t);
      guint i = (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->spins[t]));

      show_name (self, t, by_iteration ? its : NULL, i);
      gtk_widget_set_sensitive (self->spins[t], by_iteration && its != NULL);
      if (by_iteration && its != NULL && i < its->n_iterations)
        self->anchor[t] = iteration_start (&its->iterations[i]);
      else
        self->anchor[t] = sl_session_get_model (self->sessions[t])->start_ns;
    }
  follow (self, 0, 1);
}

/* A's chosen iteration with a margin (or all of A) into view; B follows. */
static void
show_anchor (SlCompareWindow *self)
{
  const SlIterations *its = iterations_of (self, 0);
  guint i = (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->spins[0]));
  SlTimelineModel *model = sl_session_get_model (self->sessions[0]);
  SlTimeRange range = { model->start_ns, model->end_ns };

  align (self);
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->align_drop)) == ALIGN_ITERATION && its != NULL
      && i < its->n_iterations)
    {
      gint64 dur = MAX (its->iterations[i].dur_ns, 1000);
      range.start = self->anchor[0] - dur / 10;
      range.end = self->anchor[0] + dur + dur / 10;
    }
  sl_session_set_visible_range (self->sessions[0], &range);
  follow (self, 0, 1);
}

static GtkWidget *
controls (SlCompareWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  const char *modes[] = { _("Profile start"), _("Chosen iteration"), NULL };

  gtk_box_append (GTK_BOX (box), gtk_label_new (_("Align at")));
  self->align_drop = gtk_drop_down_new_from_strings (modes);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->align_drop), ALIGN_ITERATION);
  sl_accessible_name_set (self->align_drop, _("Align at"));
  gtk_box_append (GTK_BOX (box), self->align_drop);
  for (guint t = 0; t < 2; t++)
    {
      /* Translators: "A iteration" / "B iteration", before a number */
      g_autofree char *letter = _sl_compare_letter (t == 0 ? 0 : self->n - 1);
      g_autofree char *text = g_strdup_printf (_("%s iteration"), letter);

      gtk_box_append (GTK_BOX (box), gtk_label_new (text));
      self->spins[t] = gtk_spin_button_new_with_range (0, 0, 1);
      gtk_widget_set_tooltip_text (self->spins[t], _("The iteration aligned with the other timeline's, "
                                                     "numbered from 0 as in sightline-cli iterations"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->spins[t]), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
      gtk_box_append (GTK_BOX (box), self->spins[t]);
      self->names[t] = gtk_label_new (NULL);
      gtk_widget_add_css_class (self->names[t], "dim-label");
      gtk_box_append (GTK_BOX (box), self->names[t]);
    }
  return box;
}

static GtkWidget *
timeline_label (SlCompareWindow *self, guint t)
{
  guint p = t == 0 ? 0 : self->n - 1;
  g_autofree char *letter = _sl_compare_letter (p), *name = g_file_get_basename (self->files[p]);
  g_autofree char *markup = t == 0
    ? g_markup_printf_escaped ("<span foreground=\"#%06x\">●</span> <b>%s</b>: %s", _sl_compare_color (p), letter, name)
    /* Translators: above the last profile's timeline */
    : g_markup_printf_escaped (_("<span foreground=\"#%06x\">●</span> <b>%s</b>: %s — outlined: kernels slower than in A"),
                               _sl_compare_color (p), letter, name);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  return label;
}

GtkWidget *
_sl_compare_timelines_new (SlCompareWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_box_append (GTK_BOX (box), controls (self));
  for (guint t = 0; t < 2; t++)
    {
      gtk_box_append (GTK_BOX (box), timeline_label (self, t));
      self->timelines[t] = sl_timeline_new ();
      gtk_widget_set_vexpand (self->timelines[t], TRUE);
      gtk_widget_set_size_request (self->timelines[t], -1, 150);
      gtk_box_append (GTK_BOX (box), self->timelines[t]);
    }
  self->timeline_box = box;
  return box;
}

/* A timeline shows its whole profile once it first has a size (and the
 * other follows): the chosen iteration comes into view after both have.
 * (Asking a timeline for its layout here would lay it out again.) */
static void
view_changed_cb (GtkWidget *timeline, SlCompareWindow *self)
{
  if (self->anchored || self->sessions[0] == NULL || gtk_widget_get_width (timeline) <= 0)
    return;
  self->sized |= timeline == self->timelines[0] ? 1 : 2;
  if (self->sized != 3)
    return;
  self->anchored = TRUE;
  show_anchor (self);
}

static void
alignment_changed_cb (SlCompareWindow *self)
{
  if (self->sessions[0] != NULL)
    show_anchor (self);
}

/* Both timelines are short: the GPU's utilization row and its projected
 * NVTX lanes below the top one (the iteration's name) are hidden, so that
 * the streams, where the slower kernels are outlined, are in view at the
 * window's default size.  (The user's menu on a row's label shows them.) */
static void
compact_rows (SlCompareWindow *self, guint t)
{
  SlTimelineModel *model = self->models[profile_of (self, t)];
  g_autoptr(SlRowLayout) rows = sl_row_layout_new ();

  for (guint r = 0; r < model->n_rows; r++)
    {
      const SlTimelineRow *row = &model->rows[r];
      if (row->kind == SL_ROW_GPU_UTIL || (row->kind == SL_ROW_NVTX_PROJECTED && row->depth > 0))
        {
          g_autofree char *key = sl_row_key (model, r);
          sl_row_layout_set_hidden (rows, key, TRUE);
        }
    }
  sl_timeline_set_row_layout (SL_TIMELINE (self->timelines[t]), rows);
}

void
_sl_compare_timelines_fill (SlCompareWindow *self)
{
  const SlCompareResult *res = self->result;
  SlTimelineModel *last = self->models[self->n - 1];
  g_autoptr(SlHighlight) slower = NULL;

  for (guint t = 0; t < 2; t++)
    {
      const SlIterations *its = iterations_of (self, t);

      self->sessions[t] = sl_session_new (self->models[profile_of (self, t)]);
      sl_timeline_set_session (SL_TIMELINE (self->timelines[t]), self->sessions[t]);
      gtk_spin_button_set_range (GTK_SPIN_BUTTON (self->spins[t]), 0, its ? its->n_iterations - 1 : 0);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->spins[t]), its ? median_iteration (its) : 0);
      compact_rows (self, t);
    }
  slower = sl_highlight_new (last, (const SlEventRef *) res->slower_refs->data, res->slower_refs->len,
                             _("slower than in A"), FALSE);
  sl_session_set_highlight (self->sessions[1], slower);
  g_signal_connect_swapped (self->sessions[0], "notify::visible-range", G_CALLBACK (visible_a_cb), self);
  g_signal_connect_swapped (self->sessions[1], "notify::visible-range", G_CALLBACK (visible_b_cb), self);
  g_signal_connect_swapped (self->align_drop, "notify::selected", G_CALLBACK (alignment_changed_cb), self);
  for (guint t = 0; t < 2; t++)
    g_signal_connect_swapped (self->spins[t], "value-changed", G_CALLBACK (alignment_changed_cb), self);
  for (guint t = 0; t < 2; t++)
    g_signal_connect_object (self->timelines[t], "view-changed", G_CALLBACK (view_changed_cb), self, 0);
  show_anchor (self);
}

void
_sl_compare_timelines_dispose (SlCompareWindow *self)
{
  for (guint t = 0; t < 2; t++)
    g_clear_pointer (&self->anchor_names[t], g_free);
  for (guint t = 0; t < 2; t++)
    if (self->sessions[t] != NULL)
      {
        g_signal_handlers_disconnect_by_data (self->sessions[t], self);
        if (self->timelines[t] != NULL)
          sl_timeline_set_session (SL_TIMELINE (self->timelines[t]), NULL);
        g_clear_object (&self->sessions[t]);
      }
}
