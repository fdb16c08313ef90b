/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-session.c: SlSession, the view state every view shares: its
 * properties and notifications, scopes, back/forward history, and the
 * hand-over from a staged load's GPU model to the complete one. */
#include "sl-session.h"
#include "sl-profile-loader.h"

typedef struct {
  SlProfile       *profile;
  SlTimelineModel *model;
  SlSession       *session;
  GHashTable      *notified;   /* property name -> count */
} Fixture;

static void
count_notify_cb (GObject *object, GParamSpec *pspec, gpointer data)
{
  Fixture *f = data;
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (f->notified, pspec->name));

  g_hash_table_insert (f->notified, (gpointer) pspec->name, GUINT_TO_POINTER (n + 1));
}

static guint
notified (Fixture *f, const char *name)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (f->notified, name));
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (g_getenv ("SL_PROFILES_DIR"), "nsysai-h100-2gpu-1s.sqlite", NULL);
  g_autoptr(GError) error = NULL;

  f->profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  f->model = sl_timeline_model_new (f->profile, NULL);
  f->session = sl_session_new (f->model);
  f->notified = g_hash_table_new (g_str_hash, g_str_equal);
  g_signal_connect (f->session, "notify", G_CALLBACK (count_notify_cb), f);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_object_unref (f->session);
  sl_timeline_model_unref (f->model);
  sl_profile_unref (f->profile);
  g_hash_table_unref (f->notified);
}

/* The first kernel of the first stream that has one. */
static SlEventRef
some_kernel (const SlProfile *p, guint nth)
{
  for (guint s = 0; s < p->n_streams; s++)
    if (p->streams[s].kernels.spans.n > nth)
      return (SlEventRef) { SL_EVENT_KERNEL, s, nth };
  g_assert_not_reached ();
}

static void
test_defaults (Fixture *f, gconstpointer data)
{
  const SlTimeRange *visible = sl_session_get_visible_range (f->session);
  SlTimeRange scope;

  g_assert_cmpint (visible->start, ==, f->profile->start_ns);
  g_assert_cmpint (visible->end, ==, f->profile->end_ns);
  g_assert_null (sl_session_get_selected_range (f->session));
  g_assert_null (sl_session_get_selected_event (f->session));
  g_assert_cmpint (sl_session_get_scope (f->session), ==, SL_SCOPE_WHOLE);
  g_assert_cmpstr (sl_session_get_search (f->session), ==, "");
  g_assert_false (sl_session_can_go_back (f->session));
  g_assert_false (sl_session_can_go_forward (f->session));
  g_assert_true (sl_session_get_scope_range (f->session, &scope));
  g_assert_cmpint (scope.start, ==, f->profile->start_ns);
  g_assert_cmpint (scope.end, ==, f->profile->end_ns);
  g_assert_true (sl_session_get_profile (f->session) == f->profile);
}

static void
test_visible_range (Fixture *f, gconstpointer data)
{
  SlTimeRange range = { f->profile->start_ns + 1000, f->profile->start_ns + 5000 };
  SlTimeRange backwards = { 10, 5 };
  g_autoptr(SlTimeRange) got = NULL;

  sl_session_set_visible_range (f->session, &range);
  g_assert_cmpuint (notified (f, "visible-range"), ==, 1);
  /* the same range again is not a change */
  sl_session_set_visible_range (f->session, &range);
  g_assert_cmpuint (notified (f, "visible-range"), ==, 1);
  /* an empty or reversed window is refused */
  sl_session_set_visible_range (f->session, &backwards);
  g_assert_cmpuint (notified (f, "visible-range"), ==, 1);
  g_assert_cmpint (sl_session_get_visible_range (f->session)->start, ==, range.start);

  /* the boxed property carries the same value */
  g_object_get (f->session, "visible-range", &got, NULL);
  g_assert_cmpint (got->start, ==, range.start);
  g_assert_cmpint (got->end, ==, range.end);
}

static void
test_selection (Fixture *f, gconstpointer data)
{
  SlEventRef kernel = some_kernel (f->profile, 0);
  SlEventRef bogus = { SL_EVENT_KERNEL, 9999, 0 };
  SlTimeRange range = { 100, 200 };
  g_autoptr(SlEventRef) got = NULL;

  sl_session_set_selected_event (f->session, &kernel);
  g_assert_cmpuint (notified (f, "selected-event"), ==, 1);
  g_assert_cmpuint (sl_session_get_selected_event (f->session)->owner, ==, kernel.owner);
  g_object_get (f->session, "selected-event", &got, NULL);
  g_assert_cmpint (got->kind, ==, SL_EVENT_KERNEL);

  /* an event the profile does not have selects nothing */
  sl_session_set_selected_event (f->session, &bogus);
  g_assert_null (sl_session_get_selected_event (f->session));
  g_assert_cmpuint (notified (f, "selected-event"), ==, 2);

  sl_session_set_selected_range (f->session, &range);
  sl_session_set_selected_range (f->session, &range);
  g_assert_cmpuint (notified (f, "selected-range"), ==, 1);
  sl_session_set_selected_range (f->session, NULL);
  g_assert_null (sl_session_get_selected_range (f->session));
  g_assert_cmpuint (notified (f, "selected-range"), ==, 2);
}

static void
test_scope (Fixture *f, gconstpointer data)
{
  SlTimeRange range = { 300, 400 }, out;
  SlTimeRange bookmark = { 500, 900 };

  sl_session_set_scope (f->session, SL_SCOPE_SELECTION);
  g_assert_cmpuint (notified (f, "scope"), ==, 1);
  /* no selection: the scope has no range, and says so */
  g_assert_false (sl_session_get_scope_range (f->session, &out));
  sl_session_set_selected_range (f->session, &range);
  g_assert_true (sl_session_get_scope_range (f->session, &out));
  g_assert_cmpint (out.start, ==, 300);
  g_assert_cmpint (out.end, ==, 400);

  sl_session_set_scope (f->session, SL_SCOPE_BOOKMARK);
  g_assert_false (sl_session_get_scope_range (f->session, &out));
  sl_session_set_bookmark_range (f->session, &bookmark);
  g_assert_true (sl_session_get_scope_range (f->session, &out));
  g_assert_cmpint (out.end, ==, 900);

  sl_session_set_scope (f->session, SL_SCOPE_VISIBLE);
  g_assert_true (sl_session_get_scope_range (f->session, &out));
  g_assert_cmpint (out.start, ==, sl_session_get_visible_range (f->session)->start);

  g_object_set (f->session, "search", "gemm", NULL);
  g_assert_cmpstr (sl_session_get_search (f->session), ==, "gemm");
  g_assert_cmpuint (notified (f, "search"), ==, 1);

  /* NVTX names grouped by default; the toggle notifies once per change */
  g_assert_false (sl_session_get_exact_names (f->session));
  g_object_set (f->session, "exact-names", TRUE, NULL);
  sl_session_set_exact_names (f->session, TRUE);
  g_assert_true (sl_session_get_exact_names (f->session));
  g_assert_cmpuint (notified (f, "exact-names"), ==, 1);
}

static void
test_history (Fixture *f, gconstpointer data)
{
  gint64 t = f->profile->start_ns;
  SlTimeRange first = { t + 10, t + 20 }, second = { t + 30, t + 40 }, third = { t + 50, t + 60 };
  SlTimeRange whole = *sl_session_get_visible_range (f->session);
  SlEventRef kernel = some_kernel (f->profile, 1);
  SlTimeRange selected = { t + 31, t + 35 };

  g_assert_false (sl_session_go_back (f->session));

  sl_session_navigate_to (f->session, &first);
  g_assert_true (sl_session_can_go_back (f->session));
  g_assert_cmpuint (notified (f, "can-go-back"), ==, 1);
  sl_session_navigate_to (f->session, &second);
  sl_session_set_selected_event (f->session, &kernel);
  sl_session_set_selected_range (f->session, &selected);
  sl_session_navigate_to (f->session, &third);

  /* back restores the whole state of that moment: range, selection, event */
  g_assert_true (sl_session_go_back (f->session));
  g_assert_cmpint (sl_session_get_visible_range (f->session)->start, ==, second.start);
  g_assert_cmpint (sl_session_get_selected_range (f->session)->start, ==, selected.start);
  g_assert_cmpuint (sl_session_get_selected_event (f->session)->index, ==, kernel.index);
  g_assert_true (sl_session_can_go_forward (f->session));

  g_assert_true (sl_session_go_back (f->session));
  g_assert_cmpint (sl_session_get_visible_range (f->session)->start, ==, first.start);
  g_assert_true (sl_session_go_back (f->session));
  g_assert_cmpint (sl_session_get_visible_range (f->session)->start, ==, whole.start);
  g_assert_cmpint (sl_session_get_visible_range (f->session)->end, ==, whole.end);
  g_assert_false (sl_session_can_go_back (f->session));

  g_assert_true (sl_session_go_forward (f->session));
  g_assert_true (sl_session_go_forward (f->session));
  g_assert_cmpint (sl_session_get_visible_range (f->session)->start, ==, second.start);

  /* a new jump forks the history: the way forward is gone */
  sl_session_navigate_to (f->session, &first);
  g_assert_false (sl_session_can_go_forward (f->session));
  g_assert_true (sl_session_go_back (f->session));
  g_assert_cmpint (sl_session_get_visible_range (f->session)->start, ==, second.start);
}

static void
test_history_bounded (Fixture *f, gconstpointer data)
{
  gint64 t = f->profile->start_ns;
  guint steps = 0;

  /* pushing the same state twice records it once */
  sl_session_push_history (f->session);
  sl_session_push_history (f->session);
  g_assert_true (sl_session_go_back (f->session));
  g_assert_false (sl_session_can_go_back (f->session));

  for (guint i = 0; i < 500; i++)
    {
      SlTimeRange r = { t + i, t + i + 10 };
      sl_session_navigate_to (f->session, &r);
    }
  while (sl_session_go_back (f->session))
    steps++;
  /* memory stays bounded: the oldest steps are dropped */
  g_assert_cmpuint (steps, ==, 100);
  g_assert_cmpint (sl_session_get_visible_range (f->session)->start, ==, t + 399);
}

/* ---- the hand-over of a staged load ----------------------------------------- */

typedef struct {
  SlProfile       *gpu_profile;
  SlProfile       *full_profile;
  SlTimelineModel *gpu;
  SlTimelineModel *full;
} Staged;

static void
gpu_ready_cb (SlProfile *gpu, gpointer data)
{
  Staged *st = data;

  st->gpu_profile = sl_profile_ref (gpu);
}

static void
staged_load (Staged *st)
{
  g_autofree char *path = g_build_filename (g_getenv ("SL_PROFILES_DIR"), "pipit-saxpy-mpi-rank0.sqlite", NULL);
  SlLoadOptions options = { .gpu_ready = gpu_ready_cb, .gpu_ready_data = st };
  g_autoptr(GError) error = NULL;

  st->full_profile = sl_profile_load_with (path, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (st->gpu_profile);
  st->gpu = sl_timeline_model_new (st->gpu_profile, NULL);
  st->full = sl_timeline_model_new (st->full_profile, NULL);
  /* the complete profile reaches further (API calls before the first kernel) */
  g_assert_cmpint (st->full_profile->start_ns, <, st->gpu_profile->start_ns);
  g_assert_cmpint (st->full_profile->end_ns, >=, st->gpu_profile->end_ns);
}

static void
staged_clear (Staged *st)
{
  sl_timeline_model_unref (st->gpu);
  sl_timeline_model_unref (st->full);
  sl_profile_unref (st->gpu_profile);
  sl_profile_unref (st->full_profile);
}

/* Everything the user set while the GPU rows showed is there after. */
static void
test_handover_keeps_view (void)
{
  Staged st = { 0 };
  g_autoptr(SlSession) session = NULL;
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  Fixture f = { .notified = counts };
  SlEventRef kernel;
  SlTimeRange visible, selected, bookmark;
  gint64 t;

  staged_load (&st);
  session = sl_session_new (st.gpu);
  kernel = some_kernel (st.gpu_profile, 3);
  t = st.gpu_profile->start_ns;
  visible = (SlTimeRange) { t + 1000, t + 900000 };
  selected = (SlTimeRange) { t + 2000, t + 3000 };
  bookmark = (SlTimeRange) { t + 5000, t + 6000 };
  sl_session_navigate_to (session, &visible);
  sl_session_set_selected_range (session, &selected);
  sl_session_set_selected_event (session, &kernel);
  sl_session_set_scope (session, SL_SCOPE_SELECTION);
  sl_session_set_bookmark_range (session, &bookmark);
  sl_session_set_search (session, "gemm");
  sl_session_set_exact_names (session, TRUE);
  sl_session_set_loading (session, TRUE);
  g_signal_connect (session, "notify", G_CALLBACK (count_notify_cb), &f);

  sl_session_set_model (session, st.full);
  g_assert_true (sl_session_get_model (session) == st.full);
  g_assert_true (sl_session_get_profile (session) == st.full_profile);
  g_assert_cmpuint (notified (&f, "model"), ==, 1);
  /* nothing else changed, so nothing else is notified */
  g_assert_cmpuint (g_hash_table_size (counts), ==, 1);
  g_assert_true (sl_time_range_equal (sl_session_get_visible_range (session), &visible));
  g_assert_true (sl_time_range_equal (sl_session_get_selected_range (session), &selected));
  g_assert_true (sl_time_range_equal (sl_session_get_bookmark_range (session), &bookmark));
  g_assert_cmpint (sl_session_get_selected_event (session)->kind, ==, SL_EVENT_KERNEL);
  g_assert_cmpuint (sl_session_get_selected_event (session)->owner, ==, kernel.owner);
  g_assert_cmpuint (sl_session_get_selected_event (session)->index, ==, kernel.index);
  g_assert_cmpint (sl_session_get_scope (session), ==, SL_SCOPE_SELECTION);
  g_assert_cmpstr (sl_session_get_search (session), ==, "gemm");
  g_assert_true (sl_session_get_exact_names (session));
  g_assert_true (sl_session_get_loading (session));
  /* the same kernel: the complete profile now knows its launching call */
  g_assert_cmpuint (st.full_profile->streams[kernel.owner].kernels.api[kernel.index], !=, SL_NONE);
  g_assert_cmpuint (st.gpu_profile->streams[kernel.owner].kernels.api[kernel.index], ==, SL_NONE);
  /* the history made on the GPU rows: back to the whole, now the whole complete profile */
  g_assert_true (sl_session_go_back (session));
  g_assert_cmpint (sl_session_get_visible_range (session)->start, ==, st.full_profile->start_ns);
  g_assert_cmpint (sl_session_get_visible_range (session)->end, ==, st.full_profile->end_ns);
  g_assert_true (sl_session_go_forward (session));
  g_assert_true (sl_time_range_equal (sl_session_get_visible_range (session), &visible));
  staged_clear (&st);
}

/* A view the user never moved shows the whole of the complete profile;
 * an event the new model lacks is dropped (and notified). */
static void
test_handover_whole (void)
{
  Staged st = { 0 };
  g_autoptr(SlSession) session = NULL;
  g_autoptr(SlSession) back = NULL;
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  Fixture f = { .notified = counts };
  SlEventRef api = { SL_EVENT_API, 0, 0 };

  staged_load (&st);
  session = sl_session_new (st.gpu);
  g_signal_connect (session, "notify", G_CALLBACK (count_notify_cb), &f);
  sl_session_set_model (session, st.full);
  g_assert_cmpuint (notified (&f, "model"), ==, 1);
  g_assert_cmpuint (notified (&f, "visible-range"), ==, 1);
  g_assert_cmpint (sl_session_get_visible_range (session)->start, ==, st.full_profile->start_ns);
  g_assert_cmpint (sl_session_get_visible_range (session)->end, ==, st.full_profile->end_ns);
  /* the same model again is no change */
  sl_session_set_model (session, st.full);
  g_assert_cmpuint (notified (&f, "model"), ==, 1);

  /* the other way round (never done by the app): an API call is not in
   * the GPU model, so the selection goes */
  back = sl_session_new (st.full);
  sl_session_set_selected_event (back, &api);
  g_assert_nonnull (sl_session_get_selected_event (back));
  g_hash_table_remove_all (counts);
  g_signal_connect (back, "notify", G_CALLBACK (count_notify_cb), &f);
  g_object_set (back, "model", st.gpu, NULL);
  g_assert_null (sl_session_get_selected_event (back));
  g_assert_cmpuint (notified (&f, "selected-event"), ==, 1);
  g_assert_cmpuint (notified (&f, "model"), ==, 1);
  staged_clear (&st);
}


/* Kernels of every stream, given out of time order: the set holds them by
 * start and finds each; an event the model lacks is dropped. */
static SlHighlight *
kernel_highlight (Fixture *f, guint per_stream, gboolean with_bogus)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (SlEventRef));

  for (guint s = f->profile->n_streams; s-- > 0;)
    for (guint i = 0; i < MIN (per_stream, f->profile->streams[s].kernels.spans.n); i++)
      {
        SlEventRef e = { SL_EVENT_KERNEL, s, i };
        g_array_append_val (events, e);
      }
  if (with_bogus)
    {
      SlEventRef bogus = { SL_EVENT_KERNEL, 0, G_MAXUINT / 2 };
      g_array_append_val (events, bogus);
    }
  return sl_highlight_new (f->model, (SlEventRef *) events->data, events->len, "test", TRUE);
}

static void
test_highlight_set (Fixture *f, gconstpointer data)
{
  g_autoptr(SlHighlight) h = kernel_highlight (f, 5, TRUE);
  guint expected = 0;

  for (guint s = 0; s < f->profile->n_streams; s++)
    expected += MIN (5, f->profile->streams[s].kernels.spans.n);
  g_assert_cmpuint (expected, >, 5);
  g_assert_cmpuint (sl_highlight_get_n (h), ==, expected);
  for (guint i = 1; i < sl_highlight_get_n (h); i++)
    g_assert_cmpint (sl_highlight_get_start (h, i - 1), <=, sl_highlight_get_start (h, i));
  for (guint i = 0; i < sl_highlight_get_n (h); i++)
    {
      gint64 start, end;

      g_assert_cmpuint (sl_highlight_find (h, f->model, sl_highlight_get (h, i)), ==, i);
      g_assert_true (sl_timeline_model_event_span (f->model, sl_highlight_get (h, i), &start, &end));
      g_assert_cmpint (start, ==, sl_highlight_get_start (h, i));
      g_assert_cmpint (end, ==, sl_highlight_get_end (h, i));
    }
  {
    SlEventRef outside = some_kernel (f->profile, 6);
    g_assert_false (sl_highlight_contains (h, f->model, &outside));
  }
  g_assert_cmpuint (sl_highlight_first_at (h, G_MININT64), ==, 0);
  g_assert_cmpuint (sl_highlight_first_at (h, G_MAXINT64), ==, sl_highlight_get_n (h));
  g_assert_true (sl_highlight_get_dim_others (h));
  g_assert_cmpstr (sl_highlight_get_label (h), ==, "test");
}

/* F3 walks the set in time order from the selected event, brings each into
 * view (inside the visible range) and is a history step; it stops at the
 * ends. */
static void
test_highlight_step (Fixture *f, gconstpointer data)
{
  g_autoptr(SlHighlight) h = kernel_highlight (f, 3, FALSE);
  guint n = sl_highlight_get_n (h);

  g_assert_false (sl_session_step_highlight (f->session, 1));
  sl_session_set_highlight (f->session, h);
  g_assert_cmpuint (notified (f, "highlight"), ==, 1);
  g_assert_true (sl_session_get_highlight (f->session) == h);
  for (guint i = 0; i < n; i++)
    {
      const SlTimeRange *visible;

      g_assert_true (sl_session_step_highlight (f->session, 1));
      g_assert_cmpuint (sl_highlight_find (h, f->model, sl_session_get_selected_event (f->session)), ==, i);
      visible = sl_session_get_visible_range (f->session);
      g_assert_cmpint (visible->start, <=, sl_highlight_get_start (h, i));
      g_assert_cmpint (visible->end, >=, sl_highlight_get_end (h, i));
    }
  g_assert_false (sl_session_step_highlight (f->session, 1));
  g_assert_true (sl_session_step_highlight (f->session, -1));
  g_assert_cmpuint (sl_highlight_find (h, f->model, sl_session_get_selected_event (f->session)), ==, n - 2);
  g_assert_true (sl_session_can_go_back (f->session));
  g_assert_true (sl_session_go_back (f->session));
  g_assert_cmpuint (sl_highlight_find (h, f->model, sl_session_get_selected_event (f->session)), ==, n - 1);
  g_assert_false (sl_session_show_highlighted (f->session, n));
  sl_session_set_highlight (f->session, NULL);
  g_assert_null (sl_session_get_highlight (f->session));
  sl_session_set_kernel_name (f->session, "gemm");
  sl_session_set_kernel_name (f->session, "gemm");
  g_assert_cmpstr (sl_session_get_kernel_name (f->session), ==, "gemm");
  g_assert_cmpuint (notified (f, "kernel-name"), ==, 1);
  g_assert_cmpuint (notified (f, "highlight"), ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("SL_PROFILES_DIR") == NULL)
    {
      g_test_skip ("SL_PROFILES_DIR is not set");
      return g_test_run ();
    }
  g_test_add ("/widgets/session/defaults", Fixture, NULL, fixture_setup, test_defaults, fixture_teardown);
  g_test_add ("/widgets/session/visible-range", Fixture, NULL, fixture_setup, test_visible_range, fixture_teardown);
  g_test_add ("/widgets/session/selection", Fixture, NULL, fixture_setup, test_selection, fixture_teardown);
  g_test_add ("/widgets/session/scope", Fixture, NULL, fixture_setup, test_scope, fixture_teardown);
  g_test_add ("/widgets/session/history", Fixture, NULL, fixture_setup, test_history, fixture_teardown);
  g_test_add ("/widgets/session/history-bounded", Fixture, NULL, fixture_setup, test_history_bounded,
              fixture_teardown);
  g_test_add ("/widgets/session/highlight-set", Fixture, NULL, fixture_setup, test_highlight_set, fixture_teardown);
  g_test_add ("/widgets/session/highlight-step", Fixture, NULL, fixture_setup, test_highlight_step,
              fixture_teardown);
  g_test_add_func ("/widgets/session/handover-keeps-view", test_handover_keeps_view);
  g_test_add_func ("/widgets/session/handover-whole", test_handover_whole);
  return g_test_run ();
}
