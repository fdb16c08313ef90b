/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-export.c: sl_export_to_path never leaves a partial file: a cancel
 * from the progress callback, mid-export, leaves the destination folder as
 * it was (for every format and for gzip); an unwritable destination gives
 * an error naming it.  The content of the exports is checked against SQL
 * by tests/export/test-export.py. */
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sl-test-util.h"
#include "sl-export.h"

#define FIXTURE_ARGS "--gpus 2 --streams 2 --iterations 20 --kernels 200000 --memcpy 2000 --memset 500"

typedef struct {
  GCancellable *cancellable;
  double        at;       /* cancel once progress reaches this */
  guint         calls;
  double        last;
} CancelAt;

static void
cancel_cb (double fraction, gpointer data)
{
  CancelAt *c = data;

  g_assert_cmpfloat (fraction, >=, c->last);   /* progress never goes back */
  c->last = fraction;
  c->calls++;
  if (fraction >= c->at)
    g_cancellable_cancel (c->cancellable);
}

static guint
count_entries (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
check_cancel (SlProfile *profile, SlExportFormat format, const char *name)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  CancelAt c = { cancellable, 0.3, 0, 0.0 };
  SlExportOptions o = { .format = format };

  g_assert_false (sl_export_to_path (profile, &o, path, cancel_cb, &c, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (c.calls, >, 0);             /* it was cancelled mid-way, not before */
  g_assert_cmpfloat (c.last, <, 1.0);
  if (g_str_has_suffix (name, "/"))
    {
      g_assert_cmpuint (count_entries (path), ==, 0);   /* made, but holds nothing */
      g_rmdir (path);
    }
  else
    {
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
      g_assert_cmpuint (count_entries (dir), ==, 0);    /* no temporary file left */
    }

  /* The same export without cancel writes the file and nothing else. */
  g_clear_error (&error);
  g_assert_true (sl_export_to_path (profile, &o, path, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (dir), ==, 1);
  g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", dir);
  g_assert_cmpint (system (rm), ==, 0);
}

static void
test_cancel (void)
{
  const SlTestFixture *f = sl_test_fixture ("export", FIXTURE_ARGS);
  g_autoptr(SlProfile) profile = sl_test_load (f->path);

  check_cancel (profile, SL_EXPORT_PERFETTO, "trace.json");
  check_cancel (profile, SL_EXPORT_PERFETTO, "trace.json.gz");
  check_cancel (profile, SL_EXPORT_CSV, "kernels.csv");
  check_cancel (profile, SL_EXPORT_CSV, "tables/");
  check_cancel (profile, SL_EXPORT_HTML, "report.html");
}

static void
check_unwritable (SlProfile *profile, const char *path, const char *says)
{
  g_autoptr(GError) error = NULL;
  SlExportOptions o = { .format = SL_EXPORT_PERFETTO };

  g_assert_false (sl_export_to_path (profile, &o, path, NULL, NULL, NULL, &error));
  g_assert_nonnull (error);
  g_test_message ("%s: %s", path, error->message);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, says));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
test_unwritable (void)
{
  const SlTestFixture *f = sl_test_fixture ("small", "--kernels 500");
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autofree char *dir = g_dir_make_tmp ("sl-export-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "a-file", NULL);
  g_autofree char *under_file = g_build_filename (file, "trace.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "trace.json", NULL);
  g_autofree char *ro = g_build_filename (dir, "read-only", NULL);
  g_autofree char *in_ro = g_build_filename (ro, "trace.json", NULL);

  g_assert_true (g_file_set_contents (file, "x", 1, NULL));
  /* /proc refuses new files to everyone, root included. */
  check_unwritable (profile, "/proc/sightline-export.json", "read-only folder");
  check_unwritable (profile, under_file, "is not a folder");
  check_unwritable (profile, missing, "does not exist");
  g_assert_cmpint (g_mkdir (ro, 0555), ==, 0);
  if (access (ro, W_OK) == 0)
    g_test_message ("skipped the chmod 555 folder: this user (root?) may write there anyway");
  else
    check_unwritable (profile, in_ro, "read-only folder");
  g_chmod (ro, 0755);
  g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", dir);
  g_assert_cmpint (system (rm), ==, 0);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/export/cancel-leaves-nothing", test_cancel);
  g_test_add_func ("/export/unwritable-destination", test_unwritable);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
