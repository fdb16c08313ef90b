/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-load.c: opening a profile in a window.  An SlProfileLoader
 * reads it in its own thread (and builds the timeline's index there) in
 * two stages: the loading page (its bar and phase bound to the loader's
 * properties) until the GPU tables are in, then the GPU rows with the CPU
 * side's progress in the load bar; the complete profile then replaces the
 * session's model, so whatever the user did meanwhile stays.  A CPU side
 * that is cancelled or fails leaves the GPU rows shown and says why. */
#include "sl-window-private.h"
#include "sl-locale-format.h"
#include "sl-load-bar.h"
#include "sl-recent.h"
#include "sl-int.h"

#include <glib/gi18n.h>

/* The duration is the model's: a file of CPU samples alone has no GPU or
 * CUDA time but its samples span seconds. */
static char *
profile_summary (const SlTimelineModel *model)
{
  const SlProfile *p = model->profile;
  g_autofree char *dur = sl_locale_duration (sl_span (model->start_ns, model->end_ns));
  g_autofree char *kernels = g_strdup_printf ("%'" G_GUINT64_FORMAT, p->counts.kernels);
  g_autofree char *gpus = NULL, *kernel_count = NULL;
  guint n_gpus = 0;

  for (guint g = 0; g < p->n_gpus; g++)
    if (p->gpus[g].has_activity)
      n_gpus++;
  gpus = g_strdup_printf (ngettext ("%u GPU", "%u GPUs", n_gpus), n_gpus);
  kernel_count = g_strdup_printf (ngettext ("%s kernel", "%s kernels", (gulong) MIN (p->counts.kernels, G_MAXULONG)),
                                  kernels);
  if (p->nsys_version)
    /* Translators: nsys version · duration · GPUs · kernels */
    return g_strdup_printf (_("nsys %s · %s · %s · %s"), p->nsys_version, dur, gpus, kernel_count);
  return g_strdup_printf ("%s · %s · %s", dur, gpus, kernel_count);
}

/* The summary, and whether the rows shown are not all of the profile. */
static char *
profile_subtitle (SlSession *session)
{
  SlProfile *profile = sl_session_get_profile (session);
  g_autofree char *summary = profile_summary (sl_session_get_model (session));

  if (profile->parts & SL_PART_API)
    return g_steal_pointer (&summary);
  if (sl_session_get_loading (session))
    /* Translators: the profile's summary while its CUDA API and NVTX rows load */
    return g_strdup_printf (_("%s · loading CPU rows…"), summary);
  /* Translators: the profile's summary when its CUDA API and NVTX rows were not loaded */
  return g_strdup_printf (_("%s · GPU rows only"), summary);
}

void
_sl_window_show_current (SlWindow *self)
{
  if (self->session != NULL)
    {
      SlProfile *profile = sl_session_get_profile (self->session);
      g_autofree char *summary = profile_subtitle (self->session);
      g_autofree char *name = g_path_get_basename (profile->path);

      _sl_window_set_titles (self, name, summary);
      _sl_window_set_page (self, "profile");
    }
  else
    {
      _sl_window_set_titles (self, _("Sightline"), NULL);
      _sl_window_set_page (self, "welcome");
    }
}

/* The file of the profile shown, after a load that did not replace it. */
static void
restore_file (SlWindow *self)
{
  g_autoptr(GFile) shown = NULL;

  if (self->session != NULL)
    shown = g_file_new_for_path (sl_session_get_profile (self->session)->path);
  _sl_window_set_file (self, shown);
}

static void
show_load_error (SlWindow *self, const GError *error)
{
  g_autofree char *basename = g_file_get_basename (self->file);
  g_autofree char *title = g_strdup_printf (_("Could Not Open “%s”"), basename);

  _sl_window_set_titles (self, _("Sightline"), NULL);
  _sl_window_show_error (self, title, error->message);
}

/* The complete profile: under the session of its GPU rows when they are
 * shown (the view stays), else in a new one. */
static void
show_loaded (SlWindow *self, SlTimelineModel *model)
{
  if (self->staged_shown)
    {
      sl_session_set_model (self->session, model);
      sl_session_set_loading (self->session, FALSE);
      sl_timeline_legend_set_model (SL_TIMELINE_LEGEND (self->legend), model);
    }
  else
    {
      g_autoptr(SlSession) session = sl_session_new (model);
      _sl_window_set_session (self, session);
    }
  sl_load_bar_hide (SL_LOAD_BAR (self->load_bar));
  _sl_window_bookmarks_profile_loaded (self);
  gtk_widget_set_visible (self->empty_label, model->n_rows == 0);
  sl_recent_add (self->file);
  _sl_window_show_current (self);
  _sl_window_load_cpu_side (self, model);
}

/* The CPU side of the GPU rows shown will not come (cancelled, or @error):
 * the rows stay, and the bar says so. */
static void
keep_gpu_rows (SlWindow *self, const GError *error)
{
  sl_session_set_loading (self->session, FALSE);
  sl_load_bar_show_missing (SL_LOAD_BAR (self->load_bar), error);
}

/* A load's GPU stage: its rows show at once, under a session that says
 * more is loading, with the CPU side's progress in the load bar. */
static void
gpu_ready_cb (SlProfileLoader *loader,
              SlProfile       *profile,
              gpointer         prepared,
              gpointer         data)
{
  SlWindow *self = data;
  SlTimelineModel *model = prepared;
  g_autoptr(SlSession) session = NULL;

  /* a replaced load, or no GPU rows: the loading page stays until the end */
  if (loader != self->loader || model == NULL || model->n_rows == 0)
    return;
  session = sl_session_new (model);
  sl_session_set_loading (session, TRUE);
  _sl_window_set_session (self, session);
  self->staged_shown = TRUE;
  gtk_widget_set_visible (self->empty_label, FALSE);
  sl_load_bar_show_progress (SL_LOAD_BAR (self->load_bar), loader);
  sl_recent_add (self->file);
  _sl_window_show_current (self);
}

static void
load_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  g_autoptr(SlWindow) self = data;
  SlProfileLoader *loader = SL_PROFILE_LOADER (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlTimelineModel) model = NULL;

  profile = sl_profile_loader_load_finish (loader, result, (gpointer *) &model, &error);
  if (loader != self->loader)
    return;   /* cancelled or replaced by a newer load: its result is not wanted */
  g_clear_object (&self->cancellable);
  if (profile != NULL)
    show_loaded (self, model);
  else if (self->staged_shown)
    {
      keep_gpu_rows (self, g_error_matches (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED) ? NULL : error);
      _sl_window_show_current (self);
    }
  else if (g_error_matches (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED))
    {
      restore_file (self);
      _sl_window_show_current (self);
    }
  else
    show_load_error (self, error);
  /* last: whoever watches the loader sees the outcome in place */
  _sl_window_set_loader (self, NULL);
}

/* What the two prepare calls of one load share: the GPU rows' model, whose
 * pyramids the complete one copies.  It lives with the loader; the calls
 * never overlap (the complete profile's comes after the workers joined). */
typedef struct {
  SlTimelineModel *gpu;
} TimelinePrep;

static void
timeline_prep_free (gpointer data)
{
  TimelinePrep *prep = data;

  g_clear_pointer (&prep->gpu, sl_timeline_model_unref);
  g_free (prep);
}

/* Runs in the loader's threads, for the GPU profile and then the complete
 * one: the level-of-detail pyramids walk every event, which must not
 * happen on the main loop. */
static gpointer
prepare_timeline (SlProfile *profile, GCancellable *cancellable, gpointer data)
{
  TimelinePrep *prep = data;
  SlTimelineModel *model;

  if (!(profile->parts & SL_PART_API))
    {
      model = sl_timeline_model_new (profile, cancellable);
      if (model != NULL)
        prep->gpu = sl_timeline_model_ref (model);
      return model;
    }
  model = sl_timeline_model_new_from (profile, prep->gpu, cancellable);
  g_clear_pointer (&prep->gpu, sl_timeline_model_unref);
  /* The NVTX attribution (each call's innermost range, each range's GPU
   * projection) is what the tree, search, NVTX summary and scopes share:
   * built here once, off the main loop, it is ready when they ask. */
  if (model != NULL && !g_cancellable_is_cancelled (cancellable))
    sl_attribution_get (profile);
  /* The Summary page's scope index and whole-profile parts, so that the
   * first Summary shown costs a few milliseconds. */
  if (model != NULL && !g_cancellable_is_cancelled (cancellable))
    sl_scope_summary_prepare (profile);
  return model;
}

static void
show_loading (SlWindow *self, SlProfileLoader *loader)
{
  g_autofree char *basename = g_file_get_basename (self->file);
  g_autofree char *text = g_strdup_printf (_("Opening “%s”"), basename);

  gtk_label_set_text (GTK_LABEL (self->loading_label), text);
  _sl_window_set_titles (self, basename, _("Loading…"));
  _sl_window_set_page (self, "loading");
}

/* The loading page follows whichever loader is current (see _sl_window_set_loader). */
void
_sl_window_bind_progress (SlWindow *self)
{
  self->progress_bindings = g_binding_group_new ();
  g_binding_group_bind (self->progress_bindings, "fraction", self->progress_bar, "fraction", G_BINDING_SYNC_CREATE);
  g_binding_group_bind (self->progress_bindings, "message", self->phase_label, "label", G_BINDING_SYNC_CREATE);
}

void
sl_window_load (SlWindow *self,
                GFile    *file)
{
  g_autoptr(SlProfileLoader) loader = NULL;
  g_autofree char *path = NULL;
  TimelinePrep *prep;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  _sl_window_cancel_load (self);
  _sl_window_set_file (self, file);
  /* a path the loader can open: remote files are not supported */
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);
      g_autoptr(GError) error = g_error_new (SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_FOUND,
                                             _("“%s” is not a local file. Copy it to this computer and open the copy."), uri);
      show_load_error (self, error);
      return;
    }

  loader = sl_profile_loader_new (path);
  prep = g_new0 (TimelinePrep, 1);
  g_object_set_data_full (G_OBJECT (loader), "sl-timeline-prep", prep, timeline_prep_free);
  sl_profile_loader_set_prepare (loader, _("Preparing the timeline"), prepare_timeline, prep,
                                 (GDestroyNotify) sl_timeline_model_unref);
  sl_profile_loader_set_staged (loader, TRUE);
  g_signal_connect_object (loader, "gpu-ready", G_CALLBACK (gpu_ready_cb), self, 0);
  self->cancellable = g_cancellable_new ();
  _sl_window_set_loader (self, loader);
  show_loading (self, loader);
  sl_profile_loader_load_async (loader, self->cancellable, load_done_cb, g_object_ref (self));
}

/* Stops the load in progress, if any.  The worker notices at its next
 * check; its result is dropped, so the window moves on at once.  GPU rows
 * it showed stay. */
void
_sl_window_cancel_load (SlWindow *self)
{
  _sl_window_cancel_cpu_side (self);
  if (self->loader == NULL)
    return;
  if (self->staged_shown)
    keep_gpu_rows (self, NULL);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  _sl_window_set_loader (self, NULL);
}
