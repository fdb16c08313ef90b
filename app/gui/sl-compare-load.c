/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare-load.c: the compared profiles load at once, each in its
 * loader's thread with its timeline index (as a window loads one); the
 * comparison (the very call `sightline-cli compare` makes) and each
 * profile's iterations are then computed in a worker.  Cancel stops all. */
#include "sl-compare-window-private.h"

#include <string.h>
#include <glib/gi18n.h>

void
_sl_compare_result_free (SlCompareResult *result)
{
  if (result == NULL)
    return;
  for (guint p = 0; result->compare != NULL && p < result->compare->n_profiles; p++)
    g_clear_pointer (&result->iterations[p], sl_iterations_free);
  g_free (result->iterations);
  g_clear_pointer (&result->compare, sl_compare_free);
  g_clear_pointer (&result->slower_refs, g_array_unref);
  g_free (result);
}

static gpointer
prepare_timeline (SlProfile *profile, GCancellable *cancellable, gpointer data)
{
  return sl_timeline_model_new (profile, cancellable);
}

/* Every kernel of the last profile whose name got slower there. */
static GArray *
slower_refs (const SlCompare *cmp, SlProfile *last)
{
  GArray *refs = g_array_new (FALSE, FALSE, sizeof (SlEventRef));

  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      g_autoptr(GArray) inst = NULL;

      if (cmp->kernels[i].status != SL_COMPARE_SLOWER)
        continue;
      inst = sl_kernel_instances_named (last, NULL, cmp->kernels[i].name);
      for (guint k = 0; k < inst->len; k++)
        {
          const SlKernelInstance *ki = &g_array_index (inst, SlKernelInstance, k);
          SlEventRef ref = { SL_EVENT_KERNEL, ki->stream, ki->index };
          g_array_append_val (refs, ref);
        }
    }
  return refs;
}

static void
compute_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  SlCompareWindow *self = source;
  SlCompareResult *result = g_new0 (SlCompareResult, 1);
  g_autoptr(SlFilter) filter = sl_filter_new ();

  /* as the CLI runs it by default: default categories, short names, ±5 %, every kernel */
  result->compare = sl_compare_compute (self->profiles, self->n, filter, NULL, SL_NAMES_SHORT, 0.05, 0);
  result->iterations = g_new0 (SlIterations *, self->n);
  for (guint p = 0; p < self->n && !g_cancellable_is_cancelled (cancellable); p++)
    result->iterations[p] = sl_iterations_compute_durations (self->profiles[p], filter);
  result->slower_refs = slower_refs (result->compare, self->profiles[self->n - 1]);
  g_task_return_pointer (task, result, (GDestroyNotify) _sl_compare_result_free);
}

static void
compute_done_cb (GObject *source, GAsyncResult *res, gpointer data)
{
  SlCompareWindow *self = SL_COMPARE_WINDOW (source);
  SlCompareResult *result = g_task_propagate_pointer (G_TASK (res), NULL);

  if (result == NULL || g_cancellable_is_cancelled (self->cancellable))
    {
      _sl_compare_result_free (result);
      return;
    }
  self->result = result;
  _sl_compare_show (self);
}

static void
compute (SlCompareWindow *self)
{
  g_autoptr(GTask) task = g_task_new (self, self->cancellable, compute_done_cb, NULL);

  gtk_label_set_text (GTK_LABEL (self->phase_label), _("Comparing…"));
  gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->progress));
  g_task_run_in_thread (task, compute_thread);
}

/* The mean of the loaders' fractions, and what each is doing. */
static void
progress_cb (SlCompareWindow *self)
{
  GString *text = g_string_new (NULL);
  double sum = 0;

  for (guint p = 0; p < self->loaders->len; p++)
    {
      SlProfileLoader *loader = self->loaders->pdata[p];
      g_autofree char *letter = _sl_compare_letter (p);
      g_autofree char *name = g_file_get_basename (self->files[p]);
      double f = self->profiles[p] != NULL ? 1.0 : sl_profile_loader_get_fraction (loader);
      const char *msg = self->profiles[p] != NULL ? _("Loaded") : sl_profile_loader_get_message (loader);

      sum += f;
      g_string_append_printf (text, "%s%s: %s — %s (%.0f %%)", p ? "\n" : "", letter, name, msg ? msg : "",
                              f * 100);
    }
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress), sum / MAX (self->loaders->len, 1));
  gtk_label_set_text (GTK_LABEL (self->phase_label), text->str);
  g_string_free (text, TRUE);
}

static void
load_done_cb (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(SlCompareWindow) self = data;
  SlProfileLoader *loader = SL_PROFILE_LOADER (source);
  g_autoptr(GError) error = NULL;
  gpointer model = NULL;
  SlProfile *profile = sl_profile_loader_load_finish (loader, res, &model, &error);
  guint p;

  if (self->loaders == NULL || !g_ptr_array_find (self->loaders, loader, &p))
    {
      g_clear_pointer (&profile, sl_profile_unref);
      g_clear_pointer ((SlTimelineModel **) &model, sl_timeline_model_unref);
      return;   /* cancelled or failed already */
    }
  if (profile == NULL)
    {
      g_autofree char *name = g_file_get_basename (self->files[p]), *path = g_file_get_path (self->files[p]);
      /* the loader's messages mostly name the file already ("Cannot open
       * “PATH”: …"): saying it twice reads as two problems */
      g_autofree char *message = path != NULL && strstr (error->message, path) != NULL
                                 ? g_strdup (error->message)
                                 : g_strdup_printf (_("Could not open “%s”: %s"), name, error->message);

      if (!g_error_matches (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED))
        _sl_compare_show_error (self, message);
      _sl_compare_cancel (self);
      return;
    }
  self->profiles[p] = profile;
  self->models[p] = model;
  progress_cb (self);
  if (++self->n_loaded == self->n)
    {
      g_clear_pointer (&self->loaders, g_ptr_array_unref);
      compute (self);
    }
}

void
_sl_compare_load (SlCompareWindow *self)
{
  self->cancellable = g_cancellable_new ();
  self->loaders = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint p = 0; p < self->n; p++)
    {
      g_autofree char *path = g_file_get_path (self->files[p]);
      SlProfileLoader *loader;

      if (path == NULL)
        {
          g_autofree char *uri = g_file_get_uri (self->files[p]);
          g_autofree char *message = g_strdup_printf (_("“%s” is not a local file. Copy it to this computer and "
                                                        "compare the copy."), uri);
          _sl_compare_show_error (self, message);
          _sl_compare_cancel (self);
          return;
        }
      loader = sl_profile_loader_new (path);
      /* the profiles load at once, each on one core: two loads of two
       * threads each contend for the process's page faults (sightline-cli
       * compare: 17 % faster this way) */
      sl_profile_loader_set_threads (loader, self->n > 1 ? 1 : 0);
      sl_profile_loader_set_prepare (loader, _("Preparing the timeline"), prepare_timeline, NULL,
                                     (GDestroyNotify) sl_timeline_model_unref);
      g_ptr_array_add (self->loaders, loader);
      g_signal_connect_object (loader, "notify::fraction", G_CALLBACK (progress_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (loader, "notify::message", G_CALLBACK (progress_cb), self, G_CONNECT_SWAPPED);
    }
  for (guint p = 0; p < self->loaders->len; p++)
    sl_profile_loader_load_async (self->loaders->pdata[p], self->cancellable, load_done_cb, g_object_ref (self));
  progress_cb (self);
}

/* Stops every load and the comparison; their results are dropped. */
void
_sl_compare_cancel (SlCompareWindow *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_pointer (&self->loaders, g_ptr_array_unref);
}
