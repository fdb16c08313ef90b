/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-frames.c: timeline frame times, drawn by the widget's own renderer. */
#include "sl-bench-frames.h"
#include "sl-timeline-render.h"
#include "sl-timeline-gpu-rows.h"
#include "sl-attribution.h"
#include "sl-int.h"

#include <math.h>
#include <stdlib.h>

#define FRAME_W 1920
#define FRAME_H 1080
#define N_WINDOWS 50

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
render_ms (SlTimelineRenderer *r, SlTimelineLayout *l, const SlTimelineStyle *style,
           cairo_surface_t *surface, SlRenderStats *stats)
{
  gint64 t0 = g_get_monotonic_time ();

  sl_timeline_renderer_draw (r, l, style, surface, stats);
  cairo_surface_flush (surface);
  return (g_get_monotonic_time () - t0) / 1000.0;
}

/* 50 random windows, log-uniform widths from 1 us to the whole run at
 * uniform positions: sorted times into @sweep, the largest counts into @worst. */
static void
sweep_windows (SlTimelineRenderer *renderer, SlTimelineLayout *layout, const SlTimelineStyle *style,
               cairo_surface_t *surface, double sweep[N_WINDOWS], SlRenderStats *worst)
{
  const SlProfile *profile = layout->model->profile;
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240601);
  double dur = (double) MAX (sl_span (profile->start_ns, profile->end_ns), 1);
  SlRenderStats stats;

  for (guint i = 0; i < N_WINDOWS; i++)
    {
      double width = exp (g_rand_double_range (rand, log (1000.0), log (MAX (dur, 1001.0))));
      double start = profile->start_ns + g_rand_double_range (rand, 0, MAX (dur - width, 0) + 1e-9);

      sl_timeline_layout_zoom_to (layout, start, start + width, 0);
      sweep[i] = render_ms (renderer, layout, style, surface, &stats);
      worst->n_boxes = MAX (worst->n_boxes, stats.n_boxes);
      worst->n_labels = MAX (worst->n_labels, stats.n_labels);
      worst->n_cairo = MAX (worst->n_cairo, stats.n_cairo);
      worst->n_visited = MAX (worst->n_visited, stats.n_visited);
    }
  qsort (sweep, N_WINDOWS, sizeof (double), cmp_double);
}

/* The GPU utilization rows alone: every GPU's 1920 columns in the same 50
 * windows as the frames (p50 and max into @out). */
static void
sweep_util (const SlTimelineModel *model, double out[2])
{
  const SlProfile *profile = model->profile;
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240601);
  double dur = (double) MAX (sl_span (profile->start_ns, profile->end_ns), 1);
  double ms[N_WINDOWS];
  float cols[FRAME_W];

  for (guint i = 0; i < N_WINDOWS; i++)
    {
      double width = exp (g_rand_double_range (rand, log (1000.0), log (MAX (dur, 1001.0))));
      double start = profile->start_ns + g_rand_double_range (rand, 0, MAX (dur - width, 0) + 1e-9);
      gint64 t0 = g_get_monotonic_time ();

      for (guint g = 0; g < profile->n_gpus; g++)
        sl_timeline_gpu_util_columns (model, g, start, width / FRAME_W, FRAME_W, cols);
      ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  qsort (ms, N_WINDOWS, sizeof (double), cmp_double);
  out[0] = ms[N_WINDOWS / 2];
  out[1] = ms[N_WINDOWS - 1];
}

void
bench_frames (SlProfile *profile, JsonBuilder *b)
{
  /* the NVTX attribution behind the projected rows is the profile's, shared
   * with the tree and the CLI: timed apart from the model */
  gint64 ta = g_get_monotonic_time ();
  double attribution_ms = (sl_attribution_get (profile), (g_get_monotonic_time () - ta) / 1000.0);
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(SlTimelineModel) model = sl_timeline_model_new (profile, NULL);
  double model_ms = (g_get_monotonic_time () - t0) / 1000.0;
  double util[2];
  SlTimelineLayout *layout = sl_timeline_layout_new (model);
  g_autoptr(SlTimelineRenderer) renderer = sl_timeline_renderer_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, FRAME_W, FRAME_H);
  SlTimelineStyle style;
  SlRenderStats stats, worst = { 0 };
  double full[5], sweep[N_WINDOWS];
  double full_ms, overview_ms;

  sl_timeline_style_init (&style, FALSE, 1.0);
  sl_timeline_layout_set_size (layout, FRAME_W, FRAME_H);

  /* the first frame also builds fonts and the minimap: reported apart */
  overview_ms = render_ms (renderer, layout, &style, surface, &stats);
  for (guint i = 0; i < G_N_ELEMENTS (full); i++)
    full[i] = render_ms (renderer, layout, &style, surface, &stats);
  qsort (full, G_N_ELEMENTS (full), sizeof (double), cmp_double);
  full_ms = full[G_N_ELEMENTS (full) / 2];
  sweep_windows (renderer, layout, &style, surface, sweep, &worst);
  sweep_util (model, util);

  json_builder_begin_object (b);
#define DBL(k, v) do { json_builder_set_member_name (b, k); json_builder_add_double_value (b, (v)); } while (0)
#define INT(k, v) do { json_builder_set_member_name (b, k); json_builder_add_int_value (b, (v)); } while (0)
  DBL ("full", full_ms);
  DBL ("p50", sweep[N_WINDOWS / 2]);
  DBL ("p95", sweep[(int) ceil (0.95 * N_WINDOWS) - 1]);
  DBL ("max", sweep[N_WINDOWS - 1]);
  DBL ("first_frame", overview_ms);
  DBL ("model_build", model_ms);
  DBL ("attribution", attribution_ms);
  DBL ("gpu_util_p50", util[0]);
  DBL ("gpu_util_max", util[1]);
  INT ("width", FRAME_W);
  INT ("height", FRAME_H);
  INT ("windows", N_WINDOWS);
  INT ("rows", model->n_rows);
  INT ("lod_bytes", (gint64) model->lod_bytes);
  INT ("event_array_bytes", (gint64) model->event_bytes);
  DBL ("lod_fraction", model->event_bytes ? (double) model->lod_bytes / model->event_bytes : 0.0);
  INT ("max_cairo_calls", worst.n_cairo);
  INT ("max_labels", worst.n_labels);
  INT ("max_boxes", worst.n_boxes);
#undef DBL
#undef INT
  json_builder_end_object (b);

  cairo_surface_destroy (surface);
  sl_timeline_layout_free (layout);
}
