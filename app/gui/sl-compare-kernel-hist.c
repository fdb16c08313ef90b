/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare-kernel-hist.c: the selected kernel's durations in every
 * profile on shared log bins, counted in a worker (a name can have
 * millions of instances) and drawn overlaid. */
#include "sl-compare-window-private.h"
#include "sl-histogram-overlay.h"

#include <glib/gi18n.h>

#define MAX_BINS 40

typedef struct {
  SlProfile **profiles;    /* borrowed: the window outlives the task (it holds a ref) */
  guint       n;
  char       *name;
  /* out */
  SlDurationHistogram *bins;   /* of every profile's durations together */
  guint64   **counts;          /* per profile, bins->n_bins */
} HistJob;

static void
hist_job_free (gpointer data)
{
  HistJob *job = data;

  for (guint p = 0; job->counts != NULL && p < job->n; p++)
    g_free (job->counts[p]);
  g_free (job->counts);
  g_clear_pointer (&job->bins, sl_duration_histogram_free);
  g_free (job->name);
  g_free (job);
}

static void
hist_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  HistJob *job = data;
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree guint *ends = g_new0 (guint, job->n);

  for (guint p = 0; p < job->n && !g_cancellable_is_cancelled (cancellable); p++)
    {
      g_autoptr(GArray) inst = sl_kernel_instances_named (job->profiles[p], NULL, job->name);
      g_autofree gint64 *durs = sl_kernel_instances_durations (inst);

      g_array_append_vals (all, durs, inst->len);
      ends[p] = all->len;
    }
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_task_return_boolean (task, FALSE);
      return;
    }
  job->bins = sl_duration_histogram_new ((const gint64 *) all->data, all->len, MAX_BINS);
  job->counts = g_new0 (guint64 *, job->n);
  for (guint p = 0; p < job->n; p++)
    {
      job->counts[p] = g_new0 (guint64, MAX (job->bins->n_bins, 1));
      for (guint i = p ? ends[p - 1] : 0; i < ends[p]; i++)
        {
          guint b = sl_duration_histogram_bin_of (job->bins, g_array_index (all, gint64, i));
          if (b != G_MAXUINT)
            job->counts[p][b]++;
        }
    }
  g_task_return_boolean (task, TRUE);
}

static void
hist_done_cb (GObject *source, GAsyncResult *res, gpointer data)
{
  SlCompareWindow *self = SL_COMPARE_WINDOW (source);
  HistJob *job = g_task_get_task_data (G_TASK (res));
  SlHistogramOverlay *hist = SL_HISTOGRAM_OVERLAY (self->hist);
  g_autofree char *title = NULL;

  if (!g_task_propagate_boolean (G_TASK (res), NULL) || g_task_get_cancellable (G_TASK (res)) != self->hist_cancellable)
    return;
  /* Translators: above the overlaid histograms; the kernel's name */
  title = g_strdup_printf (_("Durations of %s"), job->name);
  sl_histogram_overlay_set_bins (hist, job->bins->edges, job->bins->n_bins, title);
  for (guint p = 0; p < job->n; p++)
    {
      g_autofree char *letter = _sl_compare_letter (p);
      sl_histogram_overlay_add_series (hist, letter, job->counts[p], _sl_compare_color (p));
    }
  g_free (self->hist_name);
  self->hist_name = g_strdup (job->name);
  _sl_compare_probe_changed (self);
}

void
_sl_compare_hist_show (SlCompareWindow *self, const char *name)
{
  HistJob *job = g_new0 (HistJob, 1);
  g_autoptr(GTask) task = NULL;

  if (self->hist_cancellable != NULL)
    g_cancellable_cancel (self->hist_cancellable);
  g_clear_object (&self->hist_cancellable);
  self->hist_cancellable = g_cancellable_new ();
  job->profiles = self->profiles;
  job->n = self->n;
  job->name = g_strdup (name);
  task = g_task_new (self, self->hist_cancellable, hist_done_cb, NULL);
  g_task_set_task_data (task, job, hist_job_free);
  g_task_run_in_thread (task, hist_thread);
}
