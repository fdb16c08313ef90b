/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gen-cpu.c: the CPU side and GPU metrics of a synthetic export.
 * Deterministic for a seed.  Stacks come from a pool with a skewed choice
 * (a few hot stacks, a long tail), some recursive, some unresolved
 * ("0x7f…"), as perf-style sampling looks. */
#include "sl-gen-cpu.h"
#include "sl-gen-schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_FUNCS        24
#define N_STACKS       160
#define MAX_FRAMES     10
#define ROWS_PER_INSERT 64

static const char *const funcs[N_FUNCS] = {
  "main", "__libc_start_main", "_start", "train_step", "forward", "backward",
  "at::native::add_kernel", "at::native::copy_", "cudaLaunchKernel", "cuLaunchKernel",
  "memcpy", "__memmove_avx_unaligned_erms", "pthread_cond_wait", "futex_wait",
  "PyEval_EvalFrameDefault", "_PyFunction_Vectorcall", "load_batch", "decode_jpeg",
  "std::vector<float>::push_back", "ncclAllReduce", "0x7f3a1c2d4e10", "0x7f3a1c2d9a88",
  "sched_yield", "quicksort",
};
static const char *const modules[] = {
  "/usr/bin/python3.11", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
  "/opt/torch/lib/libtorch_cuda.so", "[kernel.kallsyms]",
};

typedef struct {
  guint n;
  int   func[MAX_FRAMES];   /* leaf first */
} Stack;

typedef struct {
  const SlGenCpu *c;
  guint64         rng;
  Stack           stacks[N_STACKS];
  guint32         func_id[N_FUNCS];
  guint32         module_id[G_N_ELEMENTS (modules)];
} CpuGen;

static guint64
next (CpuGen *g)
{
  g->rng ^= g->rng << 13;
  g->rng ^= g->rng >> 7;
  g->rng ^= g->rng << 17;
  return g->rng;
}

static void
exec (sqlite3 *db, const char *sql)
{
  char *err = NULL;
  if (sqlite3_exec (db, sql, NULL, NULL, &err) != SQLITE_OK)
    {
      g_printerr ("sightline-gen: %s\n  in: %.200s\n", err, sql);
      exit (1);
    }
}

static gboolean
has_table (sqlite3 *db, const char *name)
{
  sqlite3_stmt *st = NULL;
  gboolean found;

  sqlite3_prepare_v2 (db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1", -1, &st, NULL);
  sqlite3_bind_text (st, 1, name, -1, SQLITE_STATIC);
  found = sqlite3_step (st) == SQLITE_ROW;
  sqlite3_finalize (st);
  return found;
}

/* GPU_METRICS and TARGET_INFO_GPU_METRICS as nsys documents them (no real
 * export at hand has them, so the DDL is written out here). */
static const SlGenDdl metric_ddl[] = {
  { "TARGET_INFO_GPU_METRICS",
    "CREATE TABLE TARGET_INFO_GPU_METRICS (\n"
    "    -- GPU Metrics, metric names and ids.\n"
    "\n"
    "    typeId                      INTEGER   NOT NULL,                    -- REFERENCES GENERIC_EVENT_TYPES(typeId)\n"
    "    sourceId                    INTEGER   NOT NULL,                    -- REFERENCES GENERIC_EVENT_SOURCES(sourceId)\n"
    "    typeName                    TEXT      NOT NULL,                    -- Name of event type.\n"
    "    metricId                    INTEGER   NOT NULL,                    -- Id of metric.\n"
    "    metricName                  TEXT      NOT NULL                     -- Name of metric.\n"
    ")" },
  { "GPU_METRICS",
    "CREATE TABLE GPU_METRICS (\n"
    "    -- GPU Metrics, events and values.\n"
    "\n"
    "    timestamp                   INTEGER,                               -- Event timestamp (ns).\n"
    "    typeId                      INTEGER   NOT NULL,                    -- REFERENCES TARGET_INFO_GPU_METRICS(typeId) and GENERIC_EVENT_TYPES(typeId)\n"
    "    metricId                    INTEGER   NOT NULL,                    -- REFERENCES TARGET_INFO_GPU_METRICS(metricId)\n"
    "    value                       INTEGER   NOT NULL                     -- Counter data value\n"
    ")" },
};

static void
create_tables (const SlGenCpu *c)
{
  for (guint i = 0; i < G_N_ELEMENTS (sl_gen_ddl_cpu); i++)
    if (!has_table (c->db, sl_gen_ddl_cpu[i].name))
      exec (c->db, sl_gen_ddl_cpu[i].sql);
  if (c->metrics_hz > 0)
    for (guint i = 0; i < G_N_ELEMENTS (metric_ddl); i++)
      if (!has_table (c->db, metric_ddl[i].name))
        exec (c->db, metric_ddl[i].sql);
}

/* Rows go in by ROWS_PER_INSERT per statement: a million samples and five
 * million frames in a few seconds. */
typedef struct {
  sqlite3      *db;
  sqlite3_stmt *many, *one;
  int           n_cols, n;
  gint64        vals[ROWS_PER_INSERT * 10];
} Inserter;

static sqlite3_stmt *
prepare_rows (sqlite3 *db, const char *table, const char *cols, int n_cols, int rows)
{
  GString *sql = g_string_new (NULL);
  sqlite3_stmt *st = NULL;

  g_string_printf (sql, "INSERT INTO %s (%s) VALUES ", table, cols);
  for (int r = 0; r < rows; r++)
    {
      g_string_append (sql, r ? ", (" : "(");
      for (int k = 0; k < n_cols; k++)
        g_string_append (sql, k ? ", ?" : "?");
      g_string_append_c (sql, ')');
    }
  if (sqlite3_prepare_v2 (db, sql->str, -1, &st, NULL) != SQLITE_OK)
    {
      g_printerr ("sightline-gen: %s\n", sqlite3_errmsg (db));
      exit (1);
    }
  g_string_free (sql, TRUE);
  return st;
}

static void
inserter_init (Inserter *ins, sqlite3 *db, const char *table, const char *cols, int n_cols)
{
  g_assert (n_cols <= 10);
  ins->db = db;
  ins->n_cols = n_cols;
  ins->n = 0;
  ins->many = prepare_rows (db, table, cols, n_cols, ROWS_PER_INSERT);
  ins->one = prepare_rows (db, table, cols, n_cols, 1);
}

static void
run (sqlite3 *db, sqlite3_stmt *st, const gint64 *v, int n)
{
  for (int i = 0; i < n; i++)
    sqlite3_bind_int64 (st, i + 1, v[i]);
  if (sqlite3_step (st) != SQLITE_DONE)
    {
      g_printerr ("sightline-gen: insert: %s\n", sqlite3_errmsg (db));
      exit (1);
    }
  sqlite3_reset (st);
}

static void
inserter_flush (Inserter *ins)
{
  if (ins->n == ROWS_PER_INSERT)
    run (ins->db, ins->many, ins->vals, ins->n * ins->n_cols);
  else
    for (int r = 0; r < ins->n; r++)
      run (ins->db, ins->one, ins->vals + r * ins->n_cols, ins->n_cols);
  ins->n = 0;
}

static gint64 *
inserter_row (Inserter *ins)
{
  if (ins->n == ROWS_PER_INSERT)
    inserter_flush (ins);
  return ins->vals + ins->n++ * ins->n_cols;
}

static void
inserter_finish (Inserter *ins)
{
  inserter_flush (ins);
  sqlite3_finalize (ins->many);
  sqlite3_finalize (ins->one);
}

/* A pool of stacks, leaf first: most under _start → main, some recursive
 * (quicksort twice), some with unresolved frames. */
static void
make_stacks (CpuGen *g)
{
  for (guint s = 0; s < N_STACKS; s++)
    {
      int root_first[MAX_FRAMES], n = 0;
      guint extra = 1 + next (g) % 5;

      if (next (g) % 8 != 0)
        {
          root_first[n++] = 2;   /* _start */
          root_first[n++] = 1;   /* __libc_start_main */
          root_first[n++] = 0;   /* main */
        }
      for (guint k = 0; k < extra && n < MAX_FRAMES; k++)
        root_first[n++] = 3 + (int) (next (g) % (N_FUNCS - 3));
      if (next (g) % 6 == 0 && n + 2 <= MAX_FRAMES)
        {
          root_first[n++] = N_FUNCS - 1;   /* quicksort → quicksort */
          root_first[n++] = N_FUNCS - 1;
        }
      g->stacks[s].n = (guint) n;
      for (int i = 0; i < n; i++)
        g->stacks[s].func[i] = root_first[n - 1 - i];
    }
}

static guint
pick_stack (CpuGen *g)
{
  /* skewed: the product of two uniform picks favours the first stacks */
  guint64 a = next (g) % N_STACKS, b = next (g) % N_STACKS;
  return (guint) (a * b / N_STACKS);
}

static void
add_frames (CpuGen *g, Inserter *ins, gint64 id, const Stack *st)
{
  for (guint d = 0; d < st->n; d++)
    {
      gint64 *row = inserter_row (ins);
      int f = st->func[d];
      row[0] = id;
      row[1] = g->func_id[f];
      row[2] = g->module_id[funcs[f][0] == '0' ? 1 : f % G_N_ELEMENTS (modules)];
      row[3] = 0;                                  /* kernelMode */
      row[4] = 0;                                  /* thumbCode */
      row[5] = funcs[f][0] == '0';                 /* unresolved */
      row[6] = 0;                                  /* specialEntry */
      row[7] = (gint64) (0x400000 + f * 0x1000 + d);   /* originalIP */
      row[8] = 1;                                  /* unwindMethod */
      row[9] = d;                                  /* stackDepth */
    }
}

#define CHAIN_COLS "id, symbol, module, kernelMode, thumbCode, unresolved, specialEntry, originalIP, unwindMethod, stackDepth"

static void
emit_samples (CpuGen *g)
{
  const SlGenCpu *c = g->c;
  Inserter ev, chain;
  gint64 span = c->t1 - c->t0;

  inserter_init (&ev, c->db, "COMPOSITE_EVENTS", "id, start, cpu, threadState, globalTid, cpuCycles", 6);
  inserter_init (&chain, c->db, "SAMPLING_CALLCHAINS", CHAIN_COLS, 10);
  for (gint64 i = 0; i < c->samples; i++)
    {
      gint64 *row = inserter_row (&ev);
      row[0] = i + 1;
      row[1] = c->t0 + (gint64) ((double) span * (double) i / (double) c->samples) + (gint64) (next (g) % 500);
      row[2] = (gint64) (next (g) % 16);
      row[3] = next (g) % 10 == 0 ? 2 : 1;     /* mostly Running, some Interruptible */
      row[4] = (gint64) c->gtids[next (g) % c->n_threads];
      row[5] = (gint64) (next (g) % 1000000);
      /* one sample in 50 has no call chain */
      if (next (g) % 50 != 0)
        add_frames (g, &chain, i + 1, &g->stacks[pick_stack (g)]);
    }
  inserter_finish (&ev);
  inserter_finish (&chain);
}

static void
emit_sched (CpuGen *g)
{
  const SlGenCpu *c = g->c;
  Inserter ins;
  gint64 n = c->samples / 4, span = c->t1 - c->t0;
  g_autofree guint8 *in = g_new0 (guint8, c->n_threads);

  inserter_init (&ins, c->db, "SCHED_EVENTS", "start, cpu, isSchedIn, globalTid", 4);
  for (gint64 i = 0; i < n; i++)
    {
      gint64 *row = inserter_row (&ins);
      guint t = (guint) (next (g) % c->n_threads);
      in[t] = !in[t];
      row[0] = c->t0 + (gint64) ((double) span * (double) i / (double) n);
      row[1] = (gint64) (next (g) % 16);
      row[2] = in[t];
      row[3] = (gint64) c->gtids[t];
    }
  inserter_finish (&ins);
}

static const char *const osrt_outer[] = { "pthread_cond_wait", "ioctl", "read", "write", "poll", "sem_wait", "fopen" };
static const char *const osrt_inner[] = { "pthread_mutex_lock", "open64", "mmap64" };
#define N_OSRT_CHAINS 20
#define OSRT_EVENT_CLASS 27   /* TRACE_PROCESS_EVENT_OS_RUNTIME */

/* OSRT_CALLCHAINS ids 1..N_OSRT_CHAINS, 3 frames each; calls point at one
 * of them, or at 0, which has no rows (a call without a stack). */
static void
emit_osrt_chains (CpuGen *g)
{
  Inserter ins;

  inserter_init (&ins, g->c->db, "OSRT_CALLCHAINS", CHAIN_COLS, 10);
  for (gint64 id = 1; id <= N_OSRT_CHAINS; id++)
    {
      Stack st = { 3, { 3 + (int) (next (g) % (N_FUNCS - 3)), 0, 1 } };
      add_frames (g, &ins, id, &st);
    }
  inserter_finish (&ins);
}

static void
osrt_row (CpuGen *g, Inserter *ins, guint64 gtid, gint64 s, gint64 e, const char *name, int level)
{
  gint64 *row = inserter_row (ins);

  row[0] = s;
  row[1] = e;
  row[2] = OSRT_EVENT_CLASS;
  row[3] = (gint64) gtid;
  row[4] = g->c->str (g->c->str_data, name);
  row[5] = 0;
  row[6] = level;
  row[7] = next (g) % 10 == 0 ? 0 : (gint64) (1 + next (g) % N_OSRT_CHAINS);
}

static void
emit_osrt (CpuGen *g)
{
  const SlGenCpu *c = g->c;
  Inserter ins;
  gint64 slot = (c->t1 - c->t0) / MAX (c->osrt_calls, 1);

  emit_osrt_chains (g);
  inserter_init (&ins, c->db, "OSRT_API", "start, end, eventClass, globalTid, nameId, returnValue, nestingLevel, callchainId", 8);
  for (guint t = 0; t < c->n_threads; t++)
    for (gint64 j = 0; j < c->osrt_calls; j++)
      {
        gint64 s = c->t0 + j * slot + (gint64) (next (g) % (guint64) MAX (slot / 4, 1));
        gint64 dur = 1000 + (gint64) (next (g) % (guint64) MAX (slot / 2, 1));
        osrt_row (g, &ins, c->gtids[t], s, s + dur, osrt_outer[next (g) % G_N_ELEMENTS (osrt_outer)], 0);
        /* a third of the calls make a nested one, a third of those nest again */
        if (next (g) % 3 != 0 || dur < 400)
          continue;
        gint64 is = s + dur / 4, ie = s + dur / 2;
        osrt_row (g, &ins, c->gtids[t], is, ie, osrt_inner[next (g) % G_N_ELEMENTS (osrt_inner)], 1);
        if (next (g) % 3 == 0)
          osrt_row (g, &ins, c->gtids[t], is + (ie - is) / 4, is + (ie - is) / 2, "ioctl", 2);
      }
  inserter_finish (&ins);
}

static const struct { int id; const char *name; gboolean percent; } metrics[] = {
  { 0, "GPC Clock Frequency [MHz]", FALSE },
  { 1, "SM Active [Throughput %]", TRUE },
  { 2, "SM Issue [Throughput %]", TRUE },
  { 3, "Tensor Active [Throughput %]", TRUE },
  { 4, "DRAM Read Bandwidth [Throughput %]", TRUE },
  { 5, "PCIe RX Throughput [Throughput %]", TRUE },
};

/* typeId: the device in its low byte, as nsys numbers them */
#define METRIC_TYPE(device) ((gint64) (0x1A00 | ((device) & 0xFF)))

static void
emit_metrics (CpuGen *g)
{
  const SlGenCpu *c = g->c;
  Inserter ins;
  gint64 period = MAX (G_GINT64_CONSTANT (1000000000) / c->metrics_hz, 1);
  gint64 value[G_N_ELEMENTS (metrics)];
  sqlite3_stmt *st = NULL;

  sqlite3_prepare_v2 (c->db, "INSERT INTO TARGET_INFO_GPU_METRICS VALUES (?1, ?2, ?3, ?4, ?5)", -1, &st, NULL);
  for (guint d = 0; d < c->n_devices; d++)
    for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
      {
        g_autofree char *type_name = g_strdup_printf ("GPU %u Metrics", c->devices[d]);
        sqlite3_bind_int64 (st, 1, METRIC_TYPE (c->devices[d]));
        sqlite3_bind_int64 (st, 2, c->devices[d]);
        sqlite3_bind_text (st, 3, type_name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64 (st, 4, metrics[m].id);
        sqlite3_bind_text (st, 5, metrics[m].name, -1, SQLITE_STATIC);
        sqlite3_step (st);
        sqlite3_reset (st);
      }
  sqlite3_finalize (st);
  inserter_init (&ins, c->db, "GPU_METRICS", "timestamp, typeId, metricId, value", 4);
  for (guint d = 0; d < c->n_devices; d++)
    {
      for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
        value[m] = metrics[m].percent ? 50 : 1500;
      for (gint64 t = c->t0; t < c->t1; t += period)
        for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
          {
            gint64 *row = inserter_row (&ins);
            gint64 lo = metrics[m].percent ? 0 : 1000, hi = metrics[m].percent ? 100 : 1980;
            value[m] = CLAMP (value[m] + (gint64) (next (g) % 21) - 10, lo, hi);
            row[0] = t;
            row[1] = METRIC_TYPE (c->devices[d]);
            row[2] = metrics[m].id;
            row[3] = value[m];
          }
    }
  inserter_finish (&ins);
}

void
sl_gen_cpu_emit (const SlGenCpu *c)
{
  CpuGen g = { .c = c, .rng = c->seed * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) + 7 };

  if (c->n_threads == 0 || c->t1 <= c->t0)
    return;
  create_tables (c);
  for (guint f = 0; f < N_FUNCS; f++)
    g.func_id[f] = c->str (c->str_data, funcs[f]);
  for (guint m = 0; m < G_N_ELEMENTS (modules); m++)
    g.module_id[m] = c->str (c->str_data, modules[m]);
  make_stacks (&g);
  if (c->samples > 0)
    {
      emit_samples (&g);
      emit_sched (&g);
    }
  if (c->osrt_calls > 0)
    emit_osrt (&g);
  if (c->metrics_hz > 0 && c->n_devices > 0)
    emit_metrics (&g);
}
