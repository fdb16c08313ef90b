/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-load-gpu.c: reading GPU activity (kernels, memcpy, memset,
 * synchronization) into per-stream arrays.  Runs in its own worker thread
 * with its own connection; it only reads the loader's string map. */
#include "sl-loader-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#define TICK_ROWS 65536

static guint64
stream_key (guint32 pid, guint32 device, guint32 context, guint32 stream)
{
  return ((guint64) pid * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) ^
         ((guint64) device * G_GUINT64_CONSTANT (0xC2B2AE3D27D4EB4F)) ^
         ((guint64) context * G_GUINT64_CONSTANT (0x165667B19E3779F9)) ^
         ((guint64) stream << 1);
}

static gboolean
builder_is (const SlStreamBuilder *b, guint32 pid, guint32 device, guint32 context, guint32 stream)
{
  return b->stream.pid == pid && b->stream.device == device &&
         b->stream.context == context && b->stream.stream == stream;
}

/* Finds or creates the row (process, device, context, stream).  Rows
 * interleave in the file, so a hash on the four ids is checked against the
 * builder itself; a collision falls back to a scan. */
static SlStreamBuilder *
stream_builder (SlLoader *loader, guint32 pid, guint32 device, guint32 context, guint32 stream)
{
  guint64 key = stream_key (pid, device, context, stream);
  guint32 index = sl_id_map_lookup (&loader->stream_index, key, SL_NONE);
  SlStreamBuilder *builder;

  if (index != SL_NONE)
    {
      builder = g_ptr_array_index (loader->stream_builders, index);
      if (G_LIKELY (builder_is (builder, pid, device, context, stream)))
        return builder;
      for (guint i = 0; i < loader->stream_builders->len; i++)
        {
          builder = g_ptr_array_index (loader->stream_builders, i);
          if (builder_is (builder, pid, device, context, stream))
            return builder;
        }
    }
  builder = g_new0 (SlStreamBuilder, 1);
  builder->stream.pid = pid;
  builder->stream.device = device;
  builder->stream.context = context;
  builder->stream.stream = stream;
  builder->stream.gpu = SL_NONE;
  if (index == SL_NONE)
    sl_id_map_insert (&loader->stream_index, key, loader->stream_builders->len);
  g_ptr_array_add (loader->stream_builders, builder);
  return builder;
}

static guint32
kernel_func (SlLoader *loader, sqlite3_int64 short_id, sqlite3_int64 demangled_id, gboolean *dangling)
{
  guint64 key = ((guint64) (guint32) short_id << 32) | (guint32) demangled_id;
  guint32 func = sl_id_map_lookup (&loader->func_index, key, SL_NONE);

  if (G_LIKELY (func != SL_NONE))
    return func;

  SlKernelFunc entry = {
    .short_name = _sl_loader_map_string (loader, short_id),
    .demangled_name = _sl_loader_map_string (loader, demangled_id),
  };
  /* One of the two names is enough to show the kernel. */
  if (entry.short_name == SL_NONE && entry.demangled_name == SL_NONE)
    {
      *dangling = TRUE;
      return SL_NONE;
    }
  if (entry.short_name == SL_NONE)
    entry.short_name = entry.demangled_name;
  if (entry.demangled_name == SL_NONE)
    entry.demangled_name = entry.short_name;
  func = loader->funcs->len;
  g_array_append_val (loader->funcs, entry);
  sl_id_map_insert (&loader->func_index, key, func);
  return func;
}

static void
reserve_kernels (SlStreamBuilder *b)
{
  SlKernels *k = &b->stream.kernels;
  guint old = b->kernel_cap;

  if (k->spans.n < old)
    return;
  _sl_spans_reserve (&k->spans, &b->kernel_cap, k->spans.n + 1);
  if (b->kernel_cap != old)
    {
      k->func = g_renew (guint32, k->func, b->kernel_cap);
      k->corr = g_renew (guint32, k->corr, b->kernel_cap);
      k->rowid = g_renew (guint32, k->rowid, b->kernel_cap);
    }
}

static void
reserve_copies (SlCopies *c, guint *cap)
{
  guint old = *cap;

  if (c->spans.n < old)
    return;
  _sl_spans_reserve (&c->spans, cap, c->spans.n + 1);
  if (*cap != old)
    {
      c->kind = g_renew (guint8, c->kind, *cap);
      c->bytes = g_renew (guint64, c->bytes, *cap);
      c->corr = g_renew (guint32, c->corr, *cap);
    }
}

static gboolean
finish_statement (SlLoader *loader, sqlite3 *db, sqlite3_stmt *stmt, int rc, const char *what, GError **error)
{
  sqlite3_finalize (stmt);
  if (rc == SQLITE_DONE)
    return TRUE;
  if (rc == SQLITE_ROW) /* stopped early: the tick set the error */
    return FALSE;
  return _sl_loader_step_error (loader, db, rc, what, error);
}

static gboolean
load_kernels (SlLoader *loader, sqlite3 *db, GError **error)
{
  const char *table = "CUPTI_ACTIVITY_KIND_KERNEL";
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 rows = 0;
  int rc;

  if (!_sl_loader_has_table (loader, table))
    return TRUE;
  /* Narrow SELECT, no ORDER BY: per-stream order is restored in C. */
  sql = g_strdup_printf ("SELECT rowid, start, end, %s, %s, %s, %s, %s, %s, %s FROM %s",
                         _sl_loader_column_or_null (loader, table, "deviceId"),
                         _sl_loader_column_or_null (loader, table, "contextId"),
                         _sl_loader_column_or_null (loader, table, "streamId"),
                         _sl_loader_column_or_null (loader, table, "globalPid"),
                         _sl_loader_column_or_null (loader, table, "correlationId"),
                         _sl_loader_column_or_null (loader, table, "shortName"),
                         _sl_loader_column_or_null (loader, table, "demangledName"),
                         table);
  rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return finish_statement (loader, db, stmt, rc, _("the kernels"), error);

  SlStreamBuilder *last = NULL;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      sqlite3_int64 rowid = sqlite3_column_int64 (stmt, 0);
      gint64 start = sqlite3_column_int64 (stmt, 1);
      gint64 end = sqlite3_column_int64 (stmt, 2);
      guint32 device = (guint32) sqlite3_column_int64 (stmt, 3);
      guint32 context = (guint32) sqlite3_column_int64 (stmt, 4);
      guint32 stream = (guint32) sqlite3_column_int64 (stmt, 5);
      guint32 pid = _sl_pid_of ((guint64) sqlite3_column_int64 (stmt, 6));
      guint32 corr = (guint32) sqlite3_column_int64 (stmt, 7);
      gboolean dangling = FALSE;
      guint32 func;

      if (G_UNLIKELY (++rows % TICK_ROWS == 0) && !_sl_loader_tick (loader, TICK_ROWS, error))
        break;
      gint64 dur;
      if (G_UNLIKELY (sqlite3_column_type (stmt, 2) == SQLITE_NULL || !_sl_duration (start, end, &dur)))
        {
          g_atomic_int_inc (&loader->skipped_bad_time);
          continue;
        }
      func = kernel_func (loader, sqlite3_column_int64 (stmt, 8), sqlite3_column_int64 (stmt, 9), &dangling);
      if (G_UNLIKELY (dangling))
        {
          g_atomic_int_inc (&loader->skipped_bad_string);
          continue;
        }
      SlStreamBuilder *b = (last != NULL && builder_is (last, pid, device, context, stream))
                           ? last : stream_builder (loader, pid, device, context, stream);
      last = b;
      reserve_kernels (b);
      SlKernels *k = &b->stream.kernels;
      guint i = k->spans.n;
      _sl_spans_append (&k->spans, start, dur);
      k->func[i] = func;
      k->corr[i] = corr;
      k->rowid[i] = rowid >= 0 && rowid < G_MAXUINT32 ? (guint32) rowid : SL_NONE;
    }
  return finish_statement (loader, db, stmt, rc, _("the kernels"), error);
}

static gboolean
load_copies (SlLoader *loader, sqlite3 *db, SlCopyType type, GError **error)
{
  const char *table = type == SL_COPY_MEMCPY ? "CUPTI_ACTIVITY_KIND_MEMCPY" : "CUPTI_ACTIVITY_KIND_MEMSET";
  const char *what = type == SL_COPY_MEMCPY ? _("the memory copies") : _("the memsets");
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 rows = 0;
  int rc;

  if (!_sl_loader_has_table (loader, table))
    return TRUE;
  sql = g_strdup_printf ("SELECT start, end, %s, %s, %s, %s, %s, %s, %s FROM %s",
                         _sl_loader_column_or_null (loader, table, "deviceId"),
                         _sl_loader_column_or_null (loader, table, "contextId"),
                         _sl_loader_column_or_null (loader, table, "streamId"),
                         _sl_loader_column_or_null (loader, table, "globalPid"),
                         _sl_loader_column_or_null (loader, table, "correlationId"),
                         _sl_loader_column_or_null (loader, table, "bytes"),
                         _sl_loader_column_or_null (loader, table, type == SL_COPY_MEMCPY ? "copyKind" : "memKind"),
                         table);
  rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return finish_statement (loader, db, stmt, rc, what, error);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 start = sqlite3_column_int64 (stmt, 0);
      gint64 end = sqlite3_column_int64 (stmt, 1);
      guint32 device = (guint32) sqlite3_column_int64 (stmt, 2);
      guint32 context = (guint32) sqlite3_column_int64 (stmt, 3);
      guint32 stream = (guint32) sqlite3_column_int64 (stmt, 4);
      guint32 pid = _sl_pid_of ((guint64) sqlite3_column_int64 (stmt, 5));
      sqlite3_int64 bytes = sqlite3_column_int64 (stmt, 7);
      sqlite3_int64 kind = sqlite3_column_int64 (stmt, 8);

      if (G_UNLIKELY (++rows % TICK_ROWS == 0) && !_sl_loader_tick (loader, TICK_ROWS, error))
        break;
      gint64 dur;
      if (G_UNLIKELY (sqlite3_column_type (stmt, 1) == SQLITE_NULL || !_sl_duration (start, end, &dur)))
        {
          g_atomic_int_inc (&loader->skipped_bad_time);
          continue;
        }
      SlStreamBuilder *b = stream_builder (loader, pid, device, context, stream);
      SlCopies *c = type == SL_COPY_MEMCPY ? &b->stream.memcpy : &b->stream.memset;
      guint *cap = type == SL_COPY_MEMCPY ? &b->memcpy_cap : &b->memset_cap;
      reserve_copies (c, cap);
      guint i = c->spans.n;
      _sl_spans_append (&c->spans, start, dur);
      c->kind[i] = kind >= 0 && kind < 255 ? (guint8) kind : 0;
      c->bytes[i] = bytes > 0 ? (guint64) bytes : 0;
      c->corr[i] = (guint32) sqlite3_column_int64 (stmt, 6);
    }
  return finish_statement (loader, db, stmt, rc, what, error);
}

static gboolean
load_syncs (SlLoader *loader, sqlite3 *db, GError **error)
{
  const char *table = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
  SlSyncs *s = &loader->profile->syncs;
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 rows = 0;
  int rc;

  if (!_sl_loader_has_table (loader, table))
    return TRUE;
  sql = g_strdup_printf ("SELECT start, end, %s, %s, %s, %s, %s FROM %s",
                         _sl_loader_column_or_null (loader, table, "deviceId"),
                         _sl_loader_column_or_null (loader, table, "streamId"),
                         _sl_loader_column_or_null (loader, table, "globalPid"),
                         _sl_loader_column_or_null (loader, table, "syncType"),
                         _sl_loader_column_or_null (loader, table, "correlationId"),
                         table);
  rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return finish_statement (loader, db, stmt, rc, _("the synchronization events"), error);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 start = sqlite3_column_int64 (stmt, 0);
      gint64 end = sqlite3_column_int64 (stmt, 1);
      sqlite3_int64 stream = sqlite3_column_int64 (stmt, 3);
      sqlite3_int64 type = sqlite3_column_int64 (stmt, 5);

      if (G_UNLIKELY (++rows % TICK_ROWS == 0) && !_sl_loader_tick (loader, TICK_ROWS, error))
        break;
      gint64 dur;
      if (G_UNLIKELY (sqlite3_column_type (stmt, 1) == SQLITE_NULL || !_sl_duration (start, end, &dur)))
        {
          g_atomic_int_inc (&loader->skipped_bad_time);
          continue;
        }
      guint old = loader->sync_cap;
      _sl_spans_reserve (&s->spans, &loader->sync_cap, s->spans.n + 1);
      if (loader->sync_cap != old)
        {
          s->device = g_renew (guint32, s->device, loader->sync_cap);
          s->stream = g_renew (guint32, s->stream, loader->sync_cap);
          s->pid = g_renew (guint32, s->pid, loader->sync_cap);
          s->sync_type = g_renew (guint8, s->sync_type, loader->sync_cap);
          s->corr = g_renew (guint32, s->corr, loader->sync_cap);
        }
      guint i = s->spans.n;
      _sl_spans_append (&s->spans, start, dur);
      s->device[i] = (guint32) sqlite3_column_int64 (stmt, 2);
      /* UINT32_MAX already means "not applicable" in the file. */
      s->stream[i] = stream >= 0 && stream <= G_MAXUINT32 ? (guint32) stream : SL_NONE;
      s->pid[i] = _sl_pid_of ((guint64) sqlite3_column_int64 (stmt, 4));
      s->sync_type[i] = type >= 0 && type < 255 ? (guint8) type : 0;
      s->corr[i] = (guint32) sqlite3_column_int64 (stmt, 6);
    }
  return finish_statement (loader, db, stmt, rc, _("the synchronization events"), error);
}

gboolean
_sl_load_gpu (SlLoader *loader, sqlite3 *db, GError **error)
{
  return _sl_loader_tick (loader, 0, error) &&
         load_kernels (loader, db, error) &&
         load_copies (loader, db, SL_COPY_MEMCPY, error) &&
         load_copies (loader, db, SL_COPY_MEMSET, error) &&
         load_syncs (loader, db, error);
}
