/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-staged.c: how soon the GPU rows of a staged load are on screen.
 *
 * The application loads in two stages: a loader worker hands out the GPU
 * profile as soon as the kernel and copy tables are in and builds its
 * timeline model there; the main loop draws it while the CPU tables are
 * still read.  Here the worker's callback does both and draws the frame
 * with the widget's own renderer, offscreen, as sl-bench-frames.c does:
 * the clock stops when that frame is out. */
#include "sl-bench-staged.h"
#include "sl-profile-loader.h"
#include "sl-cpu-loader.h"
#include "sl-timeline-render.h"

#define FRAME_W 1920
#define FRAME_H 1080

typedef struct {
  gint64 t0;
  double gpu_ready_ms;     /* the GPU profile handed out */
  double gpu_model_ms;     /* its timeline model built */
  double first_frame_ms;   /* its first frame drawn */
  guint  gpu_rows;
  SlTimelineModel *gpu_model;
} StagedRun;

static double
since_ms (gint64 t0)
{
  return (g_get_monotonic_time () - t0) / 1000.0;
}

/* One whole-profile frame of @model, as the widget's first one. */
static void
draw_frame (SlTimelineModel *model)
{
  SlTimelineLayout *layout = sl_timeline_layout_new (model);
  g_autoptr(SlTimelineRenderer) renderer = sl_timeline_renderer_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, FRAME_W, FRAME_H);
  SlTimelineStyle style;

  sl_timeline_style_init (&style, FALSE, 1.0);
  sl_timeline_layout_set_size (layout, FRAME_W, FRAME_H);
  sl_timeline_renderer_draw (renderer, layout, &style, surface, NULL);
  cairo_surface_flush (surface);
  cairo_surface_destroy (surface);
  sl_timeline_layout_free (layout);
}

/* In a loader worker, as in the application. */
static void
gpu_ready_cb (SlProfile *gpu_profile, gpointer data)
{
  StagedRun *run = data;

  run->gpu_ready_ms = since_ms (run->t0);
  run->gpu_model = sl_timeline_model_new (gpu_profile, NULL);
  run->gpu_model_ms = since_ms (run->t0);
  draw_frame (run->gpu_model);
  run->first_frame_ms = since_ms (run->t0);
  run->gpu_rows = run->gpu_model->n_rows;
}

#define DBL(k, v) do { json_builder_set_member_name (b, k); json_builder_add_double_value (b, (v)); } while (0)

static void
add_steps (JsonBuilder *b, const StagedRun *run, double full_load_ms, double full_model_ms, double full_frame_ms)
{
  json_builder_set_member_name (b, "staged_ms");
  json_builder_begin_object (b);
  DBL ("gpu_ready", run->gpu_ready_ms);
  DBL ("gpu_model", run->gpu_model_ms);
  DBL ("first_frame", run->first_frame_ms);
  DBL ("full_load", full_load_ms);
  DBL ("full_model", full_model_ms);
  DBL ("full_frame", full_frame_ms);
  json_builder_set_member_name (b, "gpu_rows");
  json_builder_add_int_value (b, run->gpu_rows);
  json_builder_end_object (b);
}

/* The last stage: the CPU side and GPU metrics read, a model with their
 * rows (the others' pyramids copied) and its first frame.  Its time alone
 * in ms, -1 if the read failed; *rows: the rows it added; @steps: the
 * time after the read, after the model and after the frame. */
static double
cpu_stage (SlProfile *profile, SlTimelineModel *shown, guint *rows, double steps[3])
{
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(SlCpuActivity) cpu = sl_cpu_activity_load (profile, NULL, NULL);
  g_autoptr(SlGpuMetrics) metrics = cpu ? sl_gpu_metrics_load (profile, NULL, NULL) : NULL;
  g_autoptr(SlTimelineModel) model = NULL;

  *rows = 0;
  steps[0] = steps[1] = steps[2] = since_ms (t0);
  if (metrics == NULL)
    return -1;
  /* as the application: nothing to draw, no new model */
  if (cpu->n_osrt > 0 || cpu->n_samples > 0 || metrics->n_samples > 0)
    {
      model = sl_timeline_model_new_full (profile, shown, cpu, metrics, NULL);
      *rows = model->n_rows - shown->n_rows;
      steps[1] = since_ms (t0);
      draw_frame (model);
      steps[2] = since_ms (t0);
    }
  return since_ms (t0);
}

gboolean
bench_staged (const char *path, JsonBuilder *b)
{
  StagedRun run = { 0 };
  SlLoadOptions options = { .gpu_ready = gpu_ready_cb, .gpu_ready_data = &run };
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlTimelineModel) model = NULL;
  double full_load_ms, full_model_ms, full_frame_ms, cpu_ms, cpu_steps[3];
  guint cpu_rows;

  run.t0 = g_get_monotonic_time ();
  profile = sl_profile_load_with (path, &options, NULL, NULL, NULL, &error);
  full_load_ms = since_ms (run.t0);
  if (profile == NULL)
    {
      g_clear_pointer (&run.gpu_model, sl_timeline_model_unref);
      g_printerr ("sightline-bench: staged load: %s\n", error->message);
      return FALSE;
    }
  /* what the application still does before the CPU rows show (the GPU
   * rows' pyramids copied) */
  model = sl_timeline_model_new_from (profile, run.gpu_model, NULL);
  g_clear_pointer (&run.gpu_model, sl_timeline_model_unref);
  full_model_ms = since_ms (run.t0);
  draw_frame (model);
  full_frame_ms = since_ms (run.t0);
  cpu_ms = cpu_stage (profile, model, &cpu_rows, cpu_steps);

  DBL ("first_frame_ms", run.first_frame_ms);
  /* the CPU side's stage comes after the complete profile: its own figure */
  DBL ("cpu_stage_ms", cpu_ms);
  json_builder_set_member_name (b, "cpu_stage_rows");
  json_builder_add_int_value (b, cpu_rows);
  json_builder_set_member_name (b, "cpu_stage_steps_ms");
  json_builder_begin_object (b);
  DBL ("read", cpu_steps[0]);
  DBL ("model", cpu_steps[1]);
  DBL ("frame", cpu_steps[2]);
  json_builder_end_object (b);
  DBL ("full_load_ms", full_load_ms);
  add_steps (b, &run, full_load_ms, full_model_ms, full_frame_ms);
  return TRUE;
}

#undef DBL
