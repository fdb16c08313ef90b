/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-reveal-model.c: SlRevealModel against its source.  A mirror built
 * only from the model's "items-changed" signals (as a view builds its rows)
 * must hold, at every step, exactly the model's items, and after the
 * reveal exactly the source's (a GListStore, the independent route), with
 * the source changed before, inside and past the rows shown. */
#include "sl-reveal-model.h"

typedef struct {
  GPtrArray *rows;     /* the mirror: what a view would hold */
  guint      signals;
} Mirror;

static void
changed_cb (GListModel *model, guint position, guint removed, guint added, Mirror *m)
{
  g_assert_cmpuint (position + removed, <=, m->rows->len);
  g_ptr_array_remove_range (m->rows, position, removed);
  for (guint i = 0; i < added; i++)
    g_ptr_array_insert (m->rows, (int) (position + i), g_list_model_get_item (model, position + i));
  m->signals++;
}

static void
assert_mirror_is (Mirror *m, GListModel *model)
{
  g_assert_cmpuint (m->rows->len, ==, g_list_model_get_n_items (model));
  for (guint i = 0; i < m->rows->len; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);
      g_assert_true (item == m->rows->pdata[i]);
    }
}

static GListStore *
store_of (guint n)
{
  GListStore *store = g_list_store_new (G_TYPE_MENU_ITEM);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (NULL, NULL);
      g_list_store_append (store, item);
    }
  return store;
}

/* One idle: one slice. */
static void
iterate (void)
{
  g_main_context_iteration (NULL, FALSE);
}

static void
test_slices (void)
{
  g_autoptr(GListStore) store = store_of (10);
  g_autoptr(SlRevealModel) reveal = sl_reveal_model_new (g_object_ref (G_LIST_MODEL (store)));
  Mirror m = { g_ptr_array_new_with_free_func (g_object_unref), 0 };
  g_autoptr(GListStore) more = store_of (95);

  g_signal_connect (reveal, "items-changed", G_CALLBACK (changed_cb), &m);
  changed_cb (G_LIST_MODEL (reveal), 0, 0, g_list_model_get_n_items (G_LIST_MODEL (reveal)), &m);
  assert_mirror_is (&m, G_LIST_MODEL (store));   /* a pass-through at first */
  sl_reveal_model_restart (reveal, 40);
  g_assert_cmpuint (m.rows->len, ==, 0);
  g_list_store_splice (store, 0, 10, NULL, 0);   /* the new rows: not shown at once */
  for (guint i = 0; i < 95; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (more), i);
      g_list_store_append (store, item);
    }
  g_assert_cmpuint (m.rows->len, ==, 0);
  for (guint expect = 40; expect < 95; expect += 40)
    {
      iterate ();
      g_assert_cmpuint (m.rows->len, ==, expect);
      g_assert_false (sl_reveal_model_is_done (reveal));
      assert_mirror_is (&m, G_LIST_MODEL (reveal));
    }
  iterate ();
  g_assert_true (sl_reveal_model_is_done (reveal));
  assert_mirror_is (&m, G_LIST_MODEL (store));
  g_list_store_remove (store, 3);                 /* a pass-through again */
  assert_mirror_is (&m, G_LIST_MODEL (store));
  g_ptr_array_unref (m.rows);
}

/* A change past the rows shown waits for the slices; one among them shows
 * everything at once; finish shows everything. */
static void
test_changes_while_revealing (void)
{
  g_autoptr(GListStore) store = store_of (100);
  g_autoptr(SlRevealModel) reveal = sl_reveal_model_new (g_object_ref (G_LIST_MODEL (store)));
  Mirror m = { g_ptr_array_new_with_free_func (g_object_unref), 0 };
  g_autoptr(GMenuItem) extra = g_menu_item_new (NULL, NULL);

  g_signal_connect (reveal, "items-changed", G_CALLBACK (changed_cb), &m);
  changed_cb (G_LIST_MODEL (reveal), 0, 0, g_list_model_get_n_items (G_LIST_MODEL (reveal)), &m);
  sl_reveal_model_restart (reveal, 30);
  iterate ();
  g_assert_cmpuint (m.rows->len, ==, 30);
  g_list_store_remove (store, 50);               /* past the rows shown */
  assert_mirror_is (&m, G_LIST_MODEL (reveal));
  iterate ();
  g_assert_cmpuint (m.rows->len, ==, 60);
  assert_mirror_is (&m, G_LIST_MODEL (reveal));
  g_list_store_insert (store, 10, extra);        /* among them: all shown */
  g_assert_true (sl_reveal_model_is_done (reveal));
  assert_mirror_is (&m, G_LIST_MODEL (store));
  sl_reveal_model_restart (reveal, 30);
  iterate ();
  sl_reveal_model_finish (reveal);
  g_assert_true (sl_reveal_model_is_done (reveal));
  assert_mirror_is (&m, G_LIST_MODEL (store));
  g_assert_cmpuint (m.rows->len, ==, 100);
  g_ptr_array_unref (m.rows);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/reveal-model/slices", test_slices);
  g_test_add_func ("/reveal-model/changes-while-revealing", test_changes_while_revealing);
  return g_test_run ();
}
