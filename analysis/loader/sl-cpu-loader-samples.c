/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-loader-samples.c: CPU samples (COMPOSITE_EVENTS, their stacks in
 * SAMPLING_CALLCHAINS) and context switches (SCHED_EVENTS) per thread.
 * About 15 bytes a sample: time, state, cpu and a shared stack. */
#include "sl-cpu-loader-private.h"

#include <glib/gi18n-lib.h>

#define CHECK_ROWS 16384

static const char *const sample_columns[] = { "id", "start", "cpu", "threadState", "globalTid" };
enum { S_ID, S_START, S_CPU, S_STATE, S_TID };

static void
samples_grow (SlCpuThreadBuilder *t)
{
  if (G_LIKELY (t->n_samples < t->samples_cap))
    return;
  t->samples_cap = MAX (64u, t->samples_cap * 2);
  t->sample_time = g_renew (gint64, t->sample_time, t->samples_cap);
  t->sample_state = g_renew (guint8, t->sample_state, t->samples_cap);
  t->sample_cpu = g_renew (guint16, t->sample_cpu, t->samples_cap);
  t->sample_stack = g_renew (guint32, t->sample_stack, t->samples_cap);
}

/* A CPU number that does not fit is damage: 0xFFFF says "unknown". */
static guint16
cpu_of (const gint64 *v, guint64 nulls, guint column)
{
  return (_sl_is_null (nulls, column) || v[column] < 0 || v[column] >= 0xFFFF) ? 0xFFFF : (guint16) v[column];
}

static void
sample_row (SlCpuBuild *build, const gint64 *v, guint64 nulls)
{
  SlCpuThreadBuilder *t;
  guint i;

  if (_sl_is_null (nulls, S_TID))
    {
      build->skipped_thread++;
      return;
    }
  if (_sl_is_null (nulls, S_START) || !_sl_time_is_sane (v[S_START]))
    {
      build->skipped_time++;
      return;
    }
  t = _sl_cpu_build_thread (build, (guint64) v[S_TID]);
  samples_grow (t);
  i = t->n_samples++;
  t->sample_time[i] = v[S_START];
  t->sample_state[i] = (_sl_is_null (nulls, S_STATE) || v[S_STATE] < 0 || v[S_STATE] >= SL_THREAD_STATE_COUNT)
                       ? SL_THREAD_STATE_UNKNOWN : (guint8) v[S_STATE];
  t->sample_cpu[i] = cpu_of (v, nulls, S_CPU);
  t->sample_stack[i] = _sl_is_null (nulls, S_ID) ? SL_NONE
                       : _sl_cpu_chain_map_lookup (&build->sample_stacks, v[S_ID]);
}

gboolean
_sl_cpu_read_samples (SlCpuBuild *build, GError **error)
{
  SlTableScan *scan;
  gint64 v[G_N_ELEMENTS (sample_columns)];
  guint64 nulls, rows = 0;

  if (!_sl_loader_has_column (&build->loader, "COMPOSITE_EVENTS", "start"))
    return TRUE;
  if (!_sl_cpu_read_callchains (build, "SAMPLING_CALLCHAINS", &build->sample_stacks, error))
    return FALSE;
  scan = _sl_table_scan_open (build->db, build->fd, "COMPOSITE_EVENTS", sample_columns, G_N_ELEMENTS (sample_columns), NULL);
  if (scan == NULL)
    {
      g_ptr_array_add (build->warnings, g_strdup (_("COMPOSITE_EVENTS cannot be read: the CPU samples are missing.")));
      return TRUE;
    }
  while (_sl_table_scan_next (scan, v, &nulls))
    {
      if (++rows % CHECK_ROWS == 0 && !_sl_cpu_build_check (build, error))
        break;
      sample_row (build, v, nulls);
    }
  /* the chains are all attached: their map is no longer needed */
  _sl_cpu_chain_map_clear (&build->sample_stacks);
  return _sl_cpu_scan_done (build, scan, "COMPOSITE_EVENTS", error);
}

static const char *const sched_columns[] = { "start", "cpu", "isSchedIn", "globalTid" };
enum { W_START, W_CPU, W_IN, W_TID };

static void
sched_row (SlCpuBuild *build, const gint64 *v, guint64 nulls)
{
  SlCpuThreadBuilder *t;
  guint i;

  if (_sl_is_null (nulls, W_TID))
    {
      build->skipped_thread++;
      return;
    }
  if (_sl_is_null (nulls, W_START) || !_sl_time_is_sane (v[W_START]))
    {
      build->skipped_time++;
      return;
    }
  t = _sl_cpu_build_thread (build, (guint64) v[W_TID]);
  if (t->n_sched == t->sched_cap)
    {
      t->sched_cap = MAX (64u, t->sched_cap * 2);
      t->sched_time = g_renew (gint64, t->sched_time, t->sched_cap);
      t->sched_in = g_renew (guint8, t->sched_in, t->sched_cap);
      t->sched_cpu = g_renew (guint16, t->sched_cpu, t->sched_cap);
    }
  i = t->n_sched++;
  t->sched_time[i] = v[W_START];
  t->sched_in[i] = !_sl_is_null (nulls, W_IN) && v[W_IN] != 0;
  t->sched_cpu[i] = cpu_of (v, nulls, W_CPU);
}

gboolean
_sl_cpu_read_sched (SlCpuBuild *build, GError **error)
{
  SlTableScan *scan;
  gint64 v[G_N_ELEMENTS (sched_columns)];
  guint64 nulls, rows = 0;

  if (!_sl_loader_has_column (&build->loader, "SCHED_EVENTS", "start"))
    return TRUE;
  scan = _sl_table_scan_open (build->db, build->fd, "SCHED_EVENTS", sched_columns, G_N_ELEMENTS (sched_columns), NULL);
  if (scan == NULL)
    {
      g_ptr_array_add (build->warnings, g_strdup (_("SCHED_EVENTS cannot be read: the thread scheduling is missing.")));
      return TRUE;
    }
  while (_sl_table_scan_next (scan, v, &nulls))
    {
      if (++rows % CHECK_ROWS == 0 && !_sl_cpu_build_check (build, error))
        break;
      sched_row (build, v, nulls);
    }
  return _sl_cpu_scan_done (build, scan, "SCHED_EVENTS", error);
}

void
_sl_cpu_read_thread_names (SlCpuBuild *build)
{
  sqlite3_stmt *stmt = NULL;

  if (!_sl_loader_has_column (&build->loader, "ThreadNames", "globalTid") ||
      !_sl_loader_has_column (&build->loader, "ThreadNames", "nameId") ||
      sqlite3_prepare_v2 (build->db, "SELECT globalTid, nameId FROM ThreadNames", -1, &stmt, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (stmt);
      return;
    }
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      guint64 tid = (guint64) sqlite3_column_int64 (stmt, 0);
      guint32 index = sl_id_map_lookup (&build->thread_index, tid, SL_NONE);
      guint32 name;

      /* only threads already read: a name alone makes no row */
      if (index == SL_NONE || sqlite3_column_type (stmt, 1) == SQLITE_NULL)
        continue;
      name = _sl_cpu_build_name (build, sqlite3_column_int64 (stmt, 1), FALSE);
      if (name != SL_NONE)
        ((SlCpuThreadBuilder *) g_ptr_array_index (build->threads, index))->name_plus1 = name + 1;
    }
  sqlite3_finalize (stmt);
}
