/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-row-layout.c: rows hidden, pinned and reordered (issue 12, item 5),
 * without a display, on a real two-GPU profile: the rows' keys against the
 * profile's own tables (SQL), the layout's places, a JSON round trip onto
 * a model built again. */
#include "sl-timeline-layout.h"
#include "sl-row-key.h"
#include "sl-test-util.h"

#include <string.h>

typedef struct {
  SlProfile        *profile;
  SlTimelineModel  *model;
  SlTimelineLayout *layout;
  char             *path;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->path = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  if (f->path == NULL)
    return;
  f->profile = sl_test_load (f->path);
  f->model = sl_timeline_model_new (f->profile, NULL);
  f->layout = sl_timeline_layout_new (f->model);
  sl_timeline_layout_set_size (f->layout, 1200, 150);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_clear_pointer (&f->layout, sl_timeline_layout_free);
  g_clear_pointer (&f->model, sl_timeline_model_unref);
  g_clear_pointer (&f->profile, sl_profile_unref);
  g_free (f->path);
}

static guint
find_kind (const SlTimelineModel *m, SlRowKind kind, guint nth)
{
  for (guint r = 0; r < m->n_rows; r++)
    if (m->rows[r].kind == kind && nth-- == 0)
      return r;
  g_assert_not_reached ();
}

static guint
count_prefix (const SlTimelineLayout *l, const char *prefix)
{
  guint n = 0;

  for (guint r = 0; r < sl_timeline_layout_n_rows (l); r++)
    n += g_str_has_prefix (sl_timeline_layout_row_key (l, r), prefix);
  return n;
}

/* One key per row, and as many stream and GPU keys as the file has
 * (device, context, stream, process) and devices with GPU work. */
static void
test_keys (Fixture *f, gconstpointer data)
{
  sqlite3 *db;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *work = "(SELECT deviceId, contextId, streamId, globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL"
                     " UNION ALL SELECT deviceId, contextId, streamId, globalPid FROM CUPTI_ACTIVITY_KIND_MEMCPY)";
  g_autofree char *streams = NULL, *gpus = NULL;

  if (f->path == NULL)
    {
      g_test_skip ("no shared profiles");
      return;
    }
  for (guint r = 0; r < sl_timeline_layout_n_rows (f->layout); r++)
    g_assert_true (g_hash_table_add (seen, (gpointer) sl_timeline_layout_row_key (f->layout, r)));
  db = sl_test_db_open (f->path);
  streams = g_strdup_printf ("SELECT count(*) FROM (SELECT DISTINCT * FROM %s)", work);
  gpus = g_strdup_printf ("SELECT count(DISTINCT deviceId) FROM %s", work);
  g_assert_cmpuint (count_prefix (f->layout, "stream/"), ==, sl_test_db_int (db, streams));
  g_assert_cmpuint (count_prefix (f->layout, "gpu/"), ==, sl_test_db_int (db, gpus));
  sqlite3_close (db);
}

/* A hidden group takes its rows with it; showing it brings them back. */
static void
test_hide (Fixture *f, gconstpointer data)
{
  SlTimelineLayout *l = f->layout;
  guint gpu, end, shown;
  int content, y, h, gh = 0;

  if (f->path == NULL)
    return g_test_skip ("no shared profiles");
  gpu = find_kind (f->model, SL_ROW_GPU, 0);
  end = sl_timeline_model_group_end (f->model, gpu);
  shown = sl_timeline_layout_n_shown (l);
  content = sl_timeline_layout_content_height (l);
  for (guint r = gpu; r < end; r++)
    {
      g_assert_true (sl_timeline_layout_row_rect (l, r, &y, &h));
      gh += h;
    }
  sl_timeline_layout_set_row_hidden (l, gpu, TRUE);
  for (guint r = gpu; r < end; r++)
    {
      g_assert_true (sl_timeline_layout_row_hidden (l, r));
      g_assert_false (sl_timeline_layout_row_rect (l, r, &y, &h));
    }
  g_assert_cmpuint (sl_timeline_layout_n_shown (l), ==, shown - (end - gpu));
  g_assert_cmpint (sl_timeline_layout_content_height (l), ==, content - gh);
  g_assert_true (sl_row_layout_get_hidden (sl_timeline_layout_get_row_layout (l),
                                           sl_timeline_layout_row_key (l, gpu)));
  sl_timeline_layout_set_row_hidden (l, gpu, FALSE);
  g_assert_cmpuint (sl_timeline_layout_n_shown (l), ==, shown);
  g_assert_true (sl_row_layout_is_default (sl_timeline_layout_get_row_layout (l)));
}

/* A pinned row sits under the ruler whatever the scroll, and the point
 * there hits it; the rows below scroll under the band. */
static void
test_pin (Fixture *f, gconstpointer data)
{
  SlTimelineLayout *l = f->layout;
  guint last = sl_timeline_layout_shown_row (l, sl_timeline_layout_n_shown (l) - 1);
  int by = sl_timeline_layout_body_y (l), y, h;

  if (f->path == NULL)
    return g_test_skip ("no shared profiles");
  g_assert_false (sl_timeline_layout_is_group (l, last));
  sl_timeline_layout_set_row_pinned (l, last, TRUE);
  g_assert_true (sl_timeline_layout_row_rect (l, last, &y, &h));
  g_assert_cmpint (y, ==, by);
  g_assert_cmpint (sl_timeline_layout_band_height (l), ==, h);
  g_assert_cmpuint (sl_timeline_layout_shown_row (l, 0), ==, last);
  sl_timeline_layout_scroll_to (l, 1e9);
  g_assert_cmpfloat (l->scroll_y, >, 0);
  g_assert_true (sl_timeline_layout_row_rect (l, last, &y, &h));
  g_assert_cmpint (y, ==, by);
  g_assert_cmpuint (sl_timeline_layout_row_at (l, by + 1), ==, last);
  /* the first scrolled row starts under the band at scroll 0 */
  sl_timeline_layout_scroll_to (l, 0);
  g_assert_cmpuint (sl_timeline_layout_row_at (l, by + h + 1), ==, sl_timeline_layout_shown_row (l, 1));
  g_assert_cmpint (sl_timeline_layout_row_clip_top (l, sl_timeline_layout_shown_row (l, 1)), ==, by + h);
  sl_timeline_layout_set_row_pinned (l, last, FALSE);
  g_assert_cmpint (sl_timeline_layout_band_height (l), ==, 0);
  g_assert_cmpuint (sl_timeline_layout_shown_row (l, 0), ==, 0);
}

/* Groups move among groups with their rows; a row cannot leave its group. */
static void
test_move (Fixture *f, gconstpointer data)
{
  SlTimelineLayout *l = f->layout;
  guint g0, g1, s0;

  if (f->path == NULL)
    return g_test_skip ("no shared profiles");
  g0 = find_kind (f->model, SL_ROW_GPU, 0);
  g1 = find_kind (f->model, SL_ROW_GPU, 1);
  s0 = find_kind (f->model, SL_ROW_STREAM, 0);
  g_assert_cmpuint (f->model->rows[s0].parent, ==, g0);
  g_assert_false (sl_timeline_layout_move_row (l, s0, g1 + 1));
  g_assert_false (sl_timeline_layout_move_row (l, g1, g1));
  /* dropped on a row inside the first GPU: it counts as that GPU */
  g_assert_true (sl_timeline_layout_move_row (l, g1, s0));
  g_assert_cmpuint (sl_timeline_layout_shown_row (l, 0), ==, g1);
  g_assert_cmpuint (sl_timeline_layout_shown_row (l, 1), ==, g1 + 1);
  g_assert_cmpuint (sl_timeline_layout_row_at (l, sl_timeline_layout_body_y (l) + 1), ==, g1);
  g_assert_cmpuint (sl_timeline_layout_shown_row (l, sl_timeline_model_group_end (f->model, g1) - g1), ==, g0);
}

/* The layout written as JSON and read back, applied to the model of the
 * same profile built again, lays the rows out the same way. */
static void
test_round_trip (Fixture *f, gconstpointer data)
{
  SlTimelineLayout *l = f->layout;
  g_autofree char *json = NULL, *again = NULL;
  g_autoptr(SlRowLayout) read = NULL;
  g_autoptr(SlTimelineModel) m2 = NULL;
  SlTimelineLayout *l2;
  GError *error = NULL;

  if (f->path == NULL)
    return g_test_skip ("no shared profiles");
  sl_timeline_layout_move_row (l, find_kind (f->model, SL_ROW_GPU, 1), find_kind (f->model, SL_ROW_GPU, 0));
  sl_timeline_layout_set_row_pinned (l, find_kind (f->model, SL_ROW_STREAM, 1), TRUE);
  sl_timeline_layout_set_row_hidden (l, find_kind (f->model, SL_ROW_API, 0), TRUE);
  json = sl_row_layout_to_json (sl_timeline_layout_get_row_layout (l));
  read = sl_row_layout_from_json (json, &error);
  g_assert_no_error (error);
  again = sl_row_layout_to_json (read);
  g_assert_cmpstr (json, ==, again);

  m2 = sl_timeline_model_new (f->profile, NULL);
  l2 = sl_timeline_layout_new (m2);
  sl_timeline_layout_set_size (l2, 1200, 150);
  sl_timeline_layout_set_row_layout (l2, read);
  g_assert_cmpuint (sl_timeline_layout_n_shown (l2), ==, sl_timeline_layout_n_shown (l));
  g_assert_cmpint (sl_timeline_layout_band_height (l2), ==, sl_timeline_layout_band_height (l));
  for (guint i = 0; i < sl_timeline_layout_n_shown (l); i++)
    g_assert_cmpuint (sl_timeline_layout_shown_row (l2, i), ==, sl_timeline_layout_shown_row (l, i));
  sl_timeline_layout_set_row_layout (l2, NULL);
  g_assert_true (sl_row_layout_is_default (sl_timeline_layout_get_row_layout (l2)));
  g_assert_cmpuint (sl_timeline_layout_n_shown (l2), ==, sl_timeline_layout_n_rows (l2));
  sl_timeline_layout_free (l2);
}

static void
test_bad_json (void)
{
  static const char *const bad[] = {
    "", "[]", "{}", "{\"version\": 2}", "{\"version\": 1, \"hidden\": [1]}",
    "{\"version\": 1, \"order\": {\"a\": -1}}", "{\"version\": 1, \"pinned\": \"a\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      GError *error = NULL;
      SlRowLayout *rl = sl_row_layout_from_json (bad[i], &error);

      g_assert_null (rl);
      g_assert_nonnull (error);
      g_clear_error (&error);
    }
}

/* Pins keep their order; hiding twice is once. */
static void
test_state (void)
{
  g_autoptr(SlRowLayout) rl = sl_row_layout_new ();
  const char *order[] = { "b", "a" };

  sl_row_layout_set_pinned (rl, "x", TRUE);
  sl_row_layout_set_pinned (rl, "y", TRUE);
  sl_row_layout_set_pinned (rl, "x", TRUE);
  g_assert_cmpuint (sl_row_layout_get_n_pinned (rl), ==, 2);
  g_assert_cmpstr (sl_row_layout_get_pinned_key (rl, 1), ==, "y");
  sl_row_layout_set_pinned (rl, "x", FALSE);
  g_assert_cmpint (sl_row_layout_get_pin_position (rl, "y"), ==, 0);
  sl_row_layout_set_hidden (rl, "h", TRUE);
  sl_row_layout_set_hidden (rl, "h", TRUE);
  g_assert_cmpuint (sl_row_layout_get_hidden_keys (rl)->len, ==, 1);
  sl_row_layout_set_order (rl, order, 2);
  g_assert_cmpint (sl_row_layout_get_rank (rl, "a"), ==, 1);
  g_assert_cmpint (sl_row_layout_get_rank (rl, "c"), ==, -1);
  sl_row_layout_show_all (rl);
  g_assert_false (sl_row_layout_get_hidden (rl, "h"));
  sl_row_layout_reset (rl);
  g_assert_true (sl_row_layout_is_default (rl));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define FIX(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  FIX ("/widgets/row-layout/keys", test_keys);
  FIX ("/widgets/row-layout/hide", test_hide);
  FIX ("/widgets/row-layout/pin", test_pin);
  FIX ("/widgets/row-layout/move", test_move);
  FIX ("/widgets/row-layout/round-trip", test_round_trip);
  g_test_add_func ("/widgets/row-layout/bad-json", test_bad_json);
  g_test_add_func ("/widgets/row-layout/state", test_state);
  return g_test_run ();
}
