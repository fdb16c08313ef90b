/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-load-gpu.c: reading GPU activity (kernels, memcpy, memset,
 * synchronization) into per-stream arrays.  Each part of a table is read
 * by a job into a chunk of its own (any worker thread, only reading the
 * loader's string map); the chunks are merged in file order. */
#include "sl-loader-private.h"
#include "sl-huge-pages.h"

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

SlGpuChunk *
_sl_gpu_chunk_new (void)
{
  SlGpuChunk *chunk = g_new0 (SlGpuChunk, 1);

  chunk->stream_builders = g_ptr_array_new_with_free_func (_sl_stream_builder_free);
  chunk->funcs = g_array_new (FALSE, FALSE, sizeof (SlKernelFunc));
  sl_id_map_init (&chunk->stream_index, 64);
  sl_id_map_init (&chunk->func_index, 1024);
  /* no file id is below -1: these slots match nothing */
  for (guint i = 0; i < SL_CHUNK_CACHE; i++)
    chunk->func_cache[i].short_id = G_MININT64;
  return chunk;
}

void
_sl_gpu_chunk_free (gpointer data)
{
  SlGpuChunk *chunk = data;

  g_ptr_array_unref (chunk->stream_builders);
  if (chunk->funcs != NULL)
    g_array_unref (chunk->funcs);
  sl_id_map_clear (&chunk->stream_index);
  sl_id_map_clear (&chunk->func_index);
  g_free (chunk);
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
stream_builder (SlGpuChunk *chunk, guint32 pid, guint32 device, guint32 context, guint32 stream)
{
  guint64 key = stream_key (pid, device, context, stream);
  SlStreamBuilder **cached = &chunk->stream_cache[(key ^ (key >> 29)) % SL_CHUNK_CACHE];
  guint32 index;
  SlStreamBuilder *builder;

  if (G_LIKELY (*cached != NULL && builder_is (*cached, pid, device, context, stream)))
    return *cached;
  index = sl_id_map_lookup (&chunk->stream_index, key, SL_NONE);
  if (index != SL_NONE)
    {
      builder = g_ptr_array_index (chunk->stream_builders, index);
      if (G_LIKELY (builder_is (builder, pid, device, context, stream)))
        return *cached = builder;
      for (guint i = 0; i < chunk->stream_builders->len; i++)
        {
          builder = g_ptr_array_index (chunk->stream_builders, i);
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
    sl_id_map_insert (&chunk->stream_index, key, chunk->stream_builders->len);
  g_ptr_array_add (chunk->stream_builders, builder);
  return *cached = builder;
}

static guint64
func_key (guint32 short_name, guint32 demangled_name)
{
  return ((guint64) short_name << 32) | demangled_name;
}

/* The chunk's number of the function named @entry, added when new. */
static guint32
chunk_func (SlGpuChunk *chunk, const SlKernelFunc *entry)
{
  guint64 key = func_key (entry->short_name, entry->demangled_name);
  guint32 func = sl_id_map_lookup (&chunk->func_index, key, SL_NONE);

  if (func != SL_NONE)
    return func;
  func = chunk->funcs->len;
  g_array_append_val (chunk->funcs, *entry);
  sl_id_map_insert (&chunk->func_index, key, func);
  return func;
}

/* The function of a kernel row, by its names' ids in the file.  The key is
 * the profile's string ids, so that ids of any size map to one function
 * per pair of names. */
static guint32
kernel_func (SlLoader *loader, SlGpuChunk *chunk, sqlite3_int64 short_id, sqlite3_int64 demangled_id,
             gboolean *dangling)
{
  SlFuncSlot *slot = &chunk->func_cache[((guint64) short_id * 31 + (guint64) demangled_id) % SL_CHUNK_CACHE];

  if (G_LIKELY (slot->short_id == short_id && slot->demangled_id == demangled_id))
    return slot->func;

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
  *slot = (SlFuncSlot) { short_id, demangled_id, chunk_func (chunk, &entry) };
  return slot->func;
}

/* ---- kernels ------------------------------------------------------------ */

enum { K_ROWID, K_START, K_END, K_DEVICE, K_CONTEXT, K_STREAM, K_PID, K_CORR, K_SHORT, K_DEMANGLED, K_N };

/* A kernel job's state: its chunk, the previous row's stream, and the
 * rows read so far of the part's expected rows (for the arrays' growth). */
typedef struct {
  SlGpuChunk      *chunk;
  SlStreamBuilder *last;
  guint64          rows;
  guint64          rows_expected;
} KernelRows;

/* Grows a full stream's kernel arrays, once to about their final size
 * when the rows read so far say what it is (see _sl_grow_capacity). */
static void
grow_kernels (SlStreamBuilder *b, const KernelRows *rows)
{
  SlKernels *k = &b->stream.kernels;
  guint cap;

  if (b->kernel_cap == 0)
    b->kernel_first_row = rows->rows;
  cap = _sl_grow_capacity (b->kernel_cap, k->spans.n, b->kernel_first_row, rows->rows, rows->rows_expected);

  k->spans.start = _sl_huge_renew_n (k->spans.start, cap);
  k->spans.dur = _sl_huge_renew_n (k->spans.dur, cap);
  k->func = _sl_huge_renew_n (k->func, cap);
  b->kernel_corr = _sl_huge_renew_n (b->kernel_corr, cap);
  k->rowid = _sl_huge_renew_n (k->rowid, cap);
  b->kernel_cap = cap;
}

static void
append_kernel (SlStreamBuilder *b, const KernelRows *rows, const gint64 *v, guint64 nulls, gint64 dur,
               guint32 func)
{
  SlKernels *k = &b->stream.kernels;

  if (G_UNLIKELY (k->spans.n >= b->kernel_cap))
    grow_kernels (b, rows);
  guint i = k->spans.n;
  _sl_spans_append (&k->spans, v[K_START], dur);
  k->func[i] = func;
  b->kernel_corr[i] = (guint32) v[K_CORR];
  /* A view or a WITHOUT ROWID table has no rowid to fetch details by. */
  k->rowid[i] = !_sl_is_null (nulls, K_ROWID) && v[K_ROWID] >= 0 && v[K_ROWID] < G_MAXUINT32
                ? (guint32) v[K_ROWID] : SL_NONE;
}

/* Kernels of one stream come in runs: the previous row's stream is
 * checked before the hash. */
static void
add_kernel_row (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data)
{
  KernelRows *rows = data;
  guint32 device = (guint32) v[K_DEVICE];
  guint32 context = (guint32) v[K_CONTEXT];
  guint32 stream = (guint32) v[K_STREAM];
  guint32 pid = _sl_pid_of ((guint64) v[K_PID]);
  gboolean dangling = FALSE;
  guint32 func;
  gint64 dur;

  rows->rows++;
  if (!_sl_loader_row_span (loader, v[K_START], v[K_END], _sl_either_null (nulls, K_START, K_END), &dur))
    return;
  func = kernel_func (loader, rows->chunk, _sl_is_null (nulls, K_SHORT) ? -1 : v[K_SHORT],
                      _sl_is_null (nulls, K_DEMANGLED) ? -1 : v[K_DEMANGLED], &dangling);
  if (G_UNLIKELY (dangling))
    {
      g_atomic_int_inc (&loader->skipped_bad_string);
      return;
    }
  if (rows->last == NULL || !builder_is (rows->last, pid, device, context, stream))
    rows->last = stream_builder (rows->chunk, pid, device, context, stream);
  append_kernel (rows->last, rows, v, nulls, dur, func);
}

static gboolean
read_kernels (SlLoader *loader, SlJob *job, SlTableScan *scan, GError **error)
{
  KernelRows rows = { job->chunk, NULL, 0, (guint64) MAX (job->rows_expected, 0) };

  return _sl_loader_read_rows (loader, scan, job->read, add_kernel_row, &rows, error);
}

static const char *const kernel_columns[K_N] = {
  "rowid", "start", "end", "deviceId", "contextId", "streamId", "globalPid", "correlationId",
  "shortName", "demangledName",
};

const SlTableRead _sl_kernel_read = {
  "CUPTI_ACTIVITY_KIND_KERNEL", kernel_columns, K_N, N_("the kernels"), SL_GROUP_GPU, read_kernels, TRUE,
};

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
add_copy_row (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data,
              SlCopyType type)
{
  SlStreamBuilder *b;
  gint64 dur;

  if (!_sl_loader_row_span (loader, v[C_START], v[C_END], _sl_either_null (nulls, C_START, C_END), &dur))
    return;
  b = stream_builder (data, _sl_pid_of ((guint64) v[C_PID]), (guint32) v[C_DEVICE],
                      (guint32) v[C_CONTEXT], (guint32) v[C_STREAM]);
  if (type == SL_COPY_MEMCPY)
    append_copy (&b->stream.memcpy, &b->memcpy_cap, v, dur);
  else
    append_copy (&b->stream.memset, &b->memset_cap, v, dur);
}

static void
add_memcpy_row (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data)
{
  add_copy_row (loader, scan, v, nulls, data, SL_COPY_MEMCPY);
}

static void
add_memset_row (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data)
{
  add_copy_row (loader, scan, v, nulls, data, SL_COPY_MEMSET);
}

static gboolean
read_memcpy (SlLoader *loader, SlJob *job, SlTableScan *scan, GError **error)
{
  return _sl_loader_read_rows (loader, scan, job->read, add_memcpy_row, job->chunk, error);
}

static gboolean
read_memset (SlLoader *loader, SlJob *job, SlTableScan *scan, GError **error)
{
  return _sl_loader_read_rows (loader, scan, job->read, add_memset_row, job->chunk, error);
}

static const char *const memcpy_columns[C_N] = {
  "start", "end", "deviceId", "contextId", "streamId", "globalPid", "correlationId", "bytes", "copyKind",
};
static const char *const memset_columns[C_N] = {
  "start", "end", "deviceId", "contextId", "streamId", "globalPid", "correlationId", "bytes", "memKind",
};

const SlTableRead _sl_memcpy_read = {
  "CUPTI_ACTIVITY_KIND_MEMCPY", memcpy_columns, C_N, N_("the memory copies"), SL_GROUP_GPU, read_memcpy, TRUE,
};
const SlTableRead _sl_memset_read = {
  "CUPTI_ACTIVITY_KIND_MEMSET", memset_columns, C_N, N_("the memsets"), SL_GROUP_GPU, read_memset, TRUE,
};

/* ---- synchronization ---------------------------------------------------- */

enum { S_START, S_END, S_DEVICE, S_STREAM, S_PID, S_TYPE, S_CORR, S_N };

/* Synchronizations go straight into the profile: one job reads them. */
static void
add_sync_row (SlLoader *loader, SlTableScan *scan, const gint64 *v, guint64 nulls, gpointer data)
{
  SlSyncs *s = &loader->profile->syncs;
  gint64 dur;

  if (!_sl_loader_row_span (loader, v[S_START], v[S_END], _sl_either_null (nulls, S_START, S_END), &dur))
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
read_syncs (SlLoader *loader, SlJob *job, SlTableScan *scan, GError **error)
{
  return _sl_loader_read_rows (loader, scan, job->read, add_sync_row, NULL, error);
}

static const char *const sync_columns[S_N] = {
  "start", "end", "deviceId", "streamId", "globalPid", "syncType", "correlationId",
};

const SlTableRead _sl_sync_read = {
  "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", sync_columns, S_N, N_("the synchronization events"),
  SL_GROUP_CPU, read_syncs, FALSE,
};

/* ---- merging chunks ------------------------------------------------------- */

/* Appends @n values of @size bytes from @from to @into, which holds
 * @into_n of them; takes @from's array when @into has none. */

static void
merge_kernels (SlStreamBuilder *into, SlStreamBuilder *from, const guint32 *func_map)
{
  SlKernels *k = &from->stream.kernels;
  guint base = into->stream.kernels.spans.n, n = k->spans.n;

  for (guint i = 0; i < n; i++)
    k->func[i] = func_map[k->func[i]];
  if (base > 0 && n > 0)
    {
      into->stream.kernels.func = _sl_huge_renew_n (into->stream.kernels.func, base + n);
      into->kernel_corr = _sl_huge_renew_n (into->kernel_corr, base + n);
      into->stream.kernels.spans.start = _sl_huge_renew_n (into->stream.kernels.spans.start, base + n);
      into->stream.kernels.spans.dur = _sl_huge_renew_n (into->stream.kernels.spans.dur, base + n);
    }
  into->stream.kernels.func = _sl_array_append (into->stream.kernels.func, base, g_steal_pointer (&k->func), n, sizeof (guint32));
  into->stream.kernels.rowid = _sl_array_append (into->stream.kernels.rowid, base, g_steal_pointer (&k->rowid), n, sizeof (guint32));
  into->kernel_corr = _sl_array_append (into->kernel_corr, base, g_steal_pointer (&from->kernel_corr), n, sizeof (guint32));
  _sl_spans_merge (&into->stream.kernels.spans, &into->kernel_cap, &k->spans);
}

static void
merge_copies (SlCopies *into, guint *cap, SlCopies *from)
{
  guint base = into->spans.n, n = from->spans.n;

  into->kind = _sl_array_append (into->kind, base, g_steal_pointer (&from->kind), n, sizeof (guint8));
  into->bytes = _sl_array_append (into->bytes, base, g_steal_pointer (&from->bytes), n, sizeof (guint64));
  into->corr = _sl_array_append (into->corr, base, g_steal_pointer (&from->corr), n, sizeof (guint32));
  _sl_spans_merge (&into->spans, cap, &from->spans);
}

void
_sl_gpu_chunk_merge (SlGpuChunk *into, SlGpuChunk *from)
{
  g_autofree guint32 *func_map = g_new (guint32, MAX (from->funcs->len, 1u));

  for (guint f = 0; f < from->funcs->len; f++)
    func_map[f] = chunk_func (into, &g_array_index (from->funcs, SlKernelFunc, f));
  for (guint i = 0; i < from->stream_builders->len; i++)
    {
      SlStreamBuilder *b = g_ptr_array_index (from->stream_builders, i);
      SlStreamBuilder *to = stream_builder (into, b->stream.pid, b->stream.device, b->stream.context, b->stream.stream);

      if (b->stream.kernels.spans.n > 0)
        merge_kernels (to, b, func_map);
      if (b->stream.memcpy.spans.n > 0)
        merge_copies (&to->stream.memcpy, &to->memcpy_cap, &b->stream.memcpy);
      if (b->stream.memset.spans.n > 0)
        merge_copies (&to->stream.memset, &to->memset_cap, &b->stream.memset);
    }
}
