/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-profile-loader.c: SlProfileLoader, the asynchronous load the
 * application uses (progress properties, the prepare phase in the worker,
 * cancellation, errors, the staged load's GPU stage), and the kernel
 * details read off the main thread. */
#include "sl-test-util.h"

#include <string.h>
#include <glib/gstdio.h>

typedef struct {
  GMainLoop  *loop;
  SlProfile  *profile;
  gpointer    prepared;
  GError     *error;
  GArray     *fractions;   /* double, in notification order */
  guint       messages;    /* notify::message with a non-empty text */
  GThread    *prepare_thread;
  GCancellable *cancel_on_progress;
  /* staged loads */
  gboolean    staged;
  guint       gpu_ready;       /* emissions of "gpu-ready" */
  guint       fractions_at_gpu_ready;
  gboolean    done;            /* the load's callback ran */
  char       *gpu_prepared;    /* what the prepare function built for the GPU profile */
  char       *message_at_gpu_ready;
  GCancellable *cancel_on_gpu_ready;
  char       *open_gate;       /* created on "gpu-ready" */
  guint       threads;         /* sl_profile_loader_set_threads(), 0: left alone */
} Run;

static void
fraction_cb (SlProfileLoader *loader, GParamSpec *pspec, Run *run)
{
  double fraction = sl_profile_loader_get_fraction (loader);

  /* notifications arrive on the thread that started the load */
  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  g_array_append_val (run->fractions, fraction);
  if (run->cancel_on_progress != NULL && fraction > 0)
    g_cancellable_cancel (run->cancel_on_progress);
}

static void
message_cb (SlProfileLoader *loader, GParamSpec *pspec, Run *run)
{
  const char *message = sl_profile_loader_get_message (loader);

  if (message != NULL && *message != '\0')
    run->messages++;
}

static gpointer
prepare_cb (SlProfile *profile, GCancellable *cancellable, gpointer data)
{
  Run *run = data;

  run->prepare_thread = g_thread_self ();
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;
  return g_strdup_printf ("%" G_GUINT64_FORMAT " kernels", profile->counts.kernels);
}

static void
loaded_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Run *run = data;

  run->profile = sl_profile_loader_load_finish (SL_PROFILE_LOADER (source), result, &run->prepared, &run->error);
  run->done = TRUE;
  g_main_loop_quit (run->loop);
}

static void
gpu_ready_cb (SlProfileLoader *loader, SlProfile *gpu, gpointer prepared, Run *run)
{
  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  g_assert_false (run->done);
  g_assert_cmpint (gpu->parts, ==, SL_PARTS_GPU);
  g_assert_cmpuint (gpu->n_threads, ==, 0);
  run->gpu_ready++;
  run->fractions_at_gpu_ready = run->fractions->len;
  run->gpu_prepared = g_strdup (prepared);
  run->message_at_gpu_ready = g_strdup (sl_profile_loader_get_message (loader));
  if (run->cancel_on_gpu_ready != NULL)
    g_cancellable_cancel (run->cancel_on_gpu_ready);
  if (run->open_gate != NULL)
    g_assert_true (g_file_set_contents (run->open_gate, "", 0, NULL));
}

/* Loads @path with a loader on the default main context; @prepare adds the
 * prepare phase; @cancellable (nullable) is handed to the load. */
static void
run_load (Run *run, const char *path, gboolean prepare, GCancellable *cancellable)
{
  g_autoptr(SlProfileLoader) loader = sl_profile_loader_new (path);

  run->loop = g_main_loop_new (NULL, FALSE);
  run->fractions = g_array_new (FALSE, FALSE, sizeof (double));
  g_assert_cmpstr (sl_profile_loader_get_path (loader), ==, path);
  g_signal_connect (loader, "notify::fraction", G_CALLBACK (fraction_cb), run);
  g_signal_connect (loader, "notify::message", G_CALLBACK (message_cb), run);
  if (prepare)
    sl_profile_loader_set_prepare (loader, "Preparing", prepare_cb, run, g_free);
  if (run->staged)
    {
      sl_profile_loader_set_staged (loader, TRUE);
      g_assert_true (sl_profile_loader_get_staged (loader));
      g_signal_connect (loader, "gpu-ready", G_CALLBACK (gpu_ready_cb), run);
    }
  if (run->threads > 0)
    sl_profile_loader_set_threads (loader, run->threads);
  sl_profile_loader_load_async (loader, cancellable, loaded_cb, run);
  g_main_loop_run (run->loop);
}

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->loop, g_main_loop_unref);
  g_clear_pointer (&run->profile, sl_profile_unref);
  g_clear_pointer (&run->prepared, g_free);
  g_clear_error (&run->error);
  g_clear_pointer (&run->fractions, g_array_unref);
  g_clear_pointer (&run->gpu_prepared, g_free);
  g_clear_pointer (&run->message_at_gpu_ready, g_free);
}

static void
test_load (void)
{
  g_autofree char *path = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autoptr(SlProfile) sync = sl_test_load (path);
  g_autofree char *expected = NULL;
  Run run = { 0 };

  run_load (&run, path, TRUE, NULL);
  g_assert_no_error (run.error);
  g_assert_nonnull (run.profile);
  /* the same model as the synchronous load */
  g_assert_cmpuint (run.profile->counts.kernels, ==, sync->counts.kernels);
  g_assert_cmpuint (run.profile->counts.cuda_api, ==, sync->counts.cuda_api);
  g_assert_cmpint (run.profile->start_ns, ==, sync->start_ns);
  /* the prepare phase ran on the loaded profile, in the worker */
  expected = g_strdup_printf ("%" G_GUINT64_FORMAT " kernels", sync->counts.kernels);
  g_assert_cmpstr (run.prepared, ==, expected);
  g_assert_true (run.prepare_thread != NULL && run.prepare_thread != g_thread_self ());
  /* progress goes forward and ends full, with phase names */
  g_assert_cmpuint (run.fractions->len, >=, 1);
  for (guint i = 1; i < run.fractions->len; i++)
    g_assert_cmpfloat (g_array_index (run.fractions, double, i), >=, g_array_index (run.fractions, double, i - 1));
  g_assert_cmpfloat (g_array_index (run.fractions, double, run.fractions->len - 1), ==, 1.0);
  g_assert_cmpuint (run.messages, >=, 1);
  run_clear (&run);
}

static void
test_load_error (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-loader-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "notes.sqlite", NULL);
  Run run = { 0 };

  g_assert_true (g_file_set_contents (path, "not a database\n", -1, NULL));
  run_load (&run, path, TRUE, NULL);
  g_assert_null (run.profile);
  g_assert_null (run.prepared);
  g_assert_error (run.error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_NOT_SQLITE);
  g_assert_nonnull (strstr (run.error->message, "notes.sqlite"));
  /* the prepare phase never ran on a failed load */
  g_assert_null (run.prepare_thread);
  run_clear (&run);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_cancel (void)
{
  g_autofree char *path = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Run run = { 0 };

  /* cancelled before it starts */
  g_cancellable_cancel (cancellable);
  run_load (&run, path, TRUE, cancellable);
  g_assert_null (run.profile);
  g_assert_null (run.prepared);
  g_assert_error (run.error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED);
  run_clear (&run);

  /* cancelled at its first progress report: whichever phase it is in
   * then, the load ends as cancelled or, if it was already done, whole */
  g_cancellable_reset (cancellable);
  run.cancel_on_progress = cancellable;
  run_load (&run, path, TRUE, cancellable);
  if (run.profile == NULL)
    g_assert_error (run.error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED);
  else
    g_assert_nonnull (run.prepared);
  run_clear (&run);
}

/* Fractions [from, to) of @run never go back. */
static void
assert_forward (Run *run, guint from, guint to)
{
  for (guint i = from + 1; i < to; i++)
    g_assert_cmpfloat (g_array_index (run->fractions, double, i), >=, g_array_index (run->fractions, double, i - 1));
}

/* A staged load: the GPU stage first (with what the prepare function built
 * for it), then the complete profile; the bar starts again for the CPU side. */
static void
test_staged (void)
{
  g_autofree char *path = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autoptr(SlProfile) sync = sl_test_load (path);
  g_autofree char *dir = g_dir_make_tmp ("sl-loader-XXXXXX", NULL);
  g_autofree char *gate = g_build_filename (dir, "gate", NULL);
  g_autofree char *kernels = g_strdup_printf ("%" G_GUINT64_FORMAT " kernels", sync->counts.kernels);
  Run run = { .staged = TRUE };

  /* the CPU side waits at the gate until "gpu-ready" opens it: the GPU
   * stage shows while the CPU side is still to come */
  g_setenv ("SL_LOADER_TEST_CPU_GATE", gate, TRUE);
  run.open_gate = gate;
  run_load (&run, path, TRUE, NULL);
  g_unsetenv ("SL_LOADER_TEST_CPU_GATE");
  g_assert_no_error (run.error);
  g_assert_cmpuint (run.gpu_ready, ==, 1);
  /* the prepare function ran on the GPU profile too: same kernels */
  g_assert_cmpstr (run.gpu_prepared, ==, kernels);
  g_assert_cmpstr (run.message_at_gpu_ready, ==, "Reading CUDA API calls and NVTX ranges");
  g_assert_nonnull (run.profile);
  g_assert_cmpint (run.profile->parts, ==, SL_PARTS_ALL);
  g_assert_cmpuint (run.profile->counts.cuda_api, ==, sync->counts.cuda_api);
  g_assert_cmpstr (run.prepared, ==, kernels);
  /* each stage's bar goes forward; the whole ends full */
  assert_forward (&run, 0, run.fractions_at_gpu_ready);
  assert_forward (&run, run.fractions_at_gpu_ready, run.fractions->len);
  g_assert_cmpfloat (g_array_index (run.fractions, double, run.fractions->len - 1), ==, 1.0);
  run_clear (&run);
  g_unlink (gate);
  g_rmdir (dir);
}

/* Cancelled once the GPU rows are out: the load ends as cancelled, the
 * GPU stage was handed out once. */
static void
test_staged_cancel (void)
{
  g_autofree char *path = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Run run = { .staged = TRUE };

  run.cancel_on_gpu_ready = cancellable;
  /* a gate that never opens: only the cancellation ends the wait */
  g_setenv ("SL_LOADER_TEST_CPU_GATE", "/nonexistent/sightline-gate", TRUE);
  run_load (&run, path, TRUE, cancellable);
  g_unsetenv ("SL_LOADER_TEST_CPU_GATE");
  g_assert_cmpuint (run.gpu_ready, ==, 1);
  g_assert_null (run.profile);
  g_assert_null (run.prepared);
  g_assert_error (run.error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED);
  run_clear (&run);

  /* without a prepare function the GPU stage comes with nothing prepared */
  g_cancellable_reset (cancellable);
  run = (Run) { .staged = TRUE };
  run_load (&run, path, FALSE, NULL);
  g_assert_cmpuint (run.gpu_ready, ==, 1);
  g_assert_null (run.gpu_prepared);
  g_assert_nonnull (run.profile);
  run_clear (&run);
}

typedef struct {
  GMainLoop       *loop;
  SlKernelDetails *details;
  GError          *error;
} DetailsRun;

static void
details_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  DetailsRun *run = data;

  run->details = sl_kernel_details_read_finish (result, &run->error);
  g_main_loop_quit (run->loop);
}

static void
read_details_async (SlProfile *profile, guint32 stream, guint index, DetailsRun *run)
{
  run->loop = g_main_loop_new (NULL, FALSE);
  sl_kernel_details_read_async (profile, stream, index, NULL, details_cb, run);
  g_main_loop_run (run->loop);
  g_main_loop_unref (run->loop);
}

/* The kernel's row found by SQL from what identifies it: its stream and
 * its times (the first such row). */
static char *
kernel_row_sql (const SlProfile *profile, guint s, guint i, const char *what)
{
  const SlStream *st = &profile->streams[s];

  return g_strdup_printf ("SELECT %s FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start = %" G_GINT64_FORMAT
                          " AND end = %" G_GINT64_FORMAT " AND deviceId = %u AND streamId = %u"
                          " AND contextId = %u ORDER BY rowid LIMIT 1", what, st->kernels.spans.start[i],
                          sl_spans_end (&st->kernels.spans, i), st->device, st->stream, st->context);
}

/* Every kernel of @path: the async read equals SQL on its row. */
static void
check_all_kernel_details (const char *path)
{
  g_autoptr(SlProfile) profile = sl_test_load (path);
  sqlite3 *db = sl_test_db_open (path);
  guint checked = 0;

  for (guint s = 0; s < profile->n_streams; s++)
    for (guint i = 0; i < profile->streams[s].kernels.spans.n; i++)
      {
        g_autofree char *sql = kernel_row_sql (profile, s, i, "gridX * 1000000 + blockX * 1000 + registersPerThread");
        DetailsRun run = { 0 };

        read_details_async (profile, s, i, &run);
        g_assert_no_error (run.error);
        g_assert_cmpint (run.details->grid[0] * 1000000 + run.details->block[0] * 1000 + run.details->registers_per_thread,
                         ==, sl_test_db_int (db, sql));
        g_assert_nonnull (run.details->mangled_name);
        sl_kernel_details_free (run.details);
        checked++;
      }
  g_assert_cmpuint (checked, ==, profile->counts.kernels);
  sqlite3_close (db);

  /* a kernel the profile does not have is an error, not a crash */
  {
    DetailsRun run = { 0 };
    read_details_async (profile, 9999, 0, &run);
    g_assert_null (run.details);
    g_assert_error (run.error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_FAILED);
    g_clear_error (&run.error);
  }
}

static void
test_kernel_details_async (void)
{
  g_autofree char *path = sl_test_real_profile ("pipit-saxpy-mpi-rank0.sqlite");

  check_all_kernel_details (path);
}

/* Rows stored out of start order (the loader sorts them, and keeps every
 * kernel's row) and in order (it keeps every 64th): details of each. */
static void
test_kernel_details_row_marks (void)
{
  const SlTestFixture *f = sl_test_fixture ("details", "--kernels 3000 --gpus 1 --streams 1");
  g_autofree char *shuffled = g_strconcat (f->path, ".shuffled.sqlite", NULL);
  g_autofree char *contents = NULL;
  gsize len;
  sqlite3 *db = NULL;

  g_assert_true (g_file_get_contents (f->path, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (shuffled, contents, (gssize) len, NULL));
  g_assert_cmpint (sqlite3_open (shuffled, &db), ==, SQLITE_OK);
  sl_test_db_exec (db, "CREATE TEMP TABLE k AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;"
                       "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL;"
                       "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM k ORDER BY (start * 7919) % 1009, start;");
  sqlite3_close (db);
  check_all_kernel_details (f->path);
  check_all_kernel_details (shuffled);
  {
    g_autoptr(SlProfile) in_order = sl_test_load (f->path);
    g_autoptr(SlProfile) sorted = sl_test_load (shuffled);
    g_assert_null (in_order->streams[0].kernels.rowid);
    g_assert_nonnull (in_order->streams[0].kernels.rowid_marks);
    g_assert_nonnull (sorted->streams[0].kernels.rowid);
  }

}

/* The parts the loader read the kernel table in, from its debug line
 * "reading CUPTI_ACTIVITY_KIND_KERNEL: N part(s), ..."; other messages go
 * to GLib's writer. */
static guint kernel_parts;

static GLogWriterOutput
count_parts_writer (GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
  static const char prefix[] = "reading CUPTI_ACTIVITY_KIND_KERNEL: ";

  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0
        && g_str_has_prefix (fields[i].value, prefix))
      {
        kernel_parts = (guint) g_ascii_strtoull ((const char *) fields[i].value + strlen (prefix), NULL, 10);
        return G_LOG_WRITER_HANDLED;
      }
  return g_log_writer_default (level, fields, n_fields, data);
}

/* A loader told to use one thread reads the kernel table in one part (a
 * comparison loads its profiles at once, one core each); left alone it
 * splits the table across the cores; both give the profile SQL counts. */
static void
test_threads (void)
{
  const SlTestFixture *f = sl_test_fixture ("threads", "--gpus 2 --kernels 40000 --iterations 4 --seed 8");
  sqlite3 *db = sl_test_db_open (f->path);
  gint64 want = sl_test_db_int (db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");

  sqlite3_close (db);
  g_unsetenv ("SL_LOADER_THREADS");
  for (guint threads = 0; threads <= 1; threads++)
    {
      Run run = { .threads = threads };
      guint64 got = 0;

      kernel_parts = 0;
      run_load (&run, f->path, FALSE, NULL);
      g_assert_no_error (run.error);
      for (guint s = 0; s < run.profile->n_streams; s++)
        got += run.profile->streams[s].kernels.spans.n;
      g_assert_cmpint ((gint64) got, ==, want);
      if (threads == 1)
        g_assert_cmpuint (kernel_parts, ==, 1);
      else if (g_get_num_processors () >= 2)
        g_assert_cmpuint (kernel_parts, >=, 2);
      run_clear (&run);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_set_writer_func (count_parts_writer, NULL, NULL);
  if (g_getenv ("SL_PROFILES_DIR") == NULL)
    {
      g_test_skip ("SL_PROFILES_DIR is not set");
      return g_test_run ();
    }
  g_test_add_func ("/analysis/profile-loader/load", test_load);
  g_test_add_func ("/analysis/profile-loader/error", test_load_error);
  g_test_add_func ("/analysis/profile-loader/cancel", test_cancel);
  g_test_add_func ("/analysis/profile-loader/staged", test_staged);
  g_test_add_func ("/analysis/profile-loader/staged-cancel", test_staged_cancel);
  g_test_add_func ("/analysis/profile-loader/threads", test_threads);
  g_test_add_func ("/analysis/kernel-details/async", test_kernel_details_async);
  g_test_add_func ("/analysis/kernel-details/row-marks", test_kernel_details_row_marks);
  return g_test_run ();
}
