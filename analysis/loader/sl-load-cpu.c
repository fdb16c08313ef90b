/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-load-cpu.c: reading CPU-side activity (CUDA runtime/driver calls,
 * NVTX ranges and marks, thread and process names).  API calls may be
 * read in parts by several jobs, each into its own chunk; NVTX is one job,
 * the only code that adds strings while events load. */
#include "sl-loader-private.h"
#include "sl-huge-pages.h"
#include "sl-text-cache.h"

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

SlCpuChunk *
_sl_cpu_chunk_new (void)
{
  SlCpuChunk *chunk = g_new0 (SlCpuChunk, 1);

  chunk->thread_builders = g_ptr_array_new_with_free_func (_sl_thread_builder_free);
  sl_id_map_init (&chunk->thread_index, 256);
  return chunk;
}

void
_sl_cpu_chunk_free (gpointer data)
{
  SlCpuChunk *chunk = data;

  g_ptr_array_unref (chunk->thread_builders);
  sl_id_map_clear (&chunk->thread_index);
  g_free (chunk);
}

static SlThreadBuilder *
thread_builder (SlCpuChunk *chunk, guint64 global_tid)
{
  guint32 index = sl_id_map_lookup (&chunk->thread_index, global_tid, SL_NONE);
  SlThreadBuilder *b;

  if (G_LIKELY (index != SL_NONE))
    return g_ptr_array_index (chunk->thread_builders, index);
  b = g_new0 (SlThreadBuilder, 1);
  b->global_tid = global_tid;
  b->name = SL_NONE;
  sl_id_map_insert (&chunk->thread_index, global_tid, chunk->thread_builders->len);
  g_ptr_array_add (chunk->thread_builders, b);
  return b;
}

/* ---- CUDA API ----------------------------------------------------------- */

enum { A_START, A_END, A_CLASS, A_TID, A_CORR, A_NAME, A_N };

/* An API job's state: its chunk, the previous row's thread, and the rows
 * read so far of the part's expected rows (for the arrays' growth). */
typedef struct {
  SlCpuChunk      *chunk;
  SlThreadBuilder *last;
  guint64          rows;
  guint64          rows_expected;
} ThreadRows;

/* Grows a full thread's call arrays, once to about their final size when
 * the rows read so far say what it is (see _sl_grow_capacity). */
static void
grow_api (SlThreadBuilder *b, const ThreadRows *rows)
{
  guint cap;

  if (b->api_cap == 0)
    b->api_first_row = rows->rows;
  cap = _sl_grow_capacity (b->api_cap, b->api.spans.n, b->api_first_row, rows->rows, rows->rows_expected);

  b->api.spans.start = _sl_huge_renew_n (b->api.spans.start, cap);
  b->api.spans.dur = _sl_huge_renew_n (b->api.spans.dur, cap);
  b->api.name = _sl_huge_renew_n (b->api.name, cap);
  b->api.corr = _sl_huge_renew_n (b->api.corr, cap);
  b->api_cap = cap;
}

static void
append_api_call (SlThreadBuilder *b, const ThreadRows *rows, const gint64 *v, gint64 dur, guint32 name)
{
  if (G_UNLIKELY (b->api.spans.n >= b->api_cap))
    grow_api (b, rows);
  guint i = b->api.spans.n;
  _sl_spans_append (&b->api.spans, v[A_START], dur);
  b->api.name[i] = name;
  b->api.corr[i] = (guint32) v[A_CORR];
}

/* Calls of one thread come in runs: the previous row's thread is checked
 * before the hash. */
static void
add_api_row (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data)
{
  ThreadRows *rows = data;
  guint64 tid = (guint64) v[A_TID];
  guint32 name;
  gint64 dur;

  rows->rows++;
  /* Calls with a collected backtrace appear a second time as eventClass
   * 67 (same correlationId): keep runtime (0) and driver (1) rows. */
  if (!_sl_is_null (nulls, A_CLASS) && v[A_CLASS] != 0 && v[A_CLASS] != 1)
    return;
  if (!_sl_loader_row_span (loader, v[A_START], v[A_END], _sl_either_null (nulls, A_START, A_END), &dur))
    return;
  name = _sl_is_null (nulls, A_NAME) ? SL_NONE : _sl_loader_map_string (loader, v[A_NAME]);
  if (G_UNLIKELY (name == SL_NONE))
    {
      g_atomic_int_inc (&loader->skipped_bad_string);
      return;
    }
  if (rows->last == NULL || rows->last->global_tid != tid)
    rows->last = thread_builder (rows->chunk, tid);
  append_api_call (rows->last, rows, v, dur, name);
}

static gboolean
read_api (SlLoader *loader, SlJob *job, SlTableScan *scan, GError **error)
{
  ThreadRows rows = { job->chunk, NULL, 0, (guint64) MAX (job->rows_expected, 0) };

  return _sl_loader_read_rows (loader, scan, job->read, add_api_row, &rows, error);
}

static const char *const api_columns[A_N] = {
  "start", "end", "eventClass", "globalTid", "correlationId", "nameId",
};

const SlTableRead _sl_api_read = {
  "CUPTI_ACTIVITY_KIND_RUNTIME", api_columns, A_N, N_("the CUDA API calls"), SL_GROUP_CPU, read_api, TRUE,
};

/* ---- NVTX --------------------------------------------------------------- */

/* One thread's ranges of one kind, as the NVTX job grows them: the rows
 * read so far of the table's expected rows (see _sl_grow_capacity). */
typedef struct {
  SlNvtxRanges *ranges;
  guint        *cap;
  guint64      *first_row;
} RangeArrays;

static void
grow_ranges (const RangeArrays *a, guint64 rows, guint64 rows_expected)
{
  SlNvtxRanges *r = a->ranges;
  guint cap;

  if (*a->cap == 0)
    *a->first_row = rows;
  cap = _sl_grow_capacity (*a->cap, r->spans.n, *a->first_row, rows, rows_expected);
  r->spans.start = _sl_huge_renew_n (r->spans.start, cap);
  r->spans.dur = _sl_huge_renew_n (r->spans.dur, cap);
  r->name = _sl_huge_renew_n (r->name, cap);
  r->load_color = _sl_huge_renew_n (r->load_color, cap);
  r->load_domain = g_renew (guint16, r->load_domain, cap);
  *a->cap = cap;
}

static void
append_range (const RangeArrays *a, guint64 rows, guint64 rows_expected, gint64 start, gint64 dur,
              guint32 name, guint32 color, guint16 domain)
{
  SlNvtxRanges *r = a->ranges;

  if (G_UNLIKELY (r->spans.n >= *a->cap))
    grow_ranges (a, rows, rows_expected);
  guint i = r->spans.n;
  _sl_spans_append (&r->spans, start, dur);
  r->name[i] = name;
  r->load_color[i] = color;
  r->load_domain[i] = domain;
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

/* The NVTX job's state: its chunk, and the names seen (ranges of one
 * loop repeat a few in turn). */
typedef struct {
  SlCpuChunk  *chunk;
  SlTextCache *texts;         /* inline text -> interned string id */
  gint64   last_text_id;      /* the last textId and its interned string id */
  guint32  last_text_id_id;
  guint64  rows;              /* rows read so far, of the table's expected rows */
  guint64  rows_expected;
} NvtxNames;

/* The profile's id of text of @len bytes, interned (and made valid UTF-8). */
static guint32
intern_nvtx_text (SlLoader *loader, const char *text, gsize len)
{
  if (G_LIKELY (g_utf8_validate (text, (gssize) len, NULL)))
    return _sl_strings_intern_len (loader->profile->strings, text, len);
  g_autofree char *valid = g_utf8_make_valid (text, (gssize) len);
  return _sl_strings_intern (loader->profile->strings, valid);
}

/* Display name = text, or the registered string textId points to. */
static guint32
nvtx_name (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, NvtxNames *names,
           gboolean *dangling)
{
  gsize len;
  const char *text = _sl_table_scan_text (scan, N_TEXT, &len);

  if (text != NULL)
    {
      guint32 id = _sl_text_cache_lookup (names->texts, text, len);

      if (id != SL_NONE)
        return id;
      id = intern_nvtx_text (loader, text, len);
      _sl_text_cache_store (names->texts, text, len, id);
      return id;
    }
  if (!_sl_is_null (nulls, N_TEXT_ID))
    {
      guint32 id;

      if (names->last_text_id_id != SL_NONE && names->last_text_id == v[N_TEXT_ID])
        return names->last_text_id_id;
      id = _sl_loader_map_string (loader, v[N_TEXT_ID]);
      if (id == SL_NONE)
        {
          *dangling = TRUE;
          return id;
        }
      /* one id per name, whether inline text or textId stores it */
      names->last_text_id = v[N_TEXT_ID];
      names->last_text_id_id = _sl_strings_intern_id (loader->profile->strings, id);
      return names->last_text_id_id;
    }
  /* An unnamed range is legal NVTX; it shows as an empty label. */
  return _sl_strings_intern (loader->profile->strings, "");
}

static gboolean
is_loaded_nvtx_type (gint64 type)
{
  return type == NVTX_PUSHPOP || type == NVTX_STARTEND || type == NVTX_MARK ||
         type == NVTX_THREAD_NAME || type == NVTX_DOMAIN_CREATE;
}

static guint16
nvtx_domain (const gint64 *v)
{
  return v[N_DOMAIN] >= 0 && v[N_DOMAIN] < G_MAXUINT16 ? (guint16) v[N_DOMAIN] : G_MAXUINT16;
}

static void
add_nvtx_domain (SlLoader *loader, const gint64 *v, guint32 name)
{
  SlNvtxDomain d = { _sl_pid_of ((guint64) v[N_TID]), (guint32) nvtx_domain (v), name };

  g_array_append_val (loader->domains, d);
}

static void
add_nvtx_mark (SlLoader *loader, SlCpuChunk *chunk, const gint64 *v, guint64 nulls, guint32 name)
{
  SlThreadBuilder *b;

  if (G_UNLIKELY (_sl_is_null (nulls, N_START)))
    {
      g_atomic_int_inc (&loader->skipped_bad_time);
      return;
    }
  if (G_UNLIKELY (!_sl_time_is_sane (v[N_START])))
    {
      g_atomic_int_inc (&loader->skipped_absurd_time);
      return;
    }
  b = thread_builder (chunk, (guint64) v[N_TID]);
  append_mark (&b->marks, &b->marks_cap, v[N_START], name, (guint32) v[N_COLOR], nvtx_domain (v));
}

/* A push/pop or start/end range: nested per thread later, so each kind
 * has its own array. */
static void
add_nvtx_range (SlLoader *loader, const NvtxNames *names, const gint64 *v, guint64 nulls, guint32 name)
{
  SlThreadBuilder *b;
  RangeArrays a;
  gint64 dur;

  if (_sl_is_null (nulls, N_END))
    {
      g_atomic_int_inc (&loader->skipped_nvtx_unpaired);
      return;
    }
  if (!_sl_loader_row_span (loader, v[N_START], v[N_END], _sl_is_null (nulls, N_START), &dur))
    return;
  b = thread_builder (names->chunk, (guint64) v[N_TID]);
  if (v[N_TYPE] == NVTX_PUSHPOP)
    a = (RangeArrays) { &b->nvtx, &b->nvtx_cap, &b->nvtx_first_row };
  else
    a = (RangeArrays) { &b->startend, &b->startend_cap, &b->startend_first_row };
  append_range (&a, names->rows, names->rows_expected, v[N_START], dur, name, (guint32) v[N_COLOR],
                nvtx_domain (v));
}

static void
add_nvtx_row (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data)
{
  NvtxNames *names = data;
  gboolean dangling = FALSE;
  guint32 name;

  names->rows++;
  if (!is_loaded_nvtx_type (v[N_TYPE]))
    return;
  name = nvtx_name (loader, scan, v, nulls, names, &dangling);
  if (G_UNLIKELY (dangling))
    {
      g_atomic_int_inc (&loader->skipped_bad_string);
      return;
    }
  switch (v[N_TYPE])
    {
    case NVTX_DOMAIN_CREATE:
      add_nvtx_domain (loader, v, name);
      break;
    case NVTX_THREAD_NAME:
      sl_id_map_insert (&loader->thread_name_override, (guint64) v[N_TID], name);
      break;
    case NVTX_MARK:
      add_nvtx_mark (loader, names->chunk, v, nulls, name);
      break;
    default: /* push/pop and start/end ranges */
      add_nvtx_range (loader, names, v, nulls, name);
      break;
    }
}

static gboolean
read_nvtx (SlLoader *loader, SlJob *job, SlTableScan *scan, GError **error)
{
  NvtxNames names = { job->chunk, _sl_text_cache_new (), -1, SL_NONE, 0, (guint64) MAX (job->rows_expected, 0) };
  gboolean ok;

  ok = _sl_loader_read_rows (loader, scan, job->read, add_nvtx_row, &names, error);
  _sl_text_cache_free (names.texts);
  return ok;
}

static const char *const nvtx_columns[N_N] = {
  "start", "end", "eventType", "text", "textId", "globalTid", "color", "domainId",
};

/* Not split: its rows intern names into the profile's strings. */
const SlTableRead _sl_nvtx_read = {
  "NVTX_EVENTS", nvtx_columns, N_N, N_("the NVTX events"), SL_GROUP_CPU, read_nvtx, FALSE,
};

/* ---- merging chunks ------------------------------------------------------- */

static void
merge_api (SlThreadBuilder *into, SlThreadBuilder *from)
{
  guint base = into->api.spans.n, n = from->api.spans.n;

  if (base > 0 && n > 0)
    {
      into->api.name = _sl_huge_renew_n (into->api.name, base + n);
      into->api.corr = _sl_huge_renew_n (into->api.corr, base + n);
      into->api.spans.start = _sl_huge_renew_n (into->api.spans.start, base + n);
      into->api.spans.dur = _sl_huge_renew_n (into->api.spans.dur, base + n);
    }
  into->api.name = _sl_array_append (into->api.name, base, g_steal_pointer (&from->api.name), n, sizeof (guint32));
  into->api.corr = _sl_array_append (into->api.corr, base, g_steal_pointer (&from->api.corr), n, sizeof (guint32));
  _sl_spans_merge (&into->api.spans, &into->api_cap, &from->api.spans);
}

static void
merge_ranges (SlNvtxRanges *into, guint *cap, SlNvtxRanges *from)
{
  guint base = into->spans.n, n = from->spans.n;

  if (base > 0 && n > 0)
    {
      into->name = _sl_huge_renew_n (into->name, base + n);
      into->load_color = _sl_huge_renew_n (into->load_color, base + n);
      into->spans.start = _sl_huge_renew_n (into->spans.start, base + n);
      into->spans.dur = _sl_huge_renew_n (into->spans.dur, base + n);
    }
  into->name = _sl_array_append (into->name, base, g_steal_pointer (&from->name), n, sizeof (guint32));
  into->load_color = _sl_array_append (into->load_color, base, g_steal_pointer (&from->load_color), n,
                                       sizeof (guint32));
  into->load_domain = _sl_array_append (into->load_domain, base, g_steal_pointer (&from->load_domain), n,
                                        sizeof (guint16));
  _sl_spans_merge (&into->spans, cap, &from->spans);
}

static void
merge_marks (SlNvtxMarks *into, guint *cap, SlNvtxMarks *from)
{
  guint base = into->n, n = from->n;

  into->time = _sl_array_append (into->time, base, g_steal_pointer (&from->time), n, sizeof (gint64));
  into->name = _sl_array_append (into->name, base, g_steal_pointer (&from->name), n, sizeof (guint32));
  into->color = _sl_array_append (into->color, base, g_steal_pointer (&from->color), n, sizeof (guint32));
  into->domain = _sl_array_append (into->domain, base, g_steal_pointer (&from->domain), n, sizeof (guint16));
  into->n += n;
  *cap = into->n;
  from->n = 0;
}

void
_sl_cpu_chunk_add_threads (SlCpuChunk *into, SlCpuChunk *from)
{
  for (guint i = 0; i < from->thread_builders->len; i++)
    thread_builder (into, ((SlThreadBuilder *) g_ptr_array_index (from->thread_builders, i))->global_tid);
}

SlThreadBuilder *
_sl_cpu_chunk_find (SlCpuChunk *chunk, guint64 global_tid)
{
  guint32 index = sl_id_map_lookup (&chunk->thread_index, global_tid, SL_NONE);

  return index != SL_NONE ? g_ptr_array_index (chunk->thread_builders, index) : NULL;
}

void
_sl_thread_builder_merge (SlThreadBuilder *to, SlThreadBuilder *b)
{
  if (b->api.spans.n > 0)
    merge_api (to, b);
  if (b->nvtx.spans.n > 0)
    merge_ranges (&to->nvtx, &to->nvtx_cap, &b->nvtx);
  if (b->startend.spans.n > 0)
    merge_ranges (&to->startend, &to->startend_cap, &b->startend);
  if (b->marks.n > 0)
    merge_marks (&to->marks, &to->marks_cap, &b->marks);
}

/* ---- names -------------------------------------------------------------- */

/* Thread names into the merged chunk's builders. */
void
_sl_load_thread_names (SlLoader *loader, sqlite3 *db)
{
  SlCpuChunk *chunk = g_ptr_array_index (loader->cpu_chunks, 0);
  sqlite3_stmt *stmt = NULL;

  if (_sl_loader_has_column (loader, "ThreadNames", "globalTid") &&
      _sl_loader_has_column (loader, "ThreadNames", "nameId") &&
      sqlite3_prepare_v2 (db, "SELECT globalTid, nameId FROM ThreadNames", -1, &stmt, NULL) == SQLITE_OK)
    {
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          guint64 tid = (guint64) sqlite3_column_int64 (stmt, 0);
          guint32 index = sl_id_map_lookup (&chunk->thread_index, tid, SL_NONE);
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
            ((SlThreadBuilder *) g_ptr_array_index (chunk->thread_builders, index))->name = name;
        }
    }
  sqlite3_finalize (stmt);

  /* nvtxNameOsThread names fill the gaps ThreadNames leaves. */
  for (guint i = 0; i < chunk->thread_builders->len; i++)
    {
      SlThreadBuilder *b = g_ptr_array_index (chunk->thread_builders, i);
      if (b->name == SL_NONE)
        b->name = sl_id_map_lookup (&loader->thread_name_override, b->global_tid, SL_NONE);
    }
}

/* Process names, read with the catalog: a staged load names the GPU
 * rows' processes before the CPU side is in. */
void
_sl_load_process_names (SlLoader *loader, sqlite3 *db)
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
