/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-profile-subset.c: a profile with part of its parent's GPU work
 * (sl_profile_new_subset): exactly the chosen events, counts recomputed,
 * the CPU side shared, analyses on it equal to the same sums over the
 * parent's chosen events. */
#include "sl-test-util.h"

static gboolean
keep_all (const SlProfile *p, guint32 stream, SlWorkKind kind, guint index, gpointer data)
{
  return TRUE;
}

/* Every other kernel by function, no copies. */
static gboolean
keep_even_funcs (const SlProfile *p, guint32 stream, SlWorkKind kind, guint index, gpointer data)
{
  return kind == SL_WORK_KERNEL && p->streams[stream].kernels.func[index] % 2 == 0;
}

static void
assert_kernels_equal (const SlProfile *pa, const SlKernels *a, guint i, const SlProfile *pb, const SlKernels *b, guint j)
{
  g_assert_cmpint (a->spans.start[i], ==, b->spans.start[j]);
  g_assert_cmpint (sl_spans_dur (&a->spans, i), ==, sl_spans_dur (&b->spans, j));
  g_assert_cmpuint (a->func[i], ==, b->func[j]);
  g_assert_cmpuint (a->api[i], ==, b->api[j]);
  g_assert_cmpuint (sl_kernels_corr (pa, a, i), ==, sl_kernels_corr (pb, b, j));
}

/* The subset holds the chosen kernels in their order, each equal to its original. */
static guint64
check_chosen_kernels (const SlProfile *parent, const SlProfile *subset, SlWorkKeepFunc keep)
{
  guint64 total = 0;

  g_assert_cmpuint (subset->n_streams, ==, parent->n_streams);
  for (guint s = 0; s < parent->n_streams; s++)
    {
      const SlKernels *in = &parent->streams[s].kernels, *out = &subset->streams[s].kernels;
      guint j = 0;

      g_assert_cmpuint (subset->streams[s].stream, ==, parent->streams[s].stream);
      for (guint i = 0; i < in->spans.n; i++)
        if (keep (parent, s, SL_WORK_KERNEL, i, NULL))
          {
            g_assert_cmpuint (j, <, out->spans.n);
            assert_kernels_equal (parent, in, i, subset, out, j++);
            total += sl_spans_dur (&in->spans, i);
          }
      g_assert_cmpuint (j, ==, out->spans.n);
    }
  return total;
}

static void
test_real (gconstpointer data)
{
  g_autofree char *path = sl_test_real_profile (data);
  g_autoptr(SlProfile) parent = sl_test_load (path);
  g_autoptr(SlProfile) all = sl_profile_new_subset (parent, keep_all, NULL);
  g_autoptr(SlProfile) even = sl_profile_new_subset (parent, keep_even_funcs, NULL);
  g_autoptr(SlKernelSummary) summary = NULL;
  guint64 even_total;

  /* keeping everything changes nothing */
  g_assert_cmpuint (all->counts.kernels, ==, parent->counts.kernels);
  g_assert_cmpuint (all->counts.memcpy, ==, parent->counts.memcpy);
  g_assert_cmpuint (all->counts.kernels_linked, ==, parent->counts.kernels_linked);
  check_chosen_kernels (parent, all, keep_all);

  /* a real choice: exactly those kernels, no copies, counts recomputed */
  even_total = check_chosen_kernels (parent, even, keep_even_funcs);
  g_assert_cmpuint (even->counts.memcpy + even->counts.memset, ==, 0);
  for (guint g = 0; g < even->n_gpus; g++)
    {
      guint64 n = 0;
      for (guint k = 0; k < even->gpus[g].n_streams; k++)
        n += even->streams[even->gpus[g].streams[k]].kernels.spans.n;
      g_assert_cmpuint (even->gpus[g].n_kernels, ==, n);
    }
  /* the CPU side is the parent's */
  g_assert_true (even->threads == parent->threads && even->api.spans.start == parent->api.spans.start);
  g_assert_cmpint (even->start_ns, ==, parent->start_ns);

  /* an analysis on the subset sums the chosen kernels */
  summary = sl_kernel_summary_compute (even, NULL, SL_NAMES_SHORT, 0);
  g_assert_cmpint (summary->total_ns, ==, (gint64) even_total);
}

/* The subset keeps its parent alive: dropping the parent first is safe. */
static void
test_lifetime (void)
{
  g_autofree char *path = sl_test_real_profile ("pipit-saxpy-mpi-rank0.sqlite");
  SlProfile *parent = sl_test_load (path);
  SlProfile *subset = sl_profile_new_subset (parent, keep_even_funcs, NULL);
  const char *name;

  sl_profile_unref (parent);
  name = sl_profile_thread_name (subset, 0);
  g_assert_nonnull (name);
  g_assert_cmpstr (subset->path, ==, path);
  sl_profile_unref (subset);
}

int
main (int argc, char **argv)
{
  g_auto(GStrv) names = NULL;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("SL_PROFILES_DIR") == NULL)
    {
      g_test_skip ("SL_PROFILES_DIR is not set");
      return g_test_run ();
    }
  names = sl_test_real_profiles ();
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *base = g_path_get_basename (names[i]);
      g_autofree char *test = g_strdup_printf ("/analysis/profile-subset/real/%s", base);
      g_test_add_data_func_full (test, g_steal_pointer (&base), test_real, g_free);
    }
  g_test_add_func ("/analysis/profile-subset/lifetime", test_lifetime);
  return g_test_run ();
}
