/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-scope-index.c: the scope index: kernel and API blocks. */
#include "sl-scope-index.h"

#include <string.h>

#include "sl-categories.h"
#include "sl-int.h"
#include "sl-scope-blocks.h"
#include "sl-scope-busy.h"
#include "sl-scope-nvtx.h"

struct _SlScopeIndex {
  /* kernels by short name: the keys of sl_kernel_func_keys () */
  GArray         *kernel_ids;      /* guint32 string id per key */
  guint32        *func_key;        /* per function */
  SlScopeBlocks  *streams;         /* per stream */
  guint          *key_category;    /* per key, under the default rules; NULL when
                                    * two functions of one short name differ */
  /* API calls by name; NULL in a subset that keeps only some calls */
  GArray         *api_ids;
  guint32        *api_key;         /* per string id (G_MAXUINT32: never called) */
  guint           n_string_ids;
  SlScopeBlocks  *threads;         /* per thread */
  guint           n_streams, n_threads;
  SlScopeNvtx    *nvtx;            /* NULL: the analysis answers */
  SlScopeBusy    *busy;            /* per GPU unions: gaps and overlap */
};

static guint block_size = SL_SCOPE_BLOCK;

void
_sl_scope_index_set_block_size (guint size)
{
  g_atomic_int_set (&block_size, size > 0 ? size : SL_SCOPE_BLOCK);
}

/* Each key's category under the default rules: a function is classified
 * by its short name first, then its demangled name, so two functions of
 * one short name may differ; then the categories are not sums of the
 * kernel keys (NULL: the analysis answers). */
static guint *
key_categories (const SlProfile *profile, const guint32 *func_key, guint n_keys)
{
  const SlCategories *rules = sl_categories_get_default ();
  guint *category = g_new (guint, MAX (n_keys, 1));

  memset (category, 0xff, sizeof (guint) * MAX (n_keys, 1));
  for (guint f = 0; f < profile->n_funcs; f++)
    {
      guint c = sl_categories_classify_func (rules, profile, f);

      if (category[func_key[f]] != G_MAXUINT && category[func_key[f]] != c)
        {
          g_free (category);
          return NULL;
        }
      category[func_key[f]] = c;
    }
  return category;
}

static void
build_kernels (SlScopeIndex *ix, const SlProfile *profile)
{
  SlNameKeys keys;
  SlStatsTable table;
  guint n_ids = MAX (profile->n_funcs, 1);

  ix->func_key = sl_kernel_func_keys (profile, SL_NAMES_SHORT, &keys);
  ix->kernel_ids = g_array_ref (keys.ids);
  sl_name_keys_clear (&keys);
  ix->key_category = key_categories (profile, ix->func_key, ix->kernel_ids->len);
  sl_stats_table_init_sums (&table, ix->kernel_ids->len);
  sl_stats_table_pass (&table);
  ix->streams = g_new0 (SlScopeBlocks, MAX (profile->n_streams, 1));
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlKernels *k = &profile->streams[s].kernels;

      sl_scope_blocks_build (&ix->streams[s], g_atomic_int_get (&block_size), &table, &k->spans, 0, k->spans.n, k->func,
                             ix->func_key, n_ids);
    }
  sl_stats_table_clear (&table);
}

/* API names get keys in the order calls are met, thread after thread (the
 * order the summary assigns them in: ties then rank alike). */
static void
build_api (SlScopeIndex *ix, const SlProfile *profile)
{
  const SlApiCalls *api = &profile->api;
  SlNameKeys keys;
  SlStatsTable table;

  if (sl_profile_api_scoped (profile))
    return;
  sl_name_keys_init (&keys, sl_strings_count (profile->strings));
  for (guint i = 0; i < api->spans.n; i++)
    sl_name_keys_get (&keys, api->name[i]);
  ix->n_string_ids = keys.n_ids;
  ix->api_key = g_memdup2 (keys.key_of, (gsize) keys.n_ids * sizeof (guint32));
  ix->api_ids = g_array_ref (keys.ids);
  sl_name_keys_clear (&keys);
  sl_stats_table_init_sums (&table, ix->api_ids->len);
  sl_stats_table_pass (&table);
  ix->threads = g_new0 (SlScopeBlocks, MAX (profile->n_threads, 1));
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlThread *th = &profile->threads[t];

      sl_scope_blocks_build (&ix->threads[t], g_atomic_int_get (&block_size), &table, &api->spans, th->api_first,
                             th->api_first + th->api_count, api->name, ix->api_key, ix->n_string_ids);
    }
  sl_stats_table_clear (&table);
}

static gpointer
build_api_thread (gpointer data)
{
  gpointer *args = data;

  SlScopeIndex *ix = args[0];

  build_api (ix, args[1]);
  ix->nvtx = sl_scope_nvtx_build (args[1], g_atomic_int_get (&block_size));
  return NULL;
}

static gpointer
build_busy_thread (gpointer data)
{
  gpointer *args = data;
  SlScopeIndex *ix = args[0];

  guint size = g_atomic_int_get (&block_size);

  /* 256 and 1024 for the default blocks; small ones with the tests' */
  ix->busy = sl_scope_busy_build (args[1], MAX (size / 256, 5), MAX (size / 64, 3));
  return NULL;
}

/* The parts on both cores (each writes only its own fields): the GPU
 * unions (one merge of every GPU's kernels) against the kernel, API and
 * NVTX blocks. */
static SlScopeIndex *
index_build (const SlProfile *profile)
{
  SlScopeIndex *ix = g_new0 (SlScopeIndex, 1);
  gpointer args[2] = { ix, (gpointer) profile };
  GThread *other = g_thread_new ("sl-scope-index", build_busy_thread, args);

  ix->n_streams = profile->n_streams;
  ix->n_threads = profile->n_threads;
  build_kernels (ix, profile);
  build_api_thread (args);
  g_thread_join (other);
  return ix;
}

static void
index_free (SlScopeIndex *ix)
{
  for (guint s = 0; ix->streams != NULL && s < ix->n_streams; s++)
    sl_scope_blocks_clear (&ix->streams[s]);
  for (guint t = 0; ix->threads != NULL && t < ix->n_threads; t++)
    sl_scope_blocks_clear (&ix->threads[t]);
  g_free (ix->streams);
  g_free (ix->threads);
  g_free (ix->func_key);
  g_free (ix->key_category);
  g_clear_pointer (&ix->nvtx, sl_scope_nvtx_free);
  g_clear_pointer (&ix->busy, sl_scope_busy_free);
  g_free (ix->api_key);
  g_clear_pointer (&ix->kernel_ids, g_array_unref);
  g_clear_pointer (&ix->api_ids, g_array_unref);
  g_free (ix);
}

/* The index's slot is made at once under the profile's derived-data lock;
 * the build runs under the slot's own lock, so that it holds up nobody
 * else's derived data. */
typedef struct {
  GMutex        lock;
  SlScopeIndex *index;
} Slot;

static gpointer
slot_new (const SlProfile *profile)
{
  Slot *slot = g_new0 (Slot, 1);

  g_mutex_init (&slot->lock);
  return slot;
}

static void
slot_free (gpointer data)
{
  Slot *slot = data;

  g_clear_pointer (&slot->index, index_free);
  g_mutex_clear (&slot->lock);
  g_free (slot);
}

SlScopeIndex *
sl_scope_index_get (const SlProfile *profile)
{
  Slot *slot = sl_profile_get_derived (profile, "sl-scope-index", slot_new, slot_free);
  SlScopeIndex *ix;

  g_mutex_lock (&slot->lock);
  if (slot->index == NULL)
    slot->index = index_build (profile);
  ix = slot->index;
  g_mutex_unlock (&slot->lock);
  return ix;
}

/* A first-pass table and keys holding the index's keys in its order. */
static void
table_init (SlStatsTable *table, SlNameKeys *keys, const SlProfile *profile, GArray *ids)
{
  sl_name_keys_init (keys, sl_strings_count (profile->strings));
  for (guint k = 0; k < ids->len; k++)
    sl_name_keys_get (keys, g_array_index (ids, guint32, k));
  sl_stats_table_init_sums (table, ids->len);
  sl_stats_table_pass (table);
}

/* Whether every key's sums give sl-stats' exact standard deviation (see
 * finish_one: n (max - min) under 4e18). */
static gboolean
table_exact (const SlStatsTable *table)
{
  for (guint k = 0; k < table->n_keys; k++)
    {
      const SlStatsAcc *a = &table->acc[k];

      if (a->count > 1 && (double) a->count * ((double) a->max - (double) a->min) >= 4.0e18)
        return FALSE;
    }
  return TRUE;
}

/* The scope's kernel keys summed into @table (first pass, under @keys in
 * the index's order). */
static void
kernel_table (const SlScopeIndex *ix, const SlProfile *profile, const SlFilter *filter,
              SlStatsTable *table, SlNameKeys *keys)
{
  table_init (table, keys, profile, ix->kernel_ids);
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];
      const SlKernels *k = &stream->kernels;
      guint first, last;

      if (!sl_filter_match_stream (filter, stream) || k->spans.n == 0)
        continue;
      sl_filter_span_bounds (filter, &k->spans, 0, k->spans.n, &first, &last);
      sl_scope_blocks_add (&ix->streams[s], table, &k->spans, first, last, k->func, ix->func_key,
                           MAX (profile->n_funcs, 1));
    }
}

/* A non-negative sum saturated as sl_sat_add () adds up durations. */
static gint64
sat_total (const SlStatsAcc *a)
{
  __int128 exact = (__int128) a->total + ((__int128) a->total_wraps << 64);

  return exact > G_MAXINT64 ? G_MAXINT64 : (gint64) exact;
}

/* The categories of the scope's kernel @table (NULL when a short name's
 * category is not fixed). */
static SlCategorySummary *
table_categories (const SlScopeIndex *ix, const SlProfile *profile, const SlStatsTable *table,
                  guint top_names)
{
  guint n = ix->kernel_ids->len;
  g_autofree SlCategoryKernel *kernels = NULL;

  if (ix->key_category == NULL)
    return NULL;
  kernels = g_new0 (SlCategoryKernel, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    {
      kernels[k].name = (char *) sl_strings_get (profile->strings, g_array_index (ix->kernel_ids, guint32, k));
      kernels[k].total_ns = kernels[k].duration_ns = sat_total (&table->acc[k]);
      kernels[k].instances = table->acc[k].count;
    }
  return sl_category_summary_from_kernels (sl_categories_get_default (), kernels, ix->key_category, n,
                                           top_names);
}

void
sl_scope_index_kernels (const SlScopeIndex *ix, const SlProfile *profile, const SlFilter *filter,
                        guint top, guint top_names, SlKernelSummary **kernels,
                        SlCategorySummary **categories)
{
  SlNameKeys keys;
  SlStatsTable table;
  SlKernelSummary *self;

  kernel_table (ix, profile, filter, &table, &keys);
  *categories = table_categories (ix, profile, &table, top_names);
  if (!table_exact (&table))
    {
      *kernels = NULL;
      sl_stats_table_clear (&table);
      sl_name_keys_clear (&keys);
      return;
    }
  self = g_new0 (SlKernelSummary, 1);
  self->rows = sl_name_rows_finish (&table, &keys, profile->strings, top, &self->n_rows,
                                    &self->n_names, &self->total_ns, &self->instances);
  *kernels = self;
}

SlApiSummary *
sl_scope_index_api (const SlScopeIndex *ix, const SlProfile *profile, const SlFilter *filter,
                    guint top)
{
  const SlApiCalls *api = &profile->api;
  SlApiSummary *self;
  SlNameKeys keys;
  SlStatsTable table;

  if (ix->api_ids == NULL)
    return NULL;
  table_init (&table, &keys, profile, ix->api_ids);
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlThread *thread = &profile->threads[t];
      guint first, last;

      if (thread->api_count == 0 || !sl_filter_match_thread (filter, profile, t))
        continue;
      sl_filter_span_bounds (filter, &api->spans, thread->api_first,
                             thread->api_first + thread->api_count, &first, &last);
      sl_scope_blocks_add (&ix->threads[t], &table, &api->spans, first, last, api->name, ix->api_key,
                           ix->n_string_ids);
    }
  if (!table_exact (&table))
    {
      sl_stats_table_clear (&table);
      sl_name_keys_clear (&keys);
      return NULL;
    }
  self = g_new0 (SlApiSummary, 1);
  self->rows = sl_name_rows_finish (&table, &keys, profile->strings, top, &self->n_rows,
                                    &self->n_names, &self->total_ns, &self->calls);
  return self;
}

SlNvtxSummary *
sl_scope_index_nvtx (const SlScopeIndex *ix, const SlProfile *profile, const SlFilter *filter,
                     guint top)
{
  return ix->nvtx != NULL ? sl_scope_nvtx_summary (ix->nvtx, profile, filter, top) : NULL;
}

SlGaps *
sl_scope_index_gaps (const SlScopeIndex *ix, const SlProfile *profile, const SlFilter *filter, guint top,
                     SlOverlap **overlap)
{
  return sl_scope_busy_query (ix->busy, profile, filter, top, overlap);
}
