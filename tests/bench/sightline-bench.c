/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sightline-bench: how fast a large profile opens and how much memory it takes.
 *
 * For each size it makes a synthetic profile with sightline-gen (cached in
 * $XDG_CACHE_HOME/sightline-bench/, reused while the parameters are the same),
 * then measures it in a fresh child process (this binary re-executed with
 * --measure) so peak resident memory is per size and nothing is shared between
 * sizes.  With the file in the page cache, three children load it from the
 * export without the profile cache; the one of median time reports (time,
 * memory, analyses, frames).  Then a child loads it with an empty profile
 * cache of its own and times writing the entry, and another (--reopen)
 * loads it from that entry.  Not a test: it never fails on time.
 *
 *   sightline-bench [--json] [--kernels N] [--threads 1|2] [--gen PATH] [--cache-dir DIR]
 */

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-profile.h"
#include "sl-profile-cache.h"
#include "sl-profile-loader.h"
#include "sl-strings-private.h"
#include "sl-stats-split.h"
#include "sl-bench-cli.h"
#include "sl-bench-cpu.h"

/* Bump when sightline-gen's output changes, so stale cached profiles are remade. */
#define BENCH_CACHE_VERSION 2

/* ---- measurement sections -------------------------------------------------
 * Each section runs on the loaded profile inside the child process and adds
 * exactly one value (normally an object of timings) to the size's JSON object
 * under its name, e.g. "analysis_ms": {"kernel_summary": 9.8, ...}.  Add a
 * line to bench_sections to add a section; the table prints it compactly. */

typedef void (*BenchSectionFunc) (SlProfile *profile, JsonBuilder *builder);

typedef struct {
  const char       *name;
  BenchSectionFunc  run;
} BenchSection;

#ifdef SL_BENCH_FRAMES
#include "sl-bench-frames.h"
#include "sl-bench-flame.h"
#include "sl-bench-stall.h"
#include "sl-bench-staged.h"   /* "first_frame_ms", "full_load_ms": a staged load, in a child of its own */
#endif

/* tests/bench/sl-bench-analyses.c (issue 3) */
void sl_bench_analyses (SlProfile *profile, JsonBuilder *builder);
/* tests/bench/sl-bench-search.c (issue 11): the search page's search */
void sl_bench_search (SlProfile *profile, JsonBuilder *builder);
void sl_bench_search_detail (SlProfile *profile, JsonBuilder *builder);
/* tests/bench/sl-bench-scope-summary.c (issue 11) */
void sl_bench_scope_index (SlProfile *profile, JsonBuilder *builder);
void sl_bench_scope_summary (SlProfile *profile, JsonBuilder *builder);
void sl_bench_scope_summary_detail (SlProfile *profile, JsonBuilder *builder);
/* tests/bench/sl-bench-export.c (issue 14) */
void sl_bench_export (SlProfile *profile, JsonBuilder *builder);
void sl_bench_export_cpu (SlProfile *profile, JsonBuilder *builder);
void sl_bench_export_rss (SlProfile *profile, JsonBuilder *builder);
/* tests/bench/sl-bench-rank-summaries.c (issue 15): a folder of rank summaries */
void sl_bench_rank_summaries (SlProfile *profile, JsonBuilder *builder);

static const BenchSection bench_sections[] = {
  { "analysis_ms", sl_bench_analyses },
  { "search_ms",   sl_bench_search },
  { "search_detail", sl_bench_search_detail },
  { "scope_index_ms", sl_bench_scope_index },
  { "scope_summary_ms", sl_bench_scope_summary },
  { "scope_summary_detail", sl_bench_scope_summary_detail },
  { "export_mevents_per_s", sl_bench_export },
  { "export_cpu_mevents_per_s", sl_bench_export_cpu },
  { "export_peak_rss_mb", sl_bench_export_rss },
  { "rank_summaries_ms", sl_bench_rank_summaries },
#ifdef SL_BENCH_FRAMES
  { "frame_ms",    bench_frames },   /* sl-bench-frames.c, with the GUI build */
  { "flame_ms",    bench_flame },    /* sl-bench-flame.c: the flame stack's two modes */
  { "stall_ms",    bench_stall },    /* sl-bench-stall.c: opt-in, SL_BENCH_STALL=1 */
#endif
  { NULL, NULL }
};

/* ---- memory ---------------------------------------------------------------- */

/* A field of /proc/self/status ("VmRSS", "VmHWM") in bytes, -1 if unknown. */
static gint64
proc_status_bytes (const char *field)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return -1;
  gsize flen = strlen (field);
  for (char *line = text; line && *line; )
    {
      char *nl = strchr (line, '\n');
      if (strncmp (line, field, flen) == 0 && line[flen] == ':')
        return g_ascii_strtoll (line + flen + 1, NULL, 10) * 1024;   /* "kB" */
      line = nl ? nl + 1 : NULL;
    }
  return -1;
}

/* ---- child: load one profile and report ------------------------------------ */

/* Counts the loader must agree with, from sightline-gen --truth. */
static gboolean
check_truth (const SlProfile *profile, const char *truth_path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  if (!truth_path || !json_parser_load_from_file (parser, truth_path, NULL))
    return FALSE;
  JsonObject *c = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "counts");
  const SlCounts *pc = &profile->counts;
  struct { const char *name; guint64 loaded; } checks[] = {
    { "kernels", pc->kernels }, { "cuda_api", pc->cuda_api }, { "memcpy", pc->memcpy },
    { "memset", pc->memset }, { "nvtx_ranges", pc->nvtx_ranges }, { "nvtx_marks", pc->nvtx_marks },
  };
  gboolean ok = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (checks); i++)
    {
      gint64 want = json_object_get_int_member (c, checks[i].name);
      if ((gint64) checks[i].loaded != want)
        {
          g_printerr ("sightline-bench: %s: loader has %" G_GUINT64_FORMAT " %s, the generator wrote %" G_GINT64_FORMAT "\n",
                      truth_path, checks[i].loaded, checks[i].name, want);
          ok = FALSE;
        }
    }
  return ok;
}

/* Milliseconds from the end of the load (@t1) until the profile cache's
 * entry, written in the background from then on, is complete; -1 when none
 * was written. */
static double
finish_cache_write (gint64 t1)
{
  SlProfileCacheStats cache;

  sl_profile_cache_flush ();
  sl_profile_cache_get_stats (&cache);
  return cache.written == 1 ? (g_get_monotonic_time () - t1) / 1e3 : -1.0;
}

/* What one load cost: time and resident memory around it. */
typedef struct {
  double open_s, cache_write_ms;
  gint64 rss_before, rss_after, hwm, rss_trimmed;
  gint64 anon_before, anon_after, file_before, file_after;   /* RssAnon, RssFile */
} LoadFigures;

#define INT(k, v) do { json_builder_set_member_name (b, k); json_builder_add_int_value (b, (v)); } while (0)
#define DBL(k, v) do { json_builder_set_member_name (b, k); json_builder_add_double_value (b, (v)); } while (0)

static void
add_load_figures (JsonBuilder *b, SlProfile *profile, const char *path, const LoadFigures *f)
{
  const SlCounts *c = &profile->counts;
  gint64 strings = (gint64) _sl_strings_bytes (profile->strings);
  double mkernels = c->kernels / 1e6;
  guint64 events = c->kernels + c->cuda_api;
  GStatBuf st;

  INT ("kernels", (gint64) c->kernels);
  INT ("cuda_api", (gint64) c->cuda_api);
  INT ("nvtx_ranges", (gint64) c->nvtx_ranges);
  INT ("memcpy", (gint64) c->memcpy);
  INT ("events", (gint64) events);
  INT ("file_bytes", g_stat (path, &st) == 0 ? (gint64) st.st_size : -1);
  DBL ("open_s", f->open_s);
  DBL ("cache_write_ms", f->cache_write_ms);
  DBL ("open_s_per_million_kernels", mkernels > 0 ? f->open_s / mkernels : 0.0);
  INT ("peak_rss_bytes", f->hwm);
  INT ("rss_before_bytes", f->rss_before);
  INT ("rss_after_bytes", f->rss_after);
  INT ("rss_after_trim_bytes", f->rss_trimmed);
  INT ("string_table_bytes", strings);
  DBL ("bytes_per_event", events ? (double) (f->rss_after - f->rss_before - strings) / events : 0.0);
  DBL ("bytes_per_event_trimmed", events ? (double) (f->rss_trimmed - f->rss_before - strings) / events : 0.0);
  /* The same without the pages of code and data files the load touched
   * for the first time (libsqlite3's, the loader's: ~2 MB, once per process). */
  DBL ("bytes_per_event_anon", events ? (double) (f->anon_after - f->anon_before - strings) / events : 0.0);
  INT ("file_rss_growth_bytes", f->file_after - f->file_before);
}

#undef INT
#undef DBL

static void
print_json (JsonBuilder *b)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_autofree char *out = NULL;

  json_generator_set_root (gen, root);
  out = json_generator_to_data (gen, NULL);
  g_print ("%s\n", out);
}

static int
measure (const char *path, const char *truth_path)
{
  g_autoptr (GError) error = NULL;
  LoadFigures f = { .rss_before = proc_status_bytes ("VmRSS"), .anon_before = proc_status_bytes ("RssAnon"),
                    .file_before = proc_status_bytes ("RssFile") };
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (SlProfile) profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  const char *threads = g_getenv ("SL_LOADER_THREADS");
  g_autoptr (JsonBuilder) b = json_builder_new ();

  gint64 t1 = g_get_monotonic_time ();

  f.open_s = (t1 - t0) / 1e6;
  if (!profile)
    {
      g_printerr ("sightline-bench: %s\n", error->message);
      return 1;
    }
  f.cache_write_ms = finish_cache_write (t1);
  f.rss_after = proc_status_bytes ("VmRSS");
  f.anon_after = proc_status_bytes ("RssAnon");
  f.file_after = proc_status_bytes ("RssFile");
  f.hwm = proc_status_bytes ("VmHWM");
  /* What the loader freed but malloc kept: the app holds it too, unless trimmed. */
  malloc_trim (0);
  f.rss_trimmed = proc_status_bytes ("VmRSS");

  json_builder_begin_object (b);
  add_load_figures (b, profile, path, &f);
  json_builder_set_member_name (b, "analysis_threads");
  json_builder_add_int_value (b, sl_analysis_threads ());
  json_builder_set_member_name (b, "loader_threads");
  if (threads)
    json_builder_add_int_value (b, g_ascii_strtoll (threads, NULL, 10));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "truth_ok");
  json_builder_add_boolean_value (b, check_truth (profile, truth_path));
  for (const BenchSection *s = bench_sections; s->name; s++)
    {
      json_builder_set_member_name (b, s->name);
      s->run (profile, b);
    }
  json_builder_end_object (b);
  print_json (b);
  return 0;
}

/* The second open of a profile in a fresh process: from the cache entry the
 * first child wrote.  Prints {"reopen_ms", "reopen_hit", "reopen_truth_ok"}. */
static int
measure_reopen (const char *path, const char *truth_path)
{
  g_autoptr (GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (SlProfile) profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  gint64 t1 = g_get_monotonic_time ();
  SlProfileCacheStats cache;

  if (!profile)
    {
      g_printerr ("sightline-bench: %s\n", error->message);
      return 1;
    }
  sl_profile_cache_get_stats (&cache);
  g_print ("{\"reopen_ms\": %.3f, \"reopen_hit\": %s, \"reopen_truth_ok\": %s}\n", (t1 - t0) / 1e3,
           cache.hits == 1 ? "true" : "false", check_truth (profile, truth_path) ? "true" : "false");
  return 0;
}
#ifdef SL_BENCH_FRAMES
/* Child: the staged load of the application, in a process of its own
 * like the plain one: "first_frame_ms", "full_load_ms", "staged_ms". */
static int
measure_staged (const char *path)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  if (!bench_staged (path, b))
    return 1;
  json_builder_end_object (b);
  print_json (b);
  return 0;
}
#endif

/* Child: one of the measurements, in a process of its own. */
static int
measure_child (const char *plain_path, const char *staged_path, const char *truth_path, gboolean reopen)
{
#ifdef SL_BENCH_FRAMES
  if (staged_path)
    return measure_staged (staged_path);
#endif
  if (!plain_path)
    return 2;
  return reopen ? measure_reopen (plain_path, truth_path) : measure (plain_path, truth_path);
}

/* ---- parent: profiles, children, report ------------------------------------ */

typedef struct {
  gboolean  json;
  gint64    kernels;       /* 0: the default sizes */
  int       threads;       /* 0: the loader's default */
  char     *gen;
  char     *cache_dir;
  gboolean  no_cli;        /* skip "cli_ms" (minutes on 10 M kernels) */
} Options;

static char *
find_generator (const Options *o)
{
  if (o->gen)
    return g_strdup (o->gen);
  if (g_getenv ("SL_GEN"))
    return g_strdup (g_getenv ("SL_GEN"));
#ifdef SL_GEN_PATH
  if (g_file_test (SL_GEN_PATH, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (SL_GEN_PATH);
#endif
  /* Beside us in a build tree: tests/bench/ -> tests/gen/. */
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  if (self)
    {
      g_autofree char *dir = g_path_get_dirname (self);
      char *p = g_build_filename (dir, "..", "gen", "sightline-gen", NULL);
      if (g_file_test (p, G_FILE_TEST_IS_EXECUTABLE))
        return p;
      g_free (p);
      p = g_build_filename (dir, "sightline-gen", NULL);
      if (g_file_test (p, G_FILE_TEST_IS_EXECUTABLE))
        return p;
      g_free (p);
    }
  return g_find_program_in_path ("sightline-gen");
}

/* sightline-cli of this build, else from PATH. */
static char *
find_cli (void)
{
  if (g_getenv ("SL_CLI"))
    return g_strdup (g_getenv ("SL_CLI"));
#ifdef SL_CLI_PATH
  if (g_file_test (SL_CLI_PATH, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (SL_CLI_PATH);
#endif
  return g_find_program_in_path ("sightline-cli");
}

/* The shape of the benchmark profile of @kernels kernels: 8 GPUs x 4 streams,
 * 2 processes, an API call per kernel, NVTX down to the op level, each
 * table's pages in one stretch as in the exports of nsys (all five real
 * ones beside the project: their big tables' leaf pages follow one another). */
static GPtrArray *
gen_args (gint64 kernels)
{
  GPtrArray *a = g_ptr_array_new_with_free_func (g_free);
  gint64 iterations = MAX (10, kernels / 100000);
#define ARG(...) g_ptr_array_add (a, g_strdup_printf (__VA_ARGS__))
  ARG ("--layout"); ARG ("current");
  ARG ("--gpus"); ARG ("8");
  ARG ("--streams"); ARG ("4");
  ARG ("--processes"); ARG ("2");
  ARG ("--threads"); ARG ("2");
  ARG ("--iterations"); ARG ("%" G_GINT64_FORMAT, iterations);
  ARG ("--kernels"); ARG ("%" G_GINT64_FORMAT, kernels);
  ARG ("--nvtx-depth"); ARG ("5");
  ARG ("--nccl");
  ARG ("--memcpy"); ARG ("%" G_GINT64_FORMAT, kernels / 1000);
  ARG ("--memset"); ARG ("%" G_GINT64_FORMAT, kernels / 5000);
  ARG ("--gap-ns"); ARG ("2000000");
  ARG ("--seed"); ARG ("1");
  ARG ("--pack-tables");
#undef ARG
  return a;
}

/* Returns the cached profile for @kernels, generating it when missing. */
static char *
ensure_profile (const Options *o, const char *gen, gint64 kernels, GError **error)
{
  g_autoptr (GPtrArray) args = gen_args (kernels);
  g_autoptr (GString) key = g_string_new (NULL);
  g_string_append_printf (key, "v%d", BENCH_CACHE_VERSION);
  for (guint i = 0; i < args->len; i++)
    g_string_append_printf (key, " %s", (char *) args->pdata[i]);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA1, key->str, -1);
  g_autofree char *name = g_strdup_printf ("k%" G_GINT64_FORMAT "-%.12s.sqlite", kernels, hash);
  char *path = g_build_filename (o->cache_dir, name, NULL);
  g_autofree char *truth = g_strconcat (path, ".truth.json", NULL);

  /* The generator renames a finished file into place and writes the truth
   * after it, so both existing means complete. */
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR) && g_file_test (truth, G_FILE_TEST_IS_REGULAR))
    return path;

  if (g_mkdir_with_parents (o->cache_dir, 0755) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                   "cannot create %s: %s", o->cache_dir, g_strerror (errno));
      g_free (path);
      return NULL;
    }
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) gen);
  g_ptr_array_add (argv, path);
  g_ptr_array_add (argv, (gpointer) "--truth");
  g_ptr_array_add (argv, truth);
  for (guint i = 0; i < args->len; i++)
    g_ptr_array_add (argv, args->pdata[i]);
  g_ptr_array_add (argv, NULL);

  g_printerr ("sightline-bench: generating %s (%" G_GINT64_FORMAT " kernels)...\n", path, kernels);
  gint64 t0 = g_get_monotonic_time ();
  int status = 0;
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_CHILD_INHERITS_STDIN,
                     NULL, NULL, NULL, NULL, &status, error) ||
      !g_spawn_check_wait_status (status, error))
    {
      g_prefix_error (error, "%s: ", gen);
      g_free (path);
      return NULL;
    }
  g_printerr ("sightline-bench: generated in %.1f s\n", (g_get_monotonic_time () - t0) / 1e6);
  /* Let writeback finish now, not while the loader is being timed. */
  int fd = g_open (path, O_RDONLY, 0);
  if (fd >= 0)
    {
      fsync (fd);
      close (fd);
    }
  return path;
}

/* Runs this binary with @mode (--measure or --measure-staged) on @path in
 * a fresh process; returns its JSON object. */
static JsonObject *
run_child (const Options *o, const char *mode, const char *path, const char *cache_home, gboolean reopen,
           GError **error)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", error);
  if (!self)
    return NULL;
  g_autofree char *truth = g_strconcat (path, ".truth.json", NULL);
  char *argv[] = { self, (char *) mode, (char *) path, (char *) "--truth", truth,
                   reopen ? (char *) "--reopen" : NULL, NULL };
  g_auto (GStrv) envp = g_get_environ ();
  if (o->threads > 0)
    {
      g_autofree char *n = g_strdup_printf ("%d", o->threads);
      envp = g_environ_setenv (envp, "SL_LOADER_THREADS", n, TRUE);
    }
  /* A profile cache of the benchmark's own, empty at the first child; none
   * at all for the staged load, which a cache hit would skip. */
  if (cache_home)
    {
      envp = g_environ_setenv (envp, "XDG_CACHE_HOME", cache_home, TRUE);
      envp = g_environ_unsetenv (envp, "SIGHTLINE_NO_CACHE");
    }
  else
    envp = g_environ_setenv (envp, "SIGHTLINE_NO_CACHE", "1", TRUE);
  envp = g_environ_unsetenv (envp, "SIGHTLINE_CACHE_SIZE");
  g_autofree char *out = NULL;
  int status = 0;
  if (!g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, error) ||
      !g_spawn_check_wait_status (status, error))
    {
      g_prefix_error (error, "measuring %s: ", path);
      return NULL;
    }
  g_autoptr (JsonParser) parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, out, -1, error))
    return NULL;
  JsonNode *root = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "measuring %s: unexpected output", path);
      return NULL;
    }
  return json_object_ref (json_node_get_object (root));
}

/* Bytes of the entries in the profile cache under @cache_home. */
static gint64
cache_bytes (const char *cache_home)
{
  g_autofree char *dir = g_build_filename (cache_home, "sightline", "profiles", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  gint64 total = 0;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *entry = g_build_filename (dir, name, NULL);
      GStatBuf st;
      if (g_str_has_suffix (name, ".slc") && g_stat (entry, &st) == 0)
        total += st.st_size;
    }
  return total;
}

static void
remove_cache_home (const char *cache_home)
{
  g_autofree char *dir = g_build_filename (cache_home, "sightline", "profiles", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *entry = g_build_filename (dir, name, NULL);
      g_unlink (entry);
    }
  g_rmdir (dir);
  g_autofree char *parent = g_path_get_dirname (dir);
  g_rmdir (parent);
  g_rmdir (cache_home);
}

/* Reads @path once, so that the loads measured next find it in the page
 * cache (as a profile just written by nsys export is): the figures are
 * the loader's, not the disk's. */
static void
warm_page_cache (const char *path)
{
  int fd = g_open (path, O_RDONLY, 0);
  g_autofree char *buf = g_malloc (1 << 20);

  if (fd < 0)
    return;
  posix_fadvise (fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  while (read (fd, buf, 1 << 20) > 0)
    ;
  close (fd);
}

static int
compare_open_s (gconstpointer a, gconstpointer b)
{
  double x = json_object_get_double_member (*(JsonObject *const *) a, "open_s");
  double y = json_object_get_double_member (*(JsonObject *const *) b, "open_s");
  return (x > y) - (x < y);
}

#define LOAD_RUNS 3

/* Loads @path from the export LOAD_RUNS times, each in a fresh process
 * without the profile cache, and returns the run of median open time (its
 * memory figures with it), "open_s_runs" holding every run's time. */
static JsonObject *
measure_loads (const Options *o, const char *path, GError **error)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  gboolean truth_ok = TRUE;

  warm_page_cache (path);
  for (int i = 0; i < LOAD_RUNS; i++)
    {
      JsonObject *r = run_child (o, "--measure", path, NULL, FALSE, error);
      if (!r)
        return NULL;
      truth_ok = truth_ok && json_object_get_boolean_member (r, "truth_ok");
      g_ptr_array_add (runs, r);
    }
  JsonArray *times = json_array_new ();
  for (guint i = 0; i < runs->len; i++)
    json_array_add_double_element (times, json_object_get_double_member (runs->pdata[i], "open_s"));
  g_ptr_array_sort (runs, compare_open_s);
  JsonObject *median = json_object_ref (runs->pdata[runs->len / 2]);
  json_object_set_array_member (median, "open_s_runs", times);
  json_object_set_boolean_member (median, "truth_ok", truth_ok);
  return median;
}

/* The loads of @path (measure_loads()), then the profile cache: a load
 * that writes the entry and one, in a fresh process, that reads it. */
static JsonObject *
measure_size (const Options *o, const char *path, GError **error)
{
  g_autofree char *cache_home = g_dir_make_tmp ("sightline-bench-cache-XXXXXX", error);
  if (!cache_home)
    return NULL;
  JsonObject *r = measure_loads (o, path, error);
  g_autoptr (JsonObject) first = r ? run_child (o, "--measure", path, cache_home, FALSE, error) : NULL;
  g_autoptr (JsonObject) again = first ? run_child (o, "--measure", path, cache_home, TRUE, error) : NULL;
  gint64 bytes = cache_bytes (cache_home);
  remove_cache_home (cache_home);
  if (!again)
    {
      g_clear_pointer (&r, json_object_unref);
      return NULL;
    }
  double reopen_ms = json_object_get_double_member (again, "reopen_ms");
  double mevents = json_object_get_int_member (r, "events") / 1e6;
  gboolean hit = json_object_get_boolean_member (again, "reopen_hit");
  json_object_set_double_member (r, "cache_write_ms", json_object_get_double_member (first, "cache_write_ms"));
  json_object_set_double_member (r, "reopen_ms", hit ? reopen_ms : -1.0);
  json_object_set_double_member (r, "reopen_s_per_million_events", hit && mevents > 0 ? reopen_ms / 1e3 / mevents : -1.0);
  json_object_set_int_member (r, "cache_bytes", bytes);
  json_object_set_boolean_member (r, "reopen_truth_ok", json_object_get_boolean_member (again, "reopen_truth_ok"));
  return r;
}

/* The staged load's figures, measured in a child of their own, into @r. */
static gboolean
add_staged (const Options *o, const char *path, JsonObject *r, GError **error)
{
#ifdef SL_BENCH_FRAMES
  g_autoptr (JsonObject) staged = run_child (o, "--measure-staged", path, NULL, FALSE, error);
  g_autoptr (GList) members = NULL;

  if (!staged)
    return FALSE;
  members = json_object_get_members (staged);
  for (GList *l = members; l; l = l->next)
    json_object_set_member (r, l->data, json_node_copy (json_object_get_member (staged, l->data)));
#endif
  return TRUE;
}

/* Each command's time against the sqlite3 shell's GROUP BY. */
static void
print_cli (JsonObject *r)
{
  if (!json_object_has_member (r, "cli_ms") || json_object_get_null_member (r, "sqlite_group_by_ms"))
    return;
  JsonObject *cli = json_object_get_object_member (r, "cli_ms");
  double sql = json_object_get_double_member (r, "sqlite_group_by_ms");
  g_autoptr (GList) names = json_object_get_members (cli);
  g_print ("\nsightline-cli, fresh process, median of 5 (%" G_GINT64_FORMAT " kernels); sqlite3 GROUP BY %.0f ms\n",
           json_object_get_int_member (r, "kernels"), sql);
  for (GList *l = names; l; l = l->next)
    {
      double ms = json_object_get_double_member (cli, l->data);
      g_print ("  %-12s %8.0f ms  %5.2fx sqlite3\n", (const char *) l->data, ms, sql > 0 ? ms / sql : 0.0);
    }
}

static void
print_table (const Options *o, GPtrArray *results)
{
  const char *threads = o->threads > 0 ? (o->threads == 1 ? "1" : "2") : "loader default";
  g_print ("Sightline loader benchmark (%s thread(s), %u core(s))\n\n", threads, g_get_num_processors ());
  g_print ("%12s %12s %10s %9s %8s %12s %12s %12s %12s\n",
           "kernels", "API calls", "NVTX", "file MB", "open s", "s/M kernels", "peak RSS MB", "bytes/event", "(trimmed)");
  for (guint i = 0; i < results->len; i++)
    {
      JsonObject *r = results->pdata[i];
      g_print ("%12" G_GINT64_FORMAT " %12" G_GINT64_FORMAT " %10" G_GINT64_FORMAT " %9.0f %8.2f %12.3f %12.0f %12.1f %12.1f\n",
               json_object_get_int_member (r, "kernels"),
               json_object_get_int_member (r, "cuda_api"),
               json_object_get_int_member (r, "nvtx_ranges"),
               json_object_get_int_member (r, "file_bytes") / 1e6,
               json_object_get_double_member (r, "open_s"),
               json_object_get_double_member (r, "open_s_per_million_kernels"),
               json_object_get_int_member (r, "peak_rss_bytes") / 1e6,
               json_object_get_double_member (r, "bytes_per_event"),
               json_object_get_double_member (r, "bytes_per_event_trimmed"));
    }
  g_print ("\n%12s %14s %10s %22s %10s\n", "kernels", "cache write ms", "reopen ms", "reopen s/M events", "entry MB");
  for (guint i = 0; i < results->len; i++)
    {
      JsonObject *r = results->pdata[i];
      g_print ("%12" G_GINT64_FORMAT " %14.0f %10.1f %22.4f %10.0f\n",
               json_object_get_int_member (r, "kernels"),
               json_object_get_double_member (r, "cache_write_ms"),
               json_object_get_double_member (r, "reopen_ms"),
               json_object_get_double_member (r, "reopen_s_per_million_events"),
               json_object_get_int_member (r, "cache_bytes") / 1e6);
    }
  for (guint i = 0; i < results->len; i++)
    {
      JsonObject *r = results->pdata[i];
      if (json_object_has_member (r, "first_frame_ms"))
        g_print ("\nstaged load (%" G_GINT64_FORMAT " kernels): GPU rows drawn after %.0f ms, complete profile after %.0f ms",
                 json_object_get_int_member (r, "kernels"), json_object_get_double_member (r, "first_frame_ms"),
                 json_object_get_double_member (r, "full_load_ms"));
    }
  for (const BenchSection *s = bench_sections; s->name; s++)
    for (guint i = 0; i < results->len; i++)
      {
        JsonObject *r = results->pdata[i];
        if (!json_object_has_member (r, s->name))
          continue;
        g_autoptr (JsonGenerator) gen = json_generator_new ();
        json_generator_set_root (gen, json_object_get_member (r, s->name));
        g_autofree char *txt = json_generator_to_data (gen, NULL);
        g_print ("\n%s (%" G_GINT64_FORMAT " kernels): %s", s->name, json_object_get_int_member (r, "kernels"), txt);
      }
  for (guint i = 0; i < results->len; i++)
    print_cli (results->pdata[i]);
  g_print ("\nbytes/event = (RSS after load - RSS before - string table) / (kernels + API calls);\n"
           "(trimmed) is the same after malloc_trim().  Goals: <= 0.25 s per million kernels on\n"
           "one core, <= 0.15 s on two, <= 24 bytes per event.  Reopening from the profile cache\n"
           "(a fresh process; events = kernels + API calls): goal <= 0.05 s per million events.\n");
}

/* JSON text with members in insertion order and doubles at 6 significant
 * digits (json-glib prints 17, "0.76677899999999999"). */
static void
json_write (GString *out, JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        g_autoptr (GList) members = json_object_get_members (json_node_get_object (node));
        g_string_append_c (out, '{');
        for (GList *l = members; l; l = l->next)
          {
            g_autoptr (JsonNode) key = json_node_init_string (json_node_alloc (), l->data);
            g_autofree char *k = json_to_string (key, FALSE);
            g_string_append_printf (out, "%s%s: ", l == members ? "" : ", ", k);
            json_write (out, json_object_get_member (json_node_get_object (node), l->data));
          }
        g_string_append_c (out, '}');
      }
      break;
    case JSON_NODE_ARRAY:
      {
        JsonArray *a = json_node_get_array (node);
        g_string_append_c (out, '[');
        for (guint i = 0; i < json_array_get_length (a); i++)
          {
            if (i)
              g_string_append (out, ", ");
            json_write (out, json_array_get_element (a, i));
          }
        g_string_append_c (out, ']');
      }
      break;
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.6g", json_node_get_double (node)));
          break;
        }
      G_GNUC_FALLTHROUGH;
    case JSON_NODE_NULL:
    default:
      {
        g_autofree char *v = json_to_string (node, FALSE);
        g_string_append (out, v);
      }
      break;
    }
}

int
main (int argc, char **argv)
{
  Options o = { 0 };
  g_autofree char *measure_path = NULL;
  g_autofree char *staged_path = NULL;
  g_autofree char *truth_path = NULL;
  gint64 kernels = 0;
  int threads = 0;
  gboolean json = FALSE, reopen = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object (top-level fields: the largest size)", NULL },
    { "kernels", 0, 0, G_OPTION_ARG_INT64, &kernels, "Only this size (default: 1 M and 10 M)", "N" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Loader threads (sets SL_LOADER_THREADS)", "1|2" },
    { "gen", 0, 0, G_OPTION_ARG_FILENAME, &o.gen, "sightline-gen to use", "PATH" },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &o.cache_dir, "Where generated profiles are kept", "DIR" },
    { "no-cli", 0, 0, G_OPTION_ARG_NONE, &o.no_cli, "Do not time sightline-cli commands (cli_ms)", NULL },
    { "measure", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &measure_path, "Internal: load one profile and report", "FILE" },
    { "measure-staged", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &staged_path, "Internal: load one profile staged and report", "FILE" },
    { "truth", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &truth_path, "Internal: the generator's manifest for --measure", "FILE" },
    { "reopen", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &reopen, "Internal: with --measure, load from the profile cache", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("- loader speed and memory on large synthetic profiles");
  g_autoptr (GError) error = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("sightline-bench: %s\n", error->message);
      return 2;
    }
  if (measure_path || staged_path)
    return measure_child (measure_path, staged_path, truth_path, reopen);
  if (threads != 0 && threads != 1 && threads != 2)
    {
      g_printerr ("sightline-bench: --threads must be 1 or 2\n");
      return 2;
    }
  if (kernels < 0)
    {
      g_printerr ("sightline-bench: --kernels must be positive\n");
      return 2;
    }
  o.json = json;
  o.kernels = kernels;
  o.threads = threads;
  if (!o.cache_dir)
    o.cache_dir = g_build_filename (g_get_user_cache_dir (), "sightline-bench", NULL);

  g_autofree char *gen = find_generator (&o);
  if (!gen)
    {
      g_printerr ("sightline-bench: sightline-gen not found; pass --gen PATH or set SL_GEN\n");
      return 2;
    }

  gint64 sizes[2] = { 1000000, 10000000 };
  int n_sizes = 2;
  if (o.kernels > 0)
    {
      sizes[0] = o.kernels;
      n_sizes = 1;
    }

  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  for (int i = 0; i < n_sizes; i++)
    {
      g_autofree char *path = ensure_profile (&o, gen, sizes[i], &error);
      if (!path)
        {
          g_printerr ("sightline-bench: %s\n", error->message);
          return 1;
        }
      JsonObject *r = measure_size (&o, path, &error);
      if (!r || !add_staged (&o, path, r, &error))
        {
          g_printerr ("sightline-bench: %s\n", error->message);
          return 1;
        }
      g_autofree char *cli = find_cli ();
      if (cli != NULL && !o.no_cli)
        sl_bench_cli (cli, path, r);
      g_ptr_array_add (results, r);
    }

  /* issue 12: the CPU side on a profile of its own (1 M CPU samples) */
  sl_bench_cpu (gen, o.cache_dir, results->pdata[results->len - 1]);

  if (!o.json)
    {
      print_table (&o, results);
      return 0;
    }

  /* Top level: the largest size's fields; "sizes": every size. */
  g_autoptr (GString) out = g_string_new (NULL);
  JsonObject *top = results->pdata[results->len - 1];
  g_autoptr (GList) members = json_object_get_members (top);
  g_string_append_c (out, '{');
  for (GList *l = members; l; l = l->next)
    {
      g_autoptr (JsonNode) key = json_node_init_string (json_node_alloc (), l->data);
      g_autofree char *k = json_to_string (key, FALSE);
      g_string_append_printf (out, "%s: ", k);
      json_write (out, json_object_get_member (top, l->data));
      g_string_append (out, ", ");
    }
  g_string_append (out, "\"sizes\": [");
  for (guint i = 0; i < results->len; i++)
    {
      g_autoptr (JsonNode) n = json_node_init_object (json_node_alloc (), results->pdata[i]);
      if (i)
        g_string_append (out, ", ");
      json_write (out, n);
    }
  g_string_append (out, "]}");
  g_print ("%s\n", out->str);
  g_free (o.gen);
  g_free (o.cache_dir);
  return 0;
}
