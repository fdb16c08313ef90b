/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-timeline-highlight.c: which stretches of a row the timeline outlines
 * for a highlight in a given window, and the veil over the rest, on a
 * hand-built profile without a display.  Expected values are derived by
 * hand in the comments. */
#include "sl-highlight.h"
#include "sl-timeline-colors.h"
#include "sl-timeline-highlight.h"
#include "sl-timeline-layout.h"
#include "sl-timeline-render.h"
#include "sl-profile-private.h"

#include <string.h>

#define HEADER 220

/* One GPU, one stream of 100 kernels: kernel i is [1000 + 10 i, + 5) but
 * kernel 100 is a long one, [1000, 1800); the profile is 1000..2000 ns.
 * Rows: 0 the GPU, 1 the stream. */
static SlProfile *
profile_new_n (guint n)
{
  SlProfile *p = _sl_profile_new ("test");
  SlStream *st;

  p->start_ns = 1000;
  p->end_ns = 1000 + 10 * (gint64) (n - 1);
  p->n_funcs = 1;
  p->funcs = g_new0 (SlKernelFunc, 1);
  p->funcs[0].short_name = p->funcs[0].demangled_name = _sl_strings_intern (p->strings, "k");
  p->n_gpus = 1;
  p->gpus = g_new0 (SlGpu, 1);
  p->gpus[0].n_streams = 1;
  p->gpus[0].streams = g_new0 (guint32, 1);
  p->gpus[0].has_activity = TRUE;
  p->n_streams = 1;
  p->streams = st = g_new0 (SlStream, 1);
  st->kernels.spans.n = n;
  st->kernels.spans.start = g_new0 (gint64, n);
  st->kernels.spans.dur = g_new0 (guint32, n);
  /* sorted by start: the long kernel first (ties with kernel 0 at 1000) */
  st->kernels.spans.start[0] = 1000;
  st->kernels.spans.dur[0] = 800;
  for (guint i = 1; i < n; i++)
    {
      st->kernels.spans.start[i] = 1000 + 10 * (i - 1);
      st->kernels.spans.dur[i] = 5;
    }
  st->kernels.func = g_new0 (guint32, n);
  st->kernels.rowid = g_new0 (guint32, n);
  st->kernels.api = g_new0 (guint32, n);
  for (guint i = 0; i < n; i++)
    st->kernels.api[i] = SL_NONE;
  _sl_profile_adopt_gpu_data (p, _sl_profile_arena (p));
  _sl_profile_adopt_own (p);
  return p;
}

static SlProfile *
profile_new (void)
{
  return profile_new_n (101);
}

typedef struct {
  SlProfile        *profile;
  SlTimelineModel  *model;
  SlTimelineLayout *layout;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  f->profile = profile_new ();
  f->model = sl_timeline_model_new (f->profile, NULL);
  f->layout = sl_timeline_layout_new (f->model);
  /* 100 px of body: the whole profile at 10 ns/px */
  sl_timeline_layout_set_size (f->layout, HEADER + 100, 400);
  g_assert_cmpint (sl_timeline_layout_body_width (f->layout), ==, 100);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  sl_timeline_layout_free (f->layout);
  sl_timeline_model_unref (f->model);
  sl_profile_unref (f->profile);
}

/* A highlight of the short kernels @ks (numbered 0..99 as in the comment
 * of profile_new; -1 is the long one). */
static SlHighlight *
highlight_of (Fixture *f, const int *ks, guint n, gboolean dim)
{
  g_autofree SlEventRef *refs = g_new0 (SlEventRef, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    refs[i] = (SlEventRef) { SL_EVENT_KERNEL, 0, (guint) (ks[i] + 1) };
  return sl_highlight_new (f->model, refs, n, "test", dim);
}

static GArray *
spans_of (Fixture *f, SlHighlight *h, guint row)
{
  g_autoptr(SlHighlightIndex) index = NULL;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (SlHighlightSpan));

  index = sl_highlight_index_new (f->model, h);
  sl_highlight_index_row_spans (index, f->layout, row, 2, out);
  return out;
}

static void
assert_span (GArray *spans, guint i, int x0, int x1)
{
  const SlHighlightSpan *s = &g_array_index (spans, SlHighlightSpan, i);

  g_assert_cmpint (s->x0, ==, x0);
  g_assert_cmpint (s->x1, ==, x1);
}

/* Few events (3 <= 100 px / 4): one stretch each, 2 px at least.  At 10 ns/px
 * kernel 0 [1000,1005) is x [0,1), widened about its middle to [0,2);
 * kernel 50 [1500,1505) is [50,51) -> [49,51); kernel 99 [1990,1995) is
 * [99,100) -> [98,100). */
static void
test_by_event (Fixture *f, gconstpointer data)
{
  static const int ks[] = { 0, 50, 99 };
  g_autoptr(SlHighlight) h = highlight_of (f, ks, G_N_ELEMENTS (ks), TRUE);
  g_autoptr(GArray) spans = spans_of (f, h, 1);

  g_assert_cmpuint (spans->len, ==, 3);
  assert_span (spans, 0, 0, 2);
  assert_span (spans, 1, 49, 51);
  assert_span (spans, 2, 98, 100);
  /* the GPU's row, open, shows nothing of its own */
  {
    g_autoptr(SlHighlightIndex) index = sl_highlight_index_new (f->model, h);
    g_autoptr(GArray) none = spans_of (f, h, 0);

    g_assert_cmpuint (sl_highlight_index_row_count (index, 0), ==, 0);
    g_assert_cmpuint (sl_highlight_index_row_count (index, 1), ==, 3);
    g_assert_cmpuint (none->len, ==, 0);
  }
}

/* Many events (60 > 50 px / 4): per column.  50 px for 1000 ns is
 * 20 ns/px; column c holds the starts of kernels 2c and 2c + 1, so
 * kernels 0..59 cover columns 0..29: one stretch [0,30). */
static void
test_by_column (Fixture *f, gconstpointer data)
{
  int ks[60];
  g_autoptr(SlHighlight) h = NULL;
  g_autoptr(GArray) spans = NULL;

  for (int i = 0; i < 60; i++)
    ks[i] = i;
  h = highlight_of (f, ks, 60, TRUE);
  sl_timeline_layout_set_size (f->layout, HEADER + 50, 400);
  spans = spans_of (f, h, 1);
  g_assert_cmpuint (spans->len, ==, 1);
  assert_span (spans, 0, 0, 30);
}

/* Only the window counts: at 1 ns/px from 1400 the body shows
 * [1400,1500), where no highlighted kernel is (kernel 50 starts at 1500);
 * from 1450 kernel 50 is x [50,55).  The long kernel [1000,1800), seen
 * from 1500, started before the window and reaches past it: clamped to
 * 2 px outside each edge. */
static void
test_window (Fixture *f, gconstpointer data)
{
  static const int ks[] = { -1, 0, 50, 99 };
  g_autoptr(SlHighlight) h = highlight_of (f, ks + 1, 3, FALSE);
  g_autoptr(SlHighlight) with_long = highlight_of (f, ks, 1, FALSE);
  g_autoptr(GArray) a = NULL, b = NULL, c = NULL;

  sl_timeline_layout_set_view (f->layout, 1400, 1);
  a = spans_of (f, h, 1);
  g_assert_cmpuint (a->len, ==, 0);
  sl_timeline_layout_set_view (f->layout, 1450, 1);
  b = spans_of (f, h, 1);
  g_assert_cmpuint (b->len, ==, 1);
  assert_span (b, 0, 50, 55);
  sl_timeline_layout_set_view (f->layout, 1500, 1);
  c = spans_of (f, with_long, 1);
  g_assert_cmpuint (c->len, ==, 1);
  assert_span (c, 0, -2, 102);
}

/* A folded group shows its tracks' stretches. */
static void
test_collapsed (Fixture *f, gconstpointer data)
{
  static const int ks[] = { 0, 50, 99 };
  g_autoptr(SlHighlight) h = highlight_of (f, ks, G_N_ELEMENTS (ks), TRUE);
  g_autoptr(GArray) spans = NULL;

  sl_timeline_layout_set_collapsed (f->layout, 0, TRUE);
  spans = spans_of (f, h, 0);
  g_assert_cmpuint (spans->len, ==, 3);
  assert_span (spans, 1, 49, 51);
}

static guint32
pixel (cairo_surface_t *s, int x, int y)
{
  cairo_surface_flush (s);
  return ((guint32 *) (void *) (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s)))[x]
         & 0xffffff;
}

/* Drawn: a highlighted kernel keeps its colour, another one is veiled
 * towards the background, and an outline surrounds the highlighted one
 * just left of its box.  Kernel 50 (zoomed to 1 ns/px from 1450) is body
 * x [50,55); kernel 51 [1510,1515) is x [60,65). */
static void
test_draw (Fixture *f, gconstpointer data)
{
  static const int ks[] = { 50 };
  g_autoptr(SlHighlight) h = highlight_of (f, ks, 1, TRUE);
  g_autoptr(SlTimelineRenderer) r = sl_timeline_renderer_new ();
  cairo_surface_t *plain = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, HEADER + 100, 400);
  cairo_surface_t *lit = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, HEADER + 100, 400);
  SlTimelineStyle style;
  int y, height, mid;

  sl_timeline_style_init (&style, FALSE, 1);
  sl_timeline_layout_set_view (f->layout, 1450, 1);
  g_assert_true (sl_timeline_layout_row_rect (f->layout, 1, &y, &height));
  mid = y + height / 2;
  sl_timeline_renderer_draw (r, f->layout, &style, plain, NULL);
  sl_timeline_renderer_set_highlight (r, h);
  sl_timeline_renderer_draw (r, f->layout, &style, lit, NULL);

  g_assert_cmphex (pixel (lit, HEADER + 52, mid), ==, pixel (plain, HEADER + 52, mid));
  g_assert_cmphex (pixel (plain, HEADER + 62, mid), !=, style.bg);
  g_assert_cmphex (pixel (lit, HEADER + 62, mid), !=, pixel (plain, HEADER + 62, mid));
  /* the outline: magenta, strong against the light background */
  g_assert_cmphex (pixel (lit, HEADER + 49, mid), ==, pixel (lit, HEADER + 48, mid));
  g_assert_cmphex (pixel (lit, HEADER + 49, mid) >> 16, >, 0xb0);
  g_assert_cmphex ((pixel (lit, HEADER + 49, mid) >> 8) & 0xff, <, 0x40);
  g_assert_cmphex (pixel (lit, HEADER + 47, mid), !=, pixel (lit, HEADER + 49, mid));
  /* the row headers are not veiled */
  g_assert_cmphex (pixel (lit, 5, mid), ==, pixel (plain, 5, mid));
  /* without the highlight the frame is as before */
  sl_timeline_renderer_set_highlight (r, NULL);
  sl_timeline_renderer_draw (r, f->layout, &style, lit, NULL);
  g_assert_cmphex (pixel (lit, HEADER + 62, mid), ==, pixel (plain, HEADER + 62, mid));
  cairo_surface_destroy (plain);
  cairo_surface_destroy (lit);
}

static void
ready_cb (gpointer data)
{
  (*(guint *) data)++;
}

/* The whole frame of @r for @h (NULL: none) in a new image. */
static cairo_surface_t *
frame_of (SlTimelineRenderer *r, SlTimelineLayout *layout, SlHighlight *h, const SlTimelineStyle *style)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, HEADER + 100, 400);

  sl_timeline_renderer_set_highlight (r, h);
  sl_timeline_renderer_draw (r, layout, style, s, NULL);
  cairo_surface_flush (s);
  return s;
}

static gboolean
same_pixels (cairo_surface_t *a, cairo_surface_t *b)
{
  return memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b),
                 (gsize) cairo_image_surface_get_stride (a) * cairo_image_surface_get_height (a)) == 0;
}

/* Every @step-th short kernel of the big profile. */
static SlHighlight *
every_nth (SlTimelineModel *model, guint n, guint step)
{
  g_autoptr(GArray) refs = g_array_new (FALSE, FALSE, sizeof (SlEventRef));

  for (guint i = 1; i < n; i += step)
    g_array_append_val (refs, ((SlEventRef) { SL_EVENT_KERNEL, 0, i }));
  return sl_highlight_new (model, (const SlEventRef *) (void *) refs->data, refs->len, "test", TRUE);
}

/* With a ready callback a highlight of many events is indexed in a worker:
 * frames before it is ready show no highlight, the callback comes once,
 * and the frame after equals one indexed in the frame; a highlight
 * replaced while its index is built never shows. */
static void
test_async_index (void)
{
  const guint n = 180001;   /* every third: 60 000 events, over INDEX_IN_FRAME */
  g_autoptr(SlProfile) profile = profile_new_n (n);
  g_autoptr(SlTimelineModel) model = sl_timeline_model_new (profile, NULL);
  SlTimelineLayout *layout = sl_timeline_layout_new (model);
  g_autoptr(SlHighlight) half = every_nth (model, n, 2);
  g_autoptr(SlHighlight) third = every_nth (model, n, 3);
  g_autoptr(SlTimelineRenderer) sync = sl_timeline_renderer_new ();
  g_autoptr(SlTimelineRenderer) async = sl_timeline_renderer_new ();
  cairo_surface_t *plain, *want_half, *want_third, *got;
  SlTimelineStyle style;
  guint ready = 0;

  sl_timeline_style_init (&style, FALSE, 1);
  sl_timeline_layout_set_size (layout, HEADER + 100, 400);
  sl_timeline_layout_set_view (layout, 1000 + 10 * 5000, 1);   /* 100 ns: 10 kernels */
  plain = frame_of (sync, layout, NULL, &style);
  want_half = frame_of (sync, layout, half, &style);
  want_third = frame_of (sync, layout, third, &style);
  g_assert_false (same_pixels (plain, want_half));
  g_assert_false (same_pixels (want_half, want_third));

  sl_timeline_renderer_set_highlight_ready (async, ready_cb, &ready);
  got = frame_of (async, layout, half, &style);
  g_assert_true (same_pixels (got, plain));
  cairo_surface_destroy (got);
  /* replaced before its index is in: only the new one's comes */
  got = frame_of (async, layout, third, &style);
  g_assert_true (same_pixels (got, plain));
  cairo_surface_destroy (got);
  while (ready == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (ready, ==, 1);
  got = frame_of (async, layout, third, &style);
  g_assert_true (same_pixels (got, want_third));
  cairo_surface_destroy (got);
  /* the old build's result, if it comes late, changes nothing */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (ready, ==, 1);

  /* a small highlight is indexed in the frame, as without the callback */
  {
    static const int ks[] = { 5000, 5003 };
    g_autofree SlEventRef *refs = g_new0 (SlEventRef, 2);
    g_autoptr(SlHighlight) few = NULL;
    cairo_surface_t *want_few;

    for (guint i = 0; i < 2; i++)
      refs[i] = (SlEventRef) { SL_EVENT_KERNEL, 0, (guint) (ks[i] + 1) };
    few = sl_highlight_new (model, refs, 2, "few", TRUE);
    want_few = frame_of (sync, layout, few, &style);
    got = frame_of (async, layout, few, &style);
    g_assert_true (same_pixels (got, want_few));
    g_assert_false (same_pixels (got, plain));
    cairo_surface_destroy (got);
    cairo_surface_destroy (want_few);
  }
  cairo_surface_destroy (plain);
  cairo_surface_destroy (want_half);
  cairo_surface_destroy (want_third);
  sl_timeline_layout_free (layout);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/widgets/highlight/by-event", Fixture, NULL, setup, test_by_event, teardown);
  g_test_add ("/widgets/highlight/by-column", Fixture, NULL, setup, test_by_column, teardown);
  g_test_add ("/widgets/highlight/window", Fixture, NULL, setup, test_window, teardown);
  g_test_add ("/widgets/highlight/collapsed", Fixture, NULL, setup, test_collapsed, teardown);
  g_test_add ("/widgets/highlight/draw", Fixture, NULL, setup, test_draw, teardown);
  g_test_add_func ("/widgets/highlight/async-index", test_async_index);
  return g_test_run ();
}
