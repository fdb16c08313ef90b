/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-bookmark-store.c: the bookmarks store (issue 13, part 3): changes
 * written at once and read back by a fresh store, bad files kept aside and
 * reported, never overwritten, import/export round trips, and a second store
 * on the same profile sees the first one's change through its file monitor.
 * The files are checked with json-glib, not with the store's own parser. */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sightline.h"

#define ID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID_B "aa23456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID_C "bb23456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID_D "cc23456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define START 1000000000

/* The bookmark objects of the file at @path, parsed independently. */
static JsonArray *
file_bookmarks (const char *path, JsonParser **parser)
{
  JsonObject *root;

  *parser = json_parser_new ();
  g_assert_true (json_parser_load_from_file (*parser, path, NULL));
  root = json_node_get_object (json_parser_get_root (*parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "sightline-bookmarks");
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  return json_object_get_array_member (root, "bookmarks");
}

static void
test_changes (void)
{
  g_autoptr(SlBookmarkStore) store = sl_bookmark_store_new (ID, START, "a.sqlite");
  g_autoptr(SlBookmark) a = sl_bookmark_new ("step 412", "slow\nall-reduce", "#ff0000", START + 10, START + 30);
  g_autoptr(SlBookmark) b = sl_bookmark_new ("stall", NULL, NULL, START + 50, START + 60);
  g_autoptr(SlBookmarkStore) again = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *list;
  JsonObject *o;

  g_assert_null (sl_bookmark_store_get_problem (store));
  g_assert_cmpuint (sl_bookmark_store_get_bookmarks (store)->len, ==, 0);
  g_assert_true (sl_bookmark_store_add (store, a, &error));
  g_assert_true (sl_bookmark_store_insert (store, 0, b, &error));
  g_assert_false (sl_bookmark_store_add (store, a, NULL));   /* same id twice */
  list = file_bookmarks (sl_bookmark_store_get_path (store), &parser);
  g_assert_cmpuint (json_array_get_length (list), ==, 2);
  o = json_array_get_object_element (list, 1);
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "step 412");
  g_assert_cmpstr (json_object_get_string_member (o, "note"), ==, "slow\nall-reduce");
  g_assert_cmpint (json_object_get_int_member (o, "start_ns"), ==, START + 10);
  g_assert_cmpint (json_object_get_int_member (o, "end_rel_ns"), ==, 30);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (list, 0), "color"),
                   ==, sl_bookmark_palette ()[0]);

  g_free (a->name);
  a->name = g_strdup ("step 413");
  g_assert_true (sl_bookmark_store_update (store, a, &error));
  g_assert_true (sl_bookmark_store_move (store, a->id, 0, &error));
  again = sl_bookmark_store_new (ID, START, NULL);
  g_assert_cmpuint (sl_bookmark_store_get_bookmarks (again)->len, ==, 2);
  g_assert_true (sl_bookmark_equal (sl_bookmark_store_get_bookmarks (again)->pdata[0], a));
  g_assert_true (sl_bookmark_equal (sl_bookmark_store_lookup_name (again, "STALL"), b));
  g_assert_null (sl_bookmark_store_lookup_name (again, "st"));    /* ambiguous */
  g_assert_true (sl_bookmark_store_remove (store, b->id, &error));
  g_assert_false (sl_bookmark_store_remove (store, b->id, NULL));
  g_clear_object (&again);
  again = sl_bookmark_store_new (ID, START, NULL);
  g_assert_cmpuint (sl_bookmark_store_get_bookmarks (again)->len, ==, 1);
  g_assert_no_error (error);
  g_assert_true (sl_bookmark_store_remove (store, a->id, &error));
}

/* The names in @dir starting with @prefix. */
static guint
count_files (const char *dir, const char *prefix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    n += g_str_has_prefix (name, prefix);
  return n;
}

/* A bad file (@contents) is kept aside with its bytes, reported, and the
 * next add writes a new file without touching it. */
static void
check_kept_aside (const char *contents, const char *needle)
{
  g_autofree char *dir = sl_bookmark_store_dir ();
  g_autofree char *path = g_build_filename (dir, ID ".json", NULL);
  g_autoptr(SlBookmarkStore) store = NULL;
  g_autoptr(SlBookmark) b = sl_bookmark_new ("x", NULL, NULL, 1, 2);
  g_autoptr(GDir) d = NULL;
  const char *name;
  guint before;

  g_mkdir_with_parents (dir, 0700);
  before = count_files (dir, ID ".json.corrupt-");
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  store = sl_bookmark_store_new (ID, START, NULL);
  g_assert_nonnull (sl_bookmark_store_get_problem (store));
  g_assert_nonnull (strstr (sl_bookmark_store_get_problem (store), needle));
  g_assert_nonnull (strstr (sl_bookmark_store_get_problem (store), ".corrupt-"));
  g_assert_cmpuint (sl_bookmark_store_get_bookmarks (store)->len, ==, 0);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_files (dir, ID ".json.corrupt-"), ==, before + 1);
  g_assert_true (sl_bookmark_store_add (store, b, NULL));
  /* every file kept aside still holds what it held; one of them is ours */
  d = g_dir_open (dir, 0, NULL);
  gboolean found = FALSE;
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, ID ".json.corrupt-"))
      {
        g_autofree char *p = g_build_filename (dir, name, NULL);
        g_autofree char *kept = NULL;
        g_assert_true (g_file_get_contents (p, &kept, NULL, NULL));
        found |= g_str_equal (kept, contents);
      }
  g_assert_true (found);
  g_assert_true (sl_bookmark_store_remove (store, b->id, NULL));
}

static void
test_corrupt (void)
{
  check_kept_aside ("{ \"format\": \"sightline-bookmarks\", \"version\": 1, \"bookm", "not JSON");
  /* a second bad file in the same second does not replace the first */
  check_kept_aside ("[1, 2]", "not a Sightline bookmarks file");
  check_kept_aside ("{ \"format\": \"sightline-bookmarks\", \"version\": 1, \"bookmarks\": "
                    "[ { \"name\": \"a\", \"start_ns\": 5, \"end_ns\": 2 } ] }", "malformed");
}

static void
test_future_version (void)
{
  check_kept_aside ("{ \"format\": \"sightline-bookmarks\", \"version\": 2, \"bookmarks\": [] }",
                    "version 2");
}

static void
test_round_trip (void)
{
  g_autoptr(SlBookmarkStore) from = sl_bookmark_store_new (ID, START, "a.sqlite");
  g_autoptr(SlBookmarkStore) abs = sl_bookmark_store_new (ID_B, 7, "b.sqlite");
  g_autoptr(SlBookmarkStore) rel = sl_bookmark_store_new (ID_C, 5000, "c.sqlite");
  g_autoptr(SlBookmark) a = sl_bookmark_new ("one", "n", "#00ff00", START + 100, START + 250);
  g_autoptr(SlBookmark) b = sl_bookmark_new ("two", "", NULL, START, START);
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "exported.json", NULL);
  g_autoptr(GError) error = NULL;
  GPtrArray *got;

  g_assert_true (sl_bookmark_store_add (from, a, NULL));
  g_assert_true (sl_bookmark_store_add (from, b, NULL));
  g_assert_true (sl_bookmark_store_export (from, path, &error));
  g_assert_cmpint (sl_bookmark_store_import (abs, path, FALSE, &error), ==, 2);
  g_assert_cmpint (sl_bookmark_store_import (abs, path, FALSE, &error), ==, 0);  /* ids known */
  got = sl_bookmark_store_get_bookmarks (abs);
  g_assert_true (sl_bookmark_equal (got->pdata[0], a));
  g_assert_true (sl_bookmark_equal (got->pdata[1], b));
  g_assert_cmpint (sl_bookmark_store_import (rel, path, TRUE, &error), ==, 2);
  got = sl_bookmark_store_get_bookmarks (rel);
  g_assert_cmpint (((SlBookmark *) got->pdata[0])->start, ==, 5000 + 100);
  g_assert_cmpint (((SlBookmark *) got->pdata[0])->end, ==, 5000 + 250);
  g_assert_cmpint (((SlBookmark *) got->pdata[1])->start, ==, 5000);
  g_assert_cmpstr (((SlBookmark *) got->pdata[0])->note, ==, "n");
  g_assert_no_error (error);
  /* a file of a newer version says so */
  g_assert_true (g_file_set_contents (path, "{\"format\": \"sightline-bookmarks\", \"version\": 9, \"bookmarks\": []}", -1, NULL));
  g_assert_cmpint (sl_bookmark_store_import (rel, path, TRUE, &error), ==, -1);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_unlink (path);
}

static void
on_changed (SlBookmarkStore *store, gpointer data)
{
  *(guint *) data += 1;
}

static gboolean
give_up (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates the main loop until *@count is non-zero (or a generous safety
 * limit passes: a failure, not a measure). */
static void
wait_for (guint *count)
{
  gboolean late = FALSE;
  guint id = g_timeout_add_seconds (20, give_up, &late);

  while (*count == 0 && !late)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (late);
  g_source_remove (id);
}

static void
test_monitor (void)
{
  g_autoptr(SlBookmarkStore) one = sl_bookmark_store_new (ID_D, START, NULL);
  g_autoptr(SlBookmarkStore) two = sl_bookmark_store_new (ID_D, START, NULL);
  g_autoptr(SlBookmark) a = sl_bookmark_new ("from one", NULL, NULL, START, START + 5);
  guint one_changed = 0, two_changed = 0;

  g_signal_connect (one, "changed", G_CALLBACK (on_changed), &one_changed);
  g_signal_connect (two, "changed", G_CALLBACK (on_changed), &two_changed);
  g_assert_true (sl_bookmark_store_add (one, a, NULL));
  g_assert_cmpuint (one_changed, ==, 1);
  wait_for (&two_changed);
  g_assert_cmpuint (sl_bookmark_store_get_bookmarks (two)->len, ==, 1);
  g_assert_true (sl_bookmark_equal (sl_bookmark_store_get_bookmarks (two)->pdata[0], a));
  /* and back: two removes it, one sees it */
  one_changed = 0;
  g_assert_true (sl_bookmark_store_remove (two, a->id, NULL));
  wait_for (&one_changed);
  g_assert_cmpuint (sl_bookmark_store_get_bookmarks (one)->len, ==, 0);
  /* its own writes are no news to a store */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (one_changed, ==, 1);
}

/* Deletes @path and everything under it. */
static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      remove_tree (child);
    }
  g_remove (path);
}

int
main (int argc, char **argv)
{
  /* A fresh XDG_DATA_HOME, set before GLib reads it.  (Not
   * G_TEST_OPTION_ISOLATE_DIRS: GLib keeps the old values, a leak to ASan.) */
  g_autofree char *data_home = g_dir_make_tmp ("sl-bookmark-store-XXXXXX", NULL);
  int status;

  g_assert_nonnull (data_home);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bookmark-store/changes", test_changes);
  g_test_add_func ("/bookmark-store/corrupt", test_corrupt);
  g_test_add_func ("/bookmark-store/future-version", test_future_version);
  g_test_add_func ("/bookmark-store/round-trip", test_round_trip);
  g_test_add_func ("/bookmark-store/monitor", test_monitor);
  status = g_test_run ();
  remove_tree (data_home);
  return status;
}
