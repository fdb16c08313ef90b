/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-timeline-layout.c: the timeline's mapping, culling, merging, pyramid,
 * hit testing and zoom anchoring on hand-built profiles, without a display.
 * Every expected value is derived by hand in the comments. */
#include "sl-event-info.h"
#include "sl-timeline-colors.h"
#include "sl-timeline-columns.h"
#include "sl-timeline-hit.h"
#include "sl-timeline-layout.h"
#include "sl-timeline-minimap.h"
#include "sl-timeline-render.h"
#include "sl-timeline-rows.h"
#include "sl-timeline-ruler.h"
#include "sl-profile-private.h"

#include <math.h>
#include <string.h>

static SlProfile *
profile_new (gint64 start, gint64 end)
{
  SlProfile *p = _sl_profile_new ("test");

  p->start_ns = start;
  p->end_ns = end;
  return p;
}

/* The built profile's arrays go to its arena, as the loader's do. */
static SlProfile *
profile_done (SlProfile *p)
{
  _sl_profile_adopt_gpu_data (p, _sl_profile_arena (p));
  _sl_profile_adopt_own (p);
  return p;
}

static void
spans_fill (SlSpans *s, guint n, const gint64 *start, const gint64 *dur)
{
  s->n = n;
  s->start = g_new0 (gint64, MAX (n, 1));
  s->dur = g_new0 (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      s->start[i] = start[i];
      s->dur[i] = (guint32) dur[i];
    }
}

static guint32
str (SlProfile *p, const char *s)
{
  return _sl_strings_intern (p->strings, s);
}

/* Kernel functions named @names, ids 0, 1, ... */
static void
add_funcs (SlProfile *p, const char *const *names, guint n)
{
  p->n_funcs = n;
  p->funcs = g_new0 (SlKernelFunc, n);
  for (guint i = 0; i < n; i++)
    p->funcs[i].short_name = p->funcs[i].demangled_name = str (p, names[i]);
}

/* GPU 0 with one stream of @n kernels, all of function 0 and launched by API call 0. */
static SlStream *
add_gpu_stream (SlProfile *p, guint n, const gint64 *start, const gint64 *dur)
{
  SlStream *st;

  p->n_gpus = 1;
  p->gpus = g_new0 (SlGpu, 1);
  p->gpus[0].n_streams = 1;
  p->gpus[0].streams = g_new0 (guint32, 1);
  p->n_streams = 1;
  p->streams = st = g_new0 (SlStream, 1);
  spans_fill (&st->kernels.spans, n, start, dur);
  st->kernels.func = g_new0 (guint32, n);
  st->kernels.rowid = g_new0 (guint32, n);
  st->kernels.api = g_new0 (guint32, n);
  return st;
}

/* pid 42 "python3" with its thread tid 43 "main". */
static SlThread *
add_process_thread (SlProfile *p)
{
  SlThread *th;

  p->n_processes = 1;
  p->processes = g_new0 (SlProcess, 1);
  p->processes[0].pid = 42;
  p->processes[0].name = str (p, "python3");
  p->processes[0].n_threads = 1;
  p->processes[0].threads = g_new0 (guint32, 1);
  p->n_threads = 1;
  p->threads = th = g_new0 (SlThread, 1);
  th->pid = 42;
  th->tid = 43;
  th->name = str (p, "main");
  return th;
}

/* NVTX "step" [1000,2000) at depth 0, "inner" [1000,1100) and "inner2"
 * [1500,1900) at depth 1; marks at 1600 and 1605. */
static void
add_nvtx (SlProfile *p, SlThread *th)
{
  static const gint64 ns[] = { 1000, 1000, 1500 }, nd[] = { 1000, 100, 400 };

  spans_fill (&th->nvtx.spans, 3, ns, nd);
  th->nvtx.name = g_new0 (guint32, 3);
  th->nvtx.name[0] = str (p, "step");
  th->nvtx.name[1] = str (p, "inner");
  th->nvtx.name[2] = str (p, "inner2");
  /* no styles: no colors, the default domain */
  th->nvtx.parent = g_new0 (guint32, 3);
  th->nvtx.parent[0] = SL_NONE;
  th->nvtx.n_depths = 2;
  th->nvtx.depth_first = g_new0 (guint, 3);
  th->nvtx.depth_first[1] = 1;
  th->nvtx.depth_first[2] = 3;
  th->marks.n = 2;
  th->marks.time = g_new0 (gint64, 2);
  th->marks.time[0] = 1600;
  th->marks.time[1] = 1605;
  th->marks.name = g_new0 (guint32, 2);
  th->marks.color = g_new0 (guint32, 2);
  th->marks.domain = g_new0 (guint16, 2);
}

/* Profile A, 1000..2000 ns:
 *   GPU 0, stream 7: kernels k0 [1000,1100) k1 [1200,1202) k2 [1203,1206)
 *                    k3 [1500,1900) k4 [1990,2000)
 *   pid 42, tid 43: API a0 [1000,1050) launches k0; NVTX depth 0 "step"
 *   [1000,2000), depth 1 "inner" [1000,1100) and "inner2" [1500,1900);
 *   marks at 1600 and 1605.
 * Rows: 0 GPU, 1 stream, 2 process, 3 thread, 4 API, 5 NVTX, 6 NVTX level 2, 7 marks. */
static SlProfile *
profile_a (void)
{
  SlProfile *p = profile_new (1000, 2000);
  static const gint64 ks[] = { 1000, 1200, 1203, 1500, 1990 }, kd[] = { 100, 2, 3, 400, 10 };
  static const gint64 as[] = { 1000 }, ad[] = { 50 };
  static const char *const funcs[] = { "plain_kernel", "ncclDevKernel_AllReduce", "sm90_gemm_kernel" };
  SlStream *st;
  SlThread *th;

  add_funcs (p, funcs, G_N_ELEMENTS (funcs));
  st = add_gpu_stream (p, 5, ks, kd);
  p->gpus[0].name = g_strdup ("TestGPU");
  p->gpus[0].has_activity = TRUE;
  st->pid = 42;
  st->stream = 7;
  st->kernels.func[1] = 1;
  st->kernels.func[2] = 2;
  for (guint i = 1; i < 5; i++)
    st->kernels.api[i] = SL_NONE;

  spans_fill (&p->api.spans, 1, as, ad);
  p->api.name = g_new0 (guint32, 1);
  p->api.name[0] = str (p, "cudaLaunchKernel");
  p->api.corr = g_new0 (guint32, 1);

  th = add_process_thread (p);
  th->api_first = 0;
  th->api_count = 1;
  add_nvtx (p, th);
  return profile_done (p);
}

typedef struct {
  SlProfile        *profile;
  SlTimelineModel  *model;
  SlTimelineLayout *layout;
} Fixture;

/* Body 100 px wide (220 px of row headers), so the fit view is 10 ns/px. */
static void
fixture_a_setup (Fixture *f, gconstpointer data)
{
  f->profile = profile_a ();
  f->model = sl_timeline_model_new (f->profile, NULL);
  f->layout = sl_timeline_layout_new (f->model);
  sl_timeline_layout_set_size (f->layout, 220 + 100, 600);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  sl_timeline_layout_free (f->layout);
  sl_timeline_model_unref (f->model);
  sl_profile_unref (f->profile);
}

static void
test_rows (Fixture *f, gconstpointer data)
{
  static const SlRowKind kinds[] = { SL_ROW_GPU, SL_ROW_STREAM, SL_ROW_PROCESS, SL_ROW_THREAD,
                                     SL_ROW_API, SL_ROW_NVTX, SL_ROW_NVTX, SL_ROW_MARKS };
  int y, h;

  g_assert_cmpuint (f->model->n_rows, ==, G_N_ELEMENTS (kinds));
  for (guint r = 0; r < G_N_ELEMENTS (kinds); r++)
    g_assert_cmpint (f->model->rows[r].kind, ==, kinds[r]);
  g_assert_cmpuint (f->model->rows[6].depth, ==, 1);
  g_assert_cmpuint (f->model->rows[1].n_events, ==, 5);
  g_assert_cmpint (f->model->rows[1].segs[0].max_dur, ==, 400);

  /* body starts below minimap (40) and ruler (26): 66; GPU row 24, stream 22 */
  g_assert_true (sl_timeline_layout_row_rect (f->layout, 0, &y, &h));
  g_assert_cmpint (y, ==, 66);
  g_assert_cmpint (h, ==, 24);
  g_assert_true (sl_timeline_layout_row_rect (f->layout, 1, &y, &h));
  g_assert_cmpint (y, ==, 90);
  g_assert_cmpint (h, ==, 22);
  /* process 112 (+24), thread 136 (+18), API 154 */
  g_assert_true (sl_timeline_layout_row_rect (f->layout, 4, &y, &h));
  g_assert_cmpint (y, ==, 154);
  g_assert_cmpuint (sl_timeline_layout_row_at (f->layout, 100), ==, 1);
  g_assert_cmpuint (sl_timeline_layout_row_at (f->layout, 65), ==, SL_NONE);
  g_assert_cmpint (sl_timeline_layout_content_height (f->layout), ==, 24 + 22 + 24 + 18 + 4 * 22);

  /* folding the GPU hides its stream and moves everything up by 22 */
  sl_timeline_layout_set_collapsed (f->layout, 0, TRUE);
  g_assert_false (sl_timeline_layout_row_rect (f->layout, 1, &y, &h));
  g_assert_true (sl_timeline_layout_row_rect (f->layout, 4, &y, &h));
  g_assert_cmpint (y, ==, 154 - 22);
  /* a track cannot be folded */
  sl_timeline_layout_set_collapsed (f->layout, 1, TRUE);
  g_assert_false (sl_timeline_layout_get_collapsed (f->layout, 1));

  g_autofree char *title = sl_timeline_row_title (f->model, 0);
  g_assert_cmpstr (title, ==, "GPU 0 · TestGPU");
}

static void
test_mapping (Fixture *f, gconstpointer data)
{
  SlTimelineLayout *l = f->layout;

  /* fit: 1000 ns over 100 px */
  g_assert_cmpfloat (l->t0, ==, 1000);
  g_assert_cmpfloat (l->px_ns, ==, 10);
  g_assert_cmpfloat (sl_timeline_layout_max_px_ns (l), ==, 10);
  g_assert_cmpfloat (sl_timeline_layout_time_to_x (l, 1500), ==, 50);
  g_assert_cmpfloat (sl_timeline_layout_x_to_time (l, 25), ==, 1250);
  g_assert_cmpfloat (sl_timeline_layout_overview_x (l, 1900), ==, 90);

  /* a wider window keeps the visible range: 200 px for 1000 ns */
  sl_timeline_layout_set_size (l, 220 + 200, 600);
  g_assert_cmpfloat (l->t0, ==, 1000);
  g_assert_cmpfloat (l->px_ns, ==, 5);
}

static void
test_zoom_anchor (Fixture *f, gconstpointer data)
{
  SlTimelineLayout *l = f->layout;

  /* anchor 1000 + 50*10 = 1500 stays at x 50: px 5, t0 1500 - 50*5 = 1250 */
  sl_timeline_layout_zoom_at (l, 50, 0.5);
  g_assert_cmpfloat (l->px_ns, ==, 5);
  g_assert_cmpfloat (l->t0, ==, 1250);
  /* anchor at x 0 (1250): t0 unchanged, px 2.5 */
  sl_timeline_layout_zoom_at (l, 0, 0.5);
  g_assert_cmpfloat (l->px_ns, ==, 2.5);
  g_assert_cmpfloat (l->t0, ==, 1250);
  /* anchor at x 80 (1250 + 200 = 1450): px 1.25, t0 1450 - 100 = 1350 */
  sl_timeline_layout_zoom_at (l, 80, 0.5);
  g_assert_cmpfloat (l->px_ns, ==, 1.25);
  g_assert_cmpfloat (l->t0, ==, 1350);
  g_assert_cmpfloat (sl_timeline_layout_x_to_time (l, 80), ==, 1450);

  /* the closest zoom is 1 ns per 100 px, still anchored: 1450 - 80*0.01 */
  sl_timeline_layout_zoom_at (l, 80, 1e-9);
  g_assert_cmpfloat (l->px_ns, ==, SL_TIMELINE_MIN_PX_NS);
  g_assert_cmpfloat_with_epsilon (l->t0, 1450 - 80 * 0.01, 1e-9);

  /* zooming out past the whole profile fits it */
  sl_timeline_layout_zoom_at (l, 80, 1e12);
  g_assert_cmpfloat (l->px_ns, ==, 10);
  g_assert_cmpfloat (l->t0, ==, 1000);

  /* panning clamps to the profile: view 500 ns, last t0 2000 - 500 */
  sl_timeline_layout_set_view (l, 1250, 5);
  sl_timeline_layout_pan (l, 10);
  g_assert_cmpfloat (l->t0, ==, 1300);
  sl_timeline_layout_pan (l, 1000);
  g_assert_cmpfloat (l->t0, ==, 1500);
  sl_timeline_layout_pan (l, -1000);
  g_assert_cmpfloat (l->t0, ==, 1000);

  /* zoom to [1200, 1300] with 10% margins: [1190, 1310] over 100 px */
  sl_timeline_layout_zoom_to (l, 1200, 1300, 0.1);
  g_assert_cmpfloat_with_epsilon (l->px_ns, 1.2, 1e-12);
  g_assert_cmpfloat_with_epsilon (l->t0, 1190, 1e-9);
}

static void
test_merge_fit (Fixture *f, gconstpointer data)
{
  SlRowColumns c;
  guint8 gemm = sl_timeline_colors_for_func ("sm90_gemm_kernel");

  /* 10 ns/px: k0 box [0,10), k1 0.2 px + k2 0.3 px merged into column 20,
   * k3 box [50,90), k4 box [99,100) */
  sl_timeline_layout_row_columns (f->layout, 1, &c);
  g_assert_cmpint (c.n_cols, ==, 100);
  g_assert_cmpint (c.lod_level, ==, -1);
  g_assert_cmpuint (c.n_boxes, ==, 3);
  g_assert_cmpint (c.boxes[0].x0, ==, 0);
  g_assert_cmpint (c.boxes[0].x1, ==, 10);
  g_assert_cmpuint (c.boxes[0].index, ==, 0);
  g_assert_cmpint (c.boxes[1].x0, ==, 50);
  g_assert_cmpint (c.boxes[1].x1, ==, 90);
  g_assert_cmpint (c.boxes[2].x0, ==, 99);
  g_assert_cmpint (c.boxes[2].x1, ==, 100);
  g_assert_cmpfloat_with_epsilon (c.cov[20], 0.5, 1e-5);
  /* the longer of the two decides the colour: k2, a GEMM */
  g_assert_cmpuint (c.color[20], ==, gemm);
  g_assert_cmpuint (gemm, ==, SL_COLOR_GEMM);
  for (int x = 0; x < 100; x++)
    if (x != 20)
      g_assert_cmpfloat (c.cov[x], ==, 0);

  /* folded, the GPU row sums its stream: boxes become full columns */
  sl_timeline_layout_set_collapsed (f->layout, 0, TRUE);
  sl_timeline_layout_row_columns (f->layout, 0, &c);
  g_assert_cmpuint (c.n_boxes, ==, 0);
  for (int x = 0; x < 10; x++)
    g_assert_cmpfloat_with_epsilon (c.cov[x], 1.0, 1e-6);
  g_assert_cmpfloat (c.cov[10], ==, 0);
  g_assert_cmpfloat_with_epsilon (c.cov[20], 0.5, 1e-5);
  for (int x = 50; x < 90; x++)
    g_assert_cmpfloat_with_epsilon (c.cov[x], 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (c.cov[99], 1.0, 1e-6);
  g_assert_cmpuint (c.color[99], ==, SL_COLOR_OTHER);
}

static void
test_culling (Fixture *f, gconstpointer data)
{
  SlRowColumns c;

  /* view [1500, 1600) at 1 ns/px: only k3, clipped to [0, 100); the search
   * starts at 1500 - max_dur (400) so k1, k2 are read and dropped */
  sl_timeline_layout_set_view (f->layout, 1500, 1);
  sl_timeline_layout_row_columns (f->layout, 1, &c);
  g_assert_cmpuint (c.n_boxes, ==, 1);
  g_assert_cmpuint (c.boxes[0].index, ==, 3);
  g_assert_cmpint (c.boxes[0].x0, ==, 0);
  g_assert_cmpint (c.boxes[0].x1, ==, 100);
  g_assert_cmpuint (c.n_visited, ==, 3);

  /* view [1150, 1250): k0 ended at 1100; k1 [50,52), k2 [53,56) */
  sl_timeline_layout_set_view (f->layout, 1150, 1);
  sl_timeline_layout_row_columns (f->layout, 1, &c);
  g_assert_cmpuint (c.n_boxes, ==, 2);
  g_assert_cmpint (c.boxes[0].x0, ==, 50);
  g_assert_cmpint (c.boxes[0].x1, ==, 52);
  g_assert_cmpint (c.boxes[1].x0, ==, 53);
  g_assert_cmpint (c.boxes[1].x1, ==, 56);

  /* marks at 1600 and 1605 at 10 ns/px: ticks around x 60 */
  sl_timeline_layout_fit_all (f->layout);
  sl_timeline_layout_row_columns (f->layout, 7, &c);
  g_assert_cmpuint (c.n_boxes, ==, 2);
  g_assert_cmpint (c.boxes[0].x0, ==, 59);
  g_assert_cmpint (c.boxes[0].x1, ==, 62);
}

static void
test_hit (Fixture *f, gconstpointer data)
{
  SlTimelineLayout *l = f->layout;
  SlEventRef ev;

  /* stream row at y 90..112; x 275 = body 55 = 1550 ns: inside k3 */
  g_assert_true (sl_timeline_layout_hit_test (l, 275, 100, &ev));
  g_assert_cmpint (ev.kind, ==, SL_EVENT_KERNEL);
  g_assert_cmpuint (ev.owner, ==, 0);
  g_assert_cmpuint (ev.index, ==, 3);
  /* 1200 ns: inside k1; k2 is 3 ns away */
  g_assert_true (sl_timeline_layout_hit_test (l, 240, 100, &ev));
  g_assert_cmpuint (ev.index, ==, 1);
  /* 1300 ns: nothing within 3 px (30 ns) */
  g_assert_false (sl_timeline_layout_hit_test (l, 250, 100, &ev));
  /* 1220 ns: k2 ends 14 ns before, inside the tolerance */
  g_assert_true (sl_timeline_layout_hit_test (l, 242, 100, &ev));
  g_assert_cmpuint (ev.index, ==, 2);
  /* row headers never hit */
  g_assert_false (sl_timeline_layout_hit_test (l, 100, 100, &ev));
  /* API row 154..176 at 1010 ns */
  g_assert_true (sl_timeline_layout_hit_test (l, 221, 160, &ev));
  g_assert_cmpint (ev.kind, ==, SL_EVENT_API);
  g_assert_cmpuint (ev.owner, ==, 0);
  g_assert_cmpuint (ev.index, ==, 0);
  /* NVTX level 2 row (198..220) at 1550 ns: "inner2" */
  g_assert_true (sl_timeline_layout_hit_test (l, 275, 205, &ev));
  g_assert_cmpint (ev.kind, ==, SL_EVENT_NVTX);
  g_assert_cmpuint (ev.index, ==, 2);
  /* marks row (220..242) at 1600 ns: the first mark, the second is 5 ns away */
  g_assert_true (sl_timeline_layout_hit_test (l, 280, 230, &ev));
  g_assert_cmpint (ev.kind, ==, SL_EVENT_MARK);
  g_assert_cmpuint (ev.index, ==, 0);

  /* a folded GPU row hits its streams' events */
  sl_timeline_layout_set_collapsed (l, 0, TRUE);
  g_assert_true (sl_timeline_layout_hit_test (l, 275, 70, &ev));
  g_assert_cmpint (ev.kind, ==, SL_EVENT_KERNEL);
  g_assert_cmpuint (ev.index, ==, 3);
}

static void
test_links (Fixture *f, gconstpointer data)
{
  SlEventRef ev = { SL_EVENT_API, 0, 0 }, k3 = { SL_EVENT_KERNEL, 0, 3 };
  g_autofree char *path = NULL;
  g_autoptr(GPtrArray) fields = NULL;
  double x0, x1;
  int y, h;

  g_assert_true (sl_timeline_model_find_launched (f->model, 0, &ev));
  g_assert_cmpint (ev.kind, ==, SL_EVENT_KERNEL);
  g_assert_cmpuint (ev.index, ==, 0);
  g_assert_cmpuint (sl_timeline_model_event_row (f->model, &ev), ==, 1);

  /* k3 [1500,1900) on row 1 (y 90): x 220 + 50 .. 220 + 90 */
  g_assert_true (sl_timeline_layout_event_rect (f->layout, &k3, &x0, &x1, &y, &h));
  g_assert_cmpfloat (x0, ==, 270);
  g_assert_cmpfloat (x1, ==, 310);
  g_assert_cmpint (y, ==, 90);

  path = sl_event_info_nvtx_path (f->model, 0, 1010);
  g_assert_cmpstr (path, ==, "step › inner");

  ev = (SlEventRef) { SL_EVENT_API, 0, 0 };
  fields = sl_event_info_fields (f->model, &ev, NULL, FALSE);
  g_assert_cmpuint (fields->len, >=, 5);
  g_assert_cmpstr (((SlEventField *) fields->pdata[0])->value, ==, "cudaLaunchKernel");
  g_assert_cmpstr (((SlEventField *) fields->pdata[2])->value, ==, "50 ns");
}

static const char *
field_value (GPtrArray *fields, const char *label, guint *index)
{
  for (guint i = 0; i < fields->len; i++)
    {
      const SlEventField *f = g_ptr_array_index (fields, i);
      if (g_strcmp0 (f->label, label) == 0)
        {
          if (index)
            *index = i;
          return f->value;
        }
    }
  return NULL;
}

static void
test_kernel_info (Fixture *f, gconstpointer data)
{
  SlEventRef k0 = { SL_EVENT_KERNEL, 0, 0 };
  SlKernelDetails det = { { 120, 2, 1 }, { 256, 1, 1 }, 64, 1024, -1, NULL };
  SlKernelDetails bare = { { 1, 1, 1 }, { 32, 1, 1 }, -1, -1, -1, NULL };
  g_autoptr(GPtrArray) plain = sl_event_info_fields (f->model, &k0, NULL, FALSE);
  g_autoptr(GPtrArray) full = sl_event_info_fields (f->model, &k0, &det, FALSE);
  g_autoptr(GPtrArray) partial = sl_event_info_fields (f->model, &k0, &bare, FALSE);
  g_autofree char *tip = sl_event_info_tooltip (f->model, &k0, &det, FALSE);
  guint stream = 0, grid = 0;

  /* without details the launch configuration is left out */
  g_assert_cmpstr (field_value (plain, "Kernel", NULL), ==, "plain_kernel");
  g_assert_cmpstr (field_value (plain, "Duration", NULL), ==, "100 ns");
  g_assert_cmpstr (field_value (plain, "Stream", NULL), ==, "7");
  g_assert_cmpstr (field_value (plain, "Launched by", NULL), ==, "cudaLaunchKernel");
  g_assert_null (field_value (plain, "Grid", NULL));
  g_assert_null (field_value (plain, "Registers/thread", NULL));

  /* with them, four fields at the end: every field before stays in place */
  g_assert_cmpuint (full->len, ==, plain->len + 4);
  g_assert_cmpstr (field_value (full, "Stream", &stream), ==, "7");
  g_assert_cmpstr (field_value (full, "Grid", &grid), ==, "120 × 2 × 1");
  g_assert_cmpuint (grid, ==, plain->len);
  for (guint i = 0; i < plain->len; i++)
    g_assert_cmpstr (((SlEventField *) g_ptr_array_index (full, i))->label, ==,
                     ((SlEventField *) g_ptr_array_index (plain, i))->label);
  g_assert_cmpstr (field_value (full, "Block", NULL), ==, "256 × 1 × 1");
  g_assert_cmpstr (field_value (full, "Registers/thread", NULL), ==, "64");
  /* g_format_size() joins number and unit with a no-break space */
  g_assert_cmpstr (field_value (full, "Shared memory", NULL), ==, "1.0\302\240KiB static, 0 bytes dynamic");

  /* while they are read, rows say so where they will be: the link below stays put */
  {
    g_autoptr(GPtrArray) reading = sl_event_info_fields (f->model, &k0, sl_event_info_details_reading (), FALSE);
    guint link_reading = 0, link_full = 0;

    g_assert_cmpuint (reading->len, ==, full->len);
    g_assert_cmpstr (field_value (reading, "Grid", NULL), ==, "reading…");
    g_assert_cmpstr (field_value (reading, "Shared memory", NULL), ==, "reading…");
    g_assert_cmpstr (field_value (reading, "Launched by", &link_reading), ==, "cudaLaunchKernel");
    g_assert_cmpstr (field_value (full, "Launched by", &link_full), ==, "cudaLaunchKernel");
    g_assert_cmpuint (link_reading, ==, link_full);
  }

  /* unknown registers and shared memory (-1) are left out too, the link
   * still where it was */
  g_assert_cmpuint (partial->len, ==, plain->len + 2);
  {
    guint link_plain = 0, link_partial = 0;

    g_assert_nonnull (field_value (plain, "Launched by", &link_plain));
    g_assert_nonnull (field_value (partial, "Launched by", &link_partial));
    g_assert_cmpuint (link_plain, ==, link_partial);
  }
  g_assert_null (field_value (partial, "Shared memory", NULL));

  g_assert_true (g_str_has_prefix (tip, "<b>plain_kernel</b>"));
  g_assert_nonnull (strstr (tip, "Grid:</span> 120 × 2 × 1"));
}

static void
test_format (void)
{
  struct { gint64 ns; const char *text; } durations[] = {
    { 999, "999 ns" }, { 1500, "1.50 µs" }, { 12345678, "12.3 ms" }, { 2500000000, "2.50 s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (durations); i++)
    {
      g_autofree char *s = sl_format_duration (durations[i].ns);
      g_assert_cmpstr (s, ==, durations[i].text);
    }
  {
    g_autofree char *a = sl_format_time (2000, 2000);
    g_autofree char *b = sl_format_time (1500000, 500000);
    g_autofree char *c = sl_format_time (1250, 50);
    g_assert_cmpstr (a, ==, "2 µs");
    g_assert_cmpstr (b, ==, "1.5 ms");
    g_assert_cmpstr (c, ==, "1250 ns");
  }
  {
    g_autofree char *a = sl_format_timestamp (1715654320);
    g_autofree char *b = sl_format_timestamp (12345);
    g_assert_cmpstr (a, ==, "1.715654320 s");
    g_assert_cmpstr (b, ==, "12.345 µs");
  }
}

static void
test_ticks (Fixture *f, gconstpointer data)
{
  g_autofree char *label = NULL;

  /* 10 ns/px, at least 110 px: 1100 ns -> the next 1-2-5 step is 2000 */
  g_assert_cmpint (sl_timeline_layout_tick_step (f->layout, 110), ==, 2000);
  /* 0.01 ns/px: 1.1 ns -> 2 */
  sl_timeline_layout_set_view (f->layout, 1500, 0.01);
  g_assert_cmpint (sl_timeline_layout_tick_step (f->layout, 110), ==, 2);
  label = sl_timeline_layout_format_tick (f->layout, 1000 + 2000, 2000);
  g_assert_cmpstr (label, ==, "2 µs");
  g_clear_pointer (&label, g_free);
  /* far from the start the unit follows the magnitude, the decimals the step */
  label = sl_timeline_layout_format_tick (f->layout, 1000 + G_GINT64_CONSTANT (16305326000), 2000);
  g_assert_cmpstr (label, ==, "16.305326 s");
  g_clear_pointer (&label, g_free);
  label = sl_timeline_layout_format_tick (f->layout, 1000 + 1500000, 500000);
  g_assert_cmpstr (label, ==, "1.5 ms");
}

/* Profile B: 8192 kernels of 1 ns every 4 ns over 0..32768, enough for a pyramid. */
static SlProfile *
profile_b (void)
{
  static const char *const funcs[] = { "plain_kernel" };
  SlProfile *p = profile_new (0, 32768);
  guint n = 8192;
  g_autofree gint64 *s = g_new (gint64, n);
  g_autofree gint64 *d = g_new (gint64, n);

  for (guint i = 0; i < n; i++)
    {
      s[i] = 4 * (gint64) i;
      d[i] = 1;
    }
  add_funcs (p, funcs, G_N_ELEMENTS (funcs));
  add_gpu_stream (p, n, s, d);
  return profile_done (p);
}

static void
test_pyramid (void)
{
  g_autoptr(SlProfile) p = profile_b ();
  g_autoptr(SlTimelineModel) m = sl_timeline_model_new (p, NULL);
  const SlLod *lod = &m->rows[1].lod;
  SlTimelineLayout *l = sl_timeline_layout_new (m);
  SlRowColumns c;
  float want = 64.0f / 255.0f;

  /* (32768 - 1) >> 2 + 1 = 8192 buckets of 4 ns: one event each.
   * Levels of 4, 16, 64, ... ns: 8192, 2048, 512, 128, 32, 8, 2, 1. */
  g_assert_cmpuint (lod->shift0, ==, 2);
  g_assert_cmpuint (lod->n_levels, ==, 8);
  g_assert_cmpuint (lod->n[0], ==, 8192);
  g_assert_cmpuint (lod->n[7], ==, 1);
  /* 1 busy ns in 4: round (0.25 * 255) = 64, and the average stays 64 above */
  g_assert_cmpuint (lod->cov[0][0], ==, 64);
  g_assert_cmpuint (lod->cov[0][8191], ==, 64);
  g_assert_cmpuint (lod->cov[3][17], ==, 64);
  g_assert_cmpuint (lod->color[2][5], ==, SL_COLOR_OTHER);
  /* 2 bytes per bucket: 2 * 10923, against 28 bytes per kernel */
  g_assert_cmpuint (m->lod_bytes, ==, 2 * 10923);
  g_assert_cmpuint (m->event_bytes, ==, 8192 * 28);
  g_assert_cmpfloat ((double) m->lod_bytes / m->event_bytes, <=, 0.25);

  /* 128 px: 256 ns/px -> level floor ((log2 (128) - 2) / 2) = 2, buckets of
   * 64 ns, four per column, each adding 64/255 * 0.25 */
  sl_timeline_layout_set_size (l, 220 + 128, 400);
  g_assert_cmpfloat (l->px_ns, ==, 256);
  sl_timeline_layout_row_columns (l, 1, &c);
  g_assert_cmpint (c.lod_level, ==, 2);
  g_assert_cmpuint (c.n_visited, ==, 128 * 5);
  for (int x = 0; x < 128; x++)
    {
      g_assert_cmpfloat_with_epsilon (c.cov[x], want, 1e-5);
      g_assert_cmpuint (c.color[x], ==, SL_COLOR_OTHER);
    }

  /* 2 ns/px shows 64 events: drawn from the events, 0.5 px each at even x */
  sl_timeline_layout_set_view (l, 0, 2);
  sl_timeline_layout_row_columns (l, 1, &c);
  g_assert_cmpint (c.lod_level, ==, -1);
  g_assert_cmpuint (c.n_boxes, ==, 0);
  g_assert_cmpfloat_with_epsilon (c.cov[0], 0.5, 1e-6);
  g_assert_cmpfloat (c.cov[1], ==, 0);
  g_assert_cmpfloat_with_epsilon (c.cov[126], 0.5, 1e-6);

  /* the minimap: the GPU's utilization in each column, kernels 1 ns in 4
   * (not normalised to the busiest column) */
  {
    const float *v;
    const guint8 *col;
    sl_timeline_layout_overview (l, &v, &col);
    g_assert_cmpfloat_with_epsilon (v[0], 0.25, 1e-5);
    g_assert_cmpfloat_with_epsilon (v[127], 0.25, 1e-5);
  }
  sl_timeline_layout_free (l);
}

static void
test_render (void)
{
  g_autoptr(SlProfile) p = profile_a ();
  g_autoptr(SlTimelineModel) m = sl_timeline_model_new (p, NULL);
  g_autoptr(SlTimelineRenderer) r = sl_timeline_renderer_new ();
  SlTimelineLayout *l = sl_timeline_layout_new (m);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 420, 300);
  SlTimelineStyle style;
  SlRenderStats st;
  guint32 *px;
  int stride;

  sl_timeline_layout_set_size (l, 420, 300);
  sl_timeline_style_init (&style, FALSE, 1.0);
  sl_timeline_renderer_draw (r, l, &style, s, &st);
  cairo_surface_flush (s);
  px = (guint32 *) (void *) cairo_image_surface_get_data (s);
  stride = cairo_image_surface_get_stride (s) / 4;

  g_assert_cmpuint (st.n_rows, ==, 8);
  /* 200 px body, 5 ns/px: k3 [1500,1900) covers x 100..180 of the stream row
   * (y 90..112, 2 px padding); its colour is the "other" kernel colour */
  g_assert_cmphex (px[93 * stride + 220 + 140] & 0xffffff, ==, sl_timeline_color_rgb (SL_COLOR_OTHER));
  /* between k0 and k1 the row is background */
  g_assert_cmphex (px[100 * stride + 220 + 30] & 0xffffff, ==, style.bg);
  /* padding line above the box stays background */
  g_assert_cmphex (px[90 * stride + 220 + 140] & 0xffffff, ==, style.bg);

  cairo_surface_destroy (s);
  sl_timeline_layout_free (l);
}

/* Start/end ranges of one thread as the loader lays them out (by lane,
 * then start): "r0" [1000,1600) and "r2" [1700,1900) in lane 0, "r1"
 * [1200,1800) in lane 1, as indexes 0, 1, 2.
 * Rows: 0 process, 1 thread, 2 start/end lane 1, 3 start/end lane 2. */
static void
test_startend_lanes (void)
{
  static const gint64 rs[] = { 1000, 1700, 1200 }, rd[] = { 600, 200, 600 };
  g_autoptr(SlProfile) p = profile_new (1000, 2000);
  SlThread *th = add_process_thread (p);
  SlTimelineLayout *l;
  SlEventRef ev, r1 = { SL_EVENT_NVTX_STARTEND, 0, 2 };
  int y2, y3, h;

  spans_fill (&th->nvtx_startend.spans, 3, rs, rd);
  th->nvtx_startend.name = g_new0 (guint32, 3);
  th->nvtx_startend.parent = g_new (guint32, 3);
  for (guint i = 0; i < 3; i++)
    th->nvtx_startend.parent[i] = SL_NONE;
  th->nvtx_startend.n_depths = 2;
  th->nvtx_startend.depth_first = g_new0 (guint, 3);
  th->nvtx_startend.depth_first[1] = 2;
  th->nvtx_startend.depth_first[2] = 3;
  profile_done (p);

  g_autoptr(SlTimelineModel) m = sl_timeline_model_new (p, NULL);
  g_assert_cmpuint (m->n_rows, ==, 4);
  g_assert_cmpint (m->rows[2].kind, ==, SL_ROW_NVTX_STARTEND);
  g_assert_cmpint (m->rows[3].kind, ==, SL_ROW_NVTX_STARTEND);
  g_assert_cmpuint (m->rows[2].n_events, ==, 2);
  g_assert_cmpuint (m->rows[3].n_events, ==, 1);
  g_assert_cmpuint (sl_timeline_model_event_row (m, &r1), ==, 3);
  g_autofree char *title = sl_timeline_row_title (m, 3);
  g_assert_cmpstr (title, ==, "NVTX start/end · lane 2");

  /* 10 ns/px: x 250 is 1300 ns, where r0 (lane 1) and r1 (lane 2) both run */
  l = sl_timeline_layout_new (m);
  sl_timeline_layout_set_size (l, 220 + 100, 600);
  g_assert_true (sl_timeline_layout_row_rect (l, 2, &y2, &h));
  g_assert_true (sl_timeline_layout_row_rect (l, 3, &y3, &h));
  g_assert_true (sl_timeline_layout_hit_test (l, 250, y2 + h / 2, &ev));
  g_assert_cmpint (ev.kind, ==, SL_EVENT_NVTX_STARTEND);
  g_assert_cmpuint (ev.index, ==, 0);
  g_assert_true (sl_timeline_layout_hit_test (l, 250, y3 + h / 2, &ev));
  g_assert_cmpuint (ev.index, ==, 2);
  /* 1750 ns: r2 in lane 1, r1 in lane 2 */
  g_assert_true (sl_timeline_layout_hit_test (l, 295, y2 + h / 2, &ev));
  g_assert_cmpuint (ev.index, ==, 1);
  g_assert_true (sl_timeline_layout_hit_test (l, 295, y3 + h / 2, &ev));
  g_assert_cmpuint (ev.index, ==, 2);
  sl_timeline_layout_free (l);
}

/* Profile A's GPU rows alone, as a staged load shows them first: the same
 * stream, no API calls (the kernels not linked), no threads. */
static SlProfile *
profile_a_gpu (void)
{
  SlProfile *p = profile_new (1000, 2000);
  static const gint64 ks[] = { 1000, 1200, 1203, 1500, 1990 }, kd[] = { 100, 2, 3, 400, 10 };
  static const char *const funcs[] = { "plain_kernel", "ncclDevKernel_AllReduce", "sm90_gemm_kernel" };
  SlStream *st;

  p->parts = SL_PARTS_GPU;
  add_funcs (p, funcs, G_N_ELEMENTS (funcs));
  st = add_gpu_stream (p, 5, ks, kd);
  st->pid = 42;
  st->stream = 7;
  for (guint i = 0; i < 5; i++)
    st->kernels.api[i] = SL_NONE;
  return profile_done (p);
}

/* The view moves from the GPU rows' layout to the complete profile's. */
static void
test_carry_view (Fixture *f, gconstpointer data)
{
  g_autoptr(SlProfile) gpu = profile_a_gpu ();
  g_autoptr(SlTimelineModel) gm = sl_timeline_model_new (gpu, NULL);
  SlTimelineLayout *from = sl_timeline_layout_new (gm);
  SlTimelineLayout *to = sl_timeline_layout_new (f->model);
  int y, h;

  /* rows of the GPU model: 0 GPU, 1 stream */
  g_assert_cmpuint (gm->n_rows, ==, 2);
  sl_timeline_layout_set_scale (from, 2.0);
  sl_timeline_layout_set_size (from, 2 * (220 + 100), 600);
  sl_timeline_layout_zoom_to (from, 1200, 1300, 0);
  sl_timeline_layout_set_collapsed (from, 0, TRUE);
  from->relative_time = FALSE;
  from->has_range = TRUE;
  from->range_start = 1210;
  from->range_end = 1220;

  sl_timeline_layout_carry_view (to, from);
  g_assert_true (to->sized);
  g_assert_cmpfloat (to->scale, ==, 2.0);
  g_assert_cmpint (to->width, ==, 640);
  g_assert_cmpint (to->height, ==, 600);
  g_assert_cmpfloat (fabs (to->t0 - 1200), <, 1e-6);
  g_assert_cmpfloat (fabs (to->px_ns - from->px_ns), <, 1e-9);
  g_assert_false (to->relative_time);
  g_assert_true (to->has_range);
  g_assert_cmpint (to->range_start, ==, 1210);
  /* the GPU group stays folded (its stream hidden); the new process is not */
  g_assert_true (sl_timeline_layout_get_collapsed (to, 0));
  g_assert_false (sl_timeline_layout_row_rect (to, 1, &y, &h));
  g_assert_false (sl_timeline_layout_get_collapsed (to, 2));
  g_assert_true (sl_timeline_layout_row_rect (to, 4, &y, &h));
  sl_timeline_layout_free (from);
  sl_timeline_layout_free (to);
}

/* A kernel of the GPU rows says where its launching call is. */
static void
test_kernel_info_staged (void)
{
  g_autoptr(SlProfile) gpu = profile_a_gpu ();
  g_autoptr(SlTimelineModel) gm = sl_timeline_model_new (gpu, NULL);
  SlEventRef k0 = { SL_EVENT_KERNEL, 0, 0 };
  g_autoptr(GPtrArray) loading = sl_event_info_fields (gm, &k0, NULL, TRUE);
  g_autoptr(GPtrArray) stopped = sl_event_info_fields (gm, &k0, NULL, FALSE);
  g_autofree char *tip = sl_event_info_tooltip (gm, &k0, NULL, TRUE);

  g_assert_cmpstr (field_value (loading, "Kernel", NULL), ==, "plain_kernel");
  g_assert_cmpstr (field_value (loading, "Launched by", NULL), ==, "still loading (CUDA API calls are being read)");
  g_assert_cmpstr (field_value (stopped, "Launched by", NULL), ==, "not loaded (CUDA API calls were not read)");
  /* its correlation id is its call's: not shown rather than wrong */
  g_assert_null (field_value (loading, "Correlation ID", NULL));
  g_assert_nonnull (strstr (tip, "still loading"));
}

/* Issue 10: the clock's ends.  The loader keeps times in [-2^62, 2^62), so
 * a profile can span 2^63 - 1 ns and hold an event nearly that long:
 *   k0 [-2^62, -2^62 + 1000), k1 [-2^62 + 2000, 2^62 - 2) (in the long
 *   duration table), k2 [2^62 - 1001, 2^62 - 1); marks at both ends.
 * Mapping, culling, the pyramid, the minimap, the ruler and hit testing
 * must all stay defined (the sanitizer build runs this too). */
static void
test_extreme_times (void)
{
  const gint64 lo = -(G_GINT64_CONSTANT (1) << 62), hi = (G_GINT64_CONSTANT (1) << 62) - 1;
  const gint64 ks[] = { lo, lo + 2000, hi - 1000 }, kd[] = { 1000, 0, 1000 };
  static const char *const funcs[] = { "plain_kernel" };
  g_autoptr(SlProfile) p = profile_new (lo, hi);
  g_autoptr(SlTimelineRenderer) r = sl_timeline_renderer_new ();
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1220, 300);
  SlTimelineStyle style;
  SlRenderStats st;
  SlStream *stream;
  SlThread *th;
  SlEventRef ev;
  double x0, x1;
  int y, h;

  add_funcs (p, funcs, G_N_ELEMENTS (funcs));
  stream = add_gpu_stream (p, 3, ks, kd);
  stream->kernels.spans.dur[1] = SL_LONG_DUR;
  stream->kernels.spans.n_long = 1;
  stream->kernels.spans.long_index = g_new0 (guint32, 1);
  stream->kernels.spans.long_index[0] = 1;
  stream->kernels.spans.long_dur = g_new0 (gint64, 1);
  stream->kernels.spans.long_dur[0] = (hi - 1) - (lo + 2000);
  for (guint i = 0; i < 3; i++)
    stream->kernels.api[i] = SL_NONE;
  p->gpus[0].has_activity = TRUE;
  th = add_process_thread (p);
  th->marks.n = 2;
  th->marks.time = g_new0 (gint64, 2);
  th->marks.time[0] = lo;
  th->marks.time[1] = hi;
  th->marks.name = g_new0 (guint32, 2);
  th->marks.color = g_new0 (guint32, 2);
  th->marks.domain = g_new0 (guint16, 2);
  profile_done (p);

  g_autoptr(SlTimelineModel) m = sl_timeline_model_new (p, NULL);
  SlTimelineLayout *l = sl_timeline_layout_new (m);
  sl_timeline_layout_set_size (l, 1220, 300);
  sl_timeline_style_init (&style, FALSE, 1.0);
  g_assert_true (sl_timeline_layout_row_rect (l, 1, &y, &h));

  /* the whole run: the long kernel fills the stream row */
  sl_timeline_renderer_draw (r, l, &style, s, &st);
  g_assert_cmpfloat (l->px_ns * 1000, >=, (double) hi - (double) lo);
  g_assert_true (sl_timeline_layout_hit_test (l, 220 + 500, y + h / 2, &ev));
  g_assert_cmpuint (ev.index, ==, 1);
  for (int x = 220; x < 1220; x += 7)
    sl_timeline_layout_hit_test (l, x, y + h / 2, &ev);
  g_assert_true (sl_timeline_layout_event_rect (l, &ev, &x0, &x1, &y, &h));

  /* either end at 1 ns/px: k0 and k2 are hit where they are drawn */
  sl_timeline_layout_zoom_to (l, lo, lo + 1000, 0);
  sl_timeline_renderer_draw (r, l, &style, s, &st);
  g_assert_true (sl_timeline_layout_hit_test (l, 220 + 10, y + h / 2, &ev));
  g_assert_cmpuint (ev.index, ==, 0);
  sl_timeline_layout_zoom_to (l, hi - 1000, hi, 0);
  sl_timeline_renderer_draw (r, l, &style, s, &st);
  g_assert_true (sl_timeline_layout_hit_test (l, 220 + 990, y + h / 2, &ev));
  g_assert_cmpuint (ev.index, ==, 2);

  /* pans and zooms far past the ends clamp to the run */
  sl_timeline_layout_pan (l, 1e300);
  sl_timeline_layout_zoom_at (l, 500, 1e300);
  sl_timeline_layout_zoom_at (l, 500, 1e-300);
  sl_timeline_layout_pan (l, -1e300);
  sl_timeline_renderer_draw (r, l, &style, s, &st);
  g_assert_cmpfloat (l->t0, >=, (double) lo);
  sl_timeline_layout_fit_all (l);
  sl_timeline_renderer_draw (r, l, &style, s, &st);

  /* tick labels 2^63 - 1 ns from the start, relative and absolute */
  g_free (sl_timeline_layout_format_tick (l, hi, sl_timeline_layout_tick_step (l, 110)));
  g_free (sl_timeline_layout_format_tick (l, G_MAXINT64, 1));
  g_free (sl_timeline_layout_format_tick (l, G_MININT64, 1));
  l->relative_time = FALSE;
  sl_timeline_renderer_draw (r, l, &style, s, &st);

  cairo_surface_destroy (s);
  sl_timeline_layout_free (l);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define FIX(path, fn) g_test_add (path, Fixture, NULL, fixture_a_setup, fn, fixture_teardown)
  FIX ("/widgets/timeline/rows", test_rows);
  FIX ("/widgets/timeline/mapping", test_mapping);
  FIX ("/widgets/timeline/zoom-anchor", test_zoom_anchor);
  FIX ("/widgets/timeline/merge-fit", test_merge_fit);
  FIX ("/widgets/timeline/culling", test_culling);
  FIX ("/widgets/timeline/hit-test", test_hit);
  FIX ("/widgets/timeline/links", test_links);
  FIX ("/widgets/timeline/kernel-info", test_kernel_info);
  FIX ("/widgets/timeline/ticks", test_ticks);
  FIX ("/widgets/timeline/carry-view", test_carry_view);
#undef FIX
  g_test_add_func ("/widgets/timeline/format", test_format);
  g_test_add_func ("/widgets/timeline/pyramid", test_pyramid);
  g_test_add_func ("/widgets/timeline/render", test_render);
  g_test_add_func ("/widgets/timeline/startend-lanes", test_startend_lanes);
  g_test_add_func ("/widgets/timeline/kernel-info-staged", test_kernel_info_staged);
  g_test_add_func ("/widgets/timeline/extreme-times", test_extreme_times);
  return g_test_run ();
}
