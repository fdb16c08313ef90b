/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-cpu-load.c: the last stage of opening a profile.  Once the
 * complete profile shows, a worker reads the CPU side (OS runtime calls,
 * CPU samples) and the GPU counters, builds a model with their rows (the
 * other rows' pyramids copied) and the session takes it: whatever the user
 * did meanwhile stays.  A file without those tables costs a few queries
 * and no new model.  The load bar only shows when it takes a while. */
#include "sl-window-private.h"
#include "sl-cpu-loader.h"
#include "sl-load-bar.h"

#include <glib/gi18n.h>

/* Below this the stage is over before a bar would be worth reading. */
#define BAR_DELAY_MS 300

static void
cpu_load_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  SlTimelineModel *shown = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlCpuActivity) cpu = NULL;
  g_autoptr(SlGpuMetrics) metrics = NULL;
  SlTimelineModel *model;

  cpu = sl_cpu_activity_load (shown->profile, cancellable, &error);
  if (cpu != NULL)
    metrics = sl_gpu_metrics_load (shown->profile, cancellable, &error);
  if (metrics == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (cpu->n_osrt == 0 && cpu->n_samples == 0 && metrics->n_samples == 0)
    {
      g_task_return_pointer (task, NULL, NULL);   /* nothing to draw: the model stays */
      return;
    }
  model = sl_timeline_model_new_full (shown->profile, shown, cpu, metrics, cancellable);
  if (model == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, model, (GDestroyNotify) sl_timeline_model_unref);
}

static void
stage_over (SlWindow *self)
{
  g_clear_object (&self->cpu_cancellable);
  g_clear_handle_id (&self->cpu_bar_timeout, g_source_remove);
  _sl_window_update_actions (self, _sl_window_get_page (self));
}

static void
cpu_load_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(SlWindow) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTimelineModel) model = g_task_propagate_pointer (G_TASK (result), &error);

  /* cancelled, or a newer profile's stage: not wanted */
  if (g_task_get_cancellable (G_TASK (result)) != self->cpu_cancellable)
    return;
  stage_over (self);
  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The CPU samples, OS runtime calls and GPU metrics could not be read. %s"),
                                               error->message);
      sl_load_bar_show_text (SL_LOAD_BAR (self->load_bar), text, TRUE);
      return;
    }
  sl_load_bar_hide (SL_LOAD_BAR (self->load_bar));
  if (model != NULL && self->session != NULL && sl_session_get_profile (self->session) == model->profile)
    {
      sl_session_set_model (self->session, model);
      sl_timeline_legend_set_model (SL_TIMELINE_LEGEND (self->legend), model);
      gtk_widget_set_visible (self->empty_label, model->n_rows == 0);
      /* the duration in the subtitle may grow with the CPU side */
      _sl_window_show_current (self);
    }
}

static gboolean
show_bar_cb (gpointer data)
{
  SlWindow *self = data;

  self->cpu_bar_timeout = 0;
  sl_load_bar_show_text (SL_LOAD_BAR (self->load_bar),
                         _("Reading the CPU samples, OS runtime calls and GPU metrics…"), FALSE);
  return G_SOURCE_REMOVE;
}

void
_sl_window_load_cpu_side (SlWindow        *self,
                          SlTimelineModel *model)
{
  g_autoptr(GTask) task = NULL;

  _sl_window_cancel_cpu_side (self);
  if (model == NULL || !(model->profile->parts & SL_PART_API))
    return;
  self->cpu_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cpu_cancellable, cpu_load_done_cb, g_object_ref (self));
  g_task_set_name (task, "sl-cpu-side");
  g_task_set_task_data (task, sl_timeline_model_ref (model), (GDestroyNotify) sl_timeline_model_unref);
  g_task_run_in_thread (task, cpu_load_thread);
  self->cpu_bar_timeout = g_timeout_add (BAR_DELAY_MS, show_bar_cb, self);
  _sl_window_update_actions (self, _sl_window_get_page (self));
}

void
_sl_window_cancel_cpu_side (SlWindow *self)
{
  if (self->cpu_cancellable == NULL)
    return;
  g_cancellable_cancel (self->cpu_cancellable);
  stage_over (self);
  sl_load_bar_hide (SL_LOAD_BAR (self->load_bar));
}
