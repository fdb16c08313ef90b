/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window.c: one window per profile: welcome, loading, error and timeline
 * pages, the details pane and the window actions. */
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sl-window.h"
#include "sl-application.h"
#include "sl-details-pane.h"
#include "sl-file-chooser.h"
#include "sl-timeline.h"
#include "sl-timeline-colors.h"
#include "sightline.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

struct _SlWindow {
  GtkApplicationWindow parent_instance;

  GtkWidget       *title_label;
  GtkWidget       *subtitle_label;
  GtkWidget       *menu_button;
  GtkWidget       *details_button;
  GtkWidget       *stack;
  GtkWidget       *recent_list;
  GtkWidget       *recent_title;
  GtkWidget       *loading_label;
  GtkWidget       *progress_bar;
  GtkWidget       *phase_label;
  GtkWidget       *error_title;
  GtkWidget       *error_message;
  GtkWidget       *error_open_button;
  GtkWidget       *paned;
  GtkWidget       *timeline;
  GtkWidget       *legend;
  GtkWidget       *empty_label;
  GtkWidget       *details;
  GtkWidget       *details_scroller;

  GFile           *file;
  SlTimelineModel *model;
  GCancellable    *cancellable;
  guint            loading_id;   /* increases with every load: late results are dropped */

  /* progress from the worker, handed over under the lock */
  GMutex           progress_lock;
  double           progress_fraction;
  char            *progress_phase;
  guint            progress_idle;

  /* SIGHTLINE_MEASURE_STALL: longest gap between main loop wake-ups */
  guint            stall_source;
  gint64           stall_last;
  gint64           stall_max;
  gint64           stall_begin;
  guint            stall_frames;

  guint            state_idle;   /* SIGHTLINE_TEST_STATE */
};

G_DEFINE_FINAL_TYPE (SlWindow, sl_window, GTK_TYPE_APPLICATION_WINDOW)

static void schedule_test_state (SlWindow *self);

typedef struct {
  SlWindow        *window;      /* (owned) */
  char            *path;
  guint            loading_id;
  SlTimelineModel *model;
} LoadJob;

static void
load_job_free (LoadJob *job)
{
  g_clear_object (&job->window);
  g_free (job->path);
  g_clear_pointer (&job->model, sl_timeline_model_unref);
  g_free (job);
}

static const char *
current_page (SlWindow *self)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (self->stack));
}

static void
set_page (SlWindow *self, const char *page)
{
  gboolean profile = g_strcmp0 (page, "profile") == 0;
  static const char * const profile_actions[] = {
    "zoom-in", "zoom-out", "fit", "zoom-to-selection", "clear-selection", "absolute-time",
    "show-details", "reload",
  };

  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), page);
  for (guint i = 0; i < G_N_ELEMENTS (profile_actions); i++)
    {
      GAction *a = g_action_map_lookup_action (G_ACTION_MAP (self), profile_actions[i]);
      gboolean enabled = profile;

      if (g_str_equal (profile_actions[i], "reload"))
        enabled = self->file != NULL && g_strcmp0 (page, "loading") != 0;
      g_simple_action_set_enabled (G_SIMPLE_ACTION (a), enabled);
    }
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "cancel-load")),
                               g_strcmp0 (page, "loading") == 0);
  gtk_widget_set_visible (self->details_button, profile);
  if (profile)
    gtk_widget_grab_focus (self->timeline);
  schedule_test_state (self);
}

static void
set_titles (SlWindow *self, const char *title, const char *subtitle)
{
  gtk_label_set_text (GTK_LABEL (self->title_label), title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (GTK_LABEL (self->subtitle_label), subtitle ? subtitle : "");
  gtk_widget_set_visible (self->subtitle_label, subtitle != NULL && *subtitle);
}

/* ---- stall measurement ---------------------------------------------------- */

static gboolean
stall_frame_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       data)
{
  SlWindow *self = SL_WINDOW (widget);

  return ++self->stall_frames < 3 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static gboolean
stall_tick_cb (gpointer data)
{
  SlWindow *self = data;
  gint64 now = g_get_monotonic_time ();

  /* a new window's first frames (GL set-up, fonts) are start-up, not loading */
  if (self->stall_frames < 3)
    {
      self->stall_last = now;
      return G_SOURCE_CONTINUE;
    }

  self->stall_max = MAX (self->stall_max, now - self->stall_last);
  if (now - self->stall_last > 16000 && g_strcmp0 (g_getenv ("SIGHTLINE_MEASURE_STALL"), "verbose") == 0)
    g_printerr ("sightline: main loop stalled %.1f ms (at +%.1f ms)\n", (now - self->stall_last) / 1000.0,
                (now - self->stall_begin) / 1000.0);
  self->stall_last = now;
  return G_SOURCE_CONTINUE;
}

static void
stall_start (SlWindow *self)
{
  if (g_getenv ("SIGHTLINE_MEASURE_STALL") == NULL)
    return;
  g_clear_handle_id (&self->stall_source, g_source_remove);
  self->stall_last = self->stall_begin = g_get_monotonic_time ();
  self->stall_max = 0;
  if (self->stall_frames < 3)
    gtk_widget_add_tick_callback (GTK_WIDGET (self), stall_frame_cb, NULL, NULL);
  /* a 2 ms timer: the longest gap between its runs is the longest stall */
  self->stall_source = g_timeout_add (2, stall_tick_cb, self);
}

static void
stall_stop (SlWindow *self, const char *what)
{
  if (self->stall_source == 0)
    return;
  stall_tick_cb (self);
  g_clear_handle_id (&self->stall_source, g_source_remove);
  g_printerr ("sightline: longest main-loop stall while loading %s: %.1f ms\n",
              what, self->stall_max / 1000.0);
}

static gboolean
stall_after_frame_cb (GtkWidget     *timeline,
                      GdkFrameClock *clock,
                      gpointer       data)
{
  SlWindow *self = data;
  g_autofree char *basename = NULL;

  if (g_strcmp0 (g_getenv ("SIGHTLINE_MEASURE_STALL"), "verbose") == 0)
    g_printerr ("sightline: frame %u, timeline drawn in %.1f ms\n", self->stall_frames,
                sl_timeline_get_last_frame_ms (SL_TIMELINE (self->timeline)));
  if (++self->stall_frames < 5)
    return G_SOURCE_CONTINUE;
  basename = self->file ? g_file_get_basename (self->file) : g_strdup ("?");
  stall_stop (self, basename);
  schedule_test_state (self);
  return G_SOURCE_REMOVE;
}

/* ---- test state (SIGHTLINE_TEST_STATE) ------------------------------------ */

static const char *
event_kind_name (SlEventKind kind)
{
  static const char * const names[] = { "none", "kernel", "memcpy", "memset", "api", "nvtx",
                                        "nvtx-startend", "mark" };
  return kind < G_N_ELEMENTS (names) ? names[kind] : "none";
}

static const char *
row_kind_name (SlRowKind kind)
{
  static const char * const names[] = { "gpu", "process", "thread", "stream", "api", "nvtx",
                                        "nvtx-startend", "marks" };
  return kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}

static void
write_test_state (SlWindow *self, const char *path)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  SlTimelineLayout *l = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "page");
  json_builder_add_string_value (b, current_page (self));
  json_builder_set_member_name (b, "title");
  json_builder_add_string_value (b, gtk_label_get_text (GTK_LABEL (self->title_label)));
  json_builder_set_member_name (b, "error");
  json_builder_add_string_value (b, gtk_label_get_text (GTK_LABEL (self->error_message)));
  json_builder_set_member_name (b, "stall_ms");
  json_builder_add_double_value (b, self->stall_max / 1000.0);
#ifdef GDK_WINDOWING_X11
  {
    GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (self));
    if (surface && GDK_IS_X11_SURFACE (surface))
      {
        json_builder_set_member_name (b, "xid");
        json_builder_add_int_value (b, (gint64) gdk_x11_surface_get_xid (surface));
      }
  }
#endif

  if (g_strcmp0 (current_page (self), "profile") == 0)
    l = sl_timeline_get_layout (SL_TIMELINE (self->timeline));
  if (l != NULL)
    {
      graphene_point_t origin;
      double sx = 0, sy = 0;
      SlEventRef sel;
      gint64 ra, rb;

      /* timeline origin in surface coordinates (what xdotool and import see) */
      if (!gtk_widget_compute_point (self->timeline, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (0, 0), &origin))
        origin = GRAPHENE_POINT_INIT (0, 0);
      gtk_native_get_surface_transform (GTK_NATIVE (self), &sx, &sy);

      json_builder_set_member_name (b, "timeline");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "x");
      json_builder_add_double_value (b, origin.x + sx);
      json_builder_set_member_name (b, "y");
      json_builder_add_double_value (b, origin.y + sy);
      json_builder_set_member_name (b, "scale");
      json_builder_add_double_value (b, l->scale);
      json_builder_set_member_name (b, "width");
      json_builder_add_int_value (b, l->width);
      json_builder_set_member_name (b, "height");
      json_builder_add_int_value (b, l->height);
      json_builder_set_member_name (b, "header_width");
      json_builder_add_int_value (b, l->header_width);
      json_builder_set_member_name (b, "minimap_height");
      json_builder_add_int_value (b, l->minimap_height);
      json_builder_set_member_name (b, "body_y");
      json_builder_add_int_value (b, sl_timeline_layout_body_y (l));
      json_builder_set_member_name (b, "t0");
      json_builder_add_double_value (b, l->t0);
      json_builder_set_member_name (b, "px_ns");
      json_builder_add_double_value (b, l->px_ns);
      json_builder_set_member_name (b, "start_ns");
      json_builder_add_int_value (b, self->model->profile->start_ns);
      json_builder_set_member_name (b, "end_ns");
      json_builder_add_int_value (b, self->model->profile->end_ns);
      json_builder_set_member_name (b, "frame_ms");
      json_builder_add_double_value (b, sl_timeline_get_last_frame_ms (SL_TIMELINE (self->timeline)));
      json_builder_set_member_name (b, "range");
      if (sl_timeline_get_range (SL_TIMELINE (self->timeline), &ra, &rb))
        {
          json_builder_begin_array (b);
          json_builder_add_int_value (b, ra);
          json_builder_add_int_value (b, rb);
          json_builder_end_array (b);
        }
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "selected");
      if (sl_timeline_get_selected (SL_TIMELINE (self->timeline), &sel))
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "kind");
          json_builder_add_string_value (b, event_kind_name (sel.kind));
          json_builder_set_member_name (b, "owner");
          json_builder_add_int_value (b, sel.owner);
          json_builder_set_member_name (b, "index");
          json_builder_add_int_value (b, sel.index);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, sl_timeline_model_event_name (self->model, &sel));
          json_builder_end_object (b);
        }
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "rows");
      json_builder_begin_array (b);
      for (guint r = 0; r < sl_timeline_layout_n_rows (l); r++)
        {
          int y, h;

          if (!sl_timeline_layout_row_rect (l, r, &y, &h) || y >= l->height)
            continue;
          if (y + h <= sl_timeline_layout_body_y (l))
            continue;
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "row");
          json_builder_add_int_value (b, r);
          json_builder_set_member_name (b, "kind");
          json_builder_add_string_value (b, row_kind_name (self->model->rows[r].kind));
          json_builder_set_member_name (b, "y");
          json_builder_add_int_value (b, y);
          json_builder_set_member_name (b, "height");
          json_builder_add_int_value (b, h);
          json_builder_set_member_name (b, "events");
          json_builder_add_int_value (b, self->model->rows[r].n_events);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  {
    g_autofree char *tmp = g_strconcat (path, ".tmp", NULL);
    /* written whole then renamed, so a reader never sees half a file */
    if (g_file_set_contents (tmp, text, -1, NULL))
      g_rename (tmp, path);
  }
}

static gboolean
test_state_idle_cb (gpointer data)
{
  SlWindow *self = data;
  const char *path = g_getenv ("SIGHTLINE_TEST_STATE");

  self->state_idle = 0;
  if (path != NULL)
    write_test_state (self, path);
  return G_SOURCE_REMOVE;
}

static void
schedule_test_state (SlWindow *self)
{
  if (g_getenv ("SIGHTLINE_TEST_STATE") == NULL || self->state_idle != 0)
    return;
  /* after the frame that shows the change */
  self->state_idle = g_timeout_add (50, test_state_idle_cb, self);
}

/* ---- loading -------------------------------------------------------------- */

static gboolean
progress_idle_cb (gpointer data)
{
  SlWindow *self = data;
  g_autofree char *phase = NULL;
  double fraction;

  g_mutex_lock (&self->progress_lock);
  self->progress_idle = 0;
  fraction = self->progress_fraction;
  phase = g_strdup (self->progress_phase);
  g_mutex_unlock (&self->progress_lock);

  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), fraction);
  gtk_label_set_text (GTK_LABEL (self->phase_label), phase ? phase : "");
  return G_SOURCE_REMOVE;
}

/* Called in the worker thread. */
static void
progress_cb (double fraction, const char *phase, gpointer data)
{
  LoadJob *job = data;
  SlWindow *self = job->window;

  g_mutex_lock (&self->progress_lock);
  self->progress_fraction = CLAMP (fraction, 0, 1) * 0.95;
  if (g_strcmp0 (self->progress_phase, phase) != 0)
    {
      g_free (self->progress_phase);
      self->progress_phase = g_strdup (phase);
    }
  /* at most one pending update: the worker never floods the main loop */
  if (self->progress_idle == 0)
    self->progress_idle = g_idle_add_full (G_PRIORITY_DEFAULT, progress_idle_cb,
                                           g_object_ref (self), g_object_unref);
  g_mutex_unlock (&self->progress_lock);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadJob *job = task_data;
  g_autoptr(SlProfile) profile = NULL;
  GError *error = NULL;

  /* Loading keeps both cores busy; a lower priority for this thread (and
   * the loader thread it starts, which inherits it) lets the main loop run
   * the moment it has a frame to draw.  (Not raised back afterwards: an
   * unprivileged thread may not, and pool threads only ever do such work.) */
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 8);
  profile = sl_profile_load (job->path, cancellable, progress_cb, job, &error);
  if (profile == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  progress_cb (1.0, _("Preparing the timeline"), job);
  /* the level-of-detail pyramids walk every event: here, not on the main loop */
  job->model = sl_timeline_model_new (profile, cancellable);
  if (job->model == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", _("Cancelled"));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static char *
profile_summary (const SlProfile *p)
{
  g_autofree char *dur = sl_format_duration (p->end_ns - p->start_ns);
  g_autofree char *kernels = g_strdup_printf ("%'" G_GUINT64_FORMAT, p->counts.kernels);
  guint n_gpus = 0;

  for (guint g = 0; g < p->n_gpus; g++)
    if (p->gpus[g].has_activity)
      n_gpus++;
  g_autofree char *gpus = g_strdup_printf (ngettext ("%u GPU", "%u GPUs", n_gpus), n_gpus);
  g_autofree char *kernel_count = g_strdup_printf (ngettext ("%s kernel", "%s kernels", (gulong) MIN (p->counts.kernels, G_MAXULONG)),
                                                   kernels);
  if (p->nsys_version)
    /* Translators: nsys version · duration · GPUs · kernels */
    return g_strdup_printf (_("nsys %s · %s · %s · %s"), p->nsys_version, dur, gpus, kernel_count);
  return g_strdup_printf ("%s · %s · %s", dur, gpus, kernel_count);
}

static void
build_legend (SlWindow *self)
{
  const SlProfile *p = self->model->profile;
  gboolean used[256] = { FALSE };
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->legend)))
    gtk_flow_box_remove (GTK_FLOW_BOX (self->legend), child);

  for (guint s = 0; s < p->n_streams; s++)
    {
      const SlStream *st = &p->streams[s];
      /* the categories present: one pass over the distinct functions is enough */
      if (st->memcpy.spans.n)
        for (guint i = 0; i < st->memcpy.spans.n && i < 10000; i++)
          used[sl_timeline_colors_for_memcpy (st->memcpy.kind[i])] = TRUE;
      if (st->memset.spans.n)
        used[SL_COLOR_MEMSET] = TRUE;
    }
  for (guint f = 0; f < p->n_funcs; f++)
    used[self->model->func_color[f]] = TRUE;
  if (p->api.spans.n)
    for (guint n = 0; n < self->model->n_api_color; n++)
      if (self->model->api_color[n])
        used[self->model->api_color[n]] = TRUE;

  for (guint c = 1; c < SL_COLOR_HASHED_FIRST; c++)
    {
      g_autofree char *markup = NULL;
      guint32 rgb;
      GtkWidget *label;

      if (!used[c])
        continue;
      rgb = sl_timeline_color_rgb (c);
      markup = g_markup_printf_escaped ("<span foreground=\"#%06x\">■</span> %s", rgb,
                                        sl_timeline_color_label (c));
      label = gtk_label_new (NULL);
      gtk_label_set_markup (GTK_LABEL (label), markup);
      gtk_widget_add_css_class (label, "caption");
      gtk_flow_box_append (GTK_FLOW_BOX (self->legend), label);
    }
}

static void
show_error (SlWindow *self, const char *title, const char *message)
{
  gtk_label_set_text (GTK_LABEL (self->error_title), title);
  gtk_label_set_text (GTK_LABEL (self->error_message), message);
  set_page (self, "error");
  /* Not the selectable message: it would show up all selected.  Setting
   * the window's focus also holds before the window is first shown. */
  gtk_window_set_focus (GTK_WINDOW (self), self->error_open_button);
  gtk_label_select_region (GTK_LABEL (self->error_message), 0, 0);
}

static void
add_recent (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *basename = g_file_get_basename (file);
  GtkRecentData data = { 0 };
  static char *groups[] = { (char *) "sightline", NULL };

  data.display_name = basename;
  data.mime_type = (char *) (g_str_has_suffix (uri, ".nsys-rep") ? "application/x-nsys-rep"
                                                                  : "application/vnd.sqlite3");
  data.app_name = (char *) "Sightline";
  data.app_exec = (char *) "sightline %u";
  data.groups = groups;
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static void
load_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  SlWindow *self = SL_WINDOW (source);
  GTask *task = G_TASK (result);
  LoadJob *job = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *basename = NULL;

  if (job->loading_id != self->loading_id)
    return;   /* a newer load replaced this one */
  g_clear_object (&self->cancellable);
  basename = g_file_get_basename (self->file);

  if (!g_task_propagate_boolean (task, &error))
    {
      stall_stop (self, basename);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          g_error_matches (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED))
        {
          g_clear_object (&self->file);
          set_titles (self, _("Sightline"), NULL);
          set_page (self, "welcome");
          return;
        }
      {
        g_autofree char *title = g_strdup_printf (_("Could Not Open “%s”"), basename);
        set_titles (self, _("Sightline"), NULL);
        show_error (self, title, error->message);
      }
      return;
    }

  gint64 t_done = g_get_monotonic_time ();
  gboolean verbose = g_strcmp0 (g_getenv ("SIGHTLINE_MEASURE_STALL"), "verbose") == 0;

  g_clear_pointer (&self->model, sl_timeline_model_unref);
  self->model = g_steal_pointer (&job->model);
  sl_timeline_set_model (SL_TIMELINE (self->timeline), self->model);
  sl_details_pane_show (SL_DETAILS_PANE (self->details), self->model, NULL);
  sl_details_pane_set_range (SL_DETAILS_PANE (self->details), NULL, FALSE, 0, 0);
  build_legend (self);
  gtk_widget_set_visible (self->empty_label, self->model->n_rows == 0);
  {
    g_autofree char *summary = profile_summary (self->model->profile);
    set_titles (self, basename, summary);
  }
  add_recent (self->file);
  set_page (self, "profile");
  if (verbose)
    g_printerr ("sightline: showing the loaded profile took %.1f ms\n",
                (g_get_monotonic_time () - t_done) / 1000.0);
  /* the stall measurement ends once the timeline's first frame is out */
  if (self->stall_source)
    gtk_widget_add_tick_callback (self->timeline, stall_after_frame_cb, g_object_ref (self), g_object_unref);
}

void
sl_window_load (SlWindow *self,
                GFile    *file)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *text = NULL;
  LoadJob *job;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_set_object (&self->file, file);
  self->cancellable = g_cancellable_new ();
  self->loading_id++;

  basename = g_file_get_basename (file);
  text = g_strdup_printf (_("Opening “%s”"), basename);
  gtk_label_set_text (GTK_LABEL (self->loading_label), text);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  gtk_label_set_text (GTK_LABEL (self->phase_label), "");
  set_titles (self, basename, _("Loading…"));
  set_page (self, "loading");

  job = g_new0 (LoadJob, 1);
  job->window = g_object_ref (self);
  job->loading_id = self->loading_id;
  /* a path the loader can open: remote files are not supported */
  job->path = g_file_get_path (file);
  if (job->path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);
      g_autofree char *msg = g_strdup_printf (_("“%s” is not a local file. Copy it to this computer and open the copy."), uri);
      g_autofree char *title = g_strdup_printf (_("Could Not Open “%s”"), basename);
      load_job_free (job);
      show_error (self, title, msg);
      return;
    }

  stall_start (self);
  task = g_task_new (self, self->cancellable, load_done_cb, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) load_job_free);
  g_task_set_name (task, "sightline-load");
  g_task_run_in_thread (task, load_thread);
}

gboolean
sl_window_is_empty (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);
  return self->model == NULL && self->cancellable == NULL;
}

GFile *
sl_window_get_file (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return self->file;
}

/* ---- recent files ------------------------------------------------------------ */

static void
recent_row_activated_cb (SlWindow      *self,
                         GtkListBoxRow *row,
                         GtkListBox    *box)
{
  const char *uri = g_object_get_data (G_OBJECT (row), "uri");
  g_autoptr(GFile) file = NULL;

  if (uri == NULL)
    return;
  file = g_file_new_for_uri (uri);
  sl_application_open_file (SL_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                            file, self);
}

void
sl_window_refresh_recent (SlWindow *self)
{
  GList *items = sl_application_get_recent (SL_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
  GtkWidget *child;
  guint n = 0;

  while ((child = gtk_widget_get_first_child (self->recent_list)))
    gtk_list_box_remove (GTK_LIST_BOX (self->recent_list), child);
  for (GList *l = items; l; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *name = gtk_label_new (gtk_recent_info_get_display_name (info));
      g_autofree char *where = gtk_recent_info_get_uri_display (info);
      GtkWidget *path = gtk_label_new (where);

      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_label_set_xalign (GTK_LABEL (path), 0);
      gtk_label_set_ellipsize (GTK_LABEL (path), PANGO_ELLIPSIZE_START);
      gtk_widget_add_css_class (path, "dim-label");
      gtk_widget_add_css_class (path, "caption");
      gtk_widget_set_margin_start (box, 12);
      gtk_widget_set_margin_end (box, 12);
      gtk_widget_set_margin_top (box, 8);
      gtk_widget_set_margin_bottom (box, 8);
      gtk_box_append (GTK_BOX (box), name);
      gtk_box_append (GTK_BOX (box), path);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      g_object_set_data_full (G_OBJECT (row), "uri", g_strdup (gtk_recent_info_get_uri (info)), g_free);
      gtk_list_box_append (GTK_LIST_BOX (self->recent_list), row);
      n++;
    }
  gtk_widget_set_visible (self->recent_list, n > 0);
  gtk_widget_set_visible (self->recent_title, n > 0);
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* ---- actions ------------------------------------------------------------------ */

static void
file_chosen_cb (GFile *file, gpointer user_data)
{
  SlWindow *self = user_data;

  if (file)
    sl_application_open_file (SL_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                              file, self);
  g_object_unref (self);
}

static void
open_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  sl_file_chooser_open (GTK_WINDOW (self), file_chosen_cb, g_object_ref (self));
}

static void
open_recent_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  sl_application_open_file (SL_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                            file, self);
}

static void
reload_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  g_autoptr(GFile) file = self->file ? g_object_ref (self->file) : NULL;

  if (file)
    sl_window_load (self, file);
}

static void
cancel_load_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  /* the worker notices at its next check; show the result right away */
  self->loading_id++;
  g_clear_object (&self->cancellable);
  g_clear_object (&self->file);
  stall_stop (self, "(cancelled)");
  if (self->model)
    {
      g_autofree char *summary = profile_summary (self->model->profile);
      g_autofree char *name = g_path_get_basename (self->model->profile->path);
      set_titles (self, name, summary);
      set_page (self, "profile");
    }
  else
    {
      set_titles (self, _("Sightline"), NULL);
      set_page (self, "welcome");
    }
}

static void
close_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  gtk_window_close (GTK_WINDOW (data));
}

static void
timeline_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlWindow *self = data;
  g_autofree char *name = g_strconcat ("timeline.", g_action_get_name (G_ACTION (action)), NULL);

  gtk_widget_activate_action (self->timeline, name, NULL);
}

static void
absolute_time_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  SlWindow *self = data;

  g_simple_action_set_state (action, state);
  sl_timeline_set_relative_time (SL_TIMELINE (self->timeline), !g_variant_get_boolean (state));
}

static void
show_details_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  SlWindow *self = data;

  g_simple_action_set_state (action, state);
  gtk_widget_set_visible (self->details_scroller, g_variant_get_boolean (state));
}

static void
export_action (GSimpleAction *action, GVariant *param, gpointer data)
{
}

static const GActionEntry win_entries[] = {
  { "open", open_action },
  { "open-recent", open_recent_action, "s" },
  { "reload", reload_action },
  { "cancel-load", cancel_load_action },
  { "close", close_action },
  { "export", export_action },
  { "zoom-in", timeline_action },
  { "zoom-out", timeline_action },
  { "fit", timeline_action },
  { "zoom-to-selection", timeline_action },
  { "clear-selection", timeline_action },
  { "absolute-time", NULL, NULL, "false", absolute_time_changed },
  { "show-details", NULL, NULL, "true", show_details_changed },
};

/* ---- drag and drop ------------------------------------------------------------- */

static gboolean
drop_cb (SlWindow      *self,
         const GValue  *value,
         double         x,
         double         y,
         GtkDropTarget *target)
{
  GSList *files;
  SlApplication *app = SL_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  for (GSList *l = files; l; l = l->next)
    sl_application_open_file (app, G_FILE (l->data), self);
  return files != NULL;
}

/* ---- timeline signals ------------------------------------------------------------- */

static void
event_selected_cb (SlWindow   *self,
                   SlTimeline *timeline)
{
  SlEventRef ev;

  if (sl_timeline_get_selected (timeline, &ev))
    sl_details_pane_show (SL_DETAILS_PANE (self->details), self->model, &ev);
  else
    sl_details_pane_show (SL_DETAILS_PANE (self->details), self->model, NULL);
  schedule_test_state (self);
}

static void
range_changed_cb (SlWindow   *self,
                  SlTimeline *timeline)
{
  gint64 a = 0, b = 0;
  gboolean has = sl_timeline_get_range (timeline, &a, &b);

  sl_details_pane_set_range (SL_DETAILS_PANE (self->details), self->model, has, a, b);
  schedule_test_state (self);
}

static void
view_changed_cb (SlWindow   *self,
                 SlTimeline *timeline)
{
  schedule_test_state (self);
}

/* ---- GObject -------------------------------------------------------------------- */

static void
sl_window_dispose (GObject *object)
{
  SlWindow *self = SL_WINDOW (object);

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->stall_source, g_source_remove);
  g_clear_handle_id (&self->state_idle, g_source_remove);
  g_clear_object (&self->file);
  g_clear_pointer (&self->model, sl_timeline_model_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_WINDOW);
  G_OBJECT_CLASS (sl_window_parent_class)->dispose (object);
}

static void
sl_window_finalize (GObject *object)
{
  SlWindow *self = SL_WINDOW (object);

  g_mutex_clear (&self->progress_lock);
  g_free (self->progress_phase);
  G_OBJECT_CLASS (sl_window_parent_class)->finalize (object);
}

static void
sl_window_class_init (SlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_window_dispose;
  object_class->finalize = sl_window_finalize;

  g_type_ensure (SL_TYPE_TIMELINE);
  g_type_ensure (SL_TYPE_DETAILS_PANE);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sightline/Sightline/sl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SlWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, details_button);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, recent_title);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, phase_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, error_title);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, error_message);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, error_open_button);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, legend);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, empty_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, details);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, details_scroller);
}

static void
sl_window_init (SlWindow *self)
{
  GtkDropTarget *target;

  g_mutex_init (&self->progress_lock);
  gtk_widget_init_template (GTK_WIDGET (self));
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_entries, G_N_ELEMENTS (win_entries), self);
  /* exporting arrives with the export feature */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "export")), FALSE);

  g_signal_connect_object (self->recent_list, "row-activated", G_CALLBACK (recent_row_activated_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "event-selected", G_CALLBACK (event_selected_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "range-changed", G_CALLBACK (range_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "view-changed", G_CALLBACK (view_changed_cb),
                           self, G_CONNECT_SWAPPED);

  target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_object (target, "drop", G_CALLBACK (drop_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));

  gtk_paned_set_position (GTK_PANED (self->paned), 940);
  set_page (self, "welcome");
}

SlWindow *
sl_window_new (SlApplication *app)
{
  SlWindow *self = g_object_new (SL_TYPE_WINDOW, "application", app, NULL);

  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->menu_button),
                                  G_MENU_MODEL (gtk_application_get_menu_by_id (GTK_APPLICATION (app), "primary-menu")));
  sl_window_refresh_recent (self);
  return self;
}
