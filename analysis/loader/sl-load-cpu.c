/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-load-cpu.c: reading CPU-side activity (CUDA runtime/driver calls,
 * NVTX ranges and marks, thread and process names).  Runs in its own
 * worker; it is the only code that adds strings during the event phase. */
#include "sl-loader-private.h"
#include "sl-table-scan.h"

#include <string.h>
#include <glib/gi18n-lib.h>


/* NVTX_EVENTS.eventType values (ENUM_NSYS_EVENT_TYPE, stable since 2021). */
enum {
  NVTX_MARK = 34,
  NVTX_THREAD_NAME = 39,
  NVTX_PUSHPOP = 59,
  NVTX_STARTEND = 60,
  NVTX_DOMAIN_CREATE = 75,
};

void
_sl_thread_builder_free (gpointer data)
{
  SlThreadBuilder *b = data;

  _sl_spans_clear (&b->api.spans);
  g_free (b->api.name);
  g_free (b->api.corr);
  _sl_nvtx_ranges_clear (&b->nvtx);
  _sl_nvtx_ranges_clear (&b->startend);
  _sl_nvtx_marks_clear (&b->marks);
  g_free (b);
}

static SlThreadBuilder *
thread_builder (SlLoader *loader, guint64 global_tid)
{
  guint32 index = sl_id_map_lookup (&loader->thread_index, global_tid, SL_NONE);
  SlThreadBuilder *b;

  if (G_LIKELY (index != SL_NONE))
    return g_ptr_array_index (loader->thread_builders, index);
  b = g_new0 (SlThreadBuilder, 1);
  b->global_tid = global_tid;
  b->name = SL_NONE;
  sl_id_map_insert (&loader->thread_index, global_tid, loader->thread_builders->len);
  g_ptr_array_add (loader->thread_builders, b);
  return b;
}

/* ---- CUDA API ----------------------------------------------------------- */

enum { A_START, A_END, A_CLASS, A_TID, A_CORR, A_NAME, A_N };

static gboolean
load_api (SlLoader *loader, sqlite3 *db, GError **error)
{
  static const char *const columns[A_N] = {
    "start", "end", "eventClass", "globalTid", "correlationId", "nameId",
  };
  const char *table = "CUPTI_ACTIVITY_KIND_RUNTIME";
  g_autoptr(GError) local = NULL;
  SlTableScan *scan;
  gint64 v[A_N];
  guint64 nulls;
  gint64 rows = 0;
  int rc;

  if (!_sl_loader_has_table (loader, table))
    return TRUE;
  scan = _sl_table_scan_open (db, loader->db_path, table, columns, A_N, &local);
  if (scan == NULL)
    return _sl_loader_step_error (loader, db, sqlite3_errcode (db), _("the CUDA API calls"), error);

  SlThreadBuilder *last = NULL;
  while (_sl_table_scan_next (scan, v, &nulls))
    {
      guint64 tid = (guint64) v[A_TID];
      guint32 name;
      gint64 dur;

      if (!_sl_loader_count_row (loader, &rows, error))
        break;
      /* Calls with a collected backtrace appear a second time as eventClass
       * 67 (same correlationId): keep runtime (0) and driver (1) rows. */
      if ((nulls & (1u << A_CLASS)) == 0 && v[A_CLASS] != 0 && v[A_CLASS] != 1)
        continue;
      if (!_sl_loader_row_span (loader, v[A_START], v[A_END], (nulls & (1u << A_END)) != 0, &dur))
        continue;
      name = (nulls & (1u << A_NAME)) ? SL_NONE : _sl_loader_map_string (loader, v[A_NAME]);
      if (G_UNLIKELY (name == SL_NONE))
        {
          g_atomic_int_inc (&loader->skipped_bad_string);
          continue;
        }
      SlThreadBuilder *b = last != NULL && last->global_tid == tid ? last : thread_builder (loader, tid);
      last = b;
      guint old = b->api_cap;
      _sl_spans_reserve (&b->api.spans, &b->api_cap, b->api.spans.n + 1);
      if (old != b->api_cap)
        {
          b->api.name = g_renew (guint32, b->api.name, b->api_cap);
          b->api.corr = g_renew (guint32, b->api.corr, b->api_cap);
        }
      guint i = b->api.spans.n;
      _sl_spans_append (&b->api.spans, v[A_START], dur);
      b->api.name[i] = name;
      b->api.corr[i] = (guint32) v[A_CORR];
    }
  rc = _sl_table_scan_error (scan);
  _sl_table_scan_free (scan);
  if (*error != NULL)
    return FALSE;
  if (rc != SQLITE_OK)
    return _sl_loader_step_error (loader, NULL, rc, _("the CUDA API calls"), error);
  return TRUE;
}

/* ---- NVTX --------------------------------------------------------------- */

static void
append_range (SlNvtxRanges *r, guint *cap, gint64 start, gint64 dur, guint32 name, guint32 color, guint16 domain)
{
  guint old = *cap;

  _sl_spans_reserve (&r->spans, cap, r->spans.n + 1);
  if (old != *cap)
    {
      r->name = g_renew (guint32, r->name, *cap);
      r->color = g_renew (guint32, r->color, *cap);
      r->domain = g_renew (guint16, r->domain, *cap);
    }
  guint i = r->spans.n;
  _sl_spans_append (&r->spans, start, dur);
  r->name[i] = name;
  r->color[i] = color;
  r->domain[i] = domain;
}

static void
append_mark (SlNvtxMarks *m, guint *cap, gint64 time, guint32 name, guint32 color, guint16 domain)
{
  if (m->n == *cap)
    {
      *cap = MAX (*cap * 2, 16u);
      m->time = g_renew (gint64, m->time, *cap);
      m->name = g_renew (guint32, m->name, *cap);
      m->color = g_renew (guint32, m->color, *cap);
      m->domain = g_renew (guint16, m->domain, *cap);
    }
  m->time[m->n] = time;
  m->name[m->n] = name;
  m->color[m->n] = color;
  m->domain[m->n] = domain;
  m->n++;
}

enum { N_START, N_END, N_TYPE, N_TEXT, N_TEXT_ID, N_TID, N_COLOR, N_DOMAIN, N_N };

/* Display name = text, or the registered string textId points to.  The
 * last name is remembered: ranges of one loop repeat it row after row. */
static guint32
nvtx_name (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, GString *last_text,
           guint32 *last_id, gboolean *dangling)
{
  gsize len;
  const char *text = _sl_table_scan_text (scan, N_TEXT, &len);

  if (text != NULL)
    {
      if (*last_id != SL_NONE && last_text->len == len && memcmp (last_text->str, text, len) == 0)
        return *last_id;
      g_string_truncate (last_text, 0);
      g_string_append_len (last_text, text, (gssize) len);
      if (G_UNLIKELY (!g_utf8_validate (text, (gssize) len, NULL)))
        {
          g_autofree char *valid = g_utf8_make_valid (text, (gssize) len);
          *last_id = _sl_strings_intern (loader->profile->strings, valid);
        }
      else
        *last_id = _sl_strings_intern_len (loader->profile->strings, text, len);
      return *last_id;
    }
  if ((nulls & (1u << N_TEXT_ID)) == 0)
    {
      guint32 id = _sl_loader_map_string (loader, v[N_TEXT_ID]);
      if (id == SL_NONE)
        *dangling = TRUE;
      return id;
    }
  /* An unnamed range is legal NVTX; it shows as an empty label. */
  return _sl_strings_intern (loader->profile->strings, "");
}

static gboolean
load_nvtx (SlLoader *loader, sqlite3 *db, GError **error)
{
  static const char *const columns[N_N] = {
    "start", "end", "eventType", "text", "textId", "globalTid", "color", "domainId",
  };
  const char *table = "NVTX_EVENTS";
  g_autoptr(GError) local = NULL;
  g_autoptr(GString) last_text = g_string_new (NULL);
  guint32 last_id = SL_NONE;
  SlTableScan *scan;
  gint64 v[N_N];
  guint64 nulls;
  gint64 rows = 0;
  int rc;

  if (!_sl_loader_has_table (loader, table) || !_sl_loader_has_column (loader, table, "eventType"))
    return TRUE;
  scan = _sl_table_scan_open (db, loader->db_path, table, columns, N_N, &local);
  if (scan == NULL)
    return _sl_loader_step_error (loader, db, sqlite3_errcode (db), _("the NVTX events"), error);

  while (_sl_table_scan_next (scan, v, &nulls))
    {
      gint64 start = v[N_START];
      gboolean has_end = (nulls & (1u << N_END)) == 0;
      gint64 type = v[N_TYPE];
      guint64 tid = (guint64) v[N_TID];
      guint32 color = (guint32) v[N_COLOR];
      gint64 domain_id = v[N_DOMAIN];
      guint16 domain = domain_id >= 0 && domain_id < G_MAXUINT16 ? (guint16) domain_id : G_MAXUINT16;
      gboolean dangling = FALSE;
      guint32 name;
      gint64 dur;

      if (!_sl_loader_count_row (loader, &rows, error))
        break;
      if (type != NVTX_PUSHPOP && type != NVTX_STARTEND && type != NVTX_MARK &&
          type != NVTX_THREAD_NAME && type != NVTX_DOMAIN_CREATE)
        continue;
      name = nvtx_name (loader, scan, v, nulls, last_text, &last_id, &dangling);
      if (G_UNLIKELY (dangling))
        {
          g_atomic_int_inc (&loader->skipped_bad_string);
          continue;
        }

      switch (type)
        {
        case NVTX_DOMAIN_CREATE:
          {
            SlNvtxDomain d = { _sl_pid_of (tid), (guint32) domain, name };
            g_array_append_val (loader->domains, d);
          }
          break;
        case NVTX_THREAD_NAME:
          sl_id_map_insert (&loader->thread_name_override, tid, name);
          break;
        case NVTX_MARK:
          if (G_UNLIKELY (start < -SL_MAX_ABS_TIME || start > SL_MAX_ABS_TIME))
            {
              g_atomic_int_inc (&loader->skipped_bad_time);
              break;
            }
          {
            SlThreadBuilder *b = thread_builder (loader, tid);
            append_mark (&b->marks, &b->marks_cap, start, name, color, domain);
          }
          break;
        default: /* push/pop and start/end ranges */
          if (!has_end)
            {
              g_atomic_int_inc (&loader->skipped_nvtx_unpaired);
              break;
            }
          if (!_sl_loader_row_span (loader, start, v[N_END], FALSE, &dur))
            break;
          {
            SlThreadBuilder *b = thread_builder (loader, tid);
            if (type == NVTX_PUSHPOP)
              append_range (&b->nvtx, &b->nvtx_cap, start, dur, name, color, domain);
            else
              append_range (&b->startend, &b->startend_cap, start, dur, name, color, domain);
          }
          break;
        }
    }
  rc = _sl_table_scan_error (scan);
  _sl_table_scan_free (scan);
  if (*error != NULL)
    return FALSE;
  if (rc != SQLITE_OK)
    return _sl_loader_step_error (loader, NULL, rc, _("the NVTX events"), error);
  return TRUE;
}

/* ---- names -------------------------------------------------------------- */

static void
load_thread_names (SlLoader *loader, sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;

  if (_sl_loader_has_column (loader, "ThreadNames", "globalTid") &&
      _sl_loader_has_column (loader, "ThreadNames", "nameId") &&
      sqlite3_prepare_v2 (db, "SELECT globalTid, nameId FROM ThreadNames", -1, &stmt, NULL) == SQLITE_OK)
    {
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          guint64 tid = (guint64) sqlite3_column_int64 (stmt, 0);
          guint32 index = sl_id_map_lookup (&loader->thread_index, tid, SL_NONE);
          guint32 name = _sl_loader_map_string (loader, sqlite3_column_int64 (stmt, 1));
          if (name == SL_NONE)
            continue;
          /* Exports without PROCESSES (2020.x) still name the main thread
           * (tid == pid) after the program: use it for the process. */
          if (_sl_tid_of (tid) == _sl_pid_of (tid) &&
              !g_hash_table_contains (loader->process_names, GUINT_TO_POINTER (_sl_pid_of (tid))))
            g_hash_table_insert (loader->process_names, GUINT_TO_POINTER (_sl_pid_of (tid)),
                                 g_strdup (sl_strings_get (loader->profile->strings, name)));
          if (index != SL_NONE)
            ((SlThreadBuilder *) g_ptr_array_index (loader->thread_builders, index))->name = name;
        }
    }
  sqlite3_finalize (stmt);

  /* nvtxNameOsThread names fill the gaps ThreadNames leaves. */
  for (guint i = 0; i < loader->thread_builders->len; i++)
    {
      SlThreadBuilder *b = g_ptr_array_index (loader->thread_builders, i);
      if (b->name == SL_NONE)
        b->name = sl_id_map_lookup (&loader->thread_name_override, b->global_tid, SL_NONE);
    }
}

static void
load_process_names (SlLoader *loader, sqlite3 *db)
{
  const char *table = "PROCESSES";
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;

  if (!_sl_loader_has_column (loader, table, "name") ||
      (!_sl_loader_has_column (loader, table, "pid") && !_sl_loader_has_column (loader, table, "globalPid")))
    return;
  sql = g_strdup_printf ("SELECT %s, %s, name FROM %s",
                         _sl_loader_column_or_null (loader, table, "pid"),
                         _sl_loader_column_or_null (loader, table, "globalPid"), table);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK)
    while (sqlite3_step (stmt) == SQLITE_ROW)
      {
        const char *name = (const char *) sqlite3_column_text (stmt, 2);
        guint32 pid = sqlite3_column_type (stmt, 0) != SQLITE_NULL
                      ? (guint32) sqlite3_column_int64 (stmt, 0)
                      : _sl_pid_of ((guint64) sqlite3_column_int64 (stmt, 1));
        if (name != NULL && *name != '\0')
          g_hash_table_insert (loader->process_names, GUINT_TO_POINTER (pid), g_utf8_make_valid (name, -1));
      }
  sqlite3_finalize (stmt);
}

gboolean
_sl_load_cpu (SlLoader *loader, sqlite3 *db, GError **error)
{
  gint64 t0 = g_get_monotonic_time ();
  if (!_sl_loader_tick (loader, 0, error) || !load_api (loader, db, error))
    return FALSE;
  _sl_loader_phase (loader, "api", t0);
  t0 = g_get_monotonic_time ();
  if (!load_nvtx (loader, db, error))
    return FALSE;
  _sl_loader_phase (loader, "nvtx", t0);
  load_thread_names (loader, db);
  load_process_names (loader, db);
  t0 = g_get_monotonic_time ();
  _sl_threads_finish (loader);
  _sl_loader_phase (loader, "sort and nest threads", t0);
  return TRUE;
}
