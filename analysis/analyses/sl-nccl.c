/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-nccl.c: NCCL kernels by device, stream and collective. */
#include "sl-nccl.h"

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

  if (x->stats.total != y->stats.total)
    return x->stats.total > y->stats.total ? -1 : 1;
  return strcmp (x->name, y->name);
}

static void
nvtx_calls (const SlProfile *profile, const SlFilter *filter, SlNccl *self)
{
  g_autoptr(GHashTable) domain_ok = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) per_name = g_hash_table_new (g_str_hash, g_str_equal);
  SlStatsTable table;
  g_autofree SlStats *stats = NULL;

  sl_stats_table_init (&table, 16, FALSE);
  sl_stats_table_pass (&table);
  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlThread *thread = &profile->threads[t];
      const SlNvtxRanges *lists[2] = { &thread->nvtx, &thread->nvtx_startend };

      if (!sl_filter_match_thread (filter, profile, t))
        continue;
      for (guint l = 0; l < 2; l++)
        for (guint i = 0; i < lists[l]->spans.n; i++)
          {
            gint64 dkey = ((gint64) thread->pid << 16) | lists[l]->domain[i];
            gpointer ok;
            const char *name;
            gpointer k;

            if (!sl_filter_match_time (filter, lists[l]->spans.start[i]))
              continue;
            if (!g_hash_table_lookup_extended (domain_ok, &dkey, NULL, &ok))
              {
                gint64 *stored = g_new (gint64, 1);
                const char *dname = sl_profile_domain_name (profile, thread->pid, lists[l]->domain[i]);
                *stored = dkey;
                ok = GINT_TO_POINTER (dname != NULL && strcasestr (dname, "nccl") != NULL);
                g_ptr_array_add (keys, stored);
                g_hash_table_insert (domain_ok, stored, ok);
              }
            if (!GPOINTER_TO_INT (ok))
              continue;

            name = sl_strings_get (profile->strings, lists[l]->name[i]);
            if (!g_hash_table_lookup_extended (per_name, name, NULL, &k))
              {
                guint n = g_hash_table_size (per_name);
                k = GUINT_TO_POINTER (n);
                g_hash_table_insert (per_name, (gpointer) name, k);
                if (n >= table.n_keys)
                  sl_stats_table_grow (&table, table.n_keys * 2);
                self->nvtx = g_renew (SlNcclNvtxRow, self->nvtx, n + 1);
                memset (&self->nvtx[n], 0, sizeof (SlNcclNvtxRow));
                self->nvtx[n].name = g_strdup (name);
                self->nvtx[n].domain = g_strdup (sl_profile_domain_name (profile, thread->pid,
                                                                          lists[l]->domain[i]));
                self->n_nvtx = n + 1;
              }
            sl_stats_table_visit (&table, GPOINTER_TO_UINT (k), sl_spans_dur (&lists[l]->spans, i));
          }
    }
  stats = g_new0 (SlStats, MAX (table.n_keys, 1));
  sl_stats_table_finish (&table, stats);
  for (guint n = 0; n < self->n_nvtx; n++)
    self->nvtx[n].stats = stats[n];
  if (self->n_nvtx > 0)
    qsort (self->nvtx, self->n_nvtx, sizeof (SlNcclNvtxRow), compare_nvtx);
  sl_stats_table_clear (&table);
}

SlNccl *
sl_nccl_compute (const SlProfile *profile, const SlFilter *filter)
{
  SlNccl *self = g_new0 (SlNccl, 1);
  g_autofree guint8 *is_nccl = sl_nccl_func_mask (profile);
  g_autofree guint8 *collective = g_new0 (guint8, MAX (profile->n_funcs, 1));
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (SlNcclRow));

  for (guint f = 0; f < profile->n_funcs; f++)
    if (is_nccl[f])
      {
        SlNcclCollective c = sl_nccl_collective_of (sl_strings_get (profile->strings, profile->funcs[f].short_name));
        if (c == SL_NCCL_OTHER)
          c = sl_nccl_collective_of (sl_strings_get (profile->strings, profile->funcs[f].demangled_name));
        collective[f] = (guint8) c;
      }

  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];
      const SlKernels *k = &stream->kernels;
      SlStatsTable table;
      guint first, last;

      if (!sl_filter_match_stream (filter, stream) || k->spans.n == 0)
        continue;
      sl_filter_span_bounds (filter, &k->spans, 0, k->spans.n, &first, &last);
      sl_stats_table_init (&table, SL_NCCL_N_COLLECTIVES, FALSE);
      sl_stats_table_pass (&table);
      for (guint i = first; i < last; i++)
        {
          guint32 f = k->func[i];
          if (f < profile->n_funcs && is_nccl[f])
            sl_stats_table_visit (&table, collective[f], sl_spans_dur (&k->spans, i));
        }
      SlStats stats[SL_NCCL_N_COLLECTIVES];
      sl_stats_table_finish (&table, stats);
      for (guint c = 0; c < SL_NCCL_N_COLLECTIVES; c++)
        if (stats[c].count > 0)
          {
            SlNcclRow row = { stream->device, stream->pid, stream->stream, c, stats[c], 0 };
            g_array_append_val (rows, row);
            self->total_ns += stats[c].total;
            self->count += stats[c].count;
          }
      sl_stats_table_clear (&table);
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

static void
add_basic_stats (JsonBuilder *b, const SlStats *s)
{
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, (gint64) s->count);
  json_builder_set_member_name (b, "total_ns");
  json_builder_add_int_value (b, s->total);
  json_builder_set_member_name (b, "avg_ns");
  json_builder_add_int_value (b, sl_round_ns (s->avg));
  json_builder_set_member_name (b, "min_ns");
  json_builder_add_int_value (b, s->min);
  json_builder_set_member_name (b, "max_ns");
  json_builder_add_int_value (b, s->max);
}

JsonNode *
sl_nccl_to_json (const SlNccl *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "total_ns");
  json_builder_add_int_value (b, self->total_ns);
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, (gint64) self->count);
  json_builder_set_member_name (b, "collectives");
  json_builder_begin_array (b);
  for (guint r = 0; r < self->n_rows; r++)
    {
      const SlNcclRow *row = &self->rows[r];
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "device");
      json_builder_add_int_value (b, row->device);
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, row->pid);
      json_builder_set_member_name (b, "stream");
      json_builder_add_int_value (b, row->stream);
      json_builder_set_member_name (b, "collective");
      json_builder_add_string_value (b, sl_nccl_collective_name (row->collective));
      add_basic_stats (b, &row->stats);
      json_builder_set_member_name (b, "time_pct");
      json_builder_add_double_value (b, row->time_pct);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "nvtx");
  json_builder_begin_array (b);
  for (guint n = 0; n < self->n_nvtx; n++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      sl_json_add_string (b, self->nvtx[n].name);
      json_builder_set_member_name (b, "domain");
      sl_json_add_string (b, self->nvtx[n].domain);
      add_basic_stats (b, &self->nvtx[n].stats);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
