/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gen.c: deterministic generator of synthetic Nsight Systems SQLite exports.
 *
 * The same arguments always give the same bytes: all randomness comes from one
 * seeded PRNG consumed in a fixed order, and nothing depends on the clock, the
 * output path or the environment.  Everything a test may want to check is
 * computed from the generator's own plan and written to --truth as JSON.
 *
 * The model is a data-parallel LLM training run.  Each process drives one or
 * more GPUs ("lanes"); an iteration is forward / backward / optimizer, each a
 * sequence of "units" where one unit is one op launching one kernel on every
 * lane of the process.  CPU time advances per API call; each GPU stream is a
 * FIFO, so a kernel starts at max(launch + latency, stream free).  Iterations
 * end with a device synchronize, then the CPU idles --gap-ns before the next
 * one, which plants a GPU idle gap of at least that length on every device.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "sl-gen-schema.h"
#include "sl-gen-cpu.h"

/* ---- options ------------------------------------------------------------ */

typedef enum { LAYOUT_CURRENT, LAYOUT_2022, LAYOUT_2020 } Layout;

typedef struct {
  const char *out;
  char       *truth;
  Layout      layout;
  int         gpus, streams, processes, threads, iterations, nvtx_depth;
  gint64      kernels, memcpy, memset, bad_rows, gap_ns;
  gint64      copy_ns;      /* a copy of this length per device before each step */
  guint64     seed;
  gboolean    nccl, no_gpu;
  gboolean    scope_ranges;   /* warmup/step_N iterations, computing_softmax ops */
  /* steps (iterations analysis): emit_nvtx-style per-op ranges only, a CPU
   * stall inside one step, kernel durations scaled per step (percent, cyclic) */
  gboolean    per_op_nvtx;
  gint64      stall_ns;
  int         stall_step, n_step_pct;
  int         step_pct[8];
  char       *slow_kernel;    /* --slow-kernel NAME=F: this short name's durations times slow_factor */
  double      slow_factor;
  int         async_ranges, graph_nodes, graph_launches;
  gboolean    no_domain_names;   /* no NvtxDomainCreate rows, as in sliced captures */
  gboolean    mixed_names;       /* every other NCCL range names itself inline, not by textId */
  /* steps whose kernel counts differ: step i launches i % step_jitter extra
   * small kernels mid-step; step extra_block_step an extra block of ops */
  int         step_jitter, extra_block_step;
  /* the CPU side and GPU metrics (issue 12, sl-gen-cpu.c) */
  gint64      osrt_calls, cpu_samples, metrics_hz;
  /* comparisons and ranks (issue 15): kernels of this short name never
   * run; a kernel of a new name after each step's optimizer; a rank in the
   * captured environment; step late_step starts late_ns late (and the gap
   * after it is late_ns shorter, as when the other ranks wait for it); the
   * session's wall-clock start (the events keep their wall-clock times) */
  char       *drop_kernel, *add_kernel;
  int         rank, late_step;
  gint64      late_ns, session_start_ns;
  gboolean    pack_tables;
} Options;

/* ---- kernels and ops ----------------------------------------------------- */

typedef struct {
  const char *short_name;
  const char *demangled;   /* NULL: same as short_name (extern "C" style) */
  const char *mangled;     /* NULL: same as short_name */
  gint64      dur_min, dur_spread;   /* ns */
  int         regs, grid[3], block[3], static_smem, dyn_smem;
  gboolean    nccl;
} KernelType;

enum {
  K_GEMM_AMP, K_GEMM_NVJET, K_GEMM_SM90, K_FLASH_FWD, K_FLASH_BWD, K_VEC_ADD,
  K_VEC_SILU, K_VEC_MUL, K_ELEM, K_RMS_FWD, K_RMS_BWD, K_SOFTMAX_FWD,
  K_SOFTMAX_BWD, K_REDUCE, K_MTA, K_COPY, K_NCCL, N_KTYPES
};

static const KernelType ktypes[N_KTYPES] = {
  [K_GEMM_AMP] = { "ampere_bf16_s16816gemm_bf16_128x256_ldg8_f2f_stages_64x3_tn", NULL, NULL,
                   60000, 100000, 232, {16, 24, 1}, {256, 1, 1}, 0, 73728 },
  [K_GEMM_NVJET] = { "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_NTT", NULL, NULL,
                     50000, 100000, 168, {132, 1, 1}, {384, 1, 1}, 0, 213120 },
  [K_GEMM_SM90] = { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", NULL, NULL,
                    70000, 100000, 168, {8, 66, 1}, {384, 1, 1}, 0, 229632 },
  [K_FLASH_FWD] = { "flash_fwd_kernel",
                    "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t>>, false, true, false, false, true, true, false, false>(flash::Flash_fwd_params)",
                    "_ZN5flash16flash_fwd_kernelI23Flash_fwd_kernel_traitsILi128ELi128ELi64ELi4ELb0ELb0EN7cutlass10bfloat16_tE19Flash_kernel_traitsILi128ELi128ELi64ELi4ES3_EELb0ELb1ELb0ELb0ELb1ELb1ELb0ELb0EEEvNS_16Flash_fwd_paramsE",
                    90000, 110000, 255, {16, 32, 4}, {128, 1, 1}, 0, 98304 },
  [K_FLASH_BWD] = { "flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel",
                    "void flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t>>, true, false, false, false, false, true, false, false>(flash::Flash_bwd_params)",
                    "_ZN5flash44flash_bwd_dq_dk_dv_loop_seqk_parallel_kernelI23Flash_bwd_kernel_traitsILi128ELi64ELi128ELi8ELi2ELi4ELi2ELb0ELb0EN7cutlass10bfloat16_tE19Flash_kernel_traitsILi128ELi64ELi128ELi8ES3_EELb1ELb0ELb0ELb0ELb0ELb1ELb0ELb0EEEvNS_16Flash_bwd_paramsE",
                    200000, 180000, 255, {32, 32, 1}, {256, 1, 1}, 0, 147456 },
  [K_VEC_ADD] = { "vectorized_elementwise_kernel",
                  "void at::native::vectorized_elementwise_kernel<(int)4, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char *, (unsigned long)3>>(int, T2, T3)",
                  "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIN3c108BFloat16EEESt5arrayIPcLm3EEEEviT0_T1_",
                  6000, 14000, 28, {4096, 1, 1}, {128, 1, 1}, 0, 0 },
  [K_VEC_SILU] = { "vectorized_elementwise_kernel",
                   "void at::native::vectorized_elementwise_kernel<(int)4, at::native::<unnamed>::silu_kernel(at::TensorIteratorBase &)::[lambda() (instance 1)]::operator ()() const::[lambda() (instance 4)]::operator ()() const::[lambda(c10::BFloat16) (instance 1)], std::array<char *, (unsigned long)2>>(int, T2, T3)",
                   "_ZN2at6native29vectorized_elementwise_kernelILi4EZZZNS0_12_GLOBAL__N_111silu_kernelERNS_18TensorIteratorBaseEENKUlvE_clEvENKUlvE2_clEvEUlN3c108BFloat16EE_St5arrayIPcLm2EEEEviT0_T1_",
                   8000, 10000, 26, {8192, 1, 1}, {128, 1, 1}, 0, 0 },
  [K_VEC_MUL] = { "vectorized_elementwise_kernel",
                  "void at::native::vectorized_elementwise_kernel<(int)4, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float>>, std::array<char *, (unsigned long)3>>(int, T2, T3)",
                  "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13BinaryFunctorIN3c108BFloat16ES4_S4_NS0_15binary_internal10MulFunctorIfEEEESt5arrayIPcLm3EEEEviT0_T1_",
                  6000, 12000, 30, {8192, 1, 1}, {128, 1, 1}, 0, 0 },
  [K_ELEM] = { "elementwise_kernel",
               "void at::native::elementwise_kernel<(int)128, (int)2, void at::native::gpu_kernel_impl_nocast<at::native::<unnamed>::silu_backward_kernel(at::TensorIteratorBase &)::[lambda() (instance 1)]::operator ()() const::[lambda() (instance 4)]::operator ()() const::[lambda(c10::BFloat16, c10::BFloat16) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
               "_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastIZZZNS0_12_GLOBAL__N_120silu_backward_kernelERNS_18TensorIteratorBaseEENKUlvE_clEvENKUlvE2_clEvEUlN3c108BFloat16ES8_E_EEvS5_RKT_EUliE_EEviT1_",
               9000, 12000, 32, {16384, 1, 1}, {128, 1, 1}, 0, 0 },
  [K_RMS_FWD] = { "rmsnorm_fwd_tuned_kernel",
                  "void transformer_engine::normalization::rmsnorm_fwd_tuned_kernel<transformer_engine::normalization::Kernel_traits<float, __nv_bfloat16, __nv_bfloat16, float, unsigned int, 4096U, 1U, 4U, 1U, 16U, transformer_engine::normalization::Kernel_traits_base<4096U, float, __nv_bfloat16, __nv_bfloat16, float, unsigned int, 128U>>>(transformer_engine::normalization::FwdParams)",
                  "_ZN18transformer_engine13normalization24rmsnorm_fwd_tuned_kernelINS0_13Kernel_traitsIf13__nv_bfloat16S3_fjLj4096ELj1ELj4ELj1ELj16ENS0_18Kernel_traits_baseILj4096EfS3_S3_fjLj128EEEEEEEvNS0_9FwdParamsE",
                  10000, 15000, 64, {528, 1, 1}, {32, 4, 1}, 64, 0 },
  [K_RMS_BWD] = { "rmsnorm_bwd_tuned_kernel",
                  "void transformer_engine::normalization::rmsnorm_bwd_tuned_kernel<transformer_engine::normalization::Kernel_traits<float, __nv_bfloat16, __nv_bfloat16, float, unsigned int, 4096U, 1U, 4U, 1U, 16U, transformer_engine::normalization::Kernel_traits_base<4096U, float, __nv_bfloat16, __nv_bfloat16, float, unsigned int, 128U>>>(transformer_engine::normalization::BwdParams)",
                  "_ZN18transformer_engine13normalization24rmsnorm_bwd_tuned_kernelINS0_13Kernel_traitsIf13__nv_bfloat16S3_fjLj4096ELj1ELj4ELj1ELj16ENS0_18Kernel_traits_baseILj4096EfS3_S3_fjLj128EEEEEEEvNS0_9BwdParamsE",
                  15000, 20000, 96, {528, 1, 1}, {32, 4, 1}, 16384, 0 },
  [K_SOFTMAX_FWD] = { "softmax_warp_forward",
                      "void <unnamed>::softmax_warp_forward<c10::BFloat16, c10::BFloat16, float, (int)10, (bool)1, (bool)0>(T2 *, const T1 *, int, int, int, const bool *, int, bool)",
                      "_ZN43_GLOBAL__N__b6de9c8c_10_SoftMax_cu_9f978f6320softmax_warp_forwardIN3c108BFloat16ES2_fLi10ELb1ELb0EEEvPT0_PKT_iiiPKbib",
                      15000, 25000, 40, {2048, 1, 1}, {128, 1, 1}, 0, 0 },
  [K_SOFTMAX_BWD] = { "softmax_warp_backward",
                      "void <unnamed>::softmax_warp_backward<c10::BFloat16, c10::BFloat16, float, (int)10, (bool)1, (bool)0>(T1 *, const T2 *, const T2 *, int, int, int, const bool *)",
                      "_ZN43_GLOBAL__N__b6de9c8c_10_SoftMax_cu_9f978f6321softmax_warp_backwardIN3c108BFloat16ES2_fLi10ELb1ELb0EEEvPT_PKT0_S7_iiiPKb",
                      15000, 25000, 48, {2048, 1, 1}, {128, 1, 1}, 0, 0 },
  [K_REDUCE] = { "reduce_kernel",
                 "void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, (int)4, (int)4>>(T3)",
                 "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_7MeanOpsIffffEEjfLi4ELi4EEEEEvT1_",
                 5000, 10000, 32, {1, 1, 1}, {32, 16, 1}, 0, 16 },
  [K_MTA] = { "multi_tensor_apply_kernel",
              "void multi_tensor_apply_kernel<TensorListMetadata<(int)4>, AdamFunctor<c10::BFloat16, float>, float, float, float, float, float, float, adamMode_t, float>(long, int *, T1, T2, T3...)",
              "_Z25multi_tensor_apply_kernelI18TensorListMetadataILi4EE11AdamFunctorIN3c108BFloat16EfEJffffff10adamMode_tfEEvlPViT_T0_DpT1_",
              40000, 80000, 62, {320, 1, 1}, {512, 1, 1}, 0, 0 },
  [K_COPY] = { "unrolled_elementwise_kernel",
               "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() const::[lambda() (instance 12)]::operator ()() const::[lambda(c10::BFloat16) (instance 1)], std::array<char *, (unsigned long)2>, (int)4, TrivialOffsetCalculator<(int)1, unsigned int>, TrivialOffsetCalculator<(int)1, unsigned int>, at::native::memory::LoadWithCast<(int)1>, at::native::memory::StoreWithCast<(int)1>>(int, T1, T2, T4, T5, T6, T7)",
               "_ZN2at6native27unrolled_elementwise_kernelIZZZNS0_23direct_copy_kernel_cudaERNS_18TensorIteratorBaseEENKUlvE1_clEvENKUlvE11_clEvEUlN3c108BFloat16EE_St5arrayIPcLm2EELi4E23TrivialOffsetCalculatorILi1EjESC_NS0_6memory12LoadWithCastILi1EEENSD_13StoreWithCastILi1EEEEEviT_T0_T2_T3_T4_T5_",
               5000, 10000, 24, {4096, 1, 1}, {128, 1, 1}, 0, 0 },
  [K_NCCL] = { "ncclDevKernel_AllReduce_Sum_bf16_RING_LL",
               "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)",
               "_Z39ncclDevKernel_AllReduce_Sum_bf16_RING_LL24ncclDevKernelArgsStorageILm4096EE",
               100000, 400000, 96, {4, 1, 1}, {640, 1, 1}, 4616, 0, TRUE },
};

typedef enum { ST_MAIN, ST_SIDE, ST_LAST, ST_NCCL } StreamClass;

typedef struct {
  const char  *nvtx;          /* op range name (level 4) */
  const char  *sub[2];        /* names of the nested ranges at levels 5, 6 */
  int          ktype;
  StreamClass  stream;
} Op;

static const Op fwd_ops[] = {
  { "RMSNorm", { "te::rmsnorm_fwd", NULL }, K_RMS_FWD, ST_MAIN },
  { "aten::linear", { "aten::matmul", "aten::mm" }, K_GEMM_NVJET, ST_MAIN },
  { "flash_attn_func", { "FlashAttnFunc", "flash_attn::_flash_attn_forward" }, K_FLASH_FWD, ST_SIDE },
  { "aten::linear", { "aten::matmul", "aten::mm" }, K_GEMM_AMP, ST_MAIN },
  { "aten::add", { "aten::add_", NULL }, K_VEC_ADD, ST_MAIN },
  { "RMSNorm", { "te::rmsnorm_fwd", NULL }, K_RMS_FWD, ST_MAIN },
  { "aten::linear", { "aten::matmul", "aten::mm" }, K_GEMM_NVJET, ST_MAIN },
  { "aten::silu", { NULL, NULL }, K_VEC_SILU, ST_MAIN },
  { "aten::mul", { NULL, NULL }, K_VEC_MUL, ST_MAIN },
  { "aten::linear", { "aten::matmul", "aten::mm" }, K_GEMM_AMP, ST_MAIN },
  { "aten::add", { "aten::add_", NULL }, K_VEC_ADD, ST_MAIN },
  { "aten::softmax", { "aten::_softmax", NULL }, K_SOFTMAX_FWD, ST_MAIN },
  { "aten::mean", { "aten::sum", NULL }, K_REDUCE, ST_MAIN },
};

static const Op bwd_ops[] = {
  { "MeanBackward0", { NULL, NULL }, K_REDUCE, ST_MAIN },
  { "SoftmaxBackward0", { "aten::_softmax_backward_data", NULL }, K_SOFTMAX_BWD, ST_MAIN },
  { "AddBackward0", { NULL, NULL }, K_VEC_ADD, ST_MAIN },
  { "LinearBackward0", { "MmBackward0", "aten::mm" }, K_GEMM_SM90, ST_MAIN },
  { "LinearBackward0", { "MmBackward0", "aten::mm" }, K_GEMM_SM90, ST_SIDE },
  { "MulBackward0", { "aten::mul", NULL }, K_VEC_MUL, ST_MAIN },
  { "SiluBackward0", { "aten::silu_backward", NULL }, K_ELEM, ST_MAIN },
  { "LinearBackward0", { "MmBackward0", "aten::mm" }, K_GEMM_SM90, ST_MAIN },
  { "RMSNormBackward", { "te::rmsnorm_bwd", NULL }, K_RMS_BWD, ST_MAIN },
  { "FlashAttnFuncBackward", { "flash_attn::_flash_attn_backward", NULL }, K_FLASH_BWD, ST_SIDE },
  { "LinearBackward0", { "MmBackward0", "aten::mm" }, K_GEMM_SM90, ST_MAIN },
  { "ncclAllReduce", { NULL, NULL }, K_NCCL, ST_NCCL },   /* only with --nccl */
};

static const Op opt_ops[] = {
  { "Optimizer.step#AdamW.step", { "aten::_fused_adamw_", NULL }, K_MTA, ST_LAST },
  { "aten::_foreach_mul_", { NULL, NULL }, K_MTA, ST_LAST },
  { "aten::copy_", { NULL, NULL }, K_COPY, ST_LAST },
  { "aten::_foreach_add_", { NULL, NULL }, K_MTA, ST_LAST },
};

enum { PH_FWD, PH_BWD, PH_OPT };

/* Multi-row INSERTs for the two big tables: binding 64 rows and stepping once
 * saves SQLite's per-statement work (cursor open, halt, reset) on every row. */
#define BATCH_ROWS 64

typedef struct {
  gint64      v;
  const char *s;        /* NULL: integer v; BV_NULL: SQL NULL; else static text */
} BVal;

static const char bv_null_mark[] = "";
#define BV_NULL bv_null_mark

typedef struct {
  sqlite3_stmt *one, *many;
  int           n_params;
  int           n;
  BVal          vals[BATCH_ROWS * 24];
  char          arena[BATCH_ROWS * 2 * 160];   /* copies of text values until the flush */
  gsize         arena_used;
} Batch;

static void
bind_bval (sqlite3_stmt *st, int i, const BVal *b)
{
  if (b->s == NULL)
    sqlite3_bind_int64 (st, i, b->v);
  else if (b->s == BV_NULL)
    sqlite3_bind_null (st, i);
  else
    sqlite3_bind_text (st, i, b->s, -1, SQLITE_STATIC);
}

/* ---- model --------------------------------------------------------------- */

#define NVTX_MAX_STACK 16
#define NAME_MAX_LEN   160
#define COLOR_ITER  0xFF76B900u
#define COLOR_FWD   0xFF1F77B4u
#define COLOR_BWD   0xFFD62728u
#define COLOR_OPT   0xFF2CA02Cu
#define COLOR_MARK  0xFFFF7F0Eu
#define NCCL_DOMAIN 1
#define NO_VALUE    G_GINT64_CONSTANT (4294967295)

typedef struct { gint64 s, e; } Interval;

enum { IV_COMPUTE, IV_NCCL, IV_COPY };
typedef struct { gint64 s, e; int kind; } KInterval;

typedef struct {
  gint64   start;
  char     text[NAME_MAX_LEN];
  guint32  text_id;       /* registered string, or 0 for text */
  int      domain;
  guint32  color;
  gboolean skip;          /* below --nvtx-depth: not emitted */
} NvtxFrame;

typedef struct {
  guint32   tid;
  guint64   gtid;
  const char *name;
  gint64    cpu;                  /* this thread's clock */
  NvtxFrame stack[NVTX_MAX_STACK];
  int       sp, real_depth;
  /* truth */
  gint64    n_api, n_pushpop, n_startend, n_marks, max_depth;
} Thread;

typedef struct {
  int      proc, slot;
  guint32  device, context;
  guint32 *stream_id;             /* streams + 1 (the last one is NCCL's) */
  gint64  *stream_free;
  GArray **track;                 /* per stream, this iteration's KInterval, sorted by construction */
  gint64  *kq, *mq, *sq;          /* per-iteration quotas: kernels, memcpy, memset */
  gint64   n_kernels, n_memcpy, n_memset;
  gboolean *stream_used;
} Lane;

typedef struct {
  gint64 cpu_start, cpu_end, gpu_start, gpu_end, kernels;
} IterTruth;

typedef struct {
  guint32  pid;
  guint64  gpid;
  int      n_lanes;
  int     *lanes;
  int      n_threads;
  Thread  *th;
  guint64  corr;
  guint64  grid_id;
  guint32  range_id;
  IterTruth *iters;
  gint64   kernels;
} Proc;

typedef struct {
  guint32  device;
  gint64   kernels, memcpy, memset;
  gint64   busy, compute, nccl, overlap;
  gint64   kernel_busy, copy_busy;     /* unions of kernels, of memcpy + memset */
  gint64   max_idle;                /* longest idle time inside [start, end] */
  gint64   start, end;              /* G_MAXINT64 / G_MININT64 when unused */
  gint64   it_first, it_last;       /* this iteration */
  GArray  *gaps;                    /* Interval */
} DevTruth;

typedef struct { gint64 instances, total_ns; } NameTruth;

typedef struct {
  Options  o;
  sqlite3 *db;
  guint64  rng;
  guint64  str_rng;

  /* strings: value -> id, in insertion order */
  GHashTable *str_ids;
  GPtrArray  *str_values;
  GArray     *str_idv;
  guint32     next_str_id;
  guint32     kt_short[N_KTYPES], kt_dem[N_KTYPES], kt_mang[N_KTYPES];

  int      n_lanes;
  Lane    *lanes;
  Proc    *procs;
  DevTruth *dev;
  NameTruth kt_truth[N_KTYPES];

  Batch         b_kernel, b_runtime;
  Batch         b_nvtx;
  sqlite3_stmt *st_memcpy, *st_memset, *st_sync, *st_str;

  /* truth counters */
  gint64 n_kernels, n_memcpy, n_memset, n_api, n_api_rows, n_backtrace, n_syncs;
  gint64 n_pushpop, n_startend, n_marks, n_domains;
  gint64 n_nccl_ranges;
  gint64 bad_kernel_time, bad_kernel_str, bad_api_time, bad_api_str;
  gint64 t_min, t_max;
  guint32 callchain_next;
  guint32 per_op_id;
  gint64 graph_kernels, graph_ns;   /* --cuda-graph truth */
  guint64 graph_grid_first, graph_grid_last;
} Gen;

/* ---- small helpers ------------------------------------------------------- */

static inline guint64
rng_next (guint64 *s)
{
  guint64 z = (*s += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static inline gint64
rnd (Gen *g, gint64 lo, gint64 spread)
{
  return spread > 0 ? lo + (gint64) (rng_next (&g->rng) % (guint64) spread) : lo;
}

/* Functions, not the MAX/MIN macros: arguments here often draw random numbers. */
static inline gint64 max64 (gint64 a, gint64 b) { return a > b ? a : b; }
static inline gint64 min64 (gint64 a, gint64 b) { return a < b ? a : b; }

static inline guint64
make_gtid (guint32 pid, guint32 tid)
{
  return (G_GUINT64_CONSTANT (1) << 48) | ((guint64) pid << 24) | tid;
}

static inline void
see_time (Gen *g, gint64 s, gint64 e)
{
  if (s < g->t_min)
    g->t_min = s;
  if (e > g->t_max)
    g->t_max = e;
}

static void
die_sql (Gen *g, const char *what)
{
  g_printerr ("sightline-gen: %s: %s\n", what, sqlite3_errmsg (g->db));
  exit (1);
}

static void
exec_sql (Gen *g, const char *sql)
{
  char *err = NULL;
  if (sqlite3_exec (g->db, sql, NULL, NULL, &err) != SQLITE_OK)
    {
      g_printerr ("sightline-gen: %s\n  in: %.200s\n", err, sql);
      exit (1);
    }
}

static sqlite3_stmt *
prep (Gen *g, const char *sql)
{
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2 (g->db, sql, -1, &st, NULL) != SQLITE_OK)
    {
      g_printerr ("sightline-gen: %s\n  in: %.300s\n", sqlite3_errmsg (g->db), sql);
      exit (1);
    }
  return st;
}

static inline void
step (Gen *g, sqlite3_stmt *st)
{
  if (sqlite3_step (st) != SQLITE_DONE)
    die_sql (g, "insert");
  sqlite3_reset (st);
}

#define B64(st, i, v) sqlite3_bind_int64 ((st), (i), (sqlite3_int64) (v))
#define BNULL(st, i)  sqlite3_bind_null ((st), (i))
#define BTXT(st, i, v) sqlite3_bind_text ((st), (i), (v), -1, SQLITE_TRANSIENT)

/* @row_sql is one row's "(?1, ?2, 0, ...)"; the batch statement repeats it
 * with the parameters renumbered. */
static void
batch_init (Gen *g, Batch *b, const char *prefix, const char *row_sql, int n_params)
{
  g_assert (n_params <= 24);
  GString *many = g_string_new (prefix);
  for (int r = 0; r < BATCH_ROWS; r++)
    {
      if (r)
        g_string_append (many, ", ");
      for (const char *c = row_sql; *c; c++)
        {
          if (*c == '?' && g_ascii_isdigit (c[1]))
            {
              char *endp;
              long k = strtol (c + 1, &endp, 10);
              g_string_append_printf (many, "?%ld", r * n_params + k);
              c = endp - 1;
            }
          else
            g_string_append_c (many, *c);
        }
    }
  g_autofree char *one = g_strconcat (prefix, row_sql, NULL);
  b->one = prep (g, one);
  b->many = prep (g, many->str);
  g_string_free (many, TRUE);
  b->n_params = n_params;
  b->n = 0;
  b->arena_used = 0;
}

static void
batch_flush (Gen *g, Batch *b)
{
  if (!b->one)
    return;
  if (b->n == BATCH_ROWS)
    {
      for (int i = 0; i < BATCH_ROWS * b->n_params; i++)
        bind_bval (b->many, i + 1, &b->vals[i]);
      step (g, b->many);
    }
  else
    for (int r = 0; r < b->n; r++)
      {
        for (int i = 0; i < b->n_params; i++)
          bind_bval (b->one, i + 1, &b->vals[r * b->n_params + i]);
        step (g, b->one);
      }
  b->n = 0;
  b->arena_used = 0;
}

/* The next row's values, all SQL NULL until set. */
static BVal *
batch_row (Gen *g, Batch *b)
{
  if (b->n == BATCH_ROWS || b->arena_used > sizeof b->arena - 2 * 160)
    batch_flush (g, b);
  BVal *row = &b->vals[b->n++ * b->n_params];
  for (int i = 0; i < b->n_params; i++)
    row[i].s = BV_NULL;
  return row;
}

static void
batch_finish (Gen *g, Batch *b)
{
  batch_flush (g, b);
  if (b->one)
    {
      sqlite3_finalize (b->one);
      sqlite3_finalize (b->many);
    }
}

#define R64(row, i, x)  do { (row)[(i) - 1].v = (gint64) (x); (row)[(i) - 1].s = NULL; } while (0)
#define RTXT(row, i, x) do { (row)[(i) - 1].s = (x); } while (0)

/* Text that does not outlive the caller: copied into the batch. */
static void
batch_text (Batch *b, BVal *row, int i, const char *text)
{
  gsize len = strlen (text) + 1;
  g_assert (b->arena_used + len <= sizeof b->arena);
  char *dst = b->arena + b->arena_used;
  memcpy (dst, text, len);
  b->arena_used += len;
  row[i - 1].s = dst;
}

/* Interns @value and returns its StringIds id.  Ids are sparse, as in real
 * exports where the string table is shared with data that was not exported. */
static guint32
str_id (Gen *g, const char *value)
{
  gpointer p = g_hash_table_lookup (g->str_ids, value);
  if (p)
    return GPOINTER_TO_UINT (p) - 1;
  guint32 id = g->next_str_id;
  guint64 r = rng_next (&g->str_rng);
  g->next_str_id += 1 + ((r % 5 == 0) ? (guint32) (r >> 20) % 200 : 0);
  char *v = g_strdup (value);
  g_hash_table_insert (g->str_ids, v, GUINT_TO_POINTER (id + 1));
  g_ptr_array_add (g->str_values, v);
  g_array_append_val (g->str_idv, id);
  return id;
}

/* ---- schema -------------------------------------------------------------- */

static const char *ddl_2020[] = {
  "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)",
  "CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER)",
  "CREATE TABLE TARGET_INFO_CUDA_GPU (vmId INTEGER NOT NULL, name TEXT, pciBusId TEXT, globalMemoryBandwidth INTEGER, globalMemorySize INTEGER, constantMemorySize INTEGER, l2CacheSize INTEGER, numThreadsPerWarp INTEGER, coreClockRate INTEGER, numMemcpyEngines INTEGER, numMultiprocessors INTEGER, maxIPC INTEGER, maxWarpsPerMultiprocessor INTEGER, maxBlocksPerMultiprocessor INTEGER, maxRegistersPerBlock INTEGER, maxSharedMemoryPerBlock INTEGER, maxThreadsPerBlock INTEGER, maxBlockDimX INTEGER, maxBlockDimY INTEGER, maxBlockDimZ INTEGER, maxGridDimX INTEGER, maxGridDimY INTEGER, maxGridDimZ INTEGER, computeCapabilityMajor INTEGER, computeCapabilityMinor INTEGER, deviceId INTEGER NOT NULL, pid INTEGER, maxSharedMemoryPerMultiprocessor INTEGER, maxRegistersPerMultiprocessor INTEGER)",
  "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER)",
  "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL, memKind INTEGER)",
  "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, sharedMemoryLimitConfig INTEGER)",
  "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL)",
  "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER)",
  "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT)",
};

static gboolean
is_cuda_table (const char *name)
{
  return g_str_has_prefix (name, "CUPTI_ACTIVITY_KIND_") || g_str_equal (name, "CUDA_CALLCHAINS");
}

static void
create_tables (Gen *g)
{
  gboolean nvtx = g->o.nvtx_depth > 0;

  switch (g->o.layout)
    {
    case LAYOUT_CURRENT:
      for (guint i = 0; i < G_N_ELEMENTS (sl_gen_ddl_current); i++)
        {
          const char *n = sl_gen_ddl_current[i].name;
          if (g->o.no_gpu && is_cuda_table (n))
            continue;
          if (!nvtx && g_str_equal (n, "NVTX_EVENTS"))
            continue;
          exec_sql (g, sl_gen_ddl_current[i].sql);
        }
      for (guint i = 0; i < G_N_ELEMENTS (sl_gen_enums); i++)
        {
          const SlGenEnum *e = &sl_gen_enums[i];
          exec_sql (g, e->sql);
          g_autofree char *ins = g_strdup_printf ("INSERT INTO %s (id, name, label) VALUES (?, ?, ?)", e->table);
          sqlite3_stmt *st = prep (g, ins);
          for (int r = 0; r < e->n_rows; r++)
            {
              B64 (st, 1, e->rows[r].id);
              if (e->rows[r].name) BTXT (st, 2, e->rows[r].name); else BNULL (st, 2);
              if (e->rows[r].label) BTXT (st, 3, e->rows[r].label); else BNULL (st, 3);
              step (g, st);
            }
          sqlite3_finalize (st);
        }
      break;

    case LAYOUT_2022:
      /* EXPORT_LAZY=false: every table exists, most of them empty. */
      for (guint i = 0; i < G_N_ELEMENTS (sl_gen_ddl_2022); i++)
        {
          const char *n = sl_gen_ddl_2022[i].name;
          if (g->o.no_gpu && is_cuda_table (n))
            continue;
          if (!nvtx && g_str_equal (n, "NVTX_EVENTS"))
            continue;
          exec_sql (g, sl_gen_ddl_2022[i].sql);
        }
      break;

    case LAYOUT_2020:
      for (guint i = 0; i < G_N_ELEMENTS (ddl_2020); i++)
        {
          if (g->o.no_gpu && strstr (ddl_2020[i], "CUPTI_ACTIVITY_KIND_"))
            continue;
          if (!nvtx && strstr (ddl_2020[i], "NVTX_EVENTS"))
            continue;
          exec_sql (g, ddl_2020[i]);
        }
      break;
    }

  if (!g->o.no_gpu)
    /* A column added afterwards by some other tool (pipit adds `name`). */
    exec_sql (g, "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME ADD COLUMN name TEXT");
  /* A table added by another tool (DLProf adds SystemInfo). */
  exec_sql (g, "CREATE TABLE SystemInfo (name TEXT, value TEXT)");
  exec_sql (g, "INSERT INTO SystemInfo VALUES ('generator', 'sightline-gen'), ('purpose', 'synthetic test fixture')");
}

static void
prepare_statements (Gen *g)
{
  Layout l = g->o.layout;

  if (!g->o.no_gpu)
    {
      /* Parameters: ?1 start ?2 end ?3 dev ?4 ctx ?5 stream ?6 corr ?7 gpid ?8 demangled
       * ?9 short ?10 mangled ?11 regs ?12-14 grid ?15-17 block ?18 static ?19 dynamic
       * ?20 gridId ?21 sharedMemoryExecuted */
      if (l == LAYOUT_CURRENT)
        batch_init (g, &g->b_kernel, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig, qmdBulkReleaseDone, qmdPreexitDone, qmdLastCtaDone, graphId, clusterX, clusterY, clusterZ, clusterSchedulingPolicy, maxPotentialClusterSize, maxActiveClusters, sharedMemoryRequestedPercentage, tensorSizeMinusOneElements) VALUES ", "(?1, ?2, ?3, ?4, 0, ?5, ?6, ?7, ?8, ?9, ?10, 1, 0, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, 0, 250871808, ?20, ?21, NULL, 0, NULL, NULL, NULL, NULL, 0, 0, 0, 1, 0, 0, NULL, '[]')", 21);
      else if (l == LAYOUT_2022)
        batch_init (g, &g->b_kernel, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig) VALUES ", "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 1, 0, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, 0, 250871808, ?20, ?21, NULL, 0)", 21);
      else
        batch_init (g, &g->b_kernel, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted, sharedMemoryLimitConfig) VALUES ", "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 1, 0, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, 0, 250871808, ?20, ?21, 0)", 21);

      /* ?1 start ?2 end ?3 dev ?4 ctx ?5 stream ?6 corr ?7 gpid ?8 bytes ?9 copyKind ?10 srcKind ?11 dstKind */
      if (l == LAYOUT_CURRENT)
        g->st_memcpy = prep (g, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, bytes, copyKind, deprecatedSrcId, srcKind, dstKind, srcDeviceId, srcContextId, dstDeviceId, dstContextId, migrationCause, graphNodeId, virtualAddress, copyCount) "
                                "VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?7, ?8, ?9, NULL, ?10, ?11, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1)");
      else if (l == LAYOUT_2022)
        g->st_memcpy = prep (g, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes, copyKind, deprecatedSrcId, srcKind, dstKind, srcDeviceId, srcContextId, dstDeviceId, dstContextId, migrationCause, graphNodeId, virtualAddress) "
                                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, NULL, ?10, ?11, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
      else
        g->st_memcpy = prep (g, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes, copyKind, deprecatedSrcId, srcKind, dstKind, srcDeviceId, srcContextId, dstDeviceId, dstContextId, migrationCause) "
                                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, NULL, ?10, ?11, NULL, NULL, NULL, NULL, NULL)");

      /* ?1 start ?2 end ?3 dev ?4 ctx ?5 stream ?6 corr ?7 gpid ?8 bytes */
      if (l == LAYOUT_CURRENT)
        g->st_memset = prep (g, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, value, bytes, graphNodeId, memKind) "
                                "VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?7, 0, ?8, NULL, 2)");
      else if (l == LAYOUT_2022)
        g->st_memset = prep (g, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, streamId, correlationId, globalPid, value, bytes, graphNodeId, memKind) "
                                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, NULL, 2)");
      else
        g->st_memset = prep (g, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, streamId, correlationId, globalPid, value, bytes, memKind) "
                                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, 2)");

      /* ?1 start ?2 end ?3 dev ?4 ctx ?5 stream ?6 corr ?7 gpid ?8 syncType */
      if (l == LAYOUT_CURRENT)
        g->st_sync = prep (g, "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, deprecatedSyncType, syncType, eventId, eventSyncId) "
                              "VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?7, NULL, ?8, 4294967295, NULL)");
      else
        g->st_sync = prep (g, "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, contextId, streamId, correlationId, globalPid, syncType, eventId) "
                              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 4294967295)");

      /* ?1 start ?2 end ?3 eventClass ?4 gtid ?5 corr ?6 nameId ?7 callchainId ?8 name */
      batch_init (g, &g->b_runtime, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId, name) VALUES ", "(?1, ?2, ?3, ?4, ?5, ?6, 0, ?7, ?8)", 8);
    }

  if (g->o.nvtx_depth > 0)
    /* ?1 start ?2 end ?3 eventType ?4 rangeId ?5 color ?6 text ?7 gtid ?8 endGtid ?9 textId ?10 domainId */
    batch_init (g, &g->b_nvtx, "INSERT INTO NVTX_EVENTS (start, end, eventType, rangeId, category, color, text, globalTid, endGlobalTid, textId, domainId) VALUES ", "(?1, ?2, ?3, ?4, NULL, ?5, ?6, ?7, ?8, ?9, ?10)", 10);
  g->st_str = prep (g, "INSERT INTO StringIds (id, value) VALUES (?, ?)");
}

/* ---- static tables ------------------------------------------------------- */

static void
insert_kv (Gen *g, const char *table, const char *const *kv)
{
  g_autofree char *sql = g_strdup_printf ("INSERT INTO %s (name, value) VALUES (?, ?)", table);
  sqlite3_stmt *st = prep (g, sql);
  for (; kv[0]; kv += 2)
    {
      BTXT (st, 1, kv[0]);
      BTXT (st, 2, kv[1]);
      step (g, st);
    }
  sqlite3_finalize (st);
}

static char *
describe_args (const Options *o)
{
  static const char *layouts[] = { "current", "2022", "2020" };
  g_autofree char *copy = o->copy_ns > 0 ? g_strdup_printf (" --copy-ns %" G_GINT64_FORMAT, o->copy_ns) : g_strdup ("");
  return g_strdup_printf ("--layout %s --gpus %d --streams %d --processes %d --threads %d --iterations %d "
                          "--kernels %" G_GINT64_FORMAT " --nvtx-depth %d%s --memcpy %" G_GINT64_FORMAT
                          " --memset %" G_GINT64_FORMAT " --seed %" G_GUINT64_FORMAT " --gap-ns %" G_GINT64_FORMAT
                          " --bad-rows %" G_GINT64_FORMAT "%s%s%s%s",
                          layouts[o->layout], o->gpus, o->streams, o->processes, o->threads, o->iterations,
                          o->kernels, o->nvtx_depth, o->nccl ? " --nccl" : "", o->memcpy, o->memset,
                          o->seed, o->gap_ns, o->bad_rows, o->no_gpu ? " --no-gpu" : "",
                          copy, o->no_domain_names ? " --no-domain-names" : "",
                          o->mixed_names ? " --mixed-name-storage" : "");
}

/* describe_args () with the steps options, when any is set (other outputs keep their bytes). */
static char *
describe_all_args (const Options *o)
{
  g_autofree char *base = describe_args (o);
  GString *s = g_string_new (base);

  if (o->per_op_nvtx)
    g_string_append (s, " --nvtx-style per-op");
  if (o->stall_step >= 0 && o->stall_ns > 0)
    g_string_append_printf (s, " --stall-ns %" G_GINT64_FORMAT " --stall-step %d", o->stall_ns, o->stall_step);
  for (int i = 0; i < o->n_step_pct; i++)
    g_string_append_printf (s, "%s%d", i == 0 ? " --step-lengths " : ",", o->step_pct[i]);
  if (o->step_jitter > 1)
    g_string_append_printf (s, " --step-jitter %d", o->step_jitter);
  if (o->extra_block_step >= 0)
    g_string_append_printf (s, " --extra-block-step %d", o->extra_block_step);
  if (o->drop_kernel != NULL)
    g_string_append_printf (s, " --drop-kernel %s", o->drop_kernel);
  if (o->add_kernel != NULL)
    g_string_append_printf (s, " --add-kernel %s", o->add_kernel);
  if (o->rank >= 0)
    g_string_append_printf (s, " --rank %d", o->rank);
  if (o->late_step >= 0)
    g_string_append_printf (s, " --late-step %d:%" G_GINT64_FORMAT, o->late_step, o->late_ns);
  if (o->session_start_ns > 0)
    g_string_append_printf (s, " --session-start-ns %" G_GINT64_FORMAT, o->session_start_ns);
  return g_string_free (s, FALSE);
}

static void
insert_meta (Gen *g)
{
  g_autofree char *args = describe_all_args (&g->o);

  if (g->o.layout == LAYOUT_CURRENT)
    {
      const char *kv[] = {
        "EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems",
        "EXPORT_PRODUCT_VERSION", "2026.2.1.210",
        "EXPORT_PRODUCT_DATE", "2026.2",
        "EXPORT_SCHEMA_VERSION", "3.25.0",
        "EXPORT_SCHEMA_VERSION_MAJOR", "3",
        "EXPORT_SCHEMA_VERSION_MINOR", "25",
        "EXPORT_SCHEMA_VERSION_MICRO", "0",
        "EXPORT_SCHEMA_VERSION_CKSUM", "306658267 182758",
        "EXPORT_PLATFORM", "linux-desktop",
        "EXPORT_ARCH", "x64",
        "EXPORT_TIME_UTC", "2026-05-24T13:51:31",
        "EXPORT_HOST", "sightline-gen",
        "EXPORT_USER", "sightline",
        "EXPORT_PARAM_EXPORT_TYPE", "SQLite",
        "EXPORT_PARAM_INPUT_FILE", "synthetic.nsys-rep",
        "EXPORT_PARAM_OUTPUT_FILE", "synthetic.sqlite",
        "EXPORT_PARAM_LAZY", "true",
        "EXPORT_PARAM_TIME_NORMALIZE", "false",
        "EXPORT_PARAM_TIME_SHIFT", "0",
        "SIGHTLINE_GEN_ARGS", args,
        NULL,
      };
      insert_kv (g, "META_DATA_EXPORT", kv);
      g_autofree char *rank_env = g_strdup_printf ("RANK=%d", g->o.rank);
      const char *cap[] = {
        "CAPTURE_EVENT_TYPE", "CUDA",
        "CAPTURE_EVENT_TYPE", "NVTX",
        "PROCESS_0:COMMAND", "python3",
        "PROCESS_0:ARGUMENT_0", "train.py",
        "RUN_DURATION_MS", "0",
        /* --rank: as torchrun's environment shows it */
        g->o.rank >= 0 ? "PROCESS_0:ENVIRONMENT_VARIABLE" : NULL, rank_env,
        NULL,
      };
      insert_kv (g, "META_DATA_CAPTURE", cap);
    }
  else if (g->o.layout == LAYOUT_2022)
    {
      const char *kv[] = {
        "EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems",
        "EXPORT_PRODUCT_VERSION", "2022.2.1.31",
        "EXPORT_PRODUCT_DATE", "2022.2",
        "EXPORT_SCHEMA_VERSION", "2.9.1",
        "EXPORT_SCHEMA_VERSION_MAJOR", "2",
        "EXPORT_SCHEMA_VERSION_MINOR", "9",
        "EXPORT_SCHEMA_VERSION_MICRO", "1",
        "EXPORT_SCHEMA_VERSION_CKSUM", "3609505966 99921",
        "EXPORT_PLATFORM", "linux-desktop",
        "EXPORT_ARCH", "x64",
        "EXPORT_TIME_UTC", "2023-06-26T21:05:38",
        "EXPORT_HOST", "sightline-gen",
        "EXPORT_INPUT_FILE", "synthetic.nsys-rep",
        "EXPORT_OUTUPT_FILE", "synthetic.sqlite",
        "EXPORT_OVERWRITE", "false",
        "EXPORT_LAZY", "false",
        "SIGHTLINE_GEN_ARGS", args,
        NULL,
      };
      insert_kv (g, "EXPORT_META_DATA", kv);
    }

  if (g->o.layout != LAYOUT_2020)
    {
      gboolean cur = g->o.layout == LAYOUT_CURRENT;
      sqlite3_stmt *st = prep (g, cur ? "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?, ?, ?, ?)"
                                      : "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?, ?, ?)");
      /* A fixed wall clock (2026-05-24T13:40:14Z) plus a seed-dependent offset. */
      gint64 base_s = G_GINT64_CONSTANT (1779630014) + (gint64) (g->o.seed % 86400);
      g_autoptr (GDateTime) dt = g_date_time_new_from_unix_utc (base_s);
      g_autofree char *iso = g_date_time_format (dt, "%Y-%m-%dT%H:%M:%S");
      gint64 utc = base_s * G_GINT64_CONSTANT (1000000000) + 123456789;
      gint64 clock = g->t_min > 0 && g->t_min != G_MAXINT64 ? g->t_min : 0;
      /* --session-start-ns N: the capture started at N on the wall clock;
       * the events keep their wall-clock times, so the capture clock read
       * (N - utc) later at the session start */
      if (g->o.session_start_ns > 0)
        {
          clock += g->o.session_start_ns - utc;
          utc = g->o.session_start_ns;
        }
      B64 (st, 1, utc);
      BTXT (st, 2, iso);
      BTXT (st, 3, iso);
      if (cur)
        B64 (st, 4, clock);
      step (g, st);
      sqlite3_finalize (st);
    }
}

static void
insert_gpus (Gen *g)
{
  /* One more GPU than used: real nodes list idle GPUs too. */
  int n = g->o.gpus + 1;
  if (g->o.layout == LAYOUT_2020)
    {
      /* nsys 2020.x stores globalMemorySize in MiB: 85520809984 B = 81559 MiB
       * (a Tesla V100-PCIE-32GB reads 32510) */
      sqlite3_stmt *st = prep (g, "INSERT INTO TARGET_INFO_CUDA_GPU VALUES (281474976710656, 'NVIDIA H100 80GB HBM3', ?1, 3352320000, 81559, 65536, 52428800, 32, 1980000, 3, 132, 4, 64, 32, 65536, 49152, 1024, 1024, 1024, 64, 2147483647, 65535, 65535, 9, 0, ?2, ?3, 233472, 65536)");
      for (int d = 0; d < n; d++)
        {
          g_autofree char *bus = g_strdup_printf ("0000:%02x:00.0", 0x18 + d * 0x10);
          BTXT (st, 1, bus);
          B64 (st, 2, d);
          B64 (st, 3, g->procs[0].pid);
          step (g, st);
        }
      sqlite3_finalize (st);
      return;
    }
  sqlite3_stmt *st = prep (g, "INSERT INTO TARGET_INFO_GPU VALUES (281474976710656, ?1, 'NVIDIA H100 80GB HBM3', ?2, 1, 52428800, 85520809984, 3352320000000, 1980000000, 132, ?1, ?3, 0, 'GH100', ?1, NULL, NULL, 161, 0, 65536, 0, 65536, 49152, 232448, 233472, 65536, 32, 3, 64, 32, 1024, 1024, 1024, 64, 2147483647, 65535, 65535, 9, 0, 9, 0)");
  for (int d = 0; d < n; d++)
    {
      g_autofree char *bus = g_strdup_printf ("0000:%02x:00.0", 0x18 + d * 0x10);
      guint64 a = rng_next (&g->str_rng), b = rng_next (&g->str_rng);
      g_autofree char *uuid = g_strdup_printf ("%08x-%04x-%04x-%04x-%012" G_GINT64_MODIFIER "x",
                                               (guint) (a >> 32), (guint) (a >> 16) & 0xffff, (guint) a & 0xffff,
                                               (guint) (b >> 48), b & G_GUINT64_CONSTANT (0xffffffffffff));
      B64 (st, 1, d);
      BTXT (st, 2, bus);
      BTXT (st, 3, uuid);
      step (g, st);
    }
  sqlite3_finalize (st);
}

static void
insert_processes_and_threads (Gen *g)
{
  sqlite3_stmt *tn = prep (g, "INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (?, ?, ?)");
  sqlite3_stmt *pr = NULL;
  if (g->o.layout != LAYOUT_2020)
    pr = prep (g, "INSERT INTO PROCESSES (globalPid, pid, name) VALUES (?, ?, ?)");

  /* Processes with no events, as real exports list the whole machine. */
  static const struct { guint32 pid; const char *name; } extra[] = {
    { 1, "dumb-init" }, { 26, "bash" }, { 59, "nsys" }, { 79, "nsys-launcher" }, { 80, "torchrun" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (extra); i++)
    {
      if (pr)
        {
          B64 (pr, 1, make_gtid (extra[i].pid, 0));
          B64 (pr, 2, extra[i].pid);
          BTXT (pr, 3, extra[i].name);
          step (g, pr);
        }
      B64 (tn, 1, str_id (g, extra[i].name));
      B64 (tn, 2, 20);
      B64 (tn, 3, make_gtid (extra[i].pid, extra[i].pid));
      step (g, tn);
    }

  for (int p = 0; p < g->o.processes; p++)
    {
      Proc *pc = &g->procs[p];
      if (pr)
        {
          B64 (pr, 1, pc->gpid);
          B64 (pr, 2, pc->pid);
          BTXT (pr, 3, "python3");
          step (g, pr);
        }
      for (int t = 0; t < pc->n_threads; t++)
        {
          B64 (tn, 1, str_id (g, pc->th[t].name));
          B64 (tn, 2, 20);
          B64 (tn, 3, pc->th[t].gtid);
          step (g, tn);
        }
      /* Profiler threads: named, but without any event. */
      static const char *prof[] = { "[NSys]", "[NSys Comms]", "CUPTI worker thread", "cuda-EvtHandlr" };
      for (guint i = 0; i < G_N_ELEMENTS (prof); i++)
        {
          if (g->o.no_gpu && i >= 2)
            break;
          B64 (tn, 1, str_id (g, prof[i]));
          B64 (tn, 2, i < 2 ? 10 : 20);
          B64 (tn, 3, make_gtid (pc->pid, pc->pid + 100 + i));
          step (g, tn);
        }
    }
  sqlite3_finalize (tn);
  if (pr)
    sqlite3_finalize (pr);

  if (g->o.layout == LAYOUT_2022 && !g->o.no_gpu)
    {
      /* A few CUDA backtraces for the eventClass 67 rows to point at. */
      sqlite3_stmt *cc = prep (g, "INSERT INTO CUDA_CALLCHAINS (id, symbol, module, unresolved, originalIP, stackDepth) VALUES (?, ?, ?, NULL, ?, ?)");
      static const char *frames[] = { "cudaLaunchKernel", "at::native::gpu_kernel", "at::native::add_kernel", "THPVariable_add", "_PyEval_EvalFrameDefault" };
      guint32 mod_cuda = str_id (g, "/usr/local/cuda/lib64/libcudart.so.12");
      guint32 mod_torch = str_id (g, "/usr/lib/python3/dist-packages/torch/lib/libtorch_cuda.so");
      for (int id = 1; id <= 4; id++)
        for (int d = 0; d < 5; d++)
          {
            B64 (cc, 1, id);
            B64 (cc, 2, str_id (g, frames[d]));
            B64 (cc, 3, d == 0 ? mod_cuda : mod_torch);
            B64 (cc, 4, G_GINT64_CONSTANT (140572407891336) + id * 4096 + d * 64);
            B64 (cc, 5, d);
            step (g, cc);
          }
      sqlite3_finalize (cc);
    }
}

/* ---- event emitters ------------------------------------------------------ */

static guint32 s_launch, s_launch_bt, s_memcpy, s_memcpy_bt, s_memset, s_memset_bt;
static guint32 s_nccl_launch, s_stream_sync, s_dev_sync, s_nccl_allreduce;

static void
emit_api (Gen *g, Proc *pc, Thread *th, gint64 s, gint64 e, int event_class, guint64 corr,
          guint32 name, guint32 bt_name)
{
  BVal *r = batch_row (g, &g->b_runtime);
  R64 (r, 1, s);
  R64 (r, 2, e);
  R64 (r, 3, event_class);
  R64 (r, 4, th->gtid);
  R64 (r, 5, corr);
  R64 (r, 6, name);
  /* The extra third-party column carries something now and then. */
  if ((corr & 15) == 0)
    RTXT (r, 8, "annotated");
  g->n_api++;
  g->n_api_rows++;
  th->n_api++;
  see_time (g, s, e);

  /* nsys 2022 duplicates calls whose backtrace it collected (eventClass 67). */
  if (g->o.layout == LAYOUT_2022 && bt_name && corr % 3 == 0)
    {
      r = batch_row (g, &g->b_runtime);
      R64 (r, 1, s - 250);
      R64 (r, 2, e + 170);
      R64 (r, 3, 67);
      R64 (r, 4, th->gtid);
      R64 (r, 5, corr);
      R64 (r, 6, bt_name);
      R64 (r, 7, 1 + (g->callchain_next++ % 4));
      g->n_api_rows++;
      g->n_backtrace++;
    }
}

static inline guint64
next_corr (Gen *g, Proc *pc)
{
  /* Not dense: untraced calls consume correlation ids too. */
  pc->corr += 1 + (rng_next (&g->rng) % 4 == 0);
  return pc->corr;
}

static void
record_gpu (Gen *g, Proc *pc, Lane *ln, int stream, gint64 s, gint64 e, int kind, int iter)
{
  KInterval iv = { s, e, kind };
  g_array_append_val (ln->track[stream], iv);
  ln->stream_used[stream] = TRUE;
  IterTruth *it = &pc->iters[iter];
  if (s < it->gpu_start)
    it->gpu_start = s;
  if (e > it->gpu_end)
    it->gpu_end = e;
  see_time (g, s, e);
}

static guint32 s_added_kernel;   /* --add-kernel's name */

/* The CUPTI_ACTIVITY_KIND_KERNEL row of one kernel of type @kt (named
 * --add-kernel's name instead when @added). */
static void
kernel_row_as (Gen *g, Proc *pc, Lane *ln, int stream, int kt, gboolean added, guint64 corr, gint64 start, gint64 end)
{
  const KernelType *k = &ktypes[kt];
  BVal *r = batch_row (g, &g->b_kernel);

  R64 (r, 1, start);
  R64 (r, 2, end);
  R64 (r, 3, ln->device);
  R64 (r, 4, ln->context);
  R64 (r, 5, ln->stream_id[stream]);
  R64 (r, 6, corr);
  R64 (r, 7, pc->gpid);
  R64 (r, 8, added ? s_added_kernel : g->kt_dem[kt]);
  R64 (r, 9, added ? s_added_kernel : g->kt_short[kt]);
  if (g->o.layout != LAYOUT_2020)
    R64 (r, 10, added ? s_added_kernel : g->kt_mang[kt]);
  R64 (r, 11, k->regs);
  R64 (r, 12, k->grid[0]);
  R64 (r, 13, k->grid[1]);
  R64 (r, 14, k->grid[2]);
  R64 (r, 15, k->block[0]);
  R64 (r, 16, k->block[1]);
  R64 (r, 17, k->block[2]);
  R64 (r, 18, k->static_smem);
  R64 (r, 19, k->dyn_smem);
  R64 (r, 20, ++pc->grid_id);
  R64 (r, 21, k->dyn_smem + k->static_smem > 0 ? 233472 : 32768);
}

static void
kernel_row (Gen *g, Proc *pc, Lane *ln, int stream, int kt, guint64 corr, gint64 start, gint64 end)
{
  kernel_row_as (g, pc, ln, stream, kt, FALSE, corr, start, end);
}

/* --add-kernel: one kernel of the new name on each lane's main stream,
 * ADDED_NS long, with fixed launch times: no random draws, so every other
 * kernel keeps the duration it has without the option. */
#define ADDED_NS 40000
static void
launch_added_kernels (Gen *g, Proc *pc, Thread *th, int iter)
{
  for (int i = 0; i < pc->n_lanes; i++)
    {
      Lane *ln = &g->lanes[pc->lanes[i]];
      guint64 corr = ++pc->corr;   /* not next_corr (): it draws */
      gint64 start = max64 (th->cpu + 2000, ln->stream_free[0]);

      kernel_row_as (g, pc, ln, 0, K_REDUCE, TRUE, corr, start, start + ADDED_NS);
      emit_api (g, pc, th, th->cpu, th->cpu + 3000, 0, corr, s_launch, s_launch_bt);
      th->cpu += 4000;
      ln->stream_free[0] = start + ADDED_NS;
      record_gpu (g, pc, ln, 0, start, start + ADDED_NS, IV_COMPUTE, iter);
      g->n_kernels++;
      pc->kernels++;
      pc->iters[iter].kernels++;
      ln->n_kernels++;
    }
}

static void
launch_kernel (Gen *g, Proc *pc, Thread *th, Lane *ln, int kt, int stream, gboolean wait_nccl, int iter)
{
  const KernelType *k = &ktypes[kt];
  gint64 api_s = th->cpu;
  gint64 api_e = api_s + (k->nccl ? rnd (g, 8000, 7000) : rnd (g, 2500, 3500));
  guint64 corr = next_corr (g, pc);

  gint64 ready = api_s + rnd (g, 1500, 2500);
  gint64 start = max64 (ready, ln->stream_free[stream]);
  if (stream != 0)
    /* Side streams and NCCL wait for the main stream's work (an event). */
    start = max64 (start, ln->stream_free[0]);
  if (wait_nccl)
    /* The optimizer needs the reduced gradients: the last all-reduce is exposed. */
    start = max64 (start, ln->stream_free[g->o.streams]);
  gint64 dur = rnd (g, k->dur_min, k->dur_spread);
  if (g->o.n_step_pct > 0)
    dur = dur * g->o.step_pct[iter % g->o.n_step_pct] / 100;
  if (g->o.slow_kernel != NULL && g_str_equal (k->short_name, g->o.slow_kernel))
    dur = (gint64) ((double) dur * g->o.slow_factor + 0.5);
  if (g->o.drop_kernel != NULL && g_str_equal (k->short_name, g->o.drop_kernel))
    {
      /* The same draws as a launch: every other kernel keeps its duration. */
      th->cpu = api_e + rnd (g, 300, 1200);
      return;
    }
  gint64 end = start + dur;
  ln->stream_free[stream] = end;

  kernel_row (g, pc, ln, stream, kt, corr, start, end);

  if (k->nccl)
    emit_api (g, pc, th, api_s, api_e, 1, corr, s_nccl_launch, 0);
  else
    emit_api (g, pc, th, api_s, api_e, 0, corr, s_launch, s_launch_bt);
  th->cpu = api_e + rnd (g, 300, 1200);

  record_gpu (g, pc, ln, stream, start, end, k->nccl ? IV_NCCL : IV_COMPUTE, iter);
  g->n_kernels++;
  pc->kernels++;
  pc->iters[iter].kernels++;
  ln->n_kernels++;
  g->kt_truth[kt].instances++;
  g->kt_truth[kt].total_ns += dur;
}

static void
launch_memcpy_dur (Gen *g, Proc *pc, Thread *th, Lane *ln, gboolean htod, int iter, gint64 fixed_dur);

static void
launch_memcpy (Gen *g, Proc *pc, Thread *th, Lane *ln, gboolean htod, int iter)
{
  launch_memcpy_dur (g, pc, th, ln, htod, iter, 0);
}

/* A memcpy; @fixed_dur > 0 sets its length (the random one is drawn anyway,
 * so that other options keep their output). */
static void
launch_memcpy_dur (Gen *g, Proc *pc, Thread *th, Lane *ln, gboolean htod, int iter, gint64 fixed_dur)
{
  gint64 api_s = th->cpu;
  gint64 api_e = api_s + rnd (g, 4000, 6000);
  guint64 corr = next_corr (g, pc);
  gint64 bytes = htod ? (gint64) rnd (g, 1, 16) << 22 : 4 * rnd (g, 1, 256);
  gint64 start = max64 (api_s + rnd (g, 2000, 2000), ln->stream_free[0]);
  /* ~25 GB/s over PCIe for the batch, a couple of microseconds for a scalar. */
  gint64 dur = htod ? bytes / 25 + rnd (g, 1000, 2000) : rnd (g, 1500, 1500);
  gint64 end = start + (fixed_dur > 0 ? fixed_dur : dur);
  ln->stream_free[0] = end;

  sqlite3_stmt *st = g->st_memcpy;
  B64 (st, 1, start);
  B64 (st, 2, end);
  B64 (st, 3, ln->device);
  B64 (st, 4, ln->context);
  B64 (st, 5, ln->stream_id[0]);
  B64 (st, 6, corr);
  B64 (st, 7, pc->gpid);
  B64 (st, 8, bytes);
  B64 (st, 9, htod ? 1 : 2);      /* HtoD / DtoH */
  B64 (st, 10, htod ? 1 : 2);     /* pinned -> device / device -> pinned */
  B64 (st, 11, htod ? 2 : 1);
  step (g, st);

  emit_api (g, pc, th, api_s, api_e, 0, corr, s_memcpy, s_memcpy_bt);
  th->cpu = api_e + rnd (g, 500, 1500);
  record_gpu (g, pc, ln, 0, start, end, IV_COPY, iter);
  g->n_memcpy++;
  ln->n_memcpy++;
}

static void
launch_memset (Gen *g, Proc *pc, Thread *th, Lane *ln, int iter)
{
  gint64 api_s = th->cpu;
  gint64 api_e = api_s + rnd (g, 3000, 3000);
  guint64 corr = next_corr (g, pc);
  gint64 bytes = (gint64) rnd (g, 1, 64) << 20;
  gint64 start = max64 (api_s + rnd (g, 2000, 2000), ln->stream_free[0]);
  gint64 end = start + bytes / 1500 + rnd (g, 1000, 1000);
  ln->stream_free[0] = end;

  sqlite3_stmt *st = g->st_memset;
  B64 (st, 1, start);
  B64 (st, 2, end);
  B64 (st, 3, ln->device);
  B64 (st, 4, ln->context);
  B64 (st, 5, ln->stream_id[0]);
  B64 (st, 6, corr);
  B64 (st, 7, pc->gpid);
  B64 (st, 8, bytes);
  step (g, st);

  emit_api (g, pc, th, api_s, api_e, 0, corr, s_memset, s_memset_bt);
  th->cpu = api_e + rnd (g, 500, 1000);
  record_gpu (g, pc, ln, 0, start, end, IV_COPY, iter);
  g->n_memset++;
  ln->n_memset++;
}

/* A blocking synchronize: returns when the GPU work it waits for is done. */
static void
emit_sync (Gen *g, Proc *pc, Thread *th, Lane *ln, gboolean whole_device)
{
  gint64 api_s = th->cpu;
  gint64 done = ln->stream_free[0];
  if (whole_device)
    for (int s = 0; s <= g->o.streams; s++)
      done = max64 (done, ln->stream_free[s]);
  gint64 api_e = max64 (api_s + rnd (g, 1500, 1500), done + rnd (g, 2000, 2000));
  guint64 corr = next_corr (g, pc);

  sqlite3_stmt *st = g->st_sync;
  B64 (st, 1, api_s + 400);
  B64 (st, 2, api_e - 300);
  B64 (st, 3, ln->device);
  B64 (st, 4, ln->context);
  B64 (st, 5, whole_device ? NO_VALUE : ln->stream_id[0]);
  B64 (st, 6, corr);
  B64 (st, 7, pc->gpid);
  B64 (st, 8, whole_device ? 4 : 3);   /* context sync / stream sync */
  step (g, st);
  g->n_syncs++;

  emit_api (g, pc, th, api_s, api_e, 0, corr, whole_device ? s_dev_sync : s_stream_sync, 0);
  th->cpu = api_e + rnd (g, 500, 1000);
}

static void
emit_simple_api (Gen *g, Proc *pc, Thread *th, const char *name, int event_class, gint64 dur)
{
  gint64 s = th->cpu;
  guint64 corr = next_corr (g, pc);
  emit_api (g, pc, th, s, s + dur, event_class, corr, str_id (g, name), 0);
  th->cpu = s + dur + rnd (g, 1000, 4000);
}

/* ---- NVTX ---------------------------------------------------------------- */

static void
nvtx_push (Gen *g, Thread *th, int level, const char *text, guint32 text_id, int domain, guint32 color)
{
  g_assert (th->sp < NVTX_MAX_STACK);
  NvtxFrame *f = &th->stack[th->sp++];
  f->skip = level >= g->o.nvtx_depth || (g->o.per_op_nvtx && level != 4 && domain != NCCL_DOMAIN);
  if (f->skip)
    return;
  f->start = th->cpu;
  g_strlcpy (f->text, text ? text : "", sizeof f->text);
  if (g->o.per_op_nvtx && level == 4)
    /* torch.autograd.profiler.emit_nvtx: every op its own range, numbered */
    g_snprintf (f->text, sizeof f->text, "%s, op_id = %u", text, ++g->per_op_id);
  f->text_id = text_id;
  f->domain = domain;
  f->color = color;
  th->real_depth++;
  if (th->real_depth > th->max_depth)
    th->max_depth = th->real_depth;
  th->cpu += rnd (g, 150, 200);
}

static void
nvtx_pop (Gen *g, Thread *th)
{
  g_assert (th->sp > 0);
  NvtxFrame *f = &th->stack[--th->sp];
  if (f->skip)
    return;
  gint64 end = th->cpu;
  BVal *r = batch_row (g, &g->b_nvtx);
  R64 (r, 1, f->start);
  R64 (r, 2, end);
  R64 (r, 3, 59);
  if (f->color)
    R64 (r, 5, f->color);
  if (f->text_id)
    R64 (r, 9, f->text_id);
  else
    batch_text (&g->b_nvtx, r, 6, f->text);
  R64 (r, 7, th->gtid);
  R64 (r, 10, f->domain);
  see_time (g, f->start, end);
  th->real_depth--;
  th->n_pushpop++;
  g->n_pushpop++;
  th->cpu += rnd (g, 150, 200);
}

static void
nvtx_mark (Gen *g, Thread *th, const char *text)
{
  if (g->o.nvtx_depth <= 0)
    return;
  BVal *r = batch_row (g, &g->b_nvtx);
  R64 (r, 1, th->cpu);
  R64 (r, 3, 34);
  R64 (r, 5, COLOR_MARK);
  batch_text (&g->b_nvtx, r, 6, text);
  R64 (r, 7, th->gtid);
  R64 (r, 10, 0);
  see_time (g, th->cpu, th->cpu);
  th->n_marks++;
  g->n_marks++;
  th->cpu += 300;
}

static void
nvtx_startend (Gen *g, Proc *pc, Thread *from, gint64 s, Thread *to, gint64 e, const char *text)
{
  if (g->o.nvtx_depth <= 0)
    return;
  BVal *r = batch_row (g, &g->b_nvtx);
  R64 (r, 1, s);
  R64 (r, 2, e);
  R64 (r, 3, 60);
  R64 (r, 4, ++pc->range_id);
  batch_text (&g->b_nvtx, r, 6, text);
  R64 (r, 7, from->gtid);
  R64 (r, 8, to->gtid);
  R64 (r, 10, 0);
  see_time (g, s, e);
  from->n_startend++;
  g->n_startend++;
}

static void
nvtx_domain_create (Gen *g, Thread *th, const char *name, int domain)
{
  if (g->o.nvtx_depth <= 0)
    return;
  BVal *r = batch_row (g, &g->b_nvtx);
  R64 (r, 1, th->cpu);
  R64 (r, 3, 75);
  batch_text (&g->b_nvtx, r, 6, name);
  R64 (r, 7, th->gtid);
  R64 (r, 10, domain);
  g->n_domains++;
  th->cpu += 2000;
}

/* ---- the iteration ------------------------------------------------------- */

static int
op_stream (Gen *g, StreamClass c, gint64 u)
{
  int S = g->o.streams;
  switch (c)
    {
    case ST_NCCL: return S;
    case ST_LAST: return S - 1;
    case ST_SIDE: return S == 1 ? 0 : 1 + (int) (u % (S - 1));
    case ST_MAIN:
    default:      return 0;
    }
}

static const char *
layer_name (char *buf, gsize n, int phase, int l)
{
  if (phase == PH_FWD)
    g_snprintf (buf, n, "layer_%d", l);
  else if (phase == PH_BWD)
    g_snprintf (buf, n, "layer_%d_backward", l);
  else
    g_snprintf (buf, n, "param_group_%d", l);
  return buf;
}

/* One op: its NVTX ranges (levels 4, 5, 6 …) around one launch per lane. */
static void
emit_op (Gen *g, Proc *pc, Thread *th, const Op *op, gint64 u, int iter)
{
  int frames = 0;

  if (ktypes[op->ktype].nccl)
    {
      /* NCCL annotates its own calls, in its own domain, whatever the app's depth. */
      if (g->o.nvtx_depth > 0)
        {
          if (g->o.mixed_names && g->n_nccl_ranges % 2 == 1)
            nvtx_push (g, th, 0, "ncclAllReduce", 0, NCCL_DOMAIN, 0);
          else
            nvtx_push (g, th, 0, NULL, s_nccl_allreduce, NCCL_DOMAIN, 0);
          frames++;
          g->n_nccl_ranges++;
        }
    }
  else
    {
      gboolean softmax = op->ktype == K_SOFTMAX_FWD || op->ktype == K_SOFTMAX_BWD;
      nvtx_push (g, th, 4, g->o.scope_ranges && softmax ? "computing_softmax" : op->nvtx, 0, 0, 0);
      frames++;
      for (int k = 5; k < g->o.nvtx_depth && k - 5 < 8; k++)
        {
          char buf[NAME_MAX_LEN];
          const char *n = k - 5 < 2 ? op->sub[k - 5] : NULL;
          if (!n)
            {
              g_snprintf (buf, sizeof buf, "%s/%d", op->nvtx, k - 4);
              n = buf;
            }
          nvtx_push (g, th, k, n, 0, 0, 0);
          frames++;
        }
    }

  if (g->o.no_gpu)
    th->cpu += rnd (g, 10000, 40000);
  else
    for (int i = 0; i < pc->n_lanes; i++)
      {
        Lane *ln = &g->lanes[pc->lanes[i]];
        if (u < ln->kq[iter])
          launch_kernel (g, pc, th, ln, op->ktype, op_stream (g, op->stream, u),
                         op->stream == ST_LAST && g->o.nccl, iter);
      }

  while (frames-- > 0)
    nvtx_pop (g, th);
}

static void
run_phase (Gen *g, Proc *pc, Thread *th, int phase, gint64 u0, gint64 n, int iter)
{
  const Op *ops;
  int n_ops;
  switch (phase)
    {
    case PH_FWD: ops = fwd_ops; n_ops = G_N_ELEMENTS (fwd_ops); break;
    case PH_BWD: ops = bwd_ops; n_ops = G_N_ELEMENTS (bwd_ops) - (g->o.nccl ? 0 : 1); break;
    default:     ops = opt_ops; n_ops = G_N_ELEMENTS (opt_ops); break;
    }
  if (n <= 0)
    return;

  int n_layers = (int) min64 ((gint64) (phase == PH_OPT ? 2 : 8), n);
  for (int l = 0; l < n_layers; l++)
    {
      gint64 a = n * l / n_layers, b = n * (l + 1) / n_layers;
      char buf[64];
      int layer = phase == PH_BWD ? n_layers - 1 - l : l;
      nvtx_push (g, th, 2, layer_name (buf, sizeof buf, phase, layer), 0, 0, 0);
      int n_blocks = phase == PH_OPT ? 1 : 2;
      for (int bl = 0; bl < n_blocks; bl++)
        {
          gint64 a2 = a + (b - a) * bl / n_blocks, b2 = a + (b - a) * (bl + 1) / n_blocks;
          if (a2 == b2)
            continue;
          const char *bname = phase == PH_OPT ? "adamw"
                              : phase == PH_FWD ? (bl == 0 ? "attention" : "mlp")
                              : (bl == 0 ? "mlp_backward" : "attention_backward");
          nvtx_push (g, th, 3, bname, 0, 0, 0);
          for (gint64 j = a2; j < b2; j++)
            emit_op (g, pc, th, &ops[j % n_ops], u0 + j, iter);
          nvtx_pop (g, th);
        }
      nvtx_pop (g, th);
    }
}

/* Ops beyond the quota that make steps differ in kernel count: @n_small
 * data-dependent ops (one small kernel per lane each), or a block of
 * @n_block forward ops (an evaluation / logging block). */
static void
emit_extra_ops (Gen *g, Proc *pc, Thread *th, int iter, int n_small, int n_block)
{
  static const Op nonzero = { "aten::nonzero", { NULL, NULL }, K_REDUCE, ST_MAIN };

  for (int k = 0; k < n_small; k++)
    emit_op (g, pc, th, &nonzero, 0, iter);
  for (int k = 0; k < n_block; k++)
    emit_op (g, pc, th, &fwd_ops[k % G_N_ELEMENTS (fwd_ops)], 0, iter);
}

/* Runs iteration @iter of process @pc from time @t0; returns its CPU end. */
static gint64
run_iteration (Gen *g, Proc *pc, int iter, gint64 t0)
{
  Thread *main_th = &pc->th[0];
  Thread *bwd_th = pc->n_threads >= 2 ? &pc->th[1] : main_th;
  IterTruth *it = &pc->iters[iter];
  char buf[64];

  it->gpu_start = G_MAXINT64;
  it->gpu_end = G_MININT64;
  for (int t = 0; t < pc->n_threads; t++)
    pc->th[t].cpu = max64 (pc->th[t].cpu, t0);
  main_th->cpu = t0;

  /* Units: one op launches a kernel on every lane that still has quota. */
  gint64 U = 0;
  for (int i = 0; i < pc->n_lanes; i++)
    U = max64 (U, g->lanes[pc->lanes[i]].kq[iter]);
  if (g->o.no_gpu)
    U = max64 ((gint64) 1, g->o.kernels / ((gint64) g->o.iterations * g->o.processes));
  gint64 Uf = U * 4 / 10, Ub = U * 5 / 10, Uo = U - Uf - Ub;

  if (g->o.scope_ranges)
    g_snprintf (buf, sizeof buf, iter == 0 ? "warmup" : "step_%d", iter);
  else
    g_snprintf (buf, sizeof buf, "iteration_%d", iter);
  it->cpu_start = main_th->cpu;
  nvtx_push (g, main_th, 0, buf, 0, 0, COLOR_ITER);
  gint64 batch_start = main_th->cpu;
  main_th->cpu += 500;

  if (!g->o.no_gpu)
    {
      /* Input batch to the GPU: a pinned-memory thread when there is one. */
      Thread *loader = pc->n_threads >= 3 ? &pc->th[2 + iter % (pc->n_threads - 2)] : main_th;
      if (loader != main_th)
        {
          loader->cpu = max64 (loader->cpu, main_th->cpu);
          nvtx_push (g, loader, 0, "next_batch", 0, 0, 0);
        }
      for (int i = 0; i < pc->n_lanes; i++)
        {
          Lane *ln = &g->lanes[pc->lanes[i]];
          gint64 n_htod = (ln->mq[iter] + 1) / 2;
          for (gint64 k = 0; k < n_htod; k++)
            launch_memcpy (g, pc, loader, ln, TRUE, iter);
          if (g->o.copy_ns > 0)
            launch_memcpy_dur (g, pc, loader, ln, TRUE, iter, g->o.copy_ns);
        }
      if (loader != main_th)
        {
          nvtx_pop (g, loader);
          main_th->cpu = max64 (main_th->cpu, loader->cpu + 1000);
        }
      /* zero_grad */
      for (int i = 0; i < pc->n_lanes; i++)
        {
          Lane *ln = &g->lanes[pc->lanes[i]];
          for (gint64 k = 0; k < ln->sq[iter]; k++)
            launch_memset (g, pc, main_th, ln, iter);
        }
    }
  else if (pc->n_threads >= 3)
    {
      Thread *loader = &pc->th[2 + iter % (pc->n_threads - 2)];
      loader->cpu = max64 (loader->cpu, main_th->cpu);
      nvtx_push (g, loader, 0, "next_batch", 0, 0, 0);
      loader->cpu += rnd (g, 50000, 50000);
      nvtx_pop (g, loader);
      main_th->cpu = max64 (main_th->cpu, loader->cpu + 1000);
    }

  nvtx_push (g, main_th, 1, "forward", 0, 0, COLOR_FWD);
  run_phase (g, pc, main_th, PH_FWD, 0, Uf, iter);
  nvtx_pop (g, main_th);

  if (g->o.step_jitter > 1 || g->o.extra_block_step >= 0)
    emit_extra_ops (g, pc, main_th, iter, g->o.step_jitter > 1 ? iter % g->o.step_jitter : 0,
                    iter == g->o.extra_block_step ? 26 : 0);
  if (iter == g->o.stall_step)
    main_th->cpu += g->o.stall_ns;   /* a data-loader stall in the middle of one step */
  nvtx_push (g, main_th, 1, "backward", 0, 0, COLOR_BWD);
  if (bwd_th != main_th)
    {
      /* Autograd runs the backward pass on its own thread. */
      bwd_th->cpu = max64 (bwd_th->cpu, main_th->cpu + rnd (g, 3000, 3000));
      run_phase (g, pc, bwd_th, PH_BWD, Uf, Ub, iter);
      bwd_th->cpu += 500;
      main_th->cpu = max64 (main_th->cpu, bwd_th->cpu + rnd (g, 1000, 2000));
    }
  else
    run_phase (g, pc, main_th, PH_BWD, Uf, Ub, iter);
  /* The batch's lifetime: started on the main thread, ended where backward ran. */
  g_snprintf (buf, sizeof buf, "batch_%d", iter);
  nvtx_startend (g, pc, main_th, batch_start, bwd_th, bwd_th->cpu, buf);
  nvtx_pop (g, main_th);

  nvtx_push (g, main_th, 1, "optimizer", 0, 0, COLOR_OPT);
  if (iter % 5 == 0)
    {
      g_snprintf (buf, sizeof buf, "lr_schedule_step_%d", iter);
      nvtx_mark (g, main_th, buf);
    }
  run_phase (g, pc, main_th, PH_OPT, Uf + Ub, Uo, iter);
  if (g->o.add_kernel != NULL && !g->o.no_gpu)
    launch_added_kernels (g, pc, main_th, iter);
  nvtx_pop (g, main_th);

  if (!g->o.no_gpu)
    {
      /* Logging loss.item() at the end of the step: copy it back and wait for it
       * on every device (synchronizing mid-step would make intra-step idle time
       * that could be longer than the planted gaps). */
      for (int i = 0; i < pc->n_lanes; i++)
        {
          Lane *ln = &g->lanes[pc->lanes[i]];
          gint64 n_dtoh = ln->mq[iter] - (ln->mq[iter] + 1) / 2;
          for (gint64 k = 0; k < n_dtoh; k++)
            launch_memcpy (g, pc, main_th, ln, FALSE, iter);
        }
      for (int i = 0; i < pc->n_lanes; i++)
        emit_sync (g, pc, main_th, &g->lanes[pc->lanes[i]], FALSE);
    }

  if (!g->o.no_gpu)
    for (int i = 0; i < pc->n_lanes; i++)
      emit_sync (g, pc, main_th, &g->lanes[pc->lanes[i]], TRUE);

  it->cpu_end = main_th->cpu;     /* = the end of the iteration range */
  nvtx_pop (g, main_th);
  return main_th->cpu;
}

/* Union lengths of one device's intervals this iteration, merged from its
 * per-stream tracks (each sorted because a stream is a FIFO). */
static void
finish_iteration_device (Gen *g, DevTruth *dt, GPtrArray *tracks)
{
  guint n = tracks->len;
  guint *pos = g_newa (guint, n);
  memset (pos, 0, n * sizeof (guint));
  /* Categories: 0 everything, 1 compute kernels, 2 NCCL kernels, 3 all kernels, 4 copies. */
  gint64 cs[5], ce[5], tot[5] = { 0, 0, 0, 0, 0 };
  gboolean open[5] = { FALSE, FALSE, FALSE, FALSE, FALSE };
  gint64 first = G_MAXINT64, last = G_MININT64;

  for (;;)
    {
      int best = -1;
      gint64 bs = G_MAXINT64;
      for (guint k = 0; k < n; k++)
        {
          GArray *a = tracks->pdata[k];
          if (pos[k] < a->len)
            {
              KInterval *iv = &g_array_index (a, KInterval, pos[k]);
              if (iv->s < bs)
                {
                  bs = iv->s;
                  best = (int) k;
                }
            }
        }
      if (best < 0)
        break;
      KInterval iv = g_array_index ((GArray *) tracks->pdata[best], KInterval, pos[best]);
      pos[best]++;
      first = min64 (first, iv.s);
      last = max64 (last, iv.e);
      gboolean in[5] = { TRUE, iv.kind == IV_COMPUTE, iv.kind == IV_NCCL, iv.kind != IV_COPY, iv.kind == IV_COPY };
      for (int c = 0; c < 5; c++)
        {
          if (!in[c])
            continue;
          if (open[c] && iv.s <= ce[c])
            ce[c] = max64 (ce[c], iv.e);
          else
            {
              if (open[c])
                tot[c] += ce[c] - cs[c];
              if (open[c] && c == 0)
                dt->max_idle = max64 (dt->max_idle, iv.s - ce[c]);
              cs[c] = iv.s;
              ce[c] = iv.e;
              open[c] = TRUE;
            }
        }
    }
  for (int c = 0; c < 5; c++)
    if (open[c])
      tot[c] += ce[c] - cs[c];

  if (first == G_MAXINT64)
    return;
  if (dt->end != G_MININT64)
    dt->max_idle = max64 (dt->max_idle, first - dt->end);
  if (dt->end != G_MININT64 && g->o.gap_ns > 0)
    {
      Interval gap = { dt->end, first };
      g_array_append_val (dt->gaps, gap);
    }
  dt->busy += tot[0];
  dt->compute += tot[1];
  dt->nccl += tot[2];
  dt->overlap += tot[1] + tot[2] - tot[3];
  dt->kernel_busy += tot[3];
  dt->copy_busy += tot[4];
  dt->start = min64 (dt->start, first);
  dt->end = max64 (dt->end, last);
}

static void
finish_iteration (Gen *g)
{
  for (int d = 0; d < g->o.gpus; d++)
    {
      g_autoptr (GPtrArray) tracks = g_ptr_array_new ();
      for (int l = 0; l < g->n_lanes; l++)
        if ((int) g->lanes[l].device == d)
          for (int s = 0; s <= g->o.streams; s++)
            g_ptr_array_add (tracks, g->lanes[l].track[s]);
      finish_iteration_device (g, &g->dev[d], tracks);
    }
  for (int l = 0; l < g->n_lanes; l++)
    for (int s = 0; s <= g->o.streams; s++)
      g_array_set_size (g->lanes[l].track[s], 0);
}

/* ---- setup --------------------------------------------------------------- */

static void
plan (Gen *g)
{
  Options *o = &g->o;
  int G = o->gpus, P = o->processes, I = o->iterations, S = o->streams;

  g->procs = g_new0 (Proc, P);
  for (int p = 0; p < P; p++)
    {
      Proc *pc = &g->procs[p];
      pc->pid = 2000 + (guint32) (o->seed % 5000) * 3 + (guint32) p * 173;
      pc->gpid = make_gtid (pc->pid, 0);
      pc->n_threads = o->threads;
      pc->th = g_new0 (Thread, pc->n_threads);
      pc->corr = 100 + p * 7;
      pc->iters = g_new0 (IterTruth, I);
      for (int t = 0; t < pc->n_threads; t++)
        {
          Thread *th = &pc->th[t];
          th->tid = t == 0 ? pc->pid : pc->pid + 40 + (guint32) t * 3;
          th->gtid = make_gtid (pc->pid, th->tid);
          th->name = t == 0 ? "python3" : t == 1 ? "pt_autograd_0" : "pt_pin_memory";
        }
    }

  /* Lanes: (process, device) pairs.  With at least as many GPUs as processes
   * each process owns a contiguous block of GPUs, otherwise GPUs are shared. */
  g->n_lanes = G >= P ? G : P;
  g->lanes = g_new0 (Lane, g->n_lanes);
  for (int p = 0; p < P; p++)
    g->procs[p].lanes = g_new0 (int, g->n_lanes);
  for (int l = 0; l < g->n_lanes; l++)
    {
      Lane *ln = &g->lanes[l];
      ln->proc = G >= P ? (int) ((gint64) l * P / G) : l;
      ln->device = G >= P ? (guint32) l : (guint32) (l % G);
      ln->context = 1 + (guint32) l;
      Proc *pc = &g->procs[ln->proc];
      ln->slot = pc->n_lanes;
      pc->lanes[pc->n_lanes++] = l;
      ln->stream_id = g_new0 (guint32, S + 1);
      ln->stream_free = g_new0 (gint64, S + 1);
      ln->stream_used = g_new0 (gboolean, S + 1);
      ln->track = g_new0 (GArray *, S + 1);
      for (int s = 0; s <= S; s++)
        {
          ln->stream_id[s] = (ln->slot == 0 && s == 0) ? 7 : 13 + (guint32) (ln->slot * (S + 1) + s);
          ln->track[s] = g_array_new (FALSE, FALSE, sizeof (KInterval));
        }
      ln->kq = g_new0 (gint64, I);
      ln->mq = g_new0 (gint64, I);
      ln->sq = g_new0 (gint64, I);
    }

  /* Spread totals over (iteration, lane) cells, the first cells get the remainder. */
  gint64 cells = (gint64) I * g->n_lanes;
  for (int i = 0; i < I; i++)
    for (int l = 0; l < g->n_lanes; l++)
      {
        gint64 c = (gint64) i * g->n_lanes + l;
        g->lanes[l].kq[i] = o->kernels / cells + (c < o->kernels % cells);
        g->lanes[l].mq[i] = o->memcpy / cells + (c < o->memcpy % cells);
        g->lanes[l].sq[i] = o->memset / cells + (c < o->memset % cells);
      }

  g->dev = g_new0 (DevTruth, G);
  for (int d = 0; d < G; d++)
    {
      g->dev[d].device = (guint32) d;
      g->dev[d].start = G_MAXINT64;
      g->dev[d].end = G_MININT64;
      g->dev[d].gaps = g_array_new (FALSE, FALSE, sizeof (Interval));
    }
}

static void
intern_names (Gen *g)
{
  /* A few strings the export always has, before the ones we use. */
  str_id (g, "GpuMetrics");
  str_id (g, "SocMetrics");
  for (int k = 0; k < N_KTYPES; k++)
    {
      const KernelType *t = &ktypes[k];
      g->kt_mang[k] = str_id (g, t->mangled ? t->mangled : t->short_name);
      g->kt_dem[k] = str_id (g, t->demangled ? t->demangled : t->short_name);
      g->kt_short[k] = str_id (g, t->short_name);
    }
  s_launch = str_id (g, "cudaLaunchKernel_v7000");
  s_launch_bt = str_id (g, "cudaLaunchKernel");
  s_memcpy = str_id (g, "cudaMemcpyAsync_v3020");
  s_memcpy_bt = str_id (g, "cudaMemcpyAsync");
  s_memset = str_id (g, "cudaMemsetAsync_v3020");
  s_memset_bt = str_id (g, "cudaMemsetAsync");
  s_nccl_launch = str_id (g, "cuLaunchKernelEx");
  s_stream_sync = str_id (g, "cudaStreamSynchronize_v3020");
  s_dev_sync = str_id (g, "cudaDeviceSynchronize_v3020");
  s_nccl_allreduce = str_id (g, "ncclAllReduce");
  str_id (g, "ncclGroupStart");
  str_id (g, "ncclGroupEnd");
  if (g->o.add_kernel != NULL)
    s_added_kernel = str_id (g, g->o.add_kernel);
}

static void
run_setup (Gen *g, gint64 t0)
{
  for (int p = 0; p < g->o.processes; p++)
    {
      Proc *pc = &g->procs[p];
      Thread *th = &pc->th[0];
      th->cpu = t0 + p * 137000;
      if (!g->o.no_gpu)
        {
          emit_simple_api (g, pc, th, "cuModuleGetLoadingMode", 1, 1200);
          emit_simple_api (g, pc, th, "cudaGetDeviceProperties_v2_v12000", 0, 25000);
          for (int i = 0; i < pc->n_lanes; i++)
            {
              emit_simple_api (g, pc, th, "cudaMalloc_v3020", 0, rnd (g, 200000, 300000));
              emit_simple_api (g, pc, th, "cudaStreamIsCapturing_v10000", 0, 900);
            }
        }
      else if (g->o.nvtx_depth > 0)
        {
          /* Something must be first: a CPU-only profile starts with a mark. */
          nvtx_mark (g, th, "startup");
        }
      if (g->o.nccl && !g->o.no_domain_names)
        nvtx_domain_create (g, th, "NCCL", NCCL_DOMAIN);
      for (int t = 1; t < pc->n_threads; t++)
        pc->th[t].cpu = th->cpu;
    }
}

static void
insert_bad_rows (Gen *g)
{
  if (g->o.bad_rows <= 0 || g->o.no_gpu)
    return;
  Proc *pc = &g->procs[0];
  Lane *ln = &g->lanes[pc->lanes[0]];
  gint64 mid = g->t_min + (g->t_max - g->t_min) / 2;
  guint32 dangling = g->next_str_id + 1000000;
  guint64 corr = G_GUINT64_CONSTANT (2000000000);

  for (gint64 i = 0; i < g->o.bad_rows; i++)
    for (int kind = 0; kind < 2; kind++)
      {
        /* kind 0: end < start; kind 1: names pointing at no string */
        gint64 s = mid + i * 1000;
        gint64 e = kind == 0 ? s - 500 : s + 800;
        BVal *r = batch_row (g, &g->b_kernel);
        const KernelType *k = &ktypes[K_VEC_ADD];
        R64 (r, 1, s);
        R64 (r, 2, e);
        R64 (r, 3, ln->device);
        R64 (r, 4, ln->context);
        R64 (r, 5, ln->stream_id[0]);
        R64 (r, 6, ++corr);
        R64 (r, 7, pc->gpid);
        R64 (r, 8, kind == 0 ? g->kt_dem[K_VEC_ADD] : dangling + (guint32) i);
        R64 (r, 9, kind == 0 ? g->kt_short[K_VEC_ADD] : dangling + (guint32) i);
        if (g->o.layout != LAYOUT_2020)
          R64 (r, 10, kind == 0 ? g->kt_mang[K_VEC_ADD] : dangling + (guint32) i);
        R64 (r, 11, k->regs);
        R64 (r, 12, 1); R64 (r, 13, 1); R64 (r, 14, 1);
        R64 (r, 15, 128); R64 (r, 16, 1); R64 (r, 17, 1);
        R64 (r, 18, 0); R64 (r, 19, 0);
        R64 (r, 20, ++pc->grid_id);
        R64 (r, 21, 0);
        if (kind == 0) g->bad_kernel_time++; else g->bad_kernel_str++;

        r = batch_row (g, &g->b_runtime);
        R64 (r, 1, s);
        R64 (r, 2, e);
        R64 (r, 3, 0);
        R64 (r, 4, pc->th[0].gtid);
        R64 (r, 5, ++corr);
        R64 (r, 6, kind == 0 ? s_launch : dangling + 500000 + (guint32) i);
        g->n_api_rows++;
        if (kind == 0) g->bad_api_time++; else g->bad_api_str++;
      }
}

static void
insert_strings (Gen *g)
{
  /* In id order, as the exporter writes them. */
  guint n = g->str_idv->len;
  guint *order = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    order[i] = i;  /* ids are assigned increasing, so insertion order is id order */
  for (guint i = 0; i < n; i++)
    {
      B64 (g->st_str, 1, g_array_index (g->str_idv, guint32, order[i]));
      BTXT (g->st_str, 2, g->str_values->pdata[order[i]]);
      step (g, g->st_str);
    }
  g_free (order);
}

/* ---- --async-ranges and --cuda-graph -------------------------------------- */

/* --async-ranges K: on process 0's main thread, after the iterations, K
 * start/end ranges that all overlap (a staircase: range i starts i*S after
 * the first, and all are open at the K-th start), then K ranges end to end
 * (each starts where the previous ended).  Laid out without overlap they
 * need exactly K lanes. */
static gint64
run_async_ranges (Gen *g, gint64 t)
{
  Proc *pc = &g->procs[0];
  Thread *th = &pc->th[0];
  const gint64 S = 10000;
  int k = g->o.async_ranges;
  gint64 t2 = t + 2 * k * S;
  char buf[32];

  for (int i = 0; i < k; i++)
    {
      g_snprintf (buf, sizeof buf, "request_%d", i);
      nvtx_startend (g, pc, th, t + i * S, th, t + k * S + i * S / 2, buf);
    }
  for (int i = 0; i < k; i++)
    {
      g_snprintf (buf, sizeof buf, "request_%d", k + i);
      nvtx_startend (g, pc, th, t2 + i * S, th, t2 + (i + 1) * S, buf);
    }
  th->cpu = max64 (th->cpu, t2 + (k + 1) * S);
  return th->cpu;
}

/* One kernel of a graph launch: the row of launch_kernel with the launch's
 * correlationId, and the graph's node and graph ids where the layout has them. */
static void
emit_graph_kernel (Gen *g, Proc *pc, Lane *ln, int kt, guint64 corr, gint64 start, gint64 end)
{
  kernel_row (g, pc, ln, 0, kt, corr, start, end);

  g_array_append_val (ln->track[0], ((KInterval) { start, end, IV_COMPUTE }));
  ln->stream_used[0] = TRUE;
  see_time (g, start, end);
  g->n_kernels++;
  pc->kernels++;
  ln->n_kernels++;
  g->kt_truth[kt].instances++;
  g->kt_truth[kt].total_ns += end - start;
  g->graph_kernels++;
  g->graph_ns += end - start;
}

/* --cuda-graph NxM: process 0's main thread replays a graph of N kernels M
 * times inside the NVTX range "graph_replay", after the iterations: each
 * cudaGraphLaunch_v10000 call has one correlationId that the N kernels it
 * runs (one after the other on the lane's first stream) all carry. */
static gint64
run_cuda_graph (Gen *g, gint64 t)
{
  static const int nodes[] = { K_GEMM_SM90, K_FLASH_FWD, K_VEC_ADD, K_RMS_FWD, K_SOFTMAX_FWD };
  Proc *pc = &g->procs[0];
  Thread *th = &pc->th[0];
  Lane *ln = &g->lanes[pc->lanes[0]];
  guint32 name = str_id (g, "cudaGraphLaunch_v10000");

  th->cpu = max64 (th->cpu, t);
  g->graph_grid_first = pc->grid_id + 1;
  nvtx_push (g, th, 0, "graph_replay", 0, 0, 0);
  for (int m = 0; m < g->o.graph_launches; m++)
    {
      gint64 api_s = th->cpu, api_e = api_s + rnd (g, 5000, 3000);
      guint64 corr = next_corr (g, pc);
      gint64 ready = api_s + rnd (g, 2000, 1000);

      emit_api (g, pc, th, api_s, api_e, 0, corr, name, 0);
      for (int n = 0; n < g->o.graph_nodes; n++)
        {
          int kt = nodes[n % G_N_ELEMENTS (nodes)];
          gint64 start = max64 (ready, ln->stream_free[0]);
          gint64 end = start + rnd (g, ktypes[kt].dur_min, ktypes[kt].dur_spread);

          emit_graph_kernel (g, pc, ln, kt, corr, start, end);
          ln->stream_free[0] = ready = end;
        }
      th->cpu = api_e + rnd (g, 500, 1000);
    }
  nvtx_pop (g, th);
  g->graph_grid_last = pc->grid_id;
  finish_iteration (g);   /* the devices' busy-time truth counts the replay */
  return max64 (th->cpu, ln->stream_free[0]);
}

/* Graph node and graph ids on the replay's kernels (the batch leaves them NULL). */
static void
mark_graph_kernels (Gen *g)
{
  if (g->o.graph_nodes == 0 || g->o.layout == LAYOUT_2020)
    return;
  g_autofree char *sql = g_strdup_printf (
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET graphNodeId = 1 + (gridId - %" G_GUINT64_FORMAT ") %% %d%s "
      "WHERE globalPid = %" G_GUINT64_FORMAT " AND gridId BETWEEN %" G_GUINT64_FORMAT " AND %" G_GUINT64_FORMAT,
      g->graph_grid_first, g->o.graph_nodes, g->o.layout == LAYOUT_CURRENT ? ", graphId = 1" : "",
      g->procs[0].gpid, g->graph_grid_first, g->graph_grid_last);
  exec_sql (g, sql);
}

/* ---- truth --------------------------------------------------------------- */

static int
cmp_name_truth (gconstpointer a, gconstpointer b, gpointer data)
{
  const NameTruth *t = data;
  const char *const *na = a, *const *nb = b;
  (void) t;
  return strcmp (*na, *nb);
}

static int
cmp_int64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/* "steps": the planted steps (every process's iterations with GPU work):
 * count and median GPU span (first operation's start to last one's end). */
static void
add_steps_truth (JsonBuilder *b, Gen *g)
{
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (gint64));
  double median = 0;

  for (int p = 0; p < g->o.processes; p++)
    for (int i = 0; i < g->o.iterations; i++)
      if (g->procs[p].iters[i].gpu_start != G_MAXINT64)
        {
          gint64 d = g->procs[p].iters[i].gpu_end - g->procs[p].iters[i].gpu_start;
          g_array_append_val (spans, d);
        }
  g_array_sort (spans, cmp_int64);
  if (spans->len > 0)
    median = (g_array_index (spans, gint64, (spans->len - 1) / 2) + g_array_index (spans, gint64, spans->len / 2)) / 2.0;
  json_builder_set_member_name (b, "steps");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, spans->len);
  json_builder_set_member_name (b, "median_ns");
  json_builder_add_double_value (b, median);
  json_builder_end_object (b);
}

/* What --async-ranges and --cuda-graph planted (null when not asked). */
static void
write_truth_graphs (Gen *g, JsonBuilder *b)
{
  Proc *pc = &g->procs[0];
  gboolean nvtx = g->o.nvtx_depth > 0;

  json_builder_set_member_name (b, "async_ranges");
  if (g->o.async_ranges == 0 || !nvtx)
    json_builder_add_null_value (b);
  else
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "pid"); json_builder_add_int_value (b, pc->pid);
      json_builder_set_member_name (b, "tid"); json_builder_add_int_value (b, pc->th[0].tid);
      json_builder_set_member_name (b, "ranges"); json_builder_add_int_value (b, 2 * g->o.async_ranges);
      json_builder_set_member_name (b, "lanes"); json_builder_add_int_value (b, g->o.async_ranges);
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "cuda_graph");
  if (g->graph_kernels == 0)
    json_builder_add_null_value (b);
  else
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "pid"); json_builder_add_int_value (b, pc->pid);
      json_builder_set_member_name (b, "tid"); json_builder_add_int_value (b, pc->th[0].tid);
      json_builder_set_member_name (b, "device"); json_builder_add_int_value (b, g->lanes[pc->lanes[0]].device);
      json_builder_set_member_name (b, "nodes"); json_builder_add_int_value (b, g->o.graph_nodes);
      json_builder_set_member_name (b, "launches"); json_builder_add_int_value (b, g->o.graph_launches);
      json_builder_set_member_name (b, "kernels"); json_builder_add_int_value (b, g->graph_kernels);
      json_builder_set_member_name (b, "kernel_ns"); json_builder_add_int_value (b, g->graph_ns);
      json_builder_set_member_name (b, "range"); json_builder_add_string_value (b, nvtx ? "graph_replay" : "");
      json_builder_set_member_name (b, "api_name"); json_builder_add_string_value (b, "cudaGraphLaunch_v10000");
      json_builder_end_object (b);
    }
}

static void
write_truth (Gen *g)
{
  const Options *o = &g->o;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  static const char *layouts[] = { "current", "2022", "2020" };
  static const char *nsys[] = { "2026.2.1.210", "2022.2.1.31", NULL };
  static const char *schema[] = { "3.25.0", "2.9.1", NULL };
  gboolean any = g->t_min != G_MAXINT64;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "generator");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "layout"); json_builder_add_string_value (b, layouts[o->layout]);
  {
    g_autofree char *args = describe_all_args (o);
    json_builder_set_member_name (b, "args"); json_builder_add_string_value (b, args);
  }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "nsys_version");
  if (nsys[o->layout]) json_builder_add_string_value (b, nsys[o->layout]); else json_builder_add_null_value (b);
  json_builder_set_member_name (b, "schema_version");
  if (schema[o->layout]) json_builder_add_string_value (b, schema[o->layout]); else json_builder_add_null_value (b);
  json_builder_set_member_name (b, "start_ns"); json_builder_add_int_value (b, any ? g->t_min : 0);
  json_builder_set_member_name (b, "end_ns"); json_builder_add_int_value (b, any ? g->t_max : 0);
  json_builder_set_member_name (b, "duration_ns"); json_builder_add_int_value (b, any ? g->t_max - g->t_min : 0);

  json_builder_set_member_name (b, "counts");
  json_builder_begin_object (b);
#define CNT(name, v) do { json_builder_set_member_name (b, name); json_builder_add_int_value (b, (v)); } while (0)
  CNT ("kernels", g->n_kernels);
  CNT ("memcpy", g->n_memcpy);
  CNT ("memset", g->n_memset);
  CNT ("cuda_api", g->n_api);
  CNT ("syncs", g->n_syncs);
  CNT ("nvtx_ranges", g->n_pushpop + g->n_startend);
  CNT ("nvtx_pushpop", g->n_pushpop);
  CNT ("nvtx_startend", g->n_startend);
  CNT ("nvtx_marks", g->n_marks);
  CNT ("nvtx_domain_creates", g->n_domains);
  CNT ("nvtx_nccl_ranges", g->n_nccl_ranges);
  CNT ("kernels_linked", g->n_kernels);
  CNT ("kernel_rows", g->n_kernels + g->bad_kernel_time + g->bad_kernel_str);
  CNT ("runtime_rows", g->n_api_rows);
  CNT ("backtrace_rows", g->n_backtrace);
  json_builder_set_member_name (b, "bad_rows");
  json_builder_begin_object (b);
  CNT ("kernel_end_before_start", g->bad_kernel_time);
  CNT ("kernel_dangling_string", g->bad_kernel_str);
  CNT ("api_end_before_start", g->bad_api_time);
  CNT ("api_dangling_string", g->bad_api_str);
  CNT ("total", g->bad_kernel_time + g->bad_kernel_str + g->bad_api_time + g->bad_api_str);
  json_builder_end_object (b);
  json_builder_end_object (b);

  CNT ("gpus_listed", o->gpus + 1);
  json_builder_set_member_name (b, "gpus");
  json_builder_begin_array (b);
  for (int d = 0; d < o->gpus && !o->no_gpu; d++)
    {
      DevTruth *dt = &g->dev[d];
      gint64 nk = 0, nm = 0, ns = 0;
      g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));
      int tracks = 0;
      for (int l = 0; l < g->n_lanes; l++)
        {
          Lane *ln = &g->lanes[l];
          if ((int) ln->device != d)
            continue;
          nk += ln->n_kernels; nm += ln->n_memcpy; ns += ln->n_memset;
          for (int s = 0; s <= o->streams; s++)
            if (ln->stream_used[s])
              {
                tracks++;
                gboolean dup = FALSE;
                for (guint k = 0; k < ids->len; k++)
                  dup |= g_array_index (ids, guint32, k) == ln->stream_id[s];
                if (!dup)
                  g_array_append_val (ids, ln->stream_id[s]);
              }
        }
      if (nk + nm + ns == 0)
        continue;
      for (guint i = 1; i < ids->len; i++)   /* insertion sort, a handful of ids */
        for (guint j = i; j > 0 && g_array_index (ids, guint32, j - 1) > g_array_index (ids, guint32, j); j--)
          {
            guint32 t = g_array_index (ids, guint32, j);
            g_array_index (ids, guint32, j) = g_array_index (ids, guint32, j - 1);
            g_array_index (ids, guint32, j - 1) = t;
          }
      json_builder_begin_object (b);
      CNT ("device", d);
      json_builder_set_member_name (b, "name"); json_builder_add_string_value (b, "NVIDIA H100 80GB HBM3");
      CNT ("sm_count", 132);
      CNT ("memory_bytes", G_GINT64_CONSTANT (85520809984));
      CNT ("kernels", nk);
      CNT ("memcpy", nm);
      CNT ("memset", ns);
      json_builder_set_member_name (b, "streams");
      json_builder_begin_array (b);
      for (guint k = 0; k < ids->len; k++)
        json_builder_add_int_value (b, g_array_index (ids, guint32, k));
      json_builder_end_array (b);
      CNT ("stream_tracks", tracks);
      CNT ("start_ns", dt->start);
      CNT ("end_ns", dt->end);
      CNT ("span_ns", dt->end - dt->start);
      CNT ("busy_ns", dt->busy);
      CNT ("compute_ns", dt->compute);
      CNT ("nccl_ns", dt->nccl);
      CNT ("overlap_ns", dt->overlap);
      CNT ("idle_ns", dt->end - dt->start - dt->busy);
      CNT ("kernel_busy_ns", dt->kernel_busy);
      CNT ("copy_busy_ns", dt->copy_busy);
      /* Not always a planted gap: a device can wait on another one's sync. */
      CNT ("max_idle_ns", dt->max_idle);
      /* The idle time between iterations, each at least --gap-ns long. */
      json_builder_set_member_name (b, "gaps");
      json_builder_begin_array (b);
      for (guint k = 0; k < dt->gaps->len; k++)
        {
          Interval *iv = &g_array_index (dt->gaps, Interval, k);
          json_builder_begin_array (b);
          json_builder_add_int_value (b, iv->s);
          json_builder_add_int_value (b, iv->e);
          json_builder_end_array (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  add_steps_truth (b, g);
  json_builder_set_member_name (b, "processes");
  json_builder_begin_array (b);
  for (int p = 0; p < o->processes; p++)
    {
      Proc *pc = &g->procs[p];
      int with_events = 0;
      for (int t = 0; t < pc->n_threads; t++)
        {
          Thread *th = &pc->th[t];
          with_events += (th->n_api + th->n_pushpop + th->n_startend + th->n_marks) > 0;
        }
      json_builder_begin_object (b);
      CNT ("pid", pc->pid);
      /* 2020 exports have no PROCESSES table: the name is only the main thread's. */
      json_builder_set_member_name (b, "name");
      if (o->layout == LAYOUT_2020)
        json_builder_add_null_value (b);
      else
        json_builder_add_string_value (b, "python3");
      json_builder_set_member_name (b, "main_thread_name"); json_builder_add_string_value (b, pc->th[0].name);
      CNT ("threads", with_events);
      CNT ("kernels", pc->kernels);
      json_builder_set_member_name (b, "devices");
      json_builder_begin_array (b);
      for (int i = 0; i < pc->n_lanes; i++)
        json_builder_add_int_value (b, g->lanes[pc->lanes[i]].device);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "thread_list");
      json_builder_begin_array (b);
      for (int t = 0; t < pc->n_threads; t++)
        {
          Thread *th = &pc->th[t];
          json_builder_begin_object (b);
          CNT ("tid", th->tid);
          json_builder_set_member_name (b, "name"); json_builder_add_string_value (b, th->name);
          CNT ("cuda_api", th->n_api);
          CNT ("nvtx_pushpop", th->n_pushpop);
          CNT ("nvtx_startend", th->n_startend);
          CNT ("nvtx_marks", th->n_marks);
          CNT ("nvtx_max_depth", th->max_depth);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "iterations");
      json_builder_begin_array (b);
      for (int i = 0; i < o->iterations; i++)
        {
          IterTruth *it = &pc->iters[i];
          json_builder_begin_object (b);
          CNT ("index", i);
          CNT ("cpu_start", it->cpu_start);
          CNT ("cpu_end", it->cpu_end);
          json_builder_set_member_name (b, "gpu_start");
          if (it->gpu_start != G_MAXINT64) json_builder_add_int_value (b, it->gpu_start); else json_builder_add_null_value (b);
          json_builder_set_member_name (b, "gpu_end");
          if (it->gpu_end != G_MININT64) json_builder_add_int_value (b, it->gpu_end); else json_builder_add_null_value (b);
          CNT ("kernels", it->kernels);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  /* Per short name: several kernel types share one (vectorized_elementwise_kernel). */
  json_builder_set_member_name (b, "kernel_names");
  json_builder_begin_array (b);
  {
    g_autoptr (GPtrArray) names = g_ptr_array_new ();
    for (int k = 0; k < N_KTYPES; k++)
      {
        gboolean seen = FALSE;
        for (guint j = 0; j < names->len; j++)
          seen |= g_str_equal (names->pdata[j], ktypes[k].short_name);
        if (!seen && g->kt_truth[k].instances > 0)
          g_ptr_array_add (names, (gpointer) ktypes[k].short_name);
      }
    g_ptr_array_sort_with_data (names, cmp_name_truth, NULL);
    for (guint j = 0; j < names->len; j++)
      {
        gint64 inst = 0, tot = 0;
        int n_dem = 0;
        for (int k = 0; k < N_KTYPES; k++)
          if (g_str_equal (ktypes[k].short_name, names->pdata[j]) && g->kt_truth[k].instances > 0)
            {
              inst += g->kt_truth[k].instances;
              tot += g->kt_truth[k].total_ns;
              n_dem++;
            }
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "short_name"); json_builder_add_string_value (b, names->pdata[j]);
        CNT ("instances", inst);
        CNT ("total_ns", tot);
        CNT ("demangled_variants", n_dem);
        json_builder_end_object (b);
      }
  }
  json_builder_end_array (b);
  write_truth_graphs (g, b);
#undef CNT
  json_builder_end_object (b);

  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  g_autoptr (GError) error = NULL;
  if (!json_generator_to_file (gen, o->truth, &error))
    {
      g_printerr ("sightline-gen: cannot write %s: %s\n", o->truth, error->message);
      exit (1);
    }
}

/* ---- main ---------------------------------------------------------------- */

/* Options of the iterations analysis's cases, parsed into @o's fields after
 * the main ones (see parse_step_options). */
typedef struct {
  char  *nvtx_style, *step_lengths;
  gint64 stall_ns;
  int    stall_step, step_jitter, extra_block_step;
} StepArgs;

static StepArgs step_args = { NULL, NULL, 0, -1, 0, -1 };

static void
add_step_options (GOptionContext *ctx)
{
  static GOptionEntry entries[] = {
    { "nvtx-style", 0, 0, G_OPTION_ARG_STRING, &step_args.nvtx_style,
      "steps (default) or per-op: only emit_nvtx-style \"aten::x, op_id = N\" ranges", "steps|per-op" },
    { "stall-ns", 0, 0, G_OPTION_ARG_INT64, &step_args.stall_ns, "CPU stall planted inside step --stall-step", "NS" },
    { "stall-step", 0, 0, G_OPTION_ARG_INT, &step_args.stall_step, "Step that stalls (default none)", "K" },
    { "step-lengths", 0, 0, G_OPTION_ARG_STRING, &step_args.step_lengths,
      "Kernel durations of step i scaled by P[i % n] percent", "P1,P2,..." },
    { "step-jitter", 0, 0, G_OPTION_ARG_INT, &step_args.step_jitter,
      "Step i launches i % K extra small kernels after its forward pass", "K" },
    { "extra-block-step", 0, 0, G_OPTION_ARG_INT, &step_args.extra_block_step,
      "Step that launches an extra block of 26 ops after its forward pass (default none)", "S" },
    { NULL }
  };
  g_option_context_add_main_entries (ctx, entries, NULL);
}

static gboolean
parse_step_options (Options *o)
{
  g_auto(GStrv) pct = g_strsplit (step_args.step_lengths ? step_args.step_lengths : "", ",", -1);

  o->per_op_nvtx = step_args.nvtx_style != NULL && g_str_equal (step_args.nvtx_style, "per-op");
  o->stall_ns = step_args.stall_ns;
  o->stall_step = step_args.stall_step;
  o->step_jitter = step_args.step_jitter;
  o->extra_block_step = step_args.extra_block_step;
  for (int i = 0; pct[i] != NULL && pct[i][0] != '\0'; i++)
    {
      gint64 v = g_ascii_strtoll (pct[i], NULL, 10);
      if (i >= (int) G_N_ELEMENTS (o->step_pct) || v < 1 || v > 10000)
        {
          g_printerr ("sightline-gen: --step-lengths takes up to 8 percents in 1-10000\n");
          return FALSE;
        }
      o->step_pct[o->n_step_pct++] = (int) v;
    }
  if ((step_args.nvtx_style != NULL && !o->per_op_nvtx && !g_str_equal (step_args.nvtx_style, "steps"))
      || o->stall_ns < 0 || o->step_jitter < 0)
    {
      g_printerr ("sightline-gen: --nvtx-style is steps or per-op, --stall-ns >= 0\n");
      return FALSE;
    }
  return TRUE;
}

/* --slow-kernel NAME=F: NAME a short kernel name of the model, F > 0. */
static gboolean
parse_slow_kernel (char *text, Options *o)
{
  char *eq = strrchr (text, '=');
  char *end = NULL;
  gboolean known = FALSE;

  if (eq != NULL)
    {
      *eq = '\0';
      o->slow_factor = g_ascii_strtod (eq + 1, &end);
    }
  for (int k = 0; k < N_KTYPES; k++)
    known |= g_str_equal (ktypes[k].short_name, text);
  if (eq == NULL || end == eq + 1 || *end != '\0' || !(o->slow_factor > 0 && o->slow_factor < 1000) || !known)
    {
      g_printerr ("sightline-gen: --slow-kernel expects NAME=FACTOR, NAME a short kernel name of the model "
                  "(e.g. flash_fwd_kernel) and FACTOR > 0\n");
      return FALSE;
    }
  o->slow_kernel = text;
  return TRUE;
}

/* --drop-kernel, --add-kernel, --rank, --late-step K:NS, --session-start-ns
 * (issue 15: planted changes between runs and between ranks). */
typedef struct {
  char  *drop, *add, *late;
  int    rank;
  gint64 session_start_ns;
  gboolean pack_tables;
} RankArgs;

static RankArgs rank_args = { NULL, NULL, NULL, -1, 0, FALSE };

static void
add_rank_options (GOptionContext *ctx)
{
  GOptionEntry entries[] = {
    { "drop-kernel", 0, 0, G_OPTION_ARG_STRING, &rank_args.drop,
      "Kernels of this short name never run (the others keep their durations)", "NAME" },
    { "add-kernel", 0, 0, G_OPTION_ARG_STRING, &rank_args.add,
      "A kernel of this new name (40 us) on every GPU after each step's optimizer", "NAME" },
    { "rank", 0, 0, G_OPTION_ARG_INT, &rank_args.rank, "RANK=R in the captured environment (META_DATA_CAPTURE)", "R" },
    { "late-step", 0, 0, G_OPTION_ARG_STRING, &rank_args.late,
      "Step K starts NS late and the gap after it is NS shorter (NS <= --gap-ns): a straggler", "K:NS" },
    { "session-start-ns", 0, 0, G_OPTION_ARG_INT64, &rank_args.session_start_ns,
      "Session start on the wall clock (utcEpochNs); events keep their wall-clock times", "NS" },
    { "pack-tables", 0, 0, G_OPTION_ARG_NONE, &rank_args.pack_tables,
      "Each table's pages in one stretch, as nsys export writes them (else the tables' pages interleave)", NULL },
    { NULL }
  };
  g_option_context_add_main_entries (ctx, entries, NULL);
}

static gboolean
parse_rank_options (Options *o)
{
  o->drop_kernel = rank_args.drop;
  o->add_kernel = rank_args.add;
  o->rank = rank_args.rank;
  o->late_step = -1;
  o->session_start_ns = rank_args.session_start_ns;
  o->pack_tables = rank_args.pack_tables;
  if (rank_args.late != NULL)
    {
      g_autofree char *text = rank_args.late;
      char tail;
      if (sscanf (text, "%d:%" G_GINT64_FORMAT "%c", &o->late_step, &o->late_ns, &tail) != 2 ||
          o->late_step < 0 || o->late_ns < 0 || o->late_ns > o->gap_ns)
        {
          g_printerr ("sightline-gen: --late-step takes K:NS, K >= 0 and 0 <= NS <= --gap-ns, not '%s'\n", text);
          return FALSE;
        }
    }
  if (o->session_start_ns < 0 || o->rank < -1)
    {
      g_printerr ("sightline-gen: --session-start-ns and --rank take values >= 0\n");
      return FALSE;
    }
  return TRUE;
}

/* --cuda-graph NxM and --async-ranges K (frees @graph). */
static gboolean
parse_graph_arg (char *graph, int async_ranges, Options *o)
{
  g_autofree char *text = graph;
  int nodes = 0, launches = 0;
  char tail;

  if (async_ranges < 0 || async_ranges > 1000)
    {
      g_printerr ("sightline-gen: --async-ranges takes 0 to 1000\n");
      return FALSE;
    }
  o->async_ranges = async_ranges;
  if (text == NULL)
    return TRUE;
  if (sscanf (text, "%dx%d%c", &nodes, &launches, &tail) != 2 || nodes < 1 || nodes > 1000 ||
      launches < 1 || launches > 100000)
    {
      g_printerr ("sightline-gen: --cuda-graph takes NxM (N kernels 1-1000, M launches 1-100000), not '%s'\n", text);
      return FALSE;
    }
  o->graph_nodes = nodes;
  o->graph_launches = launches;
  return TRUE;
}

static gboolean
parse_args (int argc, char **argv, Options *o)
{
  g_autofree char *layout = NULL;
  gint64 seed = 1;
  int gpus = 2, streams = 2, processes = 1, threads = 2, iterations = 10, depth = 5;
  gint64 kernels = 10000, n_memcpy = 0, n_memset = 0, bad = 0, gap = 0, copy_ns = 0;
  gboolean nccl = FALSE, no_gpu = FALSE, scope_ranges = FALSE;
  gboolean no_domain_names = FALSE, mixed_names = FALSE;
  char *truth = NULL, *slow = NULL, *graph = NULL;
  int async_ranges = 0;
  gint64 osrt_calls = 0, cpu_samples = 0, metrics_hz = 0;
  GOptionEntry entries[] = {
    { "layout", 0, 0, G_OPTION_ARG_STRING, &layout, "Schema layout: current (nsys 2026.2), 2022 (2022.2) or 2020", "current|2022|2020" },
    { "gpus", 0, 0, G_OPTION_ARG_INT, &gpus, "GPUs with activity (default 2)", "N" },
    { "streams", 0, 0, G_OPTION_ARG_INT, &streams, "Compute streams per GPU (default 2; NCCL adds one)", "N" },
    { "processes", 0, 0, G_OPTION_ARG_INT, &processes, "Processes (default 1)", "N" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "CPU threads per process (default 2; 0 = main, 1 = autograd, others load data)", "N" },
    { "iterations", 0, 0, G_OPTION_ARG_INT, &iterations, "Training iterations (default 10)", "N" },
    { "kernels", 0, 0, G_OPTION_ARG_INT64, &kernels, "Total kernel rows (default 10000)", "N" },
    { "nvtx-depth", 0, 0, G_OPTION_ARG_INT, &depth, "NVTX nesting levels (default 5; 0 = no NVTX table)", "N" },
    { "nccl", 0, 0, G_OPTION_ARG_NONE, &nccl, "Add NCCL all-reduce kernels on their own stream", NULL },
    { "memcpy", 0, 0, G_OPTION_ARG_INT64, &n_memcpy, "Total memcpy rows (default 0)", "N" },
    { "memset", 0, 0, G_OPTION_ARG_INT64, &n_memset, "Total memset rows (default 0)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "PRNG seed (default 1)", "S" },
    { "gap-ns", 0, 0, G_OPTION_ARG_INT64, &gap, "GPU idle gap planted between iterations (default 0)", "NS" },
    { "bad-rows", 0, 0, G_OPTION_ARG_INT64, &bad, "Rows of each bad kind (end < start, dangling string id) in KERNEL and RUNTIME", "N" },
    { "no-gpu", 0, 0, G_OPTION_ARG_NONE, &no_gpu, "CPU-only profile: no CUDA tables", NULL },
    { "scope-ranges", 0, 0, G_OPTION_ARG_NONE, &scope_ranges, "Name iteration 0 'warmup', the others 'step_N', softmax ops 'computing_softmax'", NULL },
    { "copy-ns", 0, 0, G_OPTION_ARG_INT64, &copy_ns, "A host-to-device copy this long per GPU before each step (a copy-bound GPU; default 0)", "NS" },
    { "async-ranges", 0, 0, G_OPTION_ARG_INT, &async_ranges, "K overlapping start/end ranges, then K end to end, on the first main thread (K lanes)", "K" },
    { "cuda-graph", 0, 0, G_OPTION_ARG_STRING, &graph, "A CUDA graph of N kernels launched M times in NVTX range graph_replay", "NxM" },
    { "mixed-name-storage", 0, 0, G_OPTION_ARG_NONE, &mixed_names, "Store every other NCCL range name inline (text) instead of by textId", NULL },
    { "no-domain-names", 0, 0, G_OPTION_ARG_NONE, &no_domain_names, "Leave out the NVTX domain-create rows (NCCL's ranges keep their domain id, as in sliced captures)", NULL },
    { "truth", 0, 0, G_OPTION_ARG_FILENAME, &truth, "Write a JSON manifest of what was generated", "FILE.json" },
    { "slow-kernel", 0, 0, G_OPTION_ARG_STRING, &slow, "Multiply the durations of kernels of this short name by F", "NAME=F" },
    { "osrt", 0, 0, G_OPTION_ARG_INT64, &osrt_calls, "N OS runtime calls per thread (OSRT_API, some nested, with OSRT_CALLCHAINS)", "N" },
    { "cpu-samples", 0, 0, G_OPTION_ARG_INT64, &cpu_samples, "N CPU samples over all threads (COMPOSITE_EVENTS + SAMPLING_CALLCHAINS, and N/4 SCHED_EVENTS)", "N" },
    { "gpu-metrics", 0, 0, G_OPTION_ARG_INT64, &metrics_hz, "GPU_METRICS: 6 counters per GPU sampled HZ times a second (nsys: 10000)", "HZ" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("OUT.sqlite - generate a synthetic Nsight Systems export");
  g_autoptr (GError) error = NULL;
  g_option_context_add_main_entries (ctx, entries, NULL);
  add_step_options (ctx);
  add_rank_options (ctx);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("sightline-gen: %s\n", error->message);
      return FALSE;
    }
  if (argc != 2)
    {
      g_printerr ("sightline-gen: expected exactly one output file (try --help)\n");
      return FALSE;
    }
  memset (o, 0, sizeof *o);
  o->out = argv[1];
  o->truth = truth;
  if (!layout || g_str_equal (layout, "current"))
    o->layout = LAYOUT_CURRENT;
  else if (g_str_equal (layout, "2022"))
    o->layout = LAYOUT_2022;
  else if (g_str_equal (layout, "2020"))
    o->layout = LAYOUT_2020;
  else
    {
      g_printerr ("sightline-gen: unknown layout '%s' (current, 2022 or 2020)\n", layout);
      return FALSE;
    }
  if (gpus < 1 || gpus > 64 || streams < 1 || streams > 32 || processes < 1 || processes > 256 ||
      threads < 1 || threads > 64 || iterations < 1 || depth < 0 || depth > 12 ||
      kernels < 0 || n_memcpy < 0 || n_memset < 0 || bad < 0 || gap < 0 || kernels > G_MAXUINT32 ||
      copy_ns < 0)
    {
      g_printerr ("sightline-gen: an argument is out of range (gpus 1-64, streams 1-32, processes 1-256, "
                  "threads 1-64, iterations >= 1, nvtx-depth 0-12, counts >= 0)\n");
      return FALSE;
    }
  o->gpus = gpus; o->streams = streams; o->processes = processes; o->threads = threads;
  o->iterations = iterations; o->nvtx_depth = depth; o->kernels = kernels; o->memcpy = n_memcpy;
  o->memset = n_memset; o->bad_rows = bad; o->gap_ns = gap; o->seed = (guint64) seed;
  o->nccl = nccl; o->no_gpu = no_gpu; o->scope_ranges = scope_ranges;
  if (!parse_step_options (o) || !parse_rank_options (o))
    return FALSE;
  if (slow != NULL && !parse_slow_kernel (slow, o))
    {
      g_free (slow);
      return FALSE;
    }
  o->copy_ns = copy_ns;
  if (!parse_graph_arg (graph, async_ranges, o))
    return FALSE;
  o->no_domain_names = no_domain_names;
  o->mixed_names = mixed_names;
  if (osrt_calls < 0 || cpu_samples < 0 || metrics_hz < 0 || metrics_hz > 1000000)
    {
      g_printerr ("sightline-gen: --osrt, --cpu-samples and --gpu-metrics take counts >= 0 (HZ at most 1000000)\n");
      return FALSE;
    }
  o->osrt_calls = osrt_calls;
  o->cpu_samples = cpu_samples;
  o->metrics_hz = metrics_hz;
  if (no_gpu)
    {
      o->memcpy = o->memset = o->bad_rows = 0;
      o->nccl = FALSE;
    }
  return TRUE;
}

static guint32
cpu_str (gpointer data, const char *value)
{
  return str_id (data, value);
}

/* --osrt, --cpu-samples, --gpu-metrics: over the span of what was generated,
 * on every thread of every process, for every GPU. */
static void
emit_cpu_side (Gen *g)
{
  g_autoptr(GArray) gtids = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) devices = g_array_new (FALSE, FALSE, sizeof (guint32));
  SlGenCpu c = { 0 };

  if (g->o.osrt_calls == 0 && g->o.cpu_samples == 0 && g->o.metrics_hz == 0)
    return;
  for (int p = 0; p < g->o.processes; p++)
    for (int i = 0; i < g->procs[p].n_threads; i++)
      g_array_append_val (gtids, g->procs[p].th[i].gtid);
  for (int d = 0; d < g->o.gpus && !g->o.no_gpu; d++)
    g_array_append_val (devices, g->dev[d].device);
  c.db = g->db;
  c.seed = g->o.seed;
  c.t0 = g->t_min;
  c.t1 = g->t_max;
  c.n_threads = gtids->len;
  c.gtids = (const guint64 *) gtids->data;
  c.n_devices = devices->len;
  c.devices = (const guint32 *) devices->data;
  c.osrt_calls = g->o.osrt_calls;
  c.samples = g->o.cpu_samples;
  c.metrics_hz = g->o.metrics_hz;
  c.str = cpu_str;
  c.str_data = g;
  sl_gen_cpu_emit (&c);
}

static void
gen_free (Gen *g)
{
  for (int l = 0; l < g->n_lanes; l++)
    {
      Lane *ln = &g->lanes[l];
      for (int s = 0; s <= g->o.streams; s++)
        g_array_unref (ln->track[s]);
      g_free (ln->track);
      g_free (ln->stream_id);
      g_free (ln->stream_free);
      g_free (ln->stream_used);
      g_free (ln->kq);
      g_free (ln->mq);
      g_free (ln->sq);
    }
  g_free (g->lanes);
  for (int p = 0; p < g->o.processes; p++)
    {
      g_free (g->procs[p].th);
      g_free (g->procs[p].lanes);
      g_free (g->procs[p].iters);
    }
  g_free (g->procs);
  for (int d = 0; d < g->o.gpus; d++)
    g_array_unref (g->dev[d].gaps);
  g_free (g->dev);
  g_hash_table_unref (g->str_ids);
  g_ptr_array_unref (g->str_values);
  g_array_unref (g->str_idv);
  g_free (g->o.truth);
  g_free (g->o.slow_kernel);
  g_free (g->o.drop_kernel);
  g_free (g->o.add_kernel);
}

int
main (int argc, char **argv)
{
  Gen g = { 0 };

  if (!parse_args (argc, argv, &g.o))
    return 2;

  g.rng = g.o.seed * G_GUINT64_CONSTANT (0x2545F4914F6CDD1D) + 1;
  g.str_rng = g.o.seed ^ G_GUINT64_CONSTANT (0x5DEECE66D);
  g.str_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g.str_values = g_ptr_array_new_with_free_func (g_free);
  g.str_idv = g_array_new (FALSE, FALSE, sizeof (guint32));
  g.next_str_id = 0;
  g.t_min = G_MAXINT64;
  g.t_max = G_MININT64;

  /* Write beside the target and rename: a half-written file never has its name. */
  g_autofree char *tmp = g_strdup_printf ("%s.tmp%d", g.o.out, (int) getpid ());
  g_unlink (tmp);
  /* One thread only: without SQLite's mutexes every bind and step is cheaper. */
  sqlite3_config (SQLITE_CONFIG_SINGLETHREAD);
  if (sqlite3_open_v2 (tmp, &g.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
    {
      g_printerr ("sightline-gen: cannot create %s: %s\n", tmp, g.db ? sqlite3_errmsg (g.db) : "out of memory");
      return 1;
    }
  exec_sql (&g, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE; "
                "PRAGMA cache_size=-262144; PRAGMA temp_store=MEMORY");
  exec_sql (&g, "BEGIN");

  plan (&g);
  intern_names (&g);
  create_tables (&g);
  prepare_statements (&g);
  insert_processes_and_threads (&g);
  insert_gpus (&g);

  gint64 t = G_GINT64_CONSTANT (20000000000) + (gint64) (g.o.seed % 1000) * 1000000;
  run_setup (&g, t);
  for (int p = 0; p < g.o.processes; p++)
    t = max64 (t, g.procs[p].th[0].cpu);
  t += 50000;

  for (int i = 0; i < g.o.iterations; i++)
    {
      gint64 late = i == g.o.late_step ? g.o.late_ns : 0;
      gint64 end = t;
      for (int p = 0; p < g.o.processes; p++)
        end = max64 (end, run_iteration (&g, &g.procs[p], i, t + late + p * rnd (&g, 5000, 15000)));
      finish_iteration (&g);
      /* Data loading on the CPU: nothing runs on any GPU meanwhile.  After
       * a late step the gap is shorter by as much: the next step starts on
       * time, as when the other ranks waited for this one. */
      t = end + g.o.gap_ns - late + rnd (&g, 20000, 10000);
    }
  if (g.o.async_ranges > 0)
    t = run_async_ranges (&g, t);
  if (g.o.graph_nodes > 0 && !g.o.no_gpu)
    t = run_cuda_graph (&g, t);

  insert_bad_rows (&g);
  emit_cpu_side (&g);
  insert_meta (&g);
  insert_strings (&g);

  batch_finish (&g, &g.b_kernel);
  mark_graph_kernels (&g);
  sqlite3_finalize (g.st_memcpy);
  sqlite3_finalize (g.st_memset);
  batch_finish (&g, &g.b_runtime);
  sqlite3_finalize (g.st_sync);
  batch_finish (&g, &g.b_nvtx);
  sqlite3_finalize (g.st_str);
  exec_sql (&g, "COMMIT");
  /* The events are inserted in time order, table after table row by row,
   * so the tables' pages interleave (a kernel page, an API page, ...);
   * nsys export writes one table after the other, and VACUUM rewrites
   * each table's pages in one stretch like that. */
  if (g.o.pack_tables)
    exec_sql (&g, "VACUUM");
  if (sqlite3_close (g.db) != SQLITE_OK)
    {
      g_printerr ("sightline-gen: closing %s failed\n", tmp);
      return 1;
    }
  if (g_rename (tmp, g.o.out) != 0)
    {
      g_printerr ("sightline-gen: cannot rename %s to %s: %s\n", tmp, g.o.out, g_strerror (errno));
      g_unlink (tmp);
      return 1;
    }

  if (g.o.truth)
    write_truth (&g);
  gen_free (&g);
  return 0;
}
