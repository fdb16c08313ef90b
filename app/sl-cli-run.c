/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-run.c: parse, check, load, show: the shape every analysis command
 * of sightline-cli shares. */
#include <glib/gi18n.h>

#include "sl-cli-run.h"
#include "sl-cli-check.h"
#include "sl-cli-bookmark-range.h"

SlProfile *
sl_cli_open_profile (const char *path, SlParts parts)
{
  g_autoptr(GError) error = NULL;
  SlLoadOptions options = { .parts = parts };
  SlProfile *profile = sl_profile_load_with (path, &options, NULL, NULL, NULL, &error);

  if (profile == NULL)
    sl_cli_error (NULL, "%s", error->message);
  return profile;
}

static gboolean
check_arg_count (const SlCliSpec *spec, int argc)
{
  int n_profiles = argc - 1 - (int) spec->n_before;

  if (spec->many_profiles ? n_profiles >= 2 : n_profiles == 1)
    return TRUE;
  if (spec->wrong_args != NULL)
    sl_cli_error (spec->name, "%s", _(spec->wrong_args));
  else
    sl_cli_error (spec->name, _("wrong number of arguments; usage: sightline-cli %s [OPTIONS] %s"),
                  spec->name, spec->parameter);
  return FALSE;
}

/* The parts to load: the command's, and what its options need. */
static SlParts
run_parts (const SlCliSpec *spec, const SlCliCommon *common, const SlCliScope *scope)
{
  SlParts parts = spec->parts != 0 ? spec->parts : SL_PARTS_ALL;

  /* For tests: the answer must not depend on what was loaded. */
  if (g_getenv ("SL_CLI_LOAD_ALL") != NULL)
    return SL_PARTS_ALL;
  /* --pid checks the process against all of the profile's processes, and
   * +TIME is relative to the start of all of its events. */
  if (common->pids != NULL || common->range_from_start)
    return SL_PARTS_ALL;
  /* --gpu checks the GPU against those with any activity, and keeps the
   * CPU side of the processes working on it. */
  if (common->gpus != NULL)
    parts |= SL_PARTS_GPU;
  /* an NVTX scope is the GPU work launched inside ranges */
  if (scope->nvtx != NULL || scope->exclude_nvtx != NULL)
    parts |= SL_PART_API | SL_PART_NVTX;
  if (scope->category != NULL || scope->exclude_category != NULL || scope->streams != NULL)
    parts |= SL_PART_KERNELS;
  return parts;
}

/* One profile of the command line, loaded on a thread of its own. */
typedef struct {
  const char *path;
  SlParts     parts;
  guint       threads;   /* the loader's */
  SlProfile  *profile;
  GError     *error;
} LoadJob;

static void
load_job (gpointer data, gpointer unused)
{
  LoadJob *job = data;
  SlLoadOptions options = { .parts = job->parts, .threads = job->threads };

  job->profile = sl_profile_load_with (job->path, &options, NULL, NULL, NULL, &job->error);
}

/* The @n profiles of @paths, as many at once as there are cores, each
 * read by one thread: a load on two threads keeps about 1.6 of two cores
 * busy (the parts of the big tables run in parallel, the rest does not),
 * two one-thread loads keep both busy without contending for one
 * process's page faults, so `compare` of two 1 M-kernel runs waits ~17 %
 * less (371 -> 308 ms; two loads on two threads each: ~4 %).  Each job holds its profile
 * or its error. */
static LoadJob *
load_profiles (char **paths, guint n, SlParts parts)
{
  LoadJob *jobs = g_new0 (LoadJob, MAX (n, 1));
  guint threads = MIN (n, MAX (g_get_num_processors (), 1));
  GThreadPool *pool = threads > 1 ? g_thread_pool_new (load_job, NULL, (int) threads, TRUE, NULL) : NULL;

  for (guint i = 0; i < n; i++)
    {
      jobs[i].path = paths[i];
      jobs[i].parts = parts;
      jobs[i].threads = pool != NULL ? 1 : 0;
      if (pool != NULL)
        g_thread_pool_push (pool, &jobs[i], NULL);
      else
        load_job (&jobs[i], NULL);
    }
  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);
  return jobs;
}

/* The loaded profiles into @run in the order given, each checked against
 * the filter, as if loaded one after the other: the first file that failed
 * to load or to pass is the one reported.  Frees @jobs. */
static int
take_profiles (const SlCliSpec *spec, SlCliRun *run, LoadJob *jobs, guint n)
{
  int status = -1;

  for (guint i = 0; i < n; i++)
    {
      if (status != -1)
        g_clear_pointer (&jobs[i].profile, sl_profile_unref);
      else if (jobs[i].profile == NULL)
        {
          sl_cli_error (NULL, "%s", jobs[i].error->message);
          status = SL_CLI_INPUT;
        }
      else
        {
          g_ptr_array_add (run->profiles, jobs[i].profile);
          if (!sl_cli_check_filter (spec->name, &run->common, jobs[i].profile, jobs[i].path))
            status = SL_CLI_USAGE;
        }
      g_clear_error (&jobs[i].error);
    }
  g_free (jobs);
  return status;
}

/* Parses and checks the arguments, then loads the profiles: the exit
 * status of the first failure, or -1 when the command can show. */
static int
prepare (const SlCliSpec *spec, GOptionContext *context, gpointer options,
         SlCliRun *run, SlCliScope *scope, int argc, char **argv)
{
  guint n;
  int status;

  if (!sl_cli_common_parse (spec->name, context, &run->common, &argc, &argv)
      || !sl_cli_scope_parse (spec->name, scope)
      || (spec->check != NULL && !spec->check (spec->name, options))
      || !check_arg_count (spec, argc))
    return SL_CLI_USAGE;
  n = (guint) (argc - 1 - (int) spec->n_before);
  status = take_profiles (spec, run, load_profiles (argv + 1 + spec->n_before, n,
                                                    run_parts (spec, &run->common, scope)), n);
  if (status != -1)
    return status;
  if (!sl_cli_resolve_range (spec->name, &run->common, run->profiles)
      || !sl_cli_resolve_bookmark (spec->name, &run->common, run->profiles))
    return SL_CLI_USAGE;
  if (!sl_cli_scope_apply (spec->name, scope, spec->categories ? spec->categories (options) : NULL,
                           run->common.filter, run->profiles))
    return SL_CLI_USAGE;
  run->profile = run->profiles->pdata[0];
  return -1;
}

/* Frees what GOption stored through @entries. */
static void
clear_entries (const GOptionEntry *entries)
{
  for (guint i = 0; entries != NULL && entries[i].long_name != NULL; i++)
    if (entries[i].arg == G_OPTION_ARG_STRING || entries[i].arg == G_OPTION_ARG_FILENAME)
      g_clear_pointer ((char **) entries[i].arg_data, g_free);
    else if (entries[i].arg == G_OPTION_ARG_STRING_ARRAY || entries[i].arg == G_OPTION_ARG_FILENAME_ARRAY)
      g_clear_pointer ((char ***) entries[i].arg_data, g_strfreev);
}

/* A run's profiles are given back when the process ends, not array by
 * array: freeing a loaded 1 M-kernel profile took 4-8 ms of a command that
 * ends right after.  Sanitizer builds free them, so that leak checks still
 * see every other allocation; elsewhere they stay reachable, not leaked. */
static void
release_profiles (GPtrArray *profiles)
{
#if defined(__SANITIZE_ADDRESS__)
  g_ptr_array_unref (profiles);
#else
  static GPtrArray *kept;

  if (kept != NULL)
    g_ptr_array_unref (kept);
  kept = profiles;
#endif
}

int
sl_cli_run (const SlCliSpec *spec, const GOptionEntry *entries, gpointer options,
            int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_(spec->parameter));
  SlCliRun run = { spec->name, { 0 }, NULL, NULL };
  SlCliScope scope = { 0 };
  int status;

  g_option_context_set_summary (context, _(spec->summary));
  sl_cli_common_add (context, &run.common);
  sl_cli_scope_add (context, &scope);
  if (entries != NULL)
    g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  run.profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_profile_unref);
  status = prepare (spec, context, options, &run, &scope, argc, argv);
  if (status < 0)
    status = spec->show (&run, options);
  release_profiles (run.profiles);
  sl_cli_common_clear (&run.common);
  sl_cli_scope_clear (&scope);
  clear_entries (entries);
  return status;
}
