/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-source.c: the profile file is opened once and read whole through
 * that descriptor (issue 10, item 7): files that are not regular are
 * refused by name and never block; a file replaced while it loads is still
 * read whole from the original; one written in place is reported, not
 * half-read; kernel details clicked later come from the file that was
 * loaded.  And the staged load's GPU profile (item 2). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "sl-test-util.h"
#include "sl-kernel-details.h"

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static char *
copy_real (const char *name, const char *as)
{
  g_autofree char *src = sl_test_real_profile (name);
  char *dst = tmp_path (as);
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (dst, contents, (gssize) len, NULL));
  return dst;
}

static void
assert_fails (const char *path, SlProfileError code, const char *needle)
{
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_load (path, NULL, NULL, NULL, &error);

  g_assert_null (profile);
  g_assert_error (error, SL_PROFILE_ERROR, (gint) code);
  if (strstr (error->message, needle) == NULL || strstr (error->message, path) == NULL)
    g_error ("message \"%s\" lacks \"%s\" or the path", error->message, needle);
}

/* ---- not regular files ------------------------------------------------------ */

static void
test_fifo (void)
{
  g_autofree char *path = tmp_path ("pipe.sqlite");

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  /* Without a writer, an open for reading would wait forever. */
  assert_fails (path, SL_PROFILE_ERROR_NOT_SQLITE, "named pipe");
}

static void
test_device_link (void)
{
  g_autofree char *path = tmp_path ("zero.sqlite");

  g_assert_cmpint (symlink ("/dev/zero", path), ==, 0);
  assert_fails (path, SL_PROFILE_ERROR_NOT_SQLITE, "character device");
}

static void
test_symlink_loop (void)
{
  g_autofree char *a = tmp_path ("loop-a.sqlite");
  g_autofree char *b = tmp_path ("loop-b.sqlite");

  g_assert_cmpint (symlink (b, a), ==, 0);
  g_assert_cmpint (symlink (a, b), ==, 0);
  assert_fails (a, SL_PROFILE_ERROR_NOT_FOUND, "loop");
}

static void
test_dangling_link (void)
{
  g_autofree char *path = tmp_path ("dangling.sqlite");
  g_autofree char *target = tmp_path ("gone.sqlite");

  g_assert_cmpint (symlink (target, path), ==, 0);
  assert_fails (path, SL_PROFILE_ERROR_NOT_FOUND, "symbolic link to a file that does not exist");
}

/* ---- files changed while they load ------------------------------------------ */

typedef struct {
  const char *path;
  const char *other;    /* renamed over path, or NULL: write path in place */
  gint        done;
} Meddler;

/* Once the events are being read (the catalog is in): meddle, once. */
static void
meddle_cb (double fraction, const char *phase, gpointer data)
{
  Meddler *m = data;

  if (fraction < 0.05 || !g_atomic_int_compare_and_exchange (&m->done, 0, 1))
    return;
  if (m->other != NULL)
    {
      g_assert_cmpint (g_rename (m->other, m->path), ==, 0);
      return;
    }
  /* What another writer does: a transaction bumps the change counter. */
  int fd = g_open (m->path, O_WRONLY, 0);
  guint8 counter[4] = { 0x7f, 0x7f, 0x7f, 0x7f };
  g_assert_cmpint (pwrite (fd, counter, sizeof counter, 24), ==, sizeof counter);
  close (fd);
}

static void
test_replaced_while_loading (void)
{
  g_autofree char *path = copy_real ("nsysai-h100-2gpu-1s.sqlite", "replaced.sqlite");
  g_autofree char *other = copy_real ("fuser-report2-h100.sqlite", "other.sqlite");
  g_autofree char *original = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  sqlite3 *db = sl_test_db_open (original);
  Meddler m = { path, other, 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = sl_profile_load (path, NULL, meddle_cb, &m, &error);

  g_assert_no_error (error);
  g_assert_cmpint (m.done, ==, 1);
  /* Every event of the file that was opened, none of the other. */
  g_assert_cmpuint (profile->counts.kernels, ==, sl_test_db_int (db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  g_assert_cmpuint (profile->counts.nvtx_ranges, ==,
                    sl_test_db_int (db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND end IS NOT NULL"));
  sqlite3_close (db);
}

static void
test_written_while_loading (void)
{
  g_autofree char *path = copy_real ("nsysai-h100-2gpu-1s.sqlite", "written.sqlite");
  Meddler m = { path, NULL, 0 };
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_load (path, NULL, meddle_cb, &m, &error);

  g_assert_null (profile);
  g_assert_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CHANGED);
  g_assert_nonnull (strstr (error->message, "changed while it was being read"));
}

/* Details read after the path names another file come from the loaded one. */
static void
test_details_after_replace (void)
{
  g_autofree char *path = copy_real ("nsysai-mock-rtx3080.sqlite", "details.sqlite");
  g_autofree char *other = copy_real ("nsysai-h100-2gpu-1s.sqlite", "details-other.sqlite");
  g_autofree char *original = sl_test_real_profile ("nsysai-mock-rtx3080.sqlite");
  g_autoptr(SlProfile) profile = sl_test_load (path);
  sqlite3 *db = sl_test_db_open (original);
  SlKernelDetails details;
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = NULL;
  guint last = profile->streams[0].kernels.spans.n - 1;

  g_assert_cmpint (g_rename (other, path), ==, 0);
  g_assert_true (sl_kernel_details_read (profile, 0, last, &details, &error));
  g_assert_no_error (error);
  sql = g_strdup_printf ("SELECT gridX * 1000000 + blockX FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start = %"
                         G_GINT64_FORMAT " AND deviceId = %u AND streamId = %u ORDER BY rowid LIMIT 1",
                         profile->streams[0].kernels.spans.start[last], profile->streams[0].device,
                         profile->streams[0].stream);
  g_assert_cmpint (details.grid[0] * 1000000 + details.block[0], ==, sl_test_db_int (db, sql));
  sl_kernel_details_clear (&details);
  sqlite3_close (db);
}

/* ---- the staged load ------------------------------------------------------- */

static void
gpu_ready_cb (SlProfile *gpu, gpointer data)
{
  SlProfile **out = data;

  g_assert_null (*out);
  *out = sl_profile_ref (gpu);
}

static void
test_staged (void)
{
  g_autofree char *path = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autoptr(SlProfile) gpu = NULL;
  SlLoadOptions options = { .gpu_ready = gpu_ready_cb, .gpu_ready_data = &gpu };
  g_autoptr(SlProfile) full = sl_profile_load_with (path, &options, NULL, NULL, NULL, NULL);

  g_assert_nonnull (full);
  g_assert_nonnull (gpu);
  g_assert_cmpint (gpu->parts, ==, SL_PARTS_GPU);
  g_assert_cmpint (full->parts, ==, SL_PARTS_ALL);
  g_assert_cmpuint (gpu->counts.kernels, ==, full->counts.kernels);
  g_assert_cmpuint (gpu->counts.memcpy, ==, full->counts.memcpy);
  g_assert_cmpuint (gpu->counts.kernels_linked, ==, 0);
  g_assert_cmpuint (full->counts.kernels_linked, >, 0);
  g_assert_cmpuint (gpu->n_threads, ==, 0);
  g_assert_cmpuint (gpu->n_streams, ==, full->n_streams);
  for (guint s = 0; s < gpu->n_streams; s++)
    {
      const SlKernels *a = &gpu->streams[s].kernels, *b = &full->streams[s].kernels;
      /* the same arrays, not a copy; no call linked yet */
      g_assert_true (a->spans.start == b->spans.start);
      g_assert_true (a->func == b->func);
      for (guint i = 0; i < a->spans.n; i++)
        g_assert_cmpuint (a->api[i], ==, SL_NONE);
      g_assert_cmpstr (sl_profile_kernel_name (gpu, a->func[0], FALSE), ==,
                       sl_profile_kernel_name (full, b->func[0], FALSE));
    }
  g_assert_cmpuint (gpu->n_processes, >=, 1);
  /* The GPU profile outlives the complete one: the arrays it shares stay. */
  g_clear_pointer (&full, sl_profile_unref);
  g_assert_cmpint (gpu->streams[0].kernels.spans.start[0], >, 0);
}

/* ---- loads at the same moment ----------------------------------------------- */

#define AT_ONCE_THREADS 8
#define AT_ONCE_ROUNDS 60
#define AT_ONCE_FLAG "--loads-at-once"

typedef struct {
  const char *path;
  gint       *waiting;
  GError     *error;
  guint64     kernels;
} AtOnce;

static gpointer
load_at_once (gpointer data)
{
  AtOnce *job = data;
  SlProfile *profile;

  /* All threads start their loads together: what a load sets up the first
   * time in a process is then set up by several at once. */
  g_atomic_int_dec_and_test (job->waiting);
  while (g_atomic_int_get (job->waiting) > 0)
    ;
  profile = sl_profile_load (job->path, NULL, NULL, NULL, &job->error);
  if (profile != NULL)
    job->kernels = profile->counts.kernels;
  g_clear_pointer (&profile, sl_profile_unref);
  return NULL;
}

/* This program started with AT_ONCE_FLAG PATH: loads PATH in
 * AT_ONCE_THREADS threads at once, before anything else ran (g_test_init
 * would set up GLib's C locale), and prints each load's kernel count or
 * error.  Exit status 0 when every load succeeded. */
static int
loads_at_once_main (const char *path)
{
  AtOnce jobs[AT_ONCE_THREADS];
  GThread *threads[AT_ONCE_THREADS];
  gint waiting = AT_ONCE_THREADS;
  int status = 0;

  g_setenv ("SIGHTLINE_NO_CACHE", "1", TRUE);
  for (guint i = 0; i < AT_ONCE_THREADS; i++)
    {
      jobs[i] = (AtOnce) { path, &waiting, NULL, 0 };
      threads[i] = g_thread_new ("load", load_at_once, &jobs[i]);
    }
  for (guint i = 0; i < AT_ONCE_THREADS; i++)
    {
      g_thread_join (threads[i]);
      if (jobs[i].error != NULL)
        {
          g_print ("error: %s\n", jobs[i].error->message);
          g_clear_error (&jobs[i].error);
          status = 1;
        }
      else
        g_print ("%" G_GUINT64_FORMAT "\n", jobs[i].kernels);
    }
  return status;
}

/* Each round is a new process, where nothing was set up before its loads
 * begin.  Failed (a few rounds in 60) while a load could refuse its own
 * descriptor because another one started at the same instant. */
static void
test_loads_at_once (void)
{
  g_autofree char *path = sl_test_real_profile ("nsysai-mock-rtx3080.sqlite");
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  sqlite3 *db = sl_test_db_open (path);
  g_autofree char *kernels = g_strdup_printf ("%" G_GINT64_FORMAT,
                                              sl_test_db_int (db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));

  sqlite3_close (db);
  g_assert_nonnull (self);
  for (guint round = 0; round < AT_ONCE_ROUNDS; round++)
    {
      const char *argv[] = { self, AT_ONCE_FLAG, path, NULL };
      g_autofree char *out = NULL;
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) lines = NULL;
      int wait_status = 0;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                   &out, NULL, &wait_status, &error));
      g_assert_no_error (error);
      lines = g_strsplit (g_strchomp (out), "\n", -1);
      if (!g_spawn_check_wait_status (wait_status, NULL))
        {
          g_autofree char *all = g_strjoinv (" | ", lines);
          g_error ("round %u of %u: %s", round + 1, AT_ONCE_ROUNDS, all);
        }
      g_assert_cmpuint (g_strv_length (lines), ==, AT_ONCE_THREADS);
      for (guint i = 0; lines[i] != NULL; i++)
        g_assert_cmpstr (lines[i], ==, kernels);
    }
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int result;

  if (argc == 3 && strcmp (argv[1], AT_ONCE_FLAG) == 0)
    return loads_at_once_main (argv[2]);
  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("sl-test-source-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *cache = g_build_filename (tmp_dir, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("SIGHTLINE_NO_CACHE", "1", TRUE);

  g_test_add_func ("/analysis/source/fifo", test_fifo);
  g_test_add_func ("/analysis/source/device-link", test_device_link);
  g_test_add_func ("/analysis/source/symlink-loop", test_symlink_loop);
  g_test_add_func ("/analysis/source/dangling-link", test_dangling_link);
  g_test_add_func ("/analysis/source/replaced-while-loading", test_replaced_while_loading);
  g_test_add_func ("/analysis/source/written-while-loading", test_written_while_loading);
  g_test_add_func ("/analysis/source/details-after-replace", test_details_after_replace);
  g_test_add_func ("/analysis/source/staged", test_staged);
  g_test_add_func ("/analysis/source/loads-at-once", test_loads_at_once);
  result = g_test_run ();
  g_autofree char *cleanup = g_strdup_printf ("rm -rf '%s'", tmp_dir);
  if (system (cleanup) != 0)
    g_printerr ("could not remove %s\n", tmp_dir);
  return result;
}
