/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-probe.c: the window seen from outside, for tests and benchmarks.
 *
 * SIGHTLINE_TEST_STATE=FILE: the window's state (page, titles, the
 * timeline's geometry and view, the session's selection, the details
 * shown) is written to FILE as JSON shortly after anything changes; the GUI
 * tests read it to know where to click and what happened.
 * SIGHTLINE_MEASURE_STALL=1|verbose: the longest gap between main-loop
 * wake-ups while a profile loads and its first frames draw, printed on
 * stderr (sightline-bench's "stall_ms"); a staged load counts until the
 * complete profile's first frames, its GPU rows shown meanwhile.
 * SIGHTLINE_MEASURE_STALL_HOLD=N (seconds): the meter goes on for N s
 * after the load (what follows it: the NVTX tree's first display, a page
 * switched to), printing the longest gap of that time apart.
 * The probe only observes: the window's properties, the session's and the
 * timeline's signals.  Nothing in the window calls it. */
#include "sl-window-private.h"
#include "sl-load-bar.h"
#include "sl-settings.h"
#include "sl-timeline-hit.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-json.h"

/* Frames of the timeline drawn before a load counts as shown. */
#define SHOWN_AFTER_FRAMES 5
/* A new window's first frames (GL set-up, fonts) are start-up, not loading. */
#define STARTUP_FRAMES 3

struct _SlWindowProbe {
  SlWindow  *window;          /* (unowned): the probe dies with it */
  char      *state_path;
  guint      state_source;
  SlSession *session;         /* observed */

  gboolean   measure_stall;
  gboolean   verbose;
  guint      stall_source;
  gint64     stall_last;
  gint64     stall_max;
  gint64     stall_begin;
  gint64     stall_cpu_last;  /* the main thread's CPU time at stall_last */
  gint64     stall_cpu_max;   /* its CPU time during the longest gap */
  guint      window_frames;   /* up to STARTUP_FRAMES */
  guint      frames;          /* timeline frames since new rows showed */
  guint      frame_tick;
  guint      hold_s;          /* SIGHTLINE_MEASURE_STALL_HOLD */
  guint      hold_source;     /* the hold's end */
};

/* ---- the state file ---------------------------------------------------------- */

static const char *
event_kind_name (SlEventKind kind)
{
  static const char * const names[] = { "none", "kernel", "memcpy", "memset", "api", "nvtx",
                                        "nvtx-startend", "mark", "nvtx-projected", "osrt", "sample", "metric" };
  return kind < G_N_ELEMENTS (names) ? names[kind] : "none";
}

static const char *
row_kind_name (SlRowKind kind)
{
  static const char * const names[] = { "gpu", "process", "thread", "stream", "api", "nvtx",
                                        "nvtx-startend", "marks", "gpu-util", "nvtx-projected", "osrt", "samples",
                                        "metric", "cpu-process", "cpu-thread", "metric-device" };
  return kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}

static void
add_xid (JsonBuilder *b, SlWindow *window)
{
#ifdef GDK_WINDOWING_X11
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  if (surface && GDK_IS_X11_SURFACE (surface))
    sl_json_member_int (b, "xid", (gint64) gdk_x11_surface_get_xid (surface));
#endif
}

/* Where the timeline's origin is in surface coordinates (what xdotool and
 * import see), and its geometry in device pixels. */
static void
add_geometry (JsonBuilder *b, SlWindow *window, const SlTimelineLayout *l)
{
  graphene_point_t origin;
  double sx = 0, sy = 0;

  if (!gtk_widget_compute_point (window->timeline, GTK_WIDGET (window), &GRAPHENE_POINT_INIT (0, 0), &origin))
    origin = GRAPHENE_POINT_INIT (0, 0);
  gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
  sl_json_member_double (b, "x", origin.x + sx);
  sl_json_member_double (b, "y", origin.y + sy);
  sl_json_member_double (b, "scale", l->scale);
  sl_json_member_int (b, "width", l->width);
  sl_json_member_int (b, "height", l->height);
  sl_json_member_int (b, "header_width", l->header_width);
  sl_json_member_int (b, "minimap_height", l->minimap_height);
  sl_json_member_int (b, "body_y", sl_timeline_layout_body_y (l));
  sl_json_member_double (b, "t0", l->t0);
  sl_json_member_double (b, "px_ns", l->px_ns);
  /* row control (issue 12): scrolling, the pinned band, the label column */
  sl_json_member_double (b, "scroll_y", l->scroll_y);
  sl_json_member_double (b, "max_scroll", sl_timeline_layout_max_scroll (l));
  sl_json_member_int (b, "band_height", sl_timeline_layout_band_height (l));
  sl_json_member_int (b, "label_width", l->label_width);
}

static void
add_range (JsonBuilder *b, const char *name, const SlTimeRange *range)
{
  json_builder_set_member_name (b, name);
  if (range == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_array (b);
  json_builder_add_int_value (b, range->start);
  json_builder_add_int_value (b, range->end);
  json_builder_end_array (b);
}

/* Whether any of @event's box is inside the body (not scrolled away). */
static gboolean
event_on_screen (const SlTimelineLayout *l, const SlEventRef *event)
{
  double x0, x1;
  int y, h;

  if (!sl_timeline_layout_event_rect (l, event, &x0, &x1, &y, &h))
    return FALSE;
  return x1 >= l->header_width && x0 <= l->width && y + h > sl_timeline_layout_body_y (l) && y < l->height;
}

static void
add_selected_event (JsonBuilder *b, SlSession *session, const SlTimelineLayout *l)
{
  const SlEventRef *event = sl_session_get_selected_event (session);

  json_builder_set_member_name (b, "selected");
  if (event == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  sl_json_member_string (b, "kind", event_kind_name (event->kind));
  sl_json_member_int (b, "owner", event->owner);
  sl_json_member_int (b, "index", event->index);
  sl_json_member_string (b, "name", sl_timeline_model_event_name (sl_session_get_model (session), event));
  sl_json_member_int (b, "on_screen", event_on_screen (l, event));
  json_builder_end_object (b);
}

/* The track and group rows at least partly visible below the ruler, top-down. */
static void
add_rows (JsonBuilder *b, const SlTimelineLayout *l, const SlTimelineModel *model)
{
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  /* top-down as drawn: the pinned band's, then the scrolled rows */
  for (guint i = 0; i < sl_timeline_layout_n_shown (l); i++)
    {
      guint r = sl_timeline_layout_shown_row (l, i);
      int y, h;

      if (!sl_timeline_layout_row_rect (l, r, &y, &h) || y >= l->height || y + h <= sl_timeline_layout_body_y (l))
        continue;
      json_builder_begin_object (b);
      sl_json_member_int (b, "row", r);
      sl_json_member_string (b, "kind", row_kind_name (model->rows[r].kind));
      sl_json_member_int (b, "y", y);
      sl_json_member_int (b, "height", h);
      sl_json_member_int (b, "events", model->rows[r].n_events);
      sl_json_member_string (b, "key", sl_timeline_layout_row_key (l, r));
      sl_json_member_boolean (b, "pinned", sl_timeline_layout_row_pinned (l, r));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* How many rows of each kind the model has, shown or not. */
static void
add_row_kinds (JsonBuilder *b, const SlTimelineModel *model)
{
  guint counts[SL_ROW_METRIC_DEVICE + 1] = { 0 };

  for (guint r = 0; r < model->n_rows; r++)
    if (model->rows[r].kind <= SL_ROW_METRIC_DEVICE)
      counts[model->rows[r].kind]++;
  json_builder_set_member_name (b, "row_kinds");
  json_builder_begin_object (b);
  for (guint k = 0; k <= SL_ROW_METRIC_DEVICE; k++)
    sl_json_member_int (b, row_kind_name (k), counts[k]);
  json_builder_end_object (b);
}

/* The profile shown: complete, or a staged load's GPU rows (still loading or not). */
static void
add_stage (JsonBuilder *b, SlSession *session)
{
  const SlProfile *profile = sl_session_get_profile (session);

  json_builder_set_member_name (b, "complete");
  json_builder_add_boolean_value (b, (profile->parts & SL_PART_API) != 0);
  json_builder_set_member_name (b, "loading");
  json_builder_add_boolean_value (b, sl_session_get_loading (session));
}

/* The load bar's state and text, and where its button's middle is in
 * surface coordinates (for xdotool), when it is shown. */
static void
add_load_bar (JsonBuilder *b, SlWindow *window)
{
  SlLoadBar *bar = SL_LOAD_BAR (window->load_bar);
  GtkWidget *button = sl_load_bar_get_button (bar);
  graphene_point_t middle;
  double sx = 0, sy = 0;

  json_builder_set_member_name (b, "load_bar");
  json_builder_begin_object (b);
  sl_json_member_string (b, "state", sl_load_bar_get_state (bar));
  sl_json_member_string (b, "text", sl_load_bar_get_text (bar));
  if (gtk_widget_get_mapped (button) &&
      gtk_widget_compute_point (button, GTK_WIDGET (window),
                                &GRAPHENE_POINT_INIT (gtk_widget_get_width (button) / 2.f,
                                                      gtk_widget_get_height (button) / 2.f), &middle))
    {
      gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
      sl_json_member_double (b, "button_x", middle.x + sx);
      sl_json_member_double (b, "button_y", middle.y + sy);
    }
  json_builder_end_object (b);
}

static void
add_strings (JsonBuilder *b, const char *name, GStrv strings)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; strings[i] != NULL; i++)
    json_builder_add_string_value (b, strings[i]);
  json_builder_end_array (b);
}

/* The details pane's links: "detail_links": [{"label", "x", "y"}], where
 * to click (surface coordinates) the first link of each linked field. */
static void
add_detail_links (JsonBuilder *b, SlWindow *window)
{
  g_autoptr(GPtrArray) widgets = sl_details_pane_get_link_widgets (SL_DETAILS_PANE (window->details));
  double sx = 0, sy = 0;

  gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
  json_builder_set_member_name (b, "detail_links");
  json_builder_begin_array (b);
  for (guint i = 0; i < widgets->len; i++)
    {
      GtkWidget *w = g_ptr_array_index (widgets, i);
      graphene_point_t pt;
      int lx = 0, ly = 0;

      /* the first link starts the text: a few pixels into its first line;
       * a label not laid out yet has no place to click (under a loaded
       * machine the state was read between its mapping and its layout) */
      gtk_label_get_layout_offsets (GTK_LABEL (w), &lx, &ly);
      if (!gtk_widget_get_mapped (w) || gtk_widget_get_allocated_width (w) <= 0 ||
          !gtk_widget_compute_point (w, GTK_WIDGET (window), &GRAPHENE_POINT_INIT (lx + 6, ly + 8), &pt))
        continue;
      json_builder_begin_object (b);
      sl_json_member_string (b, "label", sl_details_pane_get_field_label (SL_DETAILS_PANE (window->details), w));
      sl_json_member_double (b, "x", pt.x + sx);
      sl_json_member_double (b, "y", pt.y + sy);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* The details pane's labels, and their values in the same order. */
static void
add_details (JsonBuilder *b, SlWindow *window)
{
  g_auto(GStrv) labels = sl_details_pane_get_labels (SL_DETAILS_PANE (window->details));
  g_auto(GStrv) values = sl_details_pane_get_values (SL_DETAILS_PANE (window->details));

  add_strings (b, "details", labels);
  add_strings (b, "detail_values", values);
  add_detail_links (b, window);
}

/* The ruler's labels and any note, and the range's length, as drawn. */
static void
add_ruler (JsonBuilder *b, SlWindow *window)
{
  g_auto(GStrv) text = sl_timeline_dup_ruler_text (SL_TIMELINE (window->timeline));

  add_strings (b, "ruler", text);
  sl_json_member_string (b, "ruler_range", sl_timeline_get_range_label (SL_TIMELINE (window->timeline)));
}

/* "bookmarks": [{name, start, end, flag_x (logical px in the timeline)}],
 * with the file they live in and the problem the window shows. */
static void
add_bookmarks (JsonBuilder *b, SlWindow *window, SlTimelineLayout *l)
{
  SlBookmarkStore *store = sl_session_get_bookmarks (window->session);
  GPtrArray *all = store ? sl_bookmark_store_get_bookmarks (store) : NULL;
  double s = gtk_widget_get_scale_factor (window->timeline);

  sl_json_member_string (b, "bookmarks_file", store ? sl_bookmark_store_get_path (store) : NULL);
  sl_json_member_string (b, "bookmarks_problem", store ? sl_bookmark_store_get_problem (store) : NULL);
  /* what the bar over the timeline says, when it shows */
  sl_json_member_string (b, "bookmarks_bar", gtk_revealer_get_reveal_child (GTK_REVEALER (window->bookmark_bar))
                                             ? gtk_label_get_text (GTK_LABEL (window->bookmark_problem)) : NULL);
  json_builder_set_member_name (b, "bookmarks");
  json_builder_begin_array (b);
  for (guint i = 0; all != NULL && i < all->len; i++)
    {
      const SlBookmark *bm = all->pdata[i];

      json_builder_begin_object (b);
      sl_json_member_string (b, "name", bm->name);
      sl_json_member_int (b, "start", bm->start);
      sl_json_member_int (b, "end", bm->end);
      sl_json_member_string (b, "color", bm->color);
      sl_json_member_double (b, "flag_x", (l->header_width + sl_timeline_layout_time_to_x (l, bm->start)) / s);
      sl_json_member_double (b, "flag_y", (l->minimap_height + l->ruler_height * 0.7) / s);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_timeline (JsonBuilder *b, SlWindow *window, SlTimelineLayout *l)
{
  SlSession *session = window->session;
  SlProfile *profile = sl_session_get_profile (session);

  json_builder_set_member_name (b, "timeline");
  json_builder_begin_object (b);
  add_geometry (b, window, l);
  sl_json_member_int (b, "start_ns", profile->start_ns);
  sl_json_member_int (b, "end_ns", profile->end_ns);
  sl_json_member_double (b, "frame_ms", sl_timeline_get_last_frame_ms (SL_TIMELINE (window->timeline)));
  sl_json_member_int (b, "snapshots", (gint64) sl_timeline_get_n_snapshots (SL_TIMELINE (window->timeline)));
  add_ruler (b, window);
  add_range (b, "range", sl_session_get_selected_range (session));
  add_range (b, "visible", sl_session_get_visible_range (session));
  add_selected_event (b, session, l);
  sl_json_member_int (b, "history_back", sl_session_can_go_back (session));
  sl_json_member_int (b, "history_forward", sl_session_can_go_forward (session));
  add_rows (b, l, sl_session_get_model (session));
  add_row_kinds (b, sl_session_get_model (session));
  {
    /* the user's row layout as its own JSON text (what is saved) */
    g_autofree char *rows = sl_row_layout_to_json (sl_timeline_layout_get_row_layout (l));
    sl_json_member_string (b, "row_layout", rows);
  }
  add_stage (b, session);
  add_bookmarks (b, window, l);
  json_builder_end_object (b);
}

/* A view's own state for the tests: the JSON text of its "probe-state"
 * property (a page of the side panel, the flame stack), null without one. */
static void
add_view_state (JsonBuilder *b, const char *name, GtkWidget *view)
{
  g_autofree char *text = NULL;
  JsonNode *node = NULL;

  json_builder_set_member_name (b, name);
  if (view != NULL && g_object_class_find_property (G_OBJECT_GET_CLASS (view), "probe-state") != NULL)
    g_object_get (view, "probe-state", &text, NULL);
  if (text != NULL)
    node = json_from_string (text, NULL);
  if (node != NULL)
    json_builder_add_value (b, node);
  else
    json_builder_add_null_value (b);
}

static const char * const panel_pages[] = { "tree", "search", "summary", "bookmarks" };

/* "tabs": {"tree": [x, y], ...}: the middle of each page's switcher button
 * in surface coordinates (for xdotool), in the panel's page order. */
static void
add_tabs (JsonBuilder *b, SlWindow *window)
{
  GtkWidget *box = gtk_widget_get_first_child (window->side_panel);
  GtkWidget *switcher = box != NULL ? gtk_widget_get_first_child (box) : NULL;
  GtkWidget *button = switcher != NULL && GTK_IS_STACK_SWITCHER (switcher) ? gtk_widget_get_first_child (switcher) : NULL;
  double sx = 0, sy = 0;

  gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
  json_builder_set_member_name (b, "tabs");
  json_builder_begin_object (b);
  for (guint i = 0; button != NULL && i < G_N_ELEMENTS (panel_pages); i++, button = gtk_widget_get_next_sibling (button))
    {
      graphene_point_t middle;

      if (!gtk_widget_get_mapped (button) ||
          !gtk_widget_compute_point (button, GTK_WIDGET (window),
                                     &GRAPHENE_POINT_INIT (gtk_widget_get_width (button) / 2.f,
                                                           gtk_widget_get_height (button) / 2.f), &middle))
        continue;
      json_builder_set_member_name (b, panel_pages[i]);
      json_builder_begin_array (b);
      json_builder_add_double_value (b, middle.x + sx);
      json_builder_add_double_value (b, middle.y + sy);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

/* "panel": {"shown", "page", "tree": {...}, "search": {...}, "summary": {...}},
 * "flame": {...} or null while hidden. */
static void
add_views (JsonBuilder *b, SlWindow *window)
{
  SlSidePanel *panel = SL_SIDE_PANEL (window->side_panel);

  json_builder_set_member_name (b, "panel");
  json_builder_begin_object (b);
  sl_json_member_int (b, "shown", gtk_widget_get_visible (window->side_panel));
  sl_json_member_int (b, "details_shown", gtk_widget_get_visible (window->details_scroller));
  sl_json_member_string (b, "page", sl_side_panel_get_page (panel));
  add_tabs (b, window);
  for (guint i = 0; i < G_N_ELEMENTS (panel_pages); i++)
    add_view_state (b, panel_pages[i], sl_side_panel_get_page_widget (panel, panel_pages[i]));
  json_builder_end_object (b);
  add_view_state (b, "flame", gtk_widget_get_visible (window->flame_slot)
                                ? gtk_widget_get_first_child (window->flame_slot) : NULL);
}

/* "export": the Export dialog's state and window id (null before it is
 * first opened); "export_toast": the bar after an export. */
static void
add_export (JsonBuilder *b, SlWindow *window)
{
  add_view_state (b, "export", window->export_dialog);
  add_view_state (b, "export_toast", window->export_toast);
#ifdef GDK_WINDOWING_X11
  if (window->export_dialog != NULL && gtk_widget_get_realized (window->export_dialog))
    {
      GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window->export_dialog));

      if (GDK_IS_X11_SURFACE (surface))
        sl_json_member_int (b, "export_xid", (gint64) gdk_x11_surface_get_xid (surface));
    }
#endif
}

static JsonNode *
build_state (SlWindowProbe *probe)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  SlWindow *window = probe->window;
  SlTimelineLayout *l = NULL;

  json_builder_begin_object (b);
  sl_json_member_string (b, "page", _sl_window_get_page (window));
  sl_json_member_string (b, "title", gtk_label_get_text (GTK_LABEL (window->title_label)));
  sl_json_member_string (b, "subtitle", gtk_label_get_text (GTK_LABEL (window->subtitle_label)));
  sl_json_member_string (b, "error", gtk_label_get_text (GTK_LABEL (window->error_message)));
  sl_json_member_double (b, "stall_ms", probe->stall_max / 1000.0);
  add_xid (b, window);
  add_load_bar (b, window);
  add_export (b, window);
  {
    /* set from the Preferences' time display (sl-settings.c) */
    g_autoptr(GVariant) absolute = g_action_group_get_action_state (G_ACTION_GROUP (window), "absolute-time");
    sl_json_member_int (b, "absolute_time", absolute && g_variant_get_boolean (absolute));
  }
  {
    /* the setting as the app's GSettings reads it, for tests that change
     * it by writing the keyfile backend's file */
    GSettings *settings = sl_settings_get ();
    g_autofree char *mode = settings != NULL ? g_settings_get_string (settings, "time-display") : NULL;
    sl_json_member_string (b, "time_display", mode);
  }
  if (g_strcmp0 (_sl_window_get_page (window), "profile") == 0 && window->session != NULL)
    l = sl_timeline_get_layout (SL_TIMELINE (window->timeline));
  if (l != NULL)
    {
      add_timeline (b, window, l);
      add_details (b, window);
      add_views (b, window);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* A profile page whose timeline has no size yet would say "no rows". */
static gboolean
timeline_unallocated (SlWindow *window)
{
  return window->session != NULL && g_strcmp0 (_sl_window_get_page (window), "profile") == 0 &&
         gtk_widget_get_height (window->timeline) == 0;
}

static void watch_export_dialog (SlWindowProbe *probe);

static gboolean
write_state_cb (gpointer data)
{
  SlWindowProbe *probe = data;
  g_autoptr(JsonGenerator) gen = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *tmp = NULL;

  if (timeline_unallocated (probe->window))
    return G_SOURCE_CONTINUE;   /* again after its first allocation */
  probe->state_source = 0;
  watch_export_dialog (probe);
  gen = json_generator_new ();
  root = build_state (probe);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  tmp = g_strconcat (probe->state_path, ".tmp", NULL);
  /* written whole then renamed, so a reader never sees half a file */
  if (g_file_set_contents (tmp, text, -1, NULL))
    g_rename (tmp, probe->state_path);
  return G_SOURCE_REMOVE;
}

static void
schedule_state (SlWindowProbe *probe)
{
  if (probe->state_path == NULL || probe->state_source != 0)
    return;
  /* after the frame that shows the change */
  probe->state_source = g_timeout_add (50, write_state_cb, probe);
}

/* ---- the stall meter ----------------------------------------------------------- */

/* The main thread's own CPU time (µs): on a loaded machine a gap's wall
 * time includes waiting for a core; its CPU time is what the app spent. */
static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gboolean
stall_tick_cb (gpointer data)
{
  SlWindowProbe *probe = data;
  gint64 now = g_get_monotonic_time ();
  gint64 gap = now - probe->stall_last;
  gint64 cpu = thread_cpu_us ();
  gint64 cpu_gap = cpu - probe->stall_cpu_last;

  probe->stall_cpu_last = cpu;
  if (probe->window_frames < STARTUP_FRAMES)
    {
      probe->stall_last = now;
      return G_SOURCE_CONTINUE;
    }
  if (gap > probe->stall_max)
    probe->stall_cpu_max = cpu_gap;
  probe->stall_max = MAX (probe->stall_max, gap);
  if (gap > 16000 && probe->verbose)
    g_printerr ("sightline: main loop stalled %.1f ms, main thread CPU %.1f ms (at +%.1f ms)\n",
                gap / 1000.0, cpu_gap / 1000.0, (now - probe->stall_begin) / 1000.0);
  probe->stall_last = now;
  return G_SOURCE_CONTINUE;
}

static void
stall_start (SlWindowProbe *probe)
{
  g_clear_handle_id (&probe->hold_source, g_source_remove);
  g_clear_handle_id (&probe->stall_source, g_source_remove);
  probe->stall_last = probe->stall_begin = g_get_monotonic_time ();
  probe->stall_cpu_last = thread_cpu_us ();
  probe->stall_max = probe->stall_cpu_max = 0;
  probe->frames = 0;
  /* a 2 ms timer: the longest gap between its runs is the longest stall */
  probe->stall_source = g_timeout_add (2, stall_tick_cb, probe);
}

/* The end of the hold: the longest gap since the load's end. */
static gboolean
hold_end_cb (gpointer data)
{
  SlWindowProbe *probe = data;

  probe->hold_source = 0;
  stall_tick_cb (probe);
  g_clear_handle_id (&probe->stall_source, g_source_remove);
  g_printerr ("sightline: longest main-loop stall in the %u s after the load: %.1f ms, main thread CPU %.1f ms\n",
              probe->hold_s, probe->stall_max / 1000.0, probe->stall_cpu_max / 1000.0);
  return G_SOURCE_REMOVE;
}

/* The load's maximum is reported; the meter goes on for the hold with a
 * maximum of its own (the timer keeps running: no gap is lost between). */
static void
hold_start (SlWindowProbe *probe)
{
  probe->stall_max = probe->stall_cpu_max = 0;
  probe->stall_begin = g_get_monotonic_time ();
  g_clear_handle_id (&probe->hold_source, g_source_remove);
  probe->hold_source = g_timeout_add_seconds (probe->hold_s, hold_end_cb, probe);
}

static void
stall_stop (SlWindowProbe *probe)
{
  g_autofree char *name = NULL;

  if (probe->stall_source == 0 || probe->hold_source != 0)
    return;
  stall_tick_cb (probe);
  name = probe->window->file ? g_file_get_basename (probe->window->file) : g_strdup ("(cancelled)");
  g_printerr ("sightline: longest main-loop stall while loading %s: %.1f ms\n", name, probe->stall_max / 1000.0);
  if (probe->verbose)
    g_printerr ("sightline: the main thread's CPU time in that stall: %.1f ms\n", probe->stall_cpu_max / 1000.0);
  schedule_state (probe);
  if (probe->hold_s > 0)
    hold_start (probe);
  else
    g_clear_handle_id (&probe->stall_source, g_source_remove);
}

/* The load ends when the new rows' first frames are out and the loader
 * is done (a staged load's GPU rows show while it goes on). */
static gboolean
frame_drawn_cb (GtkWidget *timeline, GdkFrameClock *clock, gpointer data)
{
  SlWindowProbe *probe = data;

  if (probe->verbose)
    g_printerr ("sightline: frame %u, timeline drawn in %.1f ms\n", probe->frames,
                sl_timeline_get_last_frame_ms (SL_TIMELINE (timeline)));
  if (++probe->frames < SHOWN_AFTER_FRAMES)
    return G_SOURCE_CONTINUE;
  probe->frame_tick = 0;
  if (probe->window->loader == NULL)
    stall_stop (probe);
  return G_SOURCE_REMOVE;
}

/* New rows are shown (a session, or a session's new model): count their frames. */
static void
rows_shown (SlWindowProbe *probe)
{
  if (probe->stall_source == 0 || probe->frame_tick != 0)
    return;
  probe->frames = 0;
  probe->frame_tick = gtk_widget_add_tick_callback (probe->window->timeline, frame_drawn_cb, probe, NULL);
}

static gboolean
window_frame_cb (GtkWidget *window, GdkFrameClock *clock, gpointer data)
{
  SlWindowProbe *probe = data;

  return ++probe->window_frames < STARTUP_FRAMES ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* ---- observing ------------------------------------------------------------------- */

static void
changed_cb (SlWindowProbe *probe)
{
  schedule_state (probe);
}

static void
loader_changed_cb (SlWindowProbe *probe)
{
  if (!probe->measure_stall)
    return;
  if (probe->window->loader != NULL)
    stall_start (probe);
  else if (probe->frame_tick == 0)
    stall_stop (probe);   /* failed or cancelled: nothing new to draw */
}

static void
model_changed_cb (SlWindowProbe *probe)
{
  rows_shown (probe);
  schedule_state (probe);
}

static void
session_changed_cb (SlWindowProbe *probe)
{
  if (probe->session != NULL)
    g_signal_handlers_disconnect_by_data (probe->session, probe);
  g_set_object (&probe->session, probe->window->session);
  if (probe->session != NULL)
    {
      g_signal_connect_swapped (probe->session, "notify", G_CALLBACK (changed_cb), probe);
      g_signal_connect_swapped (probe->session, "notify::model", G_CALLBACK (model_changed_cb), probe);
    }
  rows_shown (probe);
  schedule_state (probe);
}

/* The views whose "probe-state" the state shows: the panel's pages and
 * the flame stack (the slot's child, when the window made one). */
static GPtrArray *
probed_views (SlWindow *window)
{
  GPtrArray *views = g_ptr_array_new ();
  SlSidePanel *panel = SL_SIDE_PANEL (window->side_panel);

  for (guint i = 0; i < G_N_ELEMENTS (panel_pages); i++)
    g_ptr_array_add (views, sl_side_panel_get_page_widget (panel, panel_pages[i]));
  if (gtk_widget_get_first_child (window->flame_slot) != NULL)
    g_ptr_array_add (views, gtk_widget_get_first_child (window->flame_slot));
  return views;
}

/* Views with a "probe-state" say when it changes; the panel's page and the
 * flame stack's visibility are state too. */
static void
observe_views (SlWindowProbe *probe)
{
  SlWindow *window = probe->window;
  g_autoptr(GPtrArray) views = probed_views (window);

  for (guint i = 0; i < views->len; i++)
    {
      GObject *view = views->pdata[i];

      if (g_object_class_find_property (G_OBJECT_GET_CLASS (view), "probe-state") != NULL)
        g_signal_connect_swapped (view, "notify::probe-state", G_CALLBACK (changed_cb), probe);
      g_signal_connect_swapped (view, "map", G_CALLBACK (changed_cb), probe);
    }
  g_signal_connect_swapped (window->side_panel, "notify::visible", G_CALLBACK (changed_cb), probe);
  g_signal_connect_swapped (window->flame_slot, "notify::visible", G_CALLBACK (changed_cb), probe);
  g_signal_connect_swapped (window->details_scroller, "notify::visible", G_CALLBACK (changed_cb), probe);
  g_signal_connect_swapped (window->export_toast, "notify::probe-state", G_CALLBACK (changed_cb), probe);
}

static void
unobserve_views (SlWindowProbe *probe)
{
  g_autoptr(GPtrArray) views = probed_views (probe->window);

  for (guint i = 0; i < views->len; i++)
    g_signal_handlers_disconnect_by_data (views->pdata[i], probe);
  g_signal_handlers_disconnect_by_data (probe->window->side_panel, probe);
  g_signal_handlers_disconnect_by_data (probe->window->flame_slot, probe);
  g_signal_handlers_disconnect_by_data (probe->window->details_scroller, probe);
  g_signal_handlers_disconnect_by_data (probe->window->export_toast, probe);
}

/* The Export dialog is made on first use: it joins the toplevels before
 * the window holds it, so the state written next connects to it. */
static void
watch_export_dialog (SlWindowProbe *probe)
{
  GtkWidget *dialog = probe->window->export_dialog;

  if (dialog != NULL && !g_signal_handler_find (dialog, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, probe))
    {
      g_signal_connect_swapped (dialog, "notify::probe-state", G_CALLBACK (changed_cb), probe);
      g_signal_connect_swapped (dialog, "realize", G_CALLBACK (changed_cb), probe);
    }
}

static void
observe (SlWindowProbe *probe)
{
  SlWindow *window = probe->window;

  g_signal_connect_swapped (window, "notify::loader", G_CALLBACK (loader_changed_cb), probe);
  g_signal_connect_swapped (window, "notify::session", G_CALLBACK (session_changed_cb), probe);
  g_signal_connect_swapped (window->stack, "notify::visible-child-name", G_CALLBACK (changed_cb), probe);
  g_signal_connect_swapped (window->title_label, "notify::label", G_CALLBACK (changed_cb), probe);
  g_signal_connect_swapped (window->timeline, "view-changed", G_CALLBACK (changed_cb), probe);
  g_signal_connect_swapped (window->details, "updated", G_CALLBACK (changed_cb), probe);
  g_signal_connect_swapped (window, "map", G_CALLBACK (changed_cb), probe);
  observe_views (probe);
  g_signal_connect_swapped (gtk_window_get_toplevels (), "items-changed", G_CALLBACK (changed_cb), probe);
  /* the load bar's revealer: its button has moved once the slide is over */
  g_signal_connect_swapped (gtk_widget_get_first_child (window->load_bar), "notify::child-revealed",
                            G_CALLBACK (changed_cb), probe);
}

SlWindowProbe *
_sl_window_probe_new (SlWindow *window)
{
  const char *state = g_getenv ("SIGHTLINE_TEST_STATE");
  const char *stall = g_getenv ("SIGHTLINE_MEASURE_STALL");
  SlWindowProbe *probe;

  if (state == NULL && stall == NULL)
    return NULL;
  probe = g_new0 (SlWindowProbe, 1);
  probe->window = window;
  probe->state_path = g_strdup (state);
  probe->measure_stall = stall != NULL;
  probe->verbose = g_strcmp0 (stall, "verbose") == 0;
  if (g_getenv ("SIGHTLINE_MEASURE_STALL_HOLD") != NULL)
    probe->hold_s = (guint) CLAMP (g_ascii_strtoll (g_getenv ("SIGHTLINE_MEASURE_STALL_HOLD"), NULL, 10), 0, 600);
  if (probe->measure_stall)
    gtk_widget_add_tick_callback (GTK_WIDGET (window), window_frame_cb, probe, NULL);
  observe (probe);
  schedule_state (probe);
  return probe;
}

void
_sl_window_probe_free (SlWindowProbe *probe)
{
  SlWindow *window = probe->window;

  g_signal_handlers_disconnect_by_data (window, probe);
  g_signal_handlers_disconnect_by_data (window->stack, probe);
  g_signal_handlers_disconnect_by_data (window->title_label, probe);
  g_signal_handlers_disconnect_by_data (window->timeline, probe);
  g_signal_handlers_disconnect_by_data (window->details, probe);
  unobserve_views (probe);
  g_signal_handlers_disconnect_by_data (gtk_window_get_toplevels (), probe);
  if (window->export_dialog != NULL)
    g_signal_handlers_disconnect_by_data (window->export_dialog, probe);
  g_signal_handlers_disconnect_by_data (gtk_widget_get_first_child (window->load_bar), probe);
  if (probe->session != NULL)
    g_signal_handlers_disconnect_by_data (probe->session, probe);
  g_clear_object (&probe->session);
  if (probe->frame_tick != 0)
    gtk_widget_remove_tick_callback (window->timeline, probe->frame_tick);
  g_clear_handle_id (&probe->state_source, g_source_remove);
  g_clear_handle_id (&probe->stall_source, g_source_remove);
  g_clear_handle_id (&probe->hold_source, g_source_remove);
  g_free (probe->state_path);
  g_free (probe);
}
