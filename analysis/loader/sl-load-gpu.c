/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-load-gpu.c: reading GPU activity (kernels, memcpy, memset,
 * synchronization) into per-stream arrays.  Runs in its own worker thread
 * with its own connection; it only reads the loader's string map. */
#include "sl-loader-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* ---- streams ----------------------------------------------------------- */

void
_sl_stream_builder_free (gpointer data)
{
  SlStreamBuilder *builder = data;
  /* Arrays moved into the profile are NULL here; the rest is freed. */
  _sl_kernels_clear (&builder->stream.kernels);
  _sl_copies_clear (&builder->stream.memcpy);
  _sl_copies_clear (&builder->stream.memset);
  g_free (builder->kernel_corr);
  g_free (builder);
}

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

/* The kernel function of a row, keyed by the profile's ids of its two
 * names: StringIds ids are 64-bit, and an id missing from StringIds (even
 * one equal to another name's id in its low 32 bits) names nothing. */
static guint32
kernel_func (SlLoader *loader, sqlite3_int64 short_id, sqlite3_int64 demangled_id, gboolean *dangling)
{
  SlKernelFunc entry = {
    .short_name = _sl_loader_map_string (loader, short_id),
    .demangled_name = _sl_loader_map_string (loader, demangled_id),
  };
  guint64 key = ((guint64) entry.short_name << 32) | entry.demangled_name;
  guint32 func = sl_id_map_lookup (&loader->func_index, key, SL_NONE);

  if (G_LIKELY (func != SL_NONE))
    return func;
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

/* ---- kernels ------------------------------------------------------------ */

enum { K_ROWID, K_START, K_END, K_DEVICE, K_CONTEXT, K_STREAM, K_PID, K_CORR, K_SHORT, K_DEMANGLED, K_N };

static void
append_kernel (SlStreamBuilder *b, const gint64 *v, guint64 nulls, gint64 dur, guint32 func)
{
  SlKernels *k = &b->stream.kernels;

  if (_sl_spans_grow (&k->spans, &b->kernel_cap))
    {
      k->func = g_renew (guint32, k->func, b->kernel_cap);
      b->kernel_corr = g_renew (guint32, b->kernel_corr, b->kernel_cap);
      k->rowid = g_renew (guint32, k->rowid, b->kernel_cap);
    }
  guint i = k->spans.n;
  _sl_spans_append (&k->spans, v[K_START], dur);
  k->func[i] = func;
  b->kernel_corr[i] = (guint32) v[K_CORR];
  /* A view or a WITHOUT ROWID table has no rowid to fetch details by. */
  k->rowid[i] = !_sl_is_null (nulls, K_ROWID) && v[K_ROWID] >= 0 && v[K_ROWID] < G_MAXUINT32
                ? (guint32) v[K_ROWID] : SL_NONE;
}

/* Kernels of one stream come in runs: the previous row's stream (@data) is
 * checked before the hash. */
static void
add_kernel_row (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data)
{
  SlStreamBuilder **last = data;
  guint32 device = (guint32) v[K_DEVICE];
  guint32 context = (guint32) v[K_CONTEXT];
  guint32 stream = (guint32) v[K_STREAM];
  guint32 pid = _sl_pid_of ((guint64) v[K_PID]);
  gboolean dangling = FALSE;
  guint32 func;
  gint64 dur;

  if (!_sl_loader_row_span (loader, v[K_START], v[K_END],
                            _sl_is_null (nulls, K_START) || _sl_is_null (nulls, K_END), &dur))
    return;
  func = kernel_func (loader, _sl_is_null (nulls, K_SHORT) ? -1 : v[K_SHORT],
                      _sl_is_null (nulls, K_DEMANGLED) ? -1 : v[K_DEMANGLED], &dangling);
  if (G_UNLIKELY (dangling))
    {
      g_atomic_int_inc (&loader->skipped_bad_string);
      return;
    }
  if (*last == NULL || !builder_is (*last, pid, device, context, stream))
    *last = stream_builder (loader, pid, device, context, stream);
  append_kernel (*last, v, nulls, dur, func);
}

static gboolean
load_kernels (SlLoader *loader, sqlite3 *db, GError **error)
{
  static const char *const columns[K_N] = {
    "rowid", "start", "end", "deviceId", "contextId", "streamId", "globalPid", "correlationId",
    "shortName", "demangledName",
  };
  const SlTableRead read = { "CUPTI_ACTIVITY_KIND_KERNEL", columns, K_N, _("the kernels") };
  SlStreamBuilder *last = NULL;

  return _sl_loader_read_rows (loader, db, &read, add_kernel_row, &last, error);
}

/* ---- memcpy and memset -------------------------------------------------- */

enum { C_START, C_END, C_DEVICE, C_CONTEXT, C_STREAM, C_PID, C_CORR, C_BYTES, C_KIND, C_N };

static void
append_copy (SlCopies *c, guint *cap, const gint64 *v, gint64 dur)
{
  if (_sl_spans_grow (&c->spans, cap))
    {
      c->kind = g_renew (guint8, c->kind, *cap);
      c->bytes = g_renew (guint64, c->bytes, *cap);
      c->corr = g_renew (guint32, c->corr, *cap);
    }
  guint i = c->spans.n;
  _sl_spans_append (&c->spans, v[C_START], dur);
  c->kind[i] = v[C_KIND] >= 0 && v[C_KIND] < 255 ? (guint8) v[C_KIND] : 0;
  c->bytes[i] = v[C_BYTES] > 0 ? (guint64) v[C_BYTES] : 0;
  c->corr[i] = (guint32) v[C_CORR];
}

static void
add_copy_row (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data)
{
  SlCopyType type = *(const SlCopyType *) data;
  SlStreamBuilder *b;
  gint64 dur;

  if (!_sl_loader_row_span (loader, v[C_START], v[C_END],
                            _sl_is_null (nulls, C_START) || _sl_is_null (nulls, C_END), &dur))
    return;
  b = stream_builder (loader, _sl_pid_of ((guint64) v[C_PID]), (guint32) v[C_DEVICE],
                      (guint32) v[C_CONTEXT], (guint32) v[C_STREAM]);
  if (type == SL_COPY_MEMCPY)
    append_copy (&b->stream.memcpy, &b->memcpy_cap, v, dur);
  else
    append_copy (&b->stream.memset, &b->memset_cap, v, dur);
}

static gboolean
load_copies (SlLoader *loader, sqlite3 *db, SlCopyType type, GError **error)
{
  gboolean is_memcpy = type == SL_COPY_MEMCPY;
  const char *const columns[C_N] = {
    "start", "end", "deviceId", "contextId", "streamId", "globalPid", "correlationId", "bytes",
    is_memcpy ? "copyKind" : "memKind",
  };
  const SlTableRead read = {
    is_memcpy ? "CUPTI_ACTIVITY_KIND_MEMCPY" : "CUPTI_ACTIVITY_KIND_MEMSET", columns, C_N,
    is_memcpy ? _("the memory copies") : _("the memsets"),
  };

  return _sl_loader_read_rows (loader, db, &read, add_copy_row, &type, error);
}

/* ---- synchronization ---------------------------------------------------- */

enum { S_START, S_END, S_DEVICE, S_STREAM, S_PID, S_TYPE, S_CORR, S_N };

static void
add_sync_row (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data)
{
  SlSyncs *s = &loader->profile->syncs;
  gint64 dur;

  if (!_sl_loader_row_span (loader, v[S_START], v[S_END],
                            _sl_is_null (nulls, S_START) || _sl_is_null (nulls, S_END), &dur))
    return;
  if (_sl_spans_grow (&s->spans, &loader->sync_cap))
    {
      s->device = g_renew (guint32, s->device, loader->sync_cap);
      s->stream = g_renew (guint32, s->stream, loader->sync_cap);
      s->pid = g_renew (guint32, s->pid, loader->sync_cap);
      s->sync_type = g_renew (guint8, s->sync_type, loader->sync_cap);
      s->corr = g_renew (guint32, s->corr, loader->sync_cap);
    }
  guint i = s->spans.n;
  _sl_spans_append (&s->spans, v[S_START], dur);
  s->device[i] = (guint32) v[S_DEVICE];
  /* UINT32_MAX already means "not applicable" in the file. */
  s->stream[i] = v[S_STREAM] >= 0 && v[S_STREAM] <= G_MAXUINT32 ? (guint32) v[S_STREAM] : SL_NONE;
  s->pid[i] = _sl_pid_of ((guint64) v[S_PID]);
  s->sync_type[i] = v[S_TYPE] >= 0 && v[S_TYPE] < 255 ? (guint8) v[S_TYPE] : 0;
  s->corr[i] = (guint32) v[S_CORR];
}

static gboolean
load_syncs (SlLoader *loader, sqlite3 *db, GError **error)
{
  static const char *const columns[S_N] = {
    "start", "end", "deviceId", "streamId", "globalPid", "syncType", "correlationId",
  };
  const SlTableRead read = {
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", columns, S_N, _("the synchronization events"),
  };

  return _sl_loader_read_rows (loader, db, &read, add_sync_row, NULL, error);
}

gboolean
_sl_load_gpu (SlLoader *loader, sqlite3 *db, GError **error)
{
  gint64 t0 = g_get_monotonic_time ();
  if (!_sl_loader_tick (loader, 0, error) || !load_kernels (loader, db, error))
    return FALSE;
  _sl_loader_phase (loader, "kernels", t0);
  if (!load_copies (loader, db, SL_COPY_MEMCPY, error) ||
      !load_copies (loader, db, SL_COPY_MEMSET, error) ||
      !load_syncs (loader, db, error))
    return FALSE;
  t0 = g_get_monotonic_time ();
  _sl_streams_finish (loader);
  _sl_loader_phase (loader, "sort streams", t0);
  return TRUE;
}
