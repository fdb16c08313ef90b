/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-nccl.c: NCCL kernels by device, stream and collective. */
#include "sl-nccl.h"
#include "sl-int.h"
#include "sl-json.h"

#include <string.h>

static const char *const collective_names[SL_NCCL_N_COLLECTIVES] = {
  "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "SendRecv", "AllToAll", "other",
};

gboolean
sl_nccl_is_nccl_name (const char *name)
{
  return name != NULL && strcasestr (name, "nccl") != NULL;
}

guint8 *
sl_nccl_func_mask (const SlProfile *profile)
{
  guint8 *mask = g_new0 (guint8, MAX (profile->n_funcs, 1));

  for (guint f = 0; f < profile->n_funcs; f++)
    mask[f] = sl_nccl_is_nccl_name (sl_strings_get (profile->strings, profile->funcs[f].short_name))
              || sl_nccl_is_nccl_name (sl_strings_get (profile->strings, profile->funcs[f].demangled_name));
  return mask;
}

SlNcclCollective
sl_nccl_collective_of (const char *name)
{
  /* Longer names first: "AllReduce" and "ReduceScatter" contain "Reduce". */
  static const struct { const char *needle; SlNcclCollective c; } table[] = {
    { "allreduce", SL_NCCL_ALL_REDUCE }, { "all_reduce", SL_NCCL_ALL_REDUCE },
    { "reducescatter", SL_NCCL_REDUCE_SCATTER }, { "reduce_scatter", SL_NCCL_REDUCE_SCATTER },
    { "allgather", SL_NCCL_ALL_GATHER }, { "all_gather", SL_NCCL_ALL_GATHER },
    { "alltoall", SL_NCCL_ALL_TO_ALL }, { "all_to_all", SL_NCCL_ALL_TO_ALL },
    { "broadcast", SL_NCCL_BROADCAST },
    { "sendrecv", SL_NCCL_SEND_RECV }, { "send", SL_NCCL_SEND_RECV }, { "recv", SL_NCCL_SEND_RECV },
    { "reduce", SL_NCCL_REDUCE },
  };

  if (name == NULL)
    return SL_NCCL_OTHER;
  for (gsize i = 0; i < G_N_ELEMENTS (table); i++)
    if (strcasestr (name, table[i].needle) != NULL)
      return table[i].c;
  return SL_NCCL_OTHER;
}

const char *
sl_nccl_collective_name (SlNcclCollective c)
{
  return c < SL_NCCL_N_COLLECTIVES ? collective_names[c] : collective_names[SL_NCCL_OTHER];
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const SlNcclRow *x = a, *y = b;

  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->stream != y->stream)
    return x->stream < y->stream ? -1 : 1;
  if (x->stats.total != y->stats.total)
    return x->stats.total > y->stats.total ? -1 : 1;
  return (int) x->collective - (int) y->collective;
}

static int
compare_nvtx (gconstpointer a, gconstpointer b)
{
  const SlNcclNvtxRow *x = a, *y = b;

  return sl_rank_compare (x->stats.total, x->name, y->stats.total, y->name);
}

gboolean
sl_nccl_is_api_name (const char *name)
{
  /* NCCL names its NVTX ranges after its API calls: "ncclAllReduce",
   * "ncclGroupStart", "ncclCommInitRank"… */
  return name != NULL && g_str_has_prefix (name, "nccl") && g_ascii_isupper (name[4]);
}

/* TRUE when a range of @pid in @domain is named like an NCCL API call. */
static gboolean
domain_has_nccl_calls (const SlProfile *profile, guint32 pid, guint32 domain)
{
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlThread *thread = &profile->threads[t];
      const SlNvtxRanges *sets[] = { &thread->nvtx, &thread->nvtx_startend };

      if (thread->pid != pid)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (sets); k++)
        for (guint i = 0; i < sets[k]->spans.n; i++)
          if (sl_nvtx_ranges_domain (sets[k], i) == domain
              && sl_nccl_is_api_name (sl_strings_get (profile->strings, sets[k]->name[i])))
            return TRUE;
    }
  return FALSE;
}

/* Whether (pid, domain) is NCCL's: by the domain's name, or, when no
 * domain-create row names it (sliced captures), by the names of its ranges.
 * The default domain is the application's.  Ranges come in runs of one
 * domain: the last answer is checked before the table. */
typedef struct {
  GHashTable *ok;          /* gint64 key -> verdict */
  gint64      last_key;    /* -1: none yet */
  gboolean    last_ok;
} DomainCache;

static gboolean
domain_is_nccl (DomainCache *cache, const SlProfile *profile, guint32 pid, guint32 domain)
{
  gint64 dkey = ((gint64) pid << 16) | domain;
  gpointer ok;

  if (dkey == cache->last_key)
    return cache->last_ok;
  if (!g_hash_table_lookup_extended (cache->ok, &dkey, NULL, &ok))
    {
      const char *dname = sl_profile_domain_name (profile, pid, domain);
      gboolean unnamed = domain != 0 && (dname == NULL || dname[0] == '\0');

      ok = GINT_TO_POINTER ((dname != NULL && strcasestr (dname, "nccl") != NULL)
                            || (unnamed && domain_has_nccl_calls (profile, pid, domain)));
      g_hash_table_insert (cache->ok, g_memdup2 (&dkey, sizeof dkey), ok);
    }
  cache->last_key = dkey;
  cache->last_ok = GPOINTER_TO_INT (ok);
  return cache->last_ok;
}

/* The key of range name @name: its row in self->nvtx, added on first sight
 * (with the name of domain @domain of process @pid). */
static guint
nvtx_row_key (SlNccl *self, GHashTable *per_name, SlStatsTable *table, const char *name,
              const SlProfile *profile, guint32 pid, guint32 domain)
{
  gpointer k;
  guint n;

  if (g_hash_table_lookup_extended (per_name, name, NULL, &k))
    return GPOINTER_TO_UINT (k);
  n = g_hash_table_size (per_name);
  g_hash_table_insert (per_name, (gpointer) name, GUINT_TO_POINTER (n));
  if (n >= table->n_keys)
    sl_stats_table_grow (table, table->n_keys * 2);
  self->nvtx = g_renew (SlNcclNvtxRow, self->nvtx, n + 1);
  memset (&self->nvtx[n], 0, sizeof (SlNcclNvtxRow));
  self->nvtx[n].name = g_strdup (name);
  self->nvtx[n].domain = g_strdup (sl_profile_domain_name (profile, pid, domain));
  self->nvtx[n].domain_id = domain;
  self->n_nvtx = n + 1;
  return n;
}

/* The ranges of @r in the filter's window and in an NCCL domain, into
 * the statistics of their names. */
static void
visit_nccl_ranges (SlNccl *self, const SlProfile *profile, const SlFilter *filter, guint32 pid,
                   const SlNvtxRanges *r, DomainCache *domains, GHashTable *per_name, SlStatsTable *table)
{
  for (guint i = 0; i < r->spans.n; i++)
    {
      guint k;

      if (!sl_filter_match_time (filter, r->spans.start[i])
          || !domain_is_nccl (domains, profile, pid, sl_nvtx_ranges_domain (r, i)))
        continue;
      k = nvtx_row_key (self, per_name, table, sl_strings_get (profile->strings, r->name[i]),
                        profile, pid, sl_nvtx_ranges_domain (r, i));
      sl_stats_table_visit (table, k, sl_spans_dur (&r->spans, i));
    }
}

/* NVTX ranges in NCCL's domains (the calls as the CPU sees them), per name. */
static void
nvtx_calls (const SlProfile *profile, const SlFilter *filter, SlNccl *self)
{
  g_autoptr(GHashTable) domain_ok = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  DomainCache domains = { domain_ok, -1, FALSE };
  g_autoptr(GHashTable) per_name = g_hash_table_new (g_str_hash, g_str_equal);
  SlStatsTable table;
  g_autofree SlStats *stats = NULL;

  sl_stats_table_init (&table, 16, FALSE);
  sl_stats_table_pass (&table);
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlThread *thread = &profile->threads[t];

      if (!sl_filter_match_thread (filter, profile, t))
        continue;
      visit_nccl_ranges (self, profile, filter, thread->pid, &thread->nvtx, &domains, per_name, &table);
      visit_nccl_ranges (self, profile, filter, thread->pid, &thread->nvtx_startend, &domains, per_name,
                         &table);
    }
  stats = g_new0 (SlStats, MAX (table.n_keys, 1));
  sl_stats_table_finish (&table, stats);
  for (guint n = 0; n < self->n_nvtx; n++)
    self->nvtx[n].stats = stats[n];
  if (self->n_nvtx > 0)
    qsort (self->nvtx, self->n_nvtx, sizeof (SlNcclNvtxRow), compare_nvtx);
  sl_stats_table_clear (&table);
}

/* The collective of each NCCL function (by short, then demangled name). */
static guint8 *
collective_per_func (const SlProfile *profile, const guint8 *is_nccl)
{
  guint8 *collective = g_new0 (guint8, MAX (profile->n_funcs, 1));

  for (guint f = 0; f < profile->n_funcs; f++)
    if (is_nccl[f])
      {
        SlNcclCollective c = sl_nccl_collective_of (sl_strings_get (profile->strings, profile->funcs[f].short_name));
        if (c == SL_NCCL_OTHER)
          c = sl_nccl_collective_of (sl_strings_get (profile->strings, profile->funcs[f].demangled_name));
        collective[f] = (guint8) c;
      }
  return collective;
}

/* One row per collective with kernels on @stream inside the filter. */
static void
add_stream_rows (SlNccl *self, GArray *rows, const SlProfile *profile, const SlFilter *filter,
                 const SlStream *stream, const guint8 *is_nccl, const guint8 *collective)
{
  const SlKernels *k = &stream->kernels;
  SlStats stats[SL_NCCL_N_COLLECTIVES];
  SlStatsTable table;
  guint first, last;

  sl_filter_span_bounds (filter, &k->spans, 0, k->spans.n, &first, &last);
  sl_stats_table_init (&table, SL_NCCL_N_COLLECTIVES, FALSE);
  sl_stats_table_pass (&table);
  for (guint i = first; i < last; i++)
    {
      guint32 f = k->func[i];
      if (f < profile->n_funcs && is_nccl[f])
        sl_stats_table_visit (&table, collective[f], sl_spans_dur (&k->spans, i));
    }
  sl_stats_table_finish (&table, stats);
  for (guint c = 0; c < SL_NCCL_N_COLLECTIVES; c++)
    if (stats[c].count > 0)
      {
        SlNcclRow row = { stream->device, stream->pid, stream->stream, c, stats[c], 0 };
        g_array_append_val (rows, row);
        self->total_ns = sl_sat_add (self->total_ns, stats[c].total);
        self->count += stats[c].count;
      }
  sl_stats_table_clear (&table);
}

SlNccl *
sl_nccl_compute (const SlProfile *profile, const SlFilter *filter)
{
  SlNccl *self = g_new0 (SlNccl, 1);
  g_autofree guint8 *is_nccl = sl_nccl_func_mask (profile);
  g_autofree guint8 *collective = collective_per_func (profile, is_nccl);
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (SlNcclRow));

  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];

      if (sl_filter_match_stream (filter, stream) && stream->kernels.spans.n > 0)
        add_stream_rows (self, rows, profile, filter, stream, is_nccl, collective);
    }
  self->n_rows = rows->len;
  self->rows = (SlNcclRow *) g_array_free (g_steal_pointer (&rows), FALSE);
  for (guint r = 0; r < self->n_rows; r++)
    self->rows[r].time_pct = sl_percent (self->rows[r].stats.total, self->total_ns);
  if (self->n_rows > 0)
    qsort (self->rows, self->n_rows, sizeof (SlNcclRow), compare_rows);

  nvtx_calls (profile, filter, self);
  return self;
}

void
sl_nccl_free (SlNccl *self)
{
  if (self == NULL)
    return;
  for (guint n = 0; n < self->n_nvtx; n++)
    {
      g_free (self->nvtx[n].name);
      g_free (self->nvtx[n].domain);
    }
  g_free (self->nvtx);
  g_free (self->rows);
  g_free (self);
}

/* count, total, mean, min and max: medians would cost a pass more */
static const SlStatsJsonNames basic_stats = {
  "count", "total_ns", "avg_ns", NULL, "min_ns", "max_ns", NULL,
};

static void
add_row_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlNcclRow *row = item;

  json_builder_begin_object (b);
  sl_json_member_int (b, "device", row->device);
  sl_json_member_int (b, "pid", row->pid);
  sl_json_member_int (b, "stream", row->stream);
  sl_json_member_string (b, "collective", sl_nccl_collective_name (row->collective));
  sl_stats_add_json_named (b, &row->stats, &basic_stats);
  sl_json_member_double (b, "time_pct", row->time_pct);
  json_builder_end_object (b);
}

static void
add_nvtx_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlNcclNvtxRow *row = item;

  json_builder_begin_object (b);
  sl_json_member_string (b, "name", row->name);
  sl_json_member_string (b, "domain", row->domain);
  sl_json_member_int (b, "domain_id", row->domain_id);
  sl_stats_add_json_named (b, &row->stats, &basic_stats);
  json_builder_end_object (b);
}

JsonNode *
sl_nccl_to_json (const SlNccl *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_int (b, "total_ns", self->total_ns);
  sl_json_member_int (b, "count", (gint64) self->count);
  sl_json_member_array (b, "collectives", self->rows, self->n_rows, sizeof (SlNcclRow), add_row_json, NULL);
  sl_json_member_array (b, "nvtx", self->nvtx, self->n_nvtx, sizeof (SlNcclNvtxRow), add_nvtx_json, NULL);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
