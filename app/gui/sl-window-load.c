/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-load.c: opening a profile in a window.  An SlProfileLoader
 * reads it in its own thread (and builds the timeline's index there); the
 * loading page's bar and phase are bound to the loader's properties. */
#include "sl-window-private.h"
#include "sl-recent.h"
#include "sl-int.h"

#include <glib/gi18n.h>

static char *
profile_summary (const SlProfile *p)
{
  g_autofree char *dur = sl_format_duration (sl_span (p->start_ns, p->end_ns));
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

void
_sl_window_show_current (SlWindow *self)
{
  if (self->session != NULL)
    {
      SlProfile *profile = sl_session_get_profile (self->session);
      g_autofree char *summary = profile_summary (profile);
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

static void
show_loaded (SlWindow *self, SlTimelineModel *model)
{
  g_autoptr(SlSession) session = sl_session_new (model);

  _sl_window_set_session (self, session);
  gtk_widget_set_visible (self->empty_label, model->n_rows == 0);
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

/* Runs in the loader's thread: the level-of-detail pyramids walk every
 * event, which must not happen on the main loop. */
static gpointer
prepare_timeline (SlProfile *profile, GCancellable *cancellable, gpointer data)
{
  return sl_timeline_model_new (profile, cancellable);
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
  sl_profile_loader_set_prepare (loader, _("Preparing the timeline"), prepare_timeline, NULL,
                                 (GDestroyNotify) sl_timeline_model_unref);
  self->cancellable = g_cancellable_new ();
  _sl_window_set_loader (self, loader);
  show_loading (self, loader);
  sl_profile_loader_load_async (loader, self->cancellable, load_done_cb, g_object_ref (self));
}

/* Stops the load in progress, if any.  The worker notices at its next
 * check; its result is dropped, so the window moves on at once. */
void
_sl_window_cancel_load (SlWindow *self)
{
  if (self->loader == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  _sl_window_set_loader (self, NULL);
}
