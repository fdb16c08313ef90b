/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare-window-probe.c: the comparison window seen from outside.
 *
 * Its "probe-state" property is this JSON text: the page, the profiles,
 * basis, step medians and changes, the diff's rows per status (and every
 * row's name and status), the alignment and both timelines' visible
 * ranges and geometry.  With SIGHTLINE_TEST_STATE=FILE set (as for the
 * profile windows, sl-window-probe.c), it is also written to FILE.compare
 * shortly after it changes: a comparison opened by `--compare` has no
 * profile window, and one opened from a window must not overwrite its
 * state. */
#include "sl-compare-window-private.h"
#include "sl-histogram-overlay.h"
#include "sl-timeline.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-json.h"

static const char *
page_of (SlCompareWindow *self)
{
  const char *page = self->stack ? gtk_stack_get_visible_child_name (GTK_STACK (self->stack)) : NULL;

  return page ? page : "loading";
}

static void
add_xid (JsonBuilder *b, SlCompareWindow *self)
{
#ifdef GDK_WINDOWING_X11
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (self));

  if (surface && GDK_IS_X11_SURFACE (surface))
    sl_json_member_int (b, "xid", (gint64) gdk_x11_surface_get_xid (surface));
#endif
}

static void
add_step (JsonBuilder *b, const SlCompare *cmp)
{
  g_autofree gint64 *medians = g_new0 (gint64, cmp->n_profiles);

  sl_json_member_string (b, "basis", sl_compare_basis_name (cmp->basis));
  sl_json_member_boolean (b, "has_step", cmp->has_step);
  sl_json_member_string (b, "verdict", sl_compare_verdict_name (cmp->verdict));
  for (guint p = 0; p < cmp->n_profiles; p++)
    medians[p] = cmp->iterations[p].found ? cmp->iterations[p].median_ns : 0;
  sl_json_member_int_array (b, "step_median_ns", medians, cmp->n_profiles);
  json_builder_set_member_name (b, "step_change_pct");
  json_builder_begin_array (b);
  for (guint p = 0; p < cmp->n_profiles && cmp->has_step; p++)
    json_builder_add_double_value (b, cmp->step_change_pct[p]);
  json_builder_end_array (b);
}

static void
add_kernels (JsonBuilder *b, SlCompareWindow *self, const SlCompare *cmp)
{
  guint counts[SL_COMPARE_CALLS + 1] = { 0 };

  json_builder_set_member_name (b, "kernels");
  json_builder_begin_array (b);
  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      counts[cmp->kernels[i].status]++;
      json_builder_begin_object (b);
      sl_json_member_string (b, "name", cmp->kernels[i].name);
      sl_json_member_string (b, "status", sl_compare_status_name (cmp->kernels[i].status));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "statuses");
  json_builder_begin_object (b);
  for (guint s = 0; s <= SL_COMPARE_CALLS; s++)
    sl_json_member_int (b, sl_compare_status_name (s), counts[s]);
  json_builder_end_object (b);
  sl_json_member_int (b, "rows_shown", self->n_shown);
  sl_json_member_string (b, "histogram_kernel", self->hist_name);
  sl_json_member_int (b, "histogram_series", sl_histogram_overlay_get_n_series (SL_HISTOGRAM_OVERLAY (self->hist)));
}

/* The keys of the rows wholly in view (under the band, above the bottom). */
static void
add_rows_in_view (JsonBuilder *b, SlTimelineLayout *l)
{
  json_builder_set_member_name (b, "rows_in_view");
  json_builder_begin_array (b);
  for (guint r = 0; l != NULL && r < sl_timeline_layout_n_rows (l); r++)
    {
      int y, h;
      if (!sl_timeline_layout_row_hidden (l, r) && sl_timeline_layout_row_rect (l, r, &y, &h)
          && y >= sl_timeline_layout_row_clip_top (l, r) && y + h <= l->height)
        json_builder_add_string_value (b, sl_timeline_layout_row_key (l, r));
    }
  json_builder_end_array (b);
}

/* Whether the strip plot is wholly inside the summary's scrolled window,
 * as it is first shown (not scrolled). */
static gboolean
strip_in_view (SlCompareWindow *self)
{
  GtkWidget *scroller = self->strip ? gtk_widget_get_ancestor (self->strip, GTK_TYPE_SCROLLED_WINDOW) : NULL;
  graphene_rect_t r;

  return scroller != NULL && gtk_widget_get_mapped (self->strip)
         && gtk_widget_compute_bounds (self->strip, scroller, &r)
         && r.origin.y >= 0 && r.origin.y + r.size.height <= gtk_widget_get_height (scroller)
         && r.size.height > 0;
}

/* Where timeline @t sits in surface coordinates (what xdotool sees), its
 * size, and what it shows. */
static void
add_timeline (JsonBuilder *b, SlCompareWindow *self, guint t)
{
  GtkWidget *widget = self->timelines[t];
  SlTimelineLayout *l = sl_timeline_get_layout (SL_TIMELINE (widget));
  const SlTimeRange *r = sl_session_get_visible_range (self->sessions[t]);
  graphene_point_t origin;
  double sx = 0, sy = 0;

  if (!gtk_widget_compute_point (widget, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (0, 0), &origin))
    origin = GRAPHENE_POINT_INIT (0, 0);
  gtk_native_get_surface_transform (GTK_NATIVE (self), &sx, &sy);
  json_builder_begin_object (b);
  sl_json_member_double (b, "x", origin.x + sx);
  sl_json_member_double (b, "y", origin.y + sy);
  sl_json_member_int (b, "width", gtk_widget_get_width (widget));
  sl_json_member_int (b, "height", gtk_widget_get_height (widget));
  sl_json_member_int (b, "header_width", l ? l->header_width : 0);
  sl_json_member_int (b, "body_y", l ? sl_timeline_layout_body_y (l) : 0);
  sl_json_member_double (b, "scale", l ? l->scale : 1);
  sl_json_member_int (b, "anchor_ns", self->anchor[t]);
  sl_json_member_int (b, "iteration", gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->spins[t])));
  sl_json_member_string (b, "iteration_name", self->anchor_names[t]);
  sl_json_member_string (b, "iteration_label", gtk_label_get_text (GTK_LABEL (self->names[t])));
  add_rows_in_view (b, l);
  sl_json_member_int_array (b, "visible", (const gint64[]) { r->start, r->end }, 2);
  {
    SlHighlight *hl = sl_session_get_highlight (self->sessions[t]);
    sl_json_member_int (b, "outlined", hl ? sl_highlight_get_n (hl) : 0);
  }
  json_builder_end_object (b);
}

static void
add_timelines (JsonBuilder *b, SlCompareWindow *self)
{
  sl_json_member_string (b, "align", gtk_drop_down_get_selected (GTK_DROP_DOWN (self->align_drop)) ? "iteration"
                                                                                                     : "start");
  sl_json_member_int (b, "offset_ns", self->anchor[1] - self->anchor[0]);
  sl_json_member_boolean (b, "strip_in_view", strip_in_view (self));
  json_builder_set_member_name (b, "timelines");
  json_builder_begin_array (b);
  for (guint t = 0; t < 2; t++)
    add_timeline (b, self, t);
  json_builder_end_array (b);
}

char *
_sl_compare_probe_state (SlCompareWindow *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  sl_json_member_string (b, "page", page_of (self));
  sl_json_member_string (b, "error", self->error);
  sl_json_member_string (b, "exported", self->export_path);   /* the last report written */
  sl_json_member_string (b, "subtitle", self->subtitle_label ? gtk_label_get_text (GTK_LABEL (self->subtitle_label)) : NULL);
  add_xid (b, self);
  json_builder_set_member_name (b, "profiles");
  json_builder_begin_array (b);
  for (guint p = 0; p < self->n; p++)
    {
      g_autofree char *path = g_file_get_path (self->files[p]);
      json_builder_add_string_value (b, path ? path : "");
    }
  json_builder_end_array (b);
  if (self->result != NULL && self->sessions[0] != NULL)
    {
      add_step (b, self->result->compare);
      add_kernels (b, self, self->result->compare);
      add_timelines (b, self);
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_to_string (root, TRUE);
}

static gboolean
write_cb (gpointer data)
{
  SlCompareWindow *self = data;
  const char *base = g_getenv ("SIGHTLINE_TEST_STATE");
  g_autofree char *path = g_strconcat (base, ".compare", NULL);
  g_autofree char *tmp = g_strconcat (path, ".tmp", NULL);
  g_autofree char *text = _sl_compare_probe_state (self);

  g_object_set_data (G_OBJECT (self), "sl-probe-source", NULL);
  /* written whole then renamed, so a reader never sees half a file */
  if (g_file_set_contents (tmp, text, -1, NULL))
    g_rename (tmp, path);
  return G_SOURCE_REMOVE;
}

static void
schedule_cb (SlCompareWindow *self)
{
  guint id;

  if (g_object_get_data (G_OBJECT (self), "sl-probe-source") != NULL)
    return;
  /* after the frame that shows the change; the source dies with the window */
  id = g_timeout_add_full (G_PRIORITY_DEFAULT, 50, write_cb, g_object_ref (self), g_object_unref);
  g_object_set_data (G_OBJECT (self), "sl-probe-source", GUINT_TO_POINTER (id));
}

void
_sl_compare_probe_start (SlCompareWindow *self)
{
  if (g_getenv ("SIGHTLINE_TEST_STATE") == NULL)
    return;
  g_signal_connect (self, "notify::probe-state", G_CALLBACK (schedule_cb), NULL);
  g_signal_connect (self, "map", G_CALLBACK (schedule_cb), NULL);
  for (guint t = 0; t < 2; t++)
    g_signal_connect_swapped (self->timelines[t], "view-changed", G_CALLBACK (schedule_cb), self);
  schedule_cb (self);
}
