/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-search.c: the "search_ms" and "search_detail" sections of
 * sightline-bench: the search page's search (sl_name_search_compute) on the
 * loaded profile, one core, the best of five runs after a first one;
 * "search_ms" is "gemm"'s, the detail has "gemm" (a substring) and
 * "/gemm|flash/i" (a regex), with their numbers of matches.  With the GUI
 * build also the timeline's frames (1920 x 1080, the whole run and 50
 * random windows as in "frame_ms") with a highlight of 100 000 kernels
 * spread over the run, the rest dimmed, against the same frames without:
 * the highlight must not cost a frame more than a little. */
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <math.h>

#include "sightline.h"
#ifdef SL_BENCH_FRAMES
#include "sl-timeline-render.h"
#include "sl-timeline-highlight.h"
#include "sl-int.h"
#include "sl-bench-flame.h"
#endif

void sl_bench_search (SlProfile *profile, JsonBuilder *builder);
void sl_bench_search_detail (SlProfile *profile, JsonBuilder *builder);

static double
search_ms (SlProfile *profile, const char *pattern, double *first, guint *hits)
{
  double best = G_MAXDOUBLE;

  for (int i = 0; i < 6; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(SlNameSearch) s = sl_name_search_compute (profile, NULL, pattern, NULL, NULL);
      double ms = (g_get_monotonic_time () - t0) / 1000.0;

      *hits = s != NULL ? s->n_hits : 0;
      if (i == 0)
        *first = ms;
      else
        best = MIN (best, ms);
    }
  return best;
}

#ifdef SL_BENCH_FRAMES
#define N_HIGHLIGHT 100000
#define N_WINDOWS 50

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Every k-th kernel of every stream: N_HIGHLIGHT in all (about). */
static SlHighlight *
spread_highlight (SlTimelineModel *model)
{
  const SlProfile *p = model->profile;
  g_autoptr(GArray) refs = g_array_new (FALSE, FALSE, sizeof (SlEventRef));
  guint64 total = 0;
  guint step;

  for (guint s = 0; s < p->n_streams; s++)
    total += p->streams[s].kernels.spans.n;
  step = MAX (total / N_HIGHLIGHT, 1);
  for (guint s = 0; s < p->n_streams; s++)
    for (guint i = 0; i < p->streams[s].kernels.spans.n; i += step)
      {
        SlEventRef ev = { SL_EVENT_KERNEL, s, i };
        g_array_append_val (refs, ev);
      }
  return sl_highlight_new (model, (SlEventRef *) (void *) refs->data, refs->len, "bench", TRUE);
}

/* The median frame over the whole run and 50 windows (seeded as frame_ms'). */
static double
sweep_ms (SlTimelineRenderer *r, SlTimelineLayout *l, const SlTimelineStyle *style, cairo_surface_t *surface,
          double *full)
{
  const SlProfile *p = l->model->profile;
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240601);
  double dur = (double) MAX (sl_span (p->start_ns, p->end_ns), 1), t[N_WINDOWS];

  sl_timeline_layout_fit_all (l);
  sl_timeline_renderer_draw (r, l, style, surface, NULL);   /* builds the highlight's index */
  {
    gint64 t0 = g_get_monotonic_time ();
    sl_timeline_renderer_draw (r, l, style, surface, NULL);
    *full = (g_get_monotonic_time () - t0) / 1000.0;
  }
  for (guint i = 0; i < N_WINDOWS; i++)
    {
      double width = exp (g_rand_double_range (rand, log (1000.0), log (MAX (dur, 1001.0))));
      double start = p->start_ns + g_rand_double_range (rand, 0, MAX (dur - width, 0) + 1e-9);
      gint64 t0;

      sl_timeline_layout_zoom_to (l, start, start + width, 0);
      t0 = g_get_monotonic_time ();
      sl_timeline_renderer_draw (r, l, style, surface, NULL);
      t[i] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  qsort (t, N_WINDOWS, sizeof (double), cmp_double);
  return t[N_WINDOWS / 2];
}

/* A search's matches as the search page highlights them. */
SlHighlight *
sl_bench_search_highlight (SlTimelineModel *model, const char *pattern)
{
  static const SlEventKind kinds[] = { SL_EVENT_KERNEL, SL_EVENT_API, SL_EVENT_NVTX, SL_EVENT_NVTX_STARTEND };
  g_autoptr(SlNameSearch) s = sl_name_search_compute (model->profile, NULL, pattern, NULL, NULL);
  g_autofree SlEventRef *refs = g_new (SlEventRef, MAX (s->n_hits, 1));

  for (guint i = 0; i < s->n_hits; i++)
    refs[i] = (SlEventRef) { kinds[s->hits[i].kind], s->hits[i].owner, s->hits[i].index };
  return sl_highlight_new (model, refs, s->n_hits, pattern, TRUE);
}

/* "highlight_index_gemm_ms": the per-row index of the "gemm" search's
 * highlight, which the first frame with it needs. */
static void
bench_highlight_index (SlTimelineModel *model, JsonBuilder *b)
{
  g_autoptr(SlHighlight) h = sl_bench_search_highlight (model, "gemm");
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(SlHighlightIndex) index = sl_highlight_index_new (model, h);

  json_builder_set_member_name (b, "highlight_index_gemm_ms");
  json_builder_add_double_value (b, (g_get_monotonic_time () - t0) / 1000.0);
}

static void
bench_highlight_frames (SlProfile *profile, JsonBuilder *b)
{
  g_autoptr(SlTimelineModel) model = sl_timeline_model_new (profile, NULL);
  g_autoptr(SlHighlight) h = NULL;
  SlTimelineLayout *layout = sl_timeline_layout_new (model);
  g_autoptr(SlTimelineRenderer) r = sl_timeline_renderer_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1920, 1080);
  SlTimelineStyle style;
  double full, p50;
  gint64 t0;

  sl_timeline_style_init (&style, FALSE, 1.0);
  sl_timeline_layout_set_size (layout, 1920, 1080);
  p50 = sweep_ms (r, layout, &style, surface, &full);
  json_builder_set_member_name (b, "frame_plain_full");
  json_builder_add_double_value (b, full);
  json_builder_set_member_name (b, "frame_plain_p50");
  json_builder_add_double_value (b, p50);
  t0 = g_get_monotonic_time ();
  h = spread_highlight (model);
  json_builder_set_member_name (b, "highlight_new");
  json_builder_add_double_value (b, (g_get_monotonic_time () - t0) / 1000.0);
  json_builder_set_member_name (b, "highlight_events");
  json_builder_add_int_value (b, sl_highlight_get_n (h));
  sl_timeline_renderer_set_highlight (r, h);
  p50 = sweep_ms (r, layout, &style, surface, &full);
  json_builder_set_member_name (b, "frame_highlight_full");
  json_builder_add_double_value (b, full);
  json_builder_set_member_name (b, "frame_highlight_p50");
  json_builder_add_double_value (b, p50);
  bench_highlight_index (model, b);
  cairo_surface_destroy (surface);
  sl_timeline_layout_free (layout);
}
#endif

/* "search_ms": one number, the figure: "gemm" over the profile. */
void
sl_bench_search (SlProfile *profile, JsonBuilder *b)
{
  double first;
  guint hits;

  json_builder_add_double_value (b, search_ms (profile, "gemm", &first, &hits));
}

/* "search_detail": the first run, the matches, a regex, and the frames
 * with a highlight. */
void
sl_bench_search_detail (SlProfile *profile, JsonBuilder *b)
{
  double first, ms;
  guint hits;

  json_builder_begin_object (b);
#define DBL(k, v) do { json_builder_set_member_name (b, k); json_builder_add_double_value (b, (v)); } while (0)
#define INT(k, v) do { json_builder_set_member_name (b, k); json_builder_add_int_value (b, (v)); } while (0)
  ms = search_ms (profile, "gemm", &first, &hits);
  DBL ("gemm", ms);
  DBL ("gemm_first", first);
  INT ("gemm_hits", hits);
  ms = search_ms (profile, "/gemm|flash/i", &first, &hits);
  DBL ("regex", ms);
  INT ("regex_hits", hits);
#ifdef SL_BENCH_FRAMES
  bench_highlight_frames (profile, b);
#endif
#undef DBL
#undef INT
  json_builder_end_object (b);
}
