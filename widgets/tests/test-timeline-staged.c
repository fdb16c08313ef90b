/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-timeline-staged.c: the timeline model of a staged load's complete
 * profile copies the pyramids of the GPU rows' model (the two profiles
 * share the streams' arrays) and builds only the CPU rows', on a generated
 * profile whose streams are large enough to have pyramids. */
#include "sl-timeline-layout.h"
#include "sl-timeline-minimap.h"
#include "sl-timeline-gpu-rows.h"
#include "sl-timeline-model-private.h"
#include "sl-test-util.h"

#include <math.h>
#include <string.h>

static void
gpu_ready_cb (SlProfile *gpu, gpointer data)
{
  *(SlProfile **) data = sl_profile_ref (gpu);
}

static const SlTimelineRow *
find_row (const SlTimelineModel *m, const SlTimelineRow *like)
{
  for (guint r = 0; r < m->n_rows; r++)
    if (m->rows[r].kind == like->kind && m->rows[r].index == like->index && m->rows[r].depth == like->depth)
      return &m->rows[r];
  return NULL;
}

static void
assert_same_pyramid (const SlLod *a, const SlLod *b)
{
  g_assert_cmpuint (a->n_levels, ==, b->n_levels);
  g_assert_cmpint (a->origin, ==, b->origin);
  g_assert_cmpuint (a->shift0, ==, b->shift0);
  for (guint l = 0; l < a->n_levels; l++)
    {
      g_assert_cmpuint (a->n[l], ==, b->n[l]);
      /* a copy, not the same buffers: each model frees its own */
      g_assert_true (a->cov[l] != b->cov[l]);
      g_assert_cmpmem (a->cov[l], a->n[l], b->cov[l], b->n[l]);
      g_assert_cmpmem (a->color[l], a->n[l], b->color[l], b->n[l]);
    }
}

/* The minimaps of two models of the same profile, 1000 columns wide. */
static void
assert_same_minimap (SlTimelineModel *a, SlTimelineModel *b)
{
  SlTimelineLayout *la = sl_timeline_layout_new (a), *lb = sl_timeline_layout_new (b);
  const float *va, *vb;
  const guint8 *ca, *cb;
  double sum_a = 0, sum_b = 0;

  sl_timeline_layout_set_size (la, 220 + 1000, 600);
  sl_timeline_layout_set_size (lb, 220 + 1000, 600);
  sl_timeline_layout_overview (la, &va, &ca);
  sl_timeline_layout_overview (lb, &vb, &cb);
  for (int c = 0; c < 1000; c++)
    {
      /* bins of other edges: a column differs by a share of a bin */
      g_assert_cmpfloat (fabs (va[c] - vb[c]), <, 0.1);
      sum_a += va[c];
      sum_b += vb[c];
    }
  g_assert_cmpfloat (sum_a, >, 0);
  g_assert_cmpfloat (fabs (sum_a - sum_b), <, 0.01 * sum_b);
  sl_timeline_layout_free (la);
  sl_timeline_layout_free (lb);
}

/* The utilization of @a's GPUs, taken over from @gm, agrees with @fresh's
 * (built over the whole profile's range, so bins of other edges). */
static void
assert_util_carried (SlTimelineModel *a, SlTimelineModel *gm, SlTimelineModel *fresh)
{
  const SlProfile *p = fresh->profile;
  double px = (double) (p->end_ns - p->start_ns) / 500;
  guint checked = 0;

  for (guint g = 0; g < p->n_gpus; g++)
    {
      float x[500], y[500];

      if (fresh->util[g].cum == NULL)
        continue;
      /* a copy of the GPU rows' table, not the same buffer */
      g_assert_nonnull (a->util[g].cum);
      g_assert_true (a->util[g].cum != gm->util[g].cum);
      g_assert_true (sl_timeline_gpu_util_columns (a, g, p->start_ns, px, 500, x));
      g_assert_true (sl_timeline_gpu_util_columns (fresh, g, p->start_ns, px, 500, y));
      for (int c = 0; c < 500; c++)
        g_assert_cmpfloat (fabs (x[c] - y[c]), <, 0.05);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 1);
}

/* A model of the very same profile (the CPU stage's) carries the NVTX
 * (projected) spans over: the same as a fresh build's, in its own arrays. */
static void
assert_projected_carried (SlTimelineModel *fm, SlTimelineModel *fresh)
{
  g_autoptr(SlTimelineModel) cm = sl_timeline_model_new_full (fresh->profile, fm, NULL, NULL, NULL);
  guint spans = 0;

  for (guint g = 0; g < fresh->profile->n_gpus; g++)
    {
      const SlProjected *a = &cm->projected[g], *b = &fresh->projected[g];

      g_assert_cmpuint (a->spans.n, ==, b->spans.n);
      g_assert_cmpuint (a->n_lanes, ==, b->n_lanes);
      if (b->spans.n == 0)
        continue;
      g_assert_true (a->spans.start != fm->projected[g].spans.start);
      g_assert_cmpmem (a->spans.start, a->spans.n * sizeof (gint64), b->spans.start, b->spans.n * sizeof (gint64));
      g_assert_cmpmem (a->spans.dur, a->spans.n * sizeof (guint32), b->spans.dur, b->spans.n * sizeof (guint32));
      g_assert_cmpmem (a->range, a->spans.n * sizeof (guint32), b->range, b->spans.n * sizeof (guint32));
      g_assert_cmpmem (a->lane_first, (a->n_lanes + 1) * sizeof (guint), b->lane_first, (b->n_lanes + 1) * sizeof (guint));
      spans += a->spans.n;
    }
  g_assert_cmpuint (spans, >, 0);
  g_assert_cmpuint (cm->n_rows, ==, fresh->n_rows);
}

static void
test_pyramids_carried (void)
{
  const SlTestFixture *f = sl_test_fixture ("staged", "--gpus 1 --streams 2 --processes 1 --threads 1 "
                                            "--kernels 20000 --iterations 4 --nvtx-depth 2 --seed 3");
  g_autoptr(SlProfile) gpu = NULL;
  SlLoadOptions options = { .gpu_ready = gpu_ready_cb, .gpu_ready_data = &gpu };
  g_autoptr(SlProfile) full = sl_profile_load_with (f->path, &options, NULL, NULL, NULL, NULL);
  g_autoptr(SlTimelineModel) gm = sl_timeline_model_new (gpu, NULL);
  g_autoptr(SlTimelineModel) fresh = sl_timeline_model_new (full, NULL);
  SlTimelineModel *fm = sl_timeline_model_new_from (full, gm, NULL);
  guint carried = 0, built = 0;

  g_assert_nonnull (full);
  /* the CPU side starts first: the two profiles' time ranges differ */
  g_assert_cmpint (full->start_ns, <, gpu->start_ns);
  g_assert_cmpuint (fm->n_rows, ==, fresh->n_rows);
  for (guint r = 0; r < fm->n_rows; r++)
    {
      const SlTimelineRow *row = &fm->rows[r];
      const SlTimelineRow *g = find_row (gm, row);

      g_assert_cmpint (row->kind, ==, fresh->rows[r].kind);
      g_assert_cmpuint (row->n_events, ==, fresh->rows[r].n_events);
      g_assert_cmpuint (row->lod.n_levels > 0, ==, fresh->rows[r].lod.n_levels > 0);
      if (row->lod.n_levels == 0)
        continue;
      if (row->kind == SL_ROW_STREAM)
        {
          /* built over the GPU profile's time range, and kept so */
          g_assert_nonnull (g);
          assert_same_pyramid (&row->lod, &g->lod);
          g_assert_cmpint (row->lod.origin, ==, gpu->start_ns);
          carried++;
        }
      else
        {
          g_assert_null (g);
          g_assert_cmpint (row->lod.origin, ==, full->start_ns);
          built++;
        }
    }
  g_assert_cmpuint (carried, >=, 1);
  g_assert_cmpuint (built, >=, 1);
  g_assert_cmpuint (fm->lod_bytes, >, 0);
  /* the GPUs' utilization too, over the GPU rows' time range; the
   * minimap drawn from it agrees with one built over the whole profile */
  g_assert_cmpint (fm->busy_t0, ==, gpu->start_ns);
  g_assert_cmpmem (fm->busy, SL_TIMELINE_BUSY_BINS * sizeof (float), gm->busy, SL_TIMELINE_BUSY_BINS * sizeof (float));
  assert_same_minimap (fm, fresh);
  assert_util_carried (fm, gm, fresh);
  assert_projected_carried (fm, fresh);
  /* the GPU model goes first, as in the application */
  g_clear_pointer (&gm, sl_timeline_model_unref);
  g_assert_cmpuint (fm->rows[0].kind, ==, SL_ROW_GPU);
  sl_timeline_model_unref (fm);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/timeline/staged-pyramids", test_pyramids_carried);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
