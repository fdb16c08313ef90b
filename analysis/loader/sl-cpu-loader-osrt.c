/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-loader-osrt.c: OS runtime calls (OSRT_API) into per-thread rows. */
#include "sl-cpu-loader-private.h"
#include "sl-spans-private.h"

#include <glib/gi18n-lib.h>

#define CHECK_ROWS 16384
/* eventClass of the start/finish markers nsys writes around long calls
 * (ENUM_NSYS_EVENT_CLASS 31/32): the call itself has its own row. */
#define OSRT_START_MARKER  31
#define OSRT_FINISH_MARKER 32

static const char *const osrt_columns[] = {
  "start", "end", "eventClass", "globalTid", "nameId", "nestingLevel", "callchainId",
};

enum { C_START, C_END, C_CLASS, C_TID, C_NAME, C_LEVEL, C_CHAIN };

static void
osrt_grow (SlCpuThreadBuilder *t)
{
  if (!_sl_spans_grow (&t->osrt, &t->osrt_cap))
    return;
  t->osrt_name = g_renew (guint32, t->osrt_name, t->osrt_cap);
  t->osrt_stack = g_renew (guint32, t->osrt_stack, t->osrt_cap);
  t->osrt_level = g_renew (guint16, t->osrt_level, t->osrt_cap);
}

static void
osrt_row (SlCpuBuild *build, const gint64 *v, guint64 nulls)
{
  SlCpuThreadBuilder *t;
  gint64 dur;
  guint i;

  if (!_sl_is_null (nulls, C_CLASS) && (v[C_CLASS] == OSRT_START_MARKER || v[C_CLASS] == OSRT_FINISH_MARKER))
    return;
  if (_sl_is_null (nulls, C_TID))
    {
      build->skipped_thread++;
      return;
    }
  if (_sl_either_null (nulls, C_START, C_END)
      || !_sl_duration (v[C_START], v[C_END], build->loader.max_event_ns, &dur))
    {
      build->skipped_time++;
      return;
    }
  t = _sl_cpu_build_thread (build, (guint64) v[C_TID]);
  osrt_grow (t);
  i = t->osrt.n;
  _sl_spans_append (&t->osrt, v[C_START], dur);
  t->osrt_name[i] = _sl_cpu_build_name (build, _sl_is_null (nulls, C_NAME) ? G_MININT64 : v[C_NAME], FALSE);
  t->osrt_stack[i] = _sl_is_null (nulls, C_CHAIN) ? SL_NONE
                     : _sl_cpu_chain_map_lookup (&build->osrt_stacks, v[C_CHAIN]);
  /* a level beyond any real nesting (or negative) is damage: outermost */
  t->osrt_level[i] = (_sl_is_null (nulls, C_LEVEL) || v[C_LEVEL] < 0 || v[C_LEVEL] > 1024) ? 0 : (guint16) v[C_LEVEL];
}

gboolean
_sl_cpu_read_osrt (SlCpuBuild *build, GError **error)
{
  SlTableScan *scan;
  gint64 v[G_N_ELEMENTS (osrt_columns)];
  guint64 nulls, rows = 0;

  if (!_sl_loader_has_column (&build->loader, "OSRT_API", "start"))
    return TRUE;
  if (!_sl_cpu_read_callchains (build, "OSRT_CALLCHAINS", &build->osrt_stacks, error))
    return FALSE;
  scan = _sl_table_scan_open (build->db, build->fd, "OSRT_API", osrt_columns, G_N_ELEMENTS (osrt_columns), NULL);
  if (scan == NULL)
    {
      g_ptr_array_add (build->warnings, g_strdup (_("OSRT_API cannot be read: the OS runtime calls are missing.")));
      return TRUE;
    }
  while (_sl_table_scan_next (scan, v, &nulls))
    {
      if (++rows % CHECK_ROWS == 0 && !_sl_cpu_build_check (build, error))
        break;
      osrt_row (build, v, nulls);
    }
  return _sl_cpu_scan_done (build, scan, "OSRT_API", error);
}
