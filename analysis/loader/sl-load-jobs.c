/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-load-jobs.c: the tables a load reads, as jobs for the worker threads.
 *
 * Why jobs rather than a thread per side: a command often needs one big
 * table (sightline-cli kernels: the kernel table alone), and two cores only
 * help if that table is read by both.  The page reader lists a table's
 * leaf pages up front, so a table of independent rows is cut into one part
 * per worker; each part fills a chunk of its own, and chunks are merged in
 * file order once their group (GPU or CPU tables) is in.  Jobs are taken
 * in file order, GPU tables first: in a staged load the GPU rows show
 * while the CPU side is still read. */
#include "sl-loader-private.h"

#include <glib/gi18n-lib.h>

/* A table smaller than this is not worth splitting (pages). */
#define MIN_LEAVES_PER_PART 64

typedef struct {
  SlLoader     *loader;
  guint         next_job;    /* atomic */
  gint          remaining[SL_N_GROUPS]; /* atomic: jobs not done per group */
  GError       *error;       /* the first failure; guarded by the loader's lock */
} Run;

static void
job_free (gpointer data)
{
  SlJob *job = data;

  /* The first part owns the plan its siblings share. */
  if (job->part == 0)
    _sl_scan_plan_free (job->plan);
  g_free (job);
}

/* The tables of the loader's parts, in the order they are read. */
static guint
wanted_tables (SlParts parts, const SlTableRead **reads)
{
  guint n = 0;

  if (parts & SL_PART_KERNELS)
    reads[n++] = &_sl_kernel_read;
  if (parts & SL_PART_COPIES)
    {
      reads[n++] = &_sl_memcpy_read;
      reads[n++] = &_sl_memset_read;
    }
  if (parts & SL_PART_API)
    reads[n++] = &_sl_api_read;
  if (parts & SL_PART_NVTX)
    reads[n++] = &_sl_nvtx_read;
  if (parts & SL_PART_SYNCS)
    reads[n++] = &_sl_sync_read;
  return n;
}

static gpointer
new_chunk (SlLoader *loader, SlJobGroup group)
{
  if (group == SL_GROUP_GPU)
    {
      SlGpuChunk *chunk = _sl_gpu_chunk_new ();
      g_ptr_array_add (loader->gpu_chunks, chunk);
      return chunk;
    }
  SlCpuChunk *chunk = _sl_cpu_chunk_new ();
  g_ptr_array_add (loader->cpu_chunks, chunk);
  return chunk;
}

static guint
parts_of (const SlTableRead *read, const SlScanPlan *plan, guint n_workers)
{
  guint leaves = _sl_scan_plan_n_leaves (plan);

  if (!read->splittable || n_workers < 2 || leaves < 2 * MIN_LEAVES_PER_PART)
    return 1;
  return MIN (n_workers, leaves / MIN_LEAVES_PER_PART);
}

static void
add_table_jobs (SlLoader *loader, sqlite3 *db, const SlTableRead *read, guint n_workers)
{
  SlScanPlan *plan = _sl_scan_plan_new (db, _sl_source_fd (loader->source), read->table,
                                        read->columns, read->n_columns);
  guint n_parts = parts_of (read, plan, n_workers);
  gint64 table_rows = _sl_schema_estimate_rows (loader, db, read->table);

  g_debug ("reading %s: %u part(s), %s", read->table, n_parts,
           _sl_scan_plan_n_leaves (plan) > 0 ? "page reader" : "SQLite");
  for (guint part = 0; part < n_parts; part++)
    {
      SlJob *job = g_new0 (SlJob, 1);
      job->read = read;
      job->plan = plan;
      job->part = part;
      job->n_parts = n_parts;
      job->table_rows = table_rows;
      job->rows_expected = part == 0 ? table_rows : table_rows / n_parts;
      job->chunk = new_chunk (loader, read->group);
      g_ptr_array_add (loader->jobs, job);
    }
}

gboolean
_sl_load_jobs_plan (SlLoader *loader, sqlite3 *db, guint n_workers, GError **error)
{
  const SlTableRead *reads[8];
  guint n = wanted_tables (loader->parts, reads);

  loader->jobs = g_ptr_array_new_with_free_func (job_free);
  loader->gpu_chunks = g_ptr_array_new_with_free_func (_sl_gpu_chunk_free);
  loader->cpu_chunks = g_ptr_array_new_with_free_func (_sl_cpu_chunk_free);
  /* Chunk 0 of each group always exists: it receives the merge. */
  g_ptr_array_add (loader->gpu_chunks, _sl_gpu_chunk_new ());
  g_ptr_array_add (loader->cpu_chunks, _sl_cpu_chunk_new ());
  for (guint i = 0; i < n; i++)
    if (_sl_loader_has_table (loader, reads[i]->table) &&
        (reads[i] != &_sl_nvtx_read || _sl_loader_has_column (loader, reads[i]->table, "eventType")))
      add_table_jobs (loader, db, reads[i], n_workers);
  return _sl_loader_tick (loader, 0, error);
}

void
_sl_load_jobs_clear (SlLoader *loader)
{
  g_clear_pointer (&loader->jobs, g_ptr_array_unref);
  g_clear_pointer (&loader->gpu_chunks, g_ptr_array_unref);
  g_clear_pointer (&loader->cpu_chunks, g_ptr_array_unref);
}

/* ---- running ------------------------------------------------------------- */

static gboolean
run_job (SlLoader *loader, SlJob *job, sqlite3 *db, GError **error)
{
  SlTableScan *scan = _sl_scan_plan_open (job->plan, db, job->part, job->n_parts, NULL);

  if (scan == NULL)
    {
      /* Name the table: its schema, not a page, is what SQLite could not read. */
      g_autofree char *what = g_strdup_printf (_("%s (table %s)"), _(job->read->what), job->read->table);
      return _sl_loader_step_error (loader, db, sqlite3_errcode (db), what, error);
    }
  return job->read->read (loader, job, scan, error);
}

/* Merges a group's chunks (in file order) and finishes it. */
static void
finish_group (SlLoader *loader, SlJobGroup group, sqlite3 *db)
{
  if (group == SL_GROUP_GPU)
    {
      for (guint i = 1; i < loader->gpu_chunks->len; i++)
        _sl_gpu_chunk_merge (loader->gpu_chunks->pdata[0], loader->gpu_chunks->pdata[i]);
      _sl_gpu_finish (loader);
    }
  else
    {
      /* Each thread's builders are merged by _sl_cpu_finish, in parallel. */
      for (guint i = 1; i < loader->cpu_chunks->len; i++)
        _sl_cpu_chunk_add_threads (loader->cpu_chunks->pdata[0], loader->cpu_chunks->pdata[i]);
      _sl_cpu_finish (loader, db);
    }
}

static void
record_error (Run *run, GError *error)
{
  g_mutex_lock (&run->loader->progress_lock);
  /* A worker's own failure rather than the cancellation it caused in the others. */
  if (run->error == NULL ||
      (g_error_matches (run->error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED) &&
       !g_error_matches (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED)))
    {
      g_clear_error (&run->error);
      run->error = error;
    }
  else
    g_error_free (error);
  g_mutex_unlock (&run->loader->progress_lock);
  g_cancellable_cancel (run->loader->cancellable);
}

/* Takes jobs until none is left; the worker that completes a group's last
 * job finishes the group.  Both groups are finished even when they have no
 * job (a command without the CPU tables still gets empty threads). */
static gpointer
worker (gpointer data)
{
  Run *run = data;
  SlLoader *loader = run->loader;
  GError *error = NULL;
  sqlite3 *db = _sl_loader_open_db (loader, &error);
  guint i;

  while (error == NULL && (i = g_atomic_int_add (&run->next_job, 1)) < loader->jobs->len)
    {
      SlJob *job = g_ptr_array_index (loader->jobs, i);
      if (!run_job (loader, job, db, &error))
        break;
      if (g_atomic_int_dec_and_test (&run->remaining[job->read->group]))
        finish_group (loader, job->read->group, db);
    }
  if (error != NULL)
    record_error (run, error);
  sqlite3_close (db);
  return NULL;
}

/* Groups without any job are finished here, after the workers. */
static void
finish_empty_groups (Run *run)
{
  sqlite3 *db = NULL;

  for (int g = 0; g < SL_N_GROUPS; g++)
    {
      gboolean none = TRUE;
      for (guint i = 0; i < run->loader->jobs->len && none; i++)
        none = ((SlJob *) run->loader->jobs->pdata[i])->read->group != (SlJobGroup) g;
      if (!none)
        continue;
      if (db == NULL && (db = _sl_loader_open_db (run->loader, &run->error)) == NULL)
        return;
      finish_group (run->loader, (SlJobGroup) g, db);
    }
  sqlite3_close (db);
}

gboolean
_sl_load_jobs_run (SlLoader *loader, guint n_workers, GError **error)
{
  Run run = { loader, 0, { 0 }, NULL };
  GThread *others[4];
  guint n_others = MIN (n_workers, G_N_ELEMENTS (others) + 1) - 1;

  loader->n_workers = MAX (n_workers, 1);
  for (guint i = 0; i < loader->jobs->len; i++)
    run.remaining[((SlJob *) loader->jobs->pdata[i])->read->group]++;
  for (guint i = 0; i < n_others; i++)
    others[i] = g_thread_new ("sl-load", worker, &run);
  worker (&run);
  for (guint i = 0; i < n_others; i++)
    g_thread_join (others[i]);
  if (run.error == NULL)
    finish_empty_groups (&run);
  if (run.error != NULL)
    {
      g_propagate_error (error, run.error);
      return FALSE;
    }
  return TRUE;
}
