/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-stall.c: "stall_ms", the longest main-loop stall of the real
 * application while it loads the profile, once per GSK renderer.  The app
 * measures it itself (SIGHTLINE_MEASURE_STALL, a 2 ms timer) and prints it
 * on stderr; without a display the app runs under xvfb-run. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "sightline.h"
#include "sl-bench-stall.h"

#define STALL_MARK "longest main-loop stall while loading"
#define STALL_TIMEOUT_S 180

typedef struct {
  GMainLoop *loop;
  double     stall_ms;
  gboolean   timed_out;
} StallRun;

static void
line_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  StallRun *run = data;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result, NULL, NULL);
  const char *mark;

  if (line == NULL)
    {
      g_main_loop_quit (run->loop);
      return;
    }
  mark = strstr (line, STALL_MARK);
  if (mark != NULL)
    {
      const char *colon = strrchr (line, ':');
      run->stall_ms = colon != NULL ? g_ascii_strtod (colon + 1, NULL) : -1;
      g_main_loop_quit (run->loop);
      return;
    }
  g_data_input_stream_read_line_async (G_DATA_INPUT_STREAM (source), G_PRIORITY_DEFAULT, NULL, line_cb, run);
}

static gboolean
timeout_cb (gpointer data)
{
  StallRun *run = data;
  run->timed_out = TRUE;
  g_main_loop_quit (run->loop);
  return G_SOURCE_REMOVE;
}

/* The app (and xvfb-run's Xvfb) in a process group of its own, so that
 * one signal ends them all. */
static void
new_process_group (gpointer data)
{
  setpgid (0, 0);
}

/* Runs the app on @path with @renderer; returns the stall in ms, or -1. */
static double
measure (const char *path, const char *renderer)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE |
                                                                        G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) app = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GMainContext) context = g_main_context_new ();
  StallRun run = { NULL, -1, FALSE };
  g_autofree char *xvfb = g_find_program_in_path ("xvfb-run");

  if (g_getenv ("DISPLAY") == NULL)
    {
      if (xvfb == NULL)
        return -1;
      g_ptr_array_add (argv, xvfb);
      g_ptr_array_add (argv, "-a");
      g_ptr_array_add (argv, "-s");
      g_ptr_array_add (argv, "-screen 0 1600x1000x24");
    }
  g_ptr_array_add (argv, SL_APP_PATH);
  g_ptr_array_add (argv, (gpointer) path);
  g_ptr_array_add (argv, NULL);

  g_subprocess_launcher_setenv (launcher, "SIGHTLINE_MEASURE_STALL", "1", TRUE);
  g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", renderer, TRUE);
  g_subprocess_launcher_setenv (launcher, "GDK_BACKEND", "x11", TRUE);
  g_subprocess_launcher_setenv (launcher, "GTK_A11Y", "none", TRUE);
  g_subprocess_launcher_setenv (launcher, "GSETTINGS_BACKEND", "memory", TRUE);
  g_subprocess_launcher_set_child_setup (launcher, new_process_group, NULL, NULL);
  app = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, NULL);
  if (app == NULL)
    return -1;

  g_main_context_push_thread_default (context);
  run.loop = g_main_loop_new (context, FALSE);
  lines = g_data_input_stream_new (g_subprocess_get_stderr_pipe (app));
  g_data_input_stream_read_line_async (lines, G_PRIORITY_DEFAULT, NULL, line_cb, &run);
  GSource *timeout = g_timeout_source_new_seconds (STALL_TIMEOUT_S);
  g_source_set_callback (timeout, timeout_cb, &run, NULL);
  g_source_attach (timeout, context);
  g_main_loop_run (run.loop);
  g_source_destroy (timeout);
  g_source_unref (timeout);
  {
    const char *id = g_subprocess_get_identifier (app);
    if (id != NULL)
      kill (-(pid_t) g_ascii_strtoll (id, NULL, 10), SIGTERM);
  }
  g_subprocess_wait (app, NULL, NULL);
  g_main_loop_unref (run.loop);
  g_main_context_pop_thread_default (context);
  return run.timed_out ? -1 : run.stall_ms;
}

void
bench_stall (SlProfile *profile, JsonBuilder *builder)
{
  static const char *const renderers[] = { "gl", "cairo" };

  /* Opt-in: it needs the GUI, a display or xvfb-run, and a minute. */
  if (g_getenv ("SL_BENCH_STALL") == NULL)
    {
      json_builder_add_null_value (builder);
      return;
    }
  json_builder_begin_object (builder);
  for (gsize i = 0; i < G_N_ELEMENTS (renderers); i++)
    {
      double ms = measure (profile->path, renderers[i]);
      json_builder_set_member_name (builder, renderers[i]);
      if (ms >= 0)
        json_builder_add_double_value (builder, ms);
      else
        json_builder_add_null_value (builder);
    }
  json_builder_end_object (builder);
}
