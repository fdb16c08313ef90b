/* SPDX-License-Identifier: GPL-3.0-or-later */
/* timeline-probe: renders one profile's timeline offscreen, prints frame
 * times and writes PNGs (a developer tool, not a test).
 *
 *   timeline-probe PROFILE [OUT-PREFIX] [WIDTH HEIGHT] */
#include "sl-profile-loader.h"
#include "sl-timeline-render.h"
#include "sl-bench-frames.h"
#include "sl-int.h"

#include <stdlib.h>

static double
frame (SlTimelineRenderer *r, SlTimelineLayout *l, SlTimelineStyle *style, cairo_surface_t *s,
       const char *prefix, const char *name)
{
  SlRenderStats st;
  gint64 t0 = g_get_monotonic_time ();
  double ms;

  sl_timeline_renderer_draw (r, l, style, s, &st);
  ms = (g_get_monotonic_time () - t0) / 1000.0;
  g_print ("%-12s %7.2f ms (pixels %.2f text %.2f)  rows %u boxes %u cols %u labels %u cairo %u visited %u\n",
           name, ms, st.pixel_ms, st.text_ms, st.n_rows, st.n_boxes, st.n_columns, st.n_labels, st.n_cairo,
           st.n_visited);
  if (prefix)
    {
      g_autofree char *path = g_strdup_printf ("%s-%s.png", prefix, name);
      cairo_surface_write_to_png (s, path);
    }
  return ms;
}

/* The frames a person looks at: whole run, 2 %, 0.05 %, 20 us, then dark. */
static void
zoom_sequence (SlTimelineRenderer *r, SlTimelineLayout *l, SlTimelineStyle *style,
               cairo_surface_t *s, const char *prefix)
{
  const SlProfile *profile = l->model->profile;
  double start = profile->start_ns, dur = sl_span (profile->start_ns, profile->end_ns);

  frame (r, l, style, s, NULL, "first");
  frame (r, l, style, s, prefix, "full");
  sl_timeline_layout_zoom_to (l, start + dur * 0.3, start + dur * 0.32, 0);
  frame (r, l, style, s, prefix, "2pct");
  sl_timeline_layout_zoom_to (l, start + dur * 0.3, start + dur * 0.3 + dur / 2000, 0);
  frame (r, l, style, s, prefix, "0.05pct");
  sl_timeline_layout_zoom_to (l, start + dur * 0.3, start + dur * 0.3 + 20000, 0);
  frame (r, l, style, s, prefix, "20us");
  sl_timeline_style_init (style, TRUE, 1.0);
  sl_timeline_layout_fit_all (l);
  frame (r, l, style, s, prefix, "dark");
}

static void
print_bench (SlProfile *profile)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *txt = NULL;

  bench_frames (profile, b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  txt = json_generator_to_data (gen, NULL);
  g_print ("%s\n", txt);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlTimelineModel) model = NULL;
  g_autoptr(SlTimelineRenderer) r = sl_timeline_renderer_new ();
  const char *prefix = argc > 2 ? argv[2] : NULL;
  int w = argc > 4 ? atoi (argv[3]) : 1920, h = argc > 4 ? atoi (argv[4]) : 1080;
  SlTimelineLayout *l;
  SlTimelineStyle style;
  cairo_surface_t *s;
  gint64 t0;

  if (argc < 2)
    {
      g_printerr ("usage: timeline-probe PROFILE [OUT-PREFIX] [WIDTH HEIGHT]\n");
      return 2;
    }
  t0 = g_get_monotonic_time ();
  profile = sl_profile_load (argv[1], NULL, NULL, NULL, &error);
  if (!profile)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_print ("load         %7.1f ms\n", (g_get_monotonic_time () - t0) / 1000.0);
  t0 = g_get_monotonic_time ();
  model = sl_timeline_model_new (profile, NULL);
  g_print ("model        %7.1f ms  rows %u lod %.1f MB of %.1f MB events\n",
           (g_get_monotonic_time () - t0) / 1000.0, model->n_rows, model->lod_bytes / 1e6,
           model->event_bytes / 1e6);
  l = sl_timeline_layout_new (model);
  sl_timeline_layout_set_size (l, w, h);
  sl_timeline_style_init (&style, g_getenv ("PROBE_DARK") != NULL, 1.0);
  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  zoom_sequence (r, l, &style, s, prefix);
  if (g_getenv ("PROBE_BENCH"))
    print_bench (profile);
  cairo_surface_destroy (s);
  sl_timeline_layout_free (l);
  return 0;
}
