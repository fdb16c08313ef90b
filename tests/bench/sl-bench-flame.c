/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-flame.c: "flame_ms": full frames of the flame stack's two modes,
 * drawn offscreen by the widget's own renderer (1920x400). */
#include "sl-bench-flame.h"
#include "sl-flame-render.h"
#include "sl-flame-view.h"

#include <stdlib.h>

#define FLAME_W 1920
#define FLAME_H 400
#define N_FRAMES 5

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* The median of N_FRAMES frames of @vp; @prims gets the last frame's count. */
static double
frame_ms (SlFlameRenderer *r, const SlFlameLayout *layout, const SlFlameViewport *vp, guint *prims)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, FLAME_W, FLAME_H);
  g_autoptr(GArray) array = g_array_new (FALSE, FALSE, sizeof (SlFlamePrim));
  SlTimelineStyle style;
  SlFlameRenderStats stats;
  double ms[N_FRAMES];

  sl_timeline_style_init (&style, FALSE, 1.0);
  for (guint i = 0; i < N_FRAMES; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      cairo_t *cr = cairo_create (surface);

      sl_flame_renderer_draw (r, cr, layout, vp, &style, FLAME_H, "All GPU work", array, NULL, &stats);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  cairo_surface_destroy (surface);
  qsort (ms, N_FRAMES, sizeof (double), cmp_double);
  *prims = stats.n_prims;
  return ms[N_FRAMES / 2];
}

/* The flame graph's nodes of the "gemm" search's highlight (found in a
 * worker by the widget when it is big): "match_gemm" ms. */
static double
match_ms (SlTimelineModel *model, const SlFlameLayout *layout, guint *n)
{
  g_autoptr(SlHighlight) hl = sl_bench_search_highlight (model, "gemm");
  g_autofree guint8 *matched = NULL;
  gint64 t0;

  *n = sl_highlight_get_n (hl);
  t0 = g_get_monotonic_time ();
  matched = sl_flame_view_match (layout, hl);
  return (g_get_monotonic_time () - t0) / 1000.0;
}

void
bench_flame (SlProfile *profile, JsonBuilder *b)
{
  g_autoptr(SlTimelineModel) model = sl_timeline_model_new (profile, NULL);
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(SlFlameLayout) layout = sl_flame_layout_new (model, FALSE, 0, 0, SL_NONE, FALSE, NULL);
  double layout_ms = (g_get_monotonic_time () - t0) / 1000.0;
  g_autoptr(SlFlameRenderer) renderer = sl_flame_renderer_new ();
  /* the widget's stack keeps 220 px for row labels, in line with the timeline's headers */
  SlFlameViewport vp = { .mode = SL_FLAME_MODE_STACK, .width = FLAME_W - 220, .gutter = 220,
                         .n_rows = (guint) (FLAME_H / SL_FLAME_ROW_HEIGHT) + 1,
                         .t0 = profile->start_ns, .t1 = MAX (profile->end_ns, profile->start_ns + 1) };
  guint stack_prims, graph_prims;
  double stack_ms = frame_ms (renderer, layout, &vp, &stack_prims);
  double graph_ms;

  vp.mode = SL_FLAME_MODE_GRAPH;
  vp.width = FLAME_W;
  vp.gutter = 0;
  graph_ms = frame_ms (renderer, layout, &vp, &graph_prims);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "stack");
  json_builder_add_double_value (b, stack_ms);
  json_builder_set_member_name (b, "flame");
  json_builder_add_double_value (b, graph_ms);
  json_builder_set_member_name (b, "layout");
  json_builder_add_double_value (b, layout_ms);
  json_builder_set_member_name (b, "stack_primitives");
  json_builder_add_int_value (b, stack_prims);
  json_builder_set_member_name (b, "flame_primitives");
  json_builder_add_int_value (b, graph_prims);
  json_builder_set_member_name (b, "nodes");
  json_builder_add_int_value (b, layout->n_nodes);
  json_builder_set_member_name (b, "rows");
  json_builder_add_int_value (b, layout->n_rows);
  {
    guint n = 0;
    double ms = match_ms (model, layout, &n);

    json_builder_set_member_name (b, "match_gemm");
    json_builder_add_double_value (b, ms);
    json_builder_set_member_name (b, "match_gemm_events");
    json_builder_add_int_value (b, n);
  }
  json_builder_end_object (b);
}
