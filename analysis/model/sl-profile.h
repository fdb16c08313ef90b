/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-profile.h: the immutable in-memory model of one Nsight Systems export.
 *
 * Everything is plain C arrays (struct of arrays), built once by the loader
 * and never changed afterwards, so any number of threads may read a profile
 * without locks.  Times are capture-clock nanoseconds as in the file.
 */
#pragma once

#include <glib-object.h>

#include "sl-spans.h"
#include "sl-strings.h"

G_BEGIN_DECLS

/* ---- GPU operations ---------------------------------------------------- */

/* A distinct kernel function: names are string ids (never SL_NONE: a
 * missing one falls back to the other).  The mangled name is read lazily
 * with sl_profile_get_kernel_details(). */
typedef struct {
  guint32 short_name;
  guint32 demangled_name;
} SlKernelFunc;

typedef struct {
  SlSpans  spans;
  guint32 *func;           /* index into SlProfile.funcs */
  guint32 *api;            /* global index into SlProfile.api, SL_NONE if no launching call */
  /* Where each kernel is in CUPTI_ACTIVITY_KIND_KERNEL, for its details
   * read later (sl_kernels_rowid_range): a stream stored in start order in
   * the file keeps only the rowid of every SL_ROWID_STEP-th kernel and of
   * the last (its rowids rise with the index: 4 bytes per kernel saved);
   * a stream the loader had to sort keeps every kernel's.  SL_NONE: not
   * known (rowid beyond 32 bits, or a subset). */
  guint32 *rowid;          /* every kernel's, or NULL */
  guint32 *rowid_marks;    /* n / SL_ROWID_STEP + 2 entries when rowid is NULL, or NULL */
  /* A kernel's correlationId is its launching call's (api.corr[api]); only
   * kernels without one (cut captures) keep theirs here, sorted by index.
   * Read it with sl_kernels_corr().  This keeps a kernel at 24 bytes. */
  guint    n_unlinked;
  guint32 *unlinked_index;
  guint32 *unlinked_corr;
} SlKernels;

typedef enum {
  SL_COPY_MEMCPY,
  SL_COPY_MEMSET,
} SlCopyType;

typedef struct {
  SlSpans  spans;
  guint8  *kind;           /* memcpy: copyKind (ENUM_CUDA_MEMCPY_OPER); memset: memKind */
  guint64 *bytes;
  guint32 *corr;
  guint32 *api;            /* global index into SlProfile.api or SL_NONE */
} SlCopies;

/* One GPU timeline row: (process, device, context, stream). */
typedef struct {
  guint32   pid;
  guint32   device;
  guint32   context;
  guint32   stream;
  guint32   gpu;           /* index into SlProfile.gpus */
  SlKernels kernels;
  SlCopies  memcpy;
  SlCopies  memset;
} SlStream;

typedef struct {
  guint32  device;         /* deviceId as in activity tables */
  char    *name;           /* nullable */
  gint64   sm_count;       /* -1 when unknown */
  gint64   memory_bytes;   /* -1 when unknown */
  gboolean has_activity;   /* kernels, memcpy or memset seen on it */
  guint64  n_kernels;
  guint    n_streams;
  guint32 *streams;        /* indexes into SlProfile.streams, sorted by stream id */
} SlGpu;

typedef struct {
  SlSpans  spans;
  guint32 *device;
  guint32 *stream;         /* SL_NONE when not applicable (context syncs) */
  guint32 *pid;
  guint8  *sync_type;      /* ENUM_CUPTI_SYNC_TYPE */
  guint32 *corr;
  guint32 *api;
} SlSyncs;

/* ---- CPU side ---------------------------------------------------------- */

/* All CUDA runtime + driver API calls of the profile in one array: each
 * thread's calls are contiguous (SlThread.api_first/api_count) and sorted by
 * start, so a kernel's launching call is one guint32. */
/* Calls per block of packed correlation ids (SlApiCalls.corr_base). */
#define SL_CORR_STEP 64

typedef struct {
  SlSpans  spans;
  guint32 *name;           /* string id */
  /* Each call's correlationId; read it with sl_api_corr().  CUPTI numbers
   * a process's calls in order, so the ids of a block of SL_CORR_STEP
   * neighbouring calls lie close together: the loader keeps the block's
   * smallest (corr_base) and each call's distance from it (corr_delta),
   * 2 bytes a call instead of 4.  A call too far from its block's base
   * (a block spanning two processes) has corr_delta G_MAXUINT16 and its id
   * in corr_far, sorted by call index.  Without corr_delta (a profile
   * built by hand), corr holds every call's id. */
  guint32 *corr;
  guint32 *corr_base;      /* n / SL_CORR_STEP + 1 entries */
  guint16 *corr_delta;
  guint    n_corr_far;
  guint32 *corr_far_index;
  guint32 *corr_far;
} SlApiCalls;

typedef enum {
  SL_NVTX_PUSHPOP,
  SL_NVTX_STARTEND,
} SlNvtxKind;

/* NVTX ranges of one thread, sorted by (depth, start): depth_first[d] ..
 * depth_first[d+1] is the sorted row of depth d.  Push/pop ranges nest, and
 * depth is their nesting depth; start/end ranges overlap freely, and depth
 * is their lane (sl_lanes_assign): the ranges of one lane never overlap. */
typedef struct {
  SlSpans  spans;
  guint32 *name;           /* string id */
  guint32 *parent;         /* index in this array, SL_NONE at depth 0 / start-end */
  /* A range's depth (0 = outermost; start/end ranges: lane) is the row
   * of depth_first it lies in: sl_nvtx_ranges_depth(). */
  guint    n_depths;
  guint   *depth_first;    /* n_depths + 1 entries */
  /* A range's color and domain: a thread's ranges use a few (color,
   * domain) pairs, its styles, so each range keeps the index of its pair,
   * 2 bytes instead of 6 (a thread with more than 65536 pairs keeps 4-byte
   * indexes in style_wide).  Read them with sl_nvtx_ranges_color() and
   * sl_nvtx_ranges_domain(); neither index array: no color, domain 0. */
  guint16 *style;
  guint32 *style_wide;
  guint    n_styles;
  guint32 *style_color;    /* ARGB, 0 when none */
  guint16 *style_domain;   /* domainId as in NVTX_EVENTS (0 = default domain) */
  /* The loader's: each range's color and domain as read, until the
   * ranges are nested (NULL in a loaded profile). */
  guint32 *load_color;
  guint16 *load_domain;
} SlNvtxRanges;

/* The depth of range @i of @r (its lane for start/end ranges). */
static inline guint
sl_nvtx_ranges_depth (const SlNvtxRanges *r, guint i)
{
  guint lo = 0, hi = r->n_depths;   /* depth_first[lo] <= i < depth_first[hi] */

  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (r->depth_first[mid] <= i)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* The style index of range @i of @r; n_styles or more when it has none. */
static inline guint
_sl_nvtx_ranges_style (const SlNvtxRanges *r, guint i)
{
  return r->style != NULL ? r->style[i] : r->style_wide != NULL ? r->style_wide[i] : G_MAXUINT;
}

/* ARGB, 0 when none. */
static inline guint32
sl_nvtx_ranges_color (const SlNvtxRanges *r, guint i)
{
  guint s = _sl_nvtx_ranges_style (r, i);

  return s < r->n_styles ? r->style_color[s] : 0;
}

/* domainId as in NVTX_EVENTS (0 = default domain). */
static inline guint16
sl_nvtx_ranges_domain (const SlNvtxRanges *r, guint i)
{
  guint s = _sl_nvtx_ranges_style (r, i);

  return s < r->n_styles ? r->style_domain[s] : 0;
}

typedef struct {
  guint    n;
  gint64  *time;
  guint32 *name;
  guint32 *color;
  guint16 *domain;
} SlNvtxMarks;

typedef struct {
  guint64      global_tid;
  guint32      pid;
  guint32      tid;
  guint32      name;       /* string id or SL_NONE */
  guint32      process;    /* index into SlProfile.processes */
  guint        api_first;  /* slice of SlProfile.api */
  guint        api_count;
  SlNvtxRanges nvtx;       /* push/pop, nested */
  SlNvtxRanges nvtx_startend; /* start/end ranges started on this thread (may end elsewhere) */
  SlNvtxMarks  marks;
} SlThread;

typedef struct {
  guint32  pid;
  guint32  name;           /* string id or SL_NONE */
  guint    n_threads;
  guint32 *threads;        /* indexes into SlProfile.threads, sorted by tid */
} SlProcess;

typedef struct {
  guint32 pid;
  guint32 id;              /* domainId in NVTX_EVENTS; 0 is the default domain */
  guint32 name;            /* string id or SL_NONE */
} SlNvtxDomain;

/* ---- the profile ------------------------------------------------------- */

/* The parts of an export a profile holds: a command loads only what it
 * needs (sightline-cli kernels reads the kernel table and the strings), and
 * the application shows the GPU rows before the CPU side is in.  Arrays of
 * a part that was not loaded are empty. */
typedef enum {
  SL_PART_KERNELS = 1 << 0,   /* CUPTI_ACTIVITY_KIND_KERNEL */
  SL_PART_COPIES  = 1 << 1,   /* MEMCPY and MEMSET */
  SL_PART_API     = 1 << 2,   /* CUDA runtime and driver calls; links GPU work to them */
  SL_PART_NVTX    = 1 << 3,   /* NVTX ranges, marks, domains */
  SL_PART_SYNCS   = 1 << 4,   /* SYNCHRONIZATION */
  SL_PARTS_GPU    = SL_PART_KERNELS | SL_PART_COPIES,
  SL_PARTS_ALL    = 0x1f,
} SlParts;

typedef struct {
  guint64 kernels;
  guint64 memcpy;
  guint64 memset;
  guint64 cuda_api;        /* runtime + driver, backtrace duplicates removed */
  guint64 nvtx_ranges;     /* push/pop + start/end */
  guint64 nvtx_marks;
  guint64 syncs;
  guint64 kernels_linked;  /* kernels whose launching API call was found */
  guint64 skipped_rows;    /* end < start, dangling string ids, ... */
} SlCounts;

typedef struct _SlProfile SlProfile;

struct _SlProfile {
  char         *path;
  char         *nsys_version;     /* nullable */
  char         *schema_version;   /* nullable */
  gint64        start_ns;         /* earliest start over loaded events */
  gint64        end_ns;           /* latest end */
  gint64        session_utc_ns;   /* TARGET_INFO_SESSION_START_TIME.utcEpochNs, 0 when absent */

  SlStrings    *strings;
  guint         n_funcs;
  SlKernelFunc *funcs;

  guint         n_gpus;           /* every GPU known, sorted by device id */
  SlGpu        *gpus;
  guint         n_streams;        /* sorted by (device, pid, context, stream) */
  SlStream     *streams;
  guint         n_processes;      /* processes with loaded events, sorted by pid */
  SlProcess    *processes;
  guint         n_threads;        /* threads with loaded events, sorted by (pid, tid) */
  SlThread     *threads;
  guint         n_domains;
  SlNvtxDomain *domains;

  SlApiCalls    api;
  SlSyncs       syncs;
  SlCounts      counts;
  GPtrArray    *warnings;         /* char*, human-readable */

  SlParts       parts;            /* what was loaded */

  /*< private >*/
  GPtrArray    *arenas;           /* SlArena*: the memory of the arrays, [0] its own */
  int           source_fd;        /* the file it was read from, for details; -1 when none */
  SlProfile    *parent;           /* a subset's: the CPU side and strings are its */
  guint8       *api_kept;         /* a subset's CPU scope, per API call; NULL: all */
  guint8       *ranges_kept;      /* per push/pop range, thread after thread; NULL: all */
  guint        *ranges_base;      /* per thread: its first entry in ranges_kept */
  gint          ref_count;
  GRecMutex     derived_lock;
  GHashTable   *derived;          /* key -> data built by sl_profile_get_derived() */
};

/* ---- errors ------------------------------------------------------------ */

#define SL_PROFILE_ERROR (sl_profile_error_quark ())
GQuark sl_profile_error_quark (void);

typedef enum {
  SL_PROFILE_ERROR_NOT_FOUND,      /* missing file */
  SL_PROFILE_ERROR_IS_DIRECTORY,
  SL_PROFILE_ERROR_PERMISSION,     /* no read permission */
  SL_PROFILE_ERROR_EMPTY,          /* zero-byte file */
  SL_PROFILE_ERROR_NOT_SQLITE,     /* text, PNG, anything else */
  SL_PROFILE_ERROR_NOT_NSIGHT,     /* SQLite, but not an Nsight export */
  SL_PROFILE_ERROR_MISSING_TABLE,  /* an Nsight export lacking a table it needs (StringIds) */
  SL_PROFILE_ERROR_CORRUPT,        /* truncated or damaged database */
  SL_PROFILE_ERROR_NSYS_REP,       /* .nsys-rep and no nsys to convert it */
  SL_PROFILE_ERROR_CONVERT_FAILED, /* nsys export failed */
  SL_PROFILE_ERROR_CANCELLED,
  SL_PROFILE_ERROR_FAILED,
  SL_PROFILE_ERROR_CHANGED,        /* written by someone else while it was read */
} SlProfileError;

#define SL_TYPE_PROFILE (sl_profile_get_type ())
GType       sl_profile_get_type  (void) G_GNUC_CONST;
SlProfile  *sl_profile_ref       (SlProfile *profile);
void        sl_profile_unref     (SlProfile *profile);

typedef enum {
  SL_WORK_KERNEL,
  SL_WORK_MEMCPY,
  SL_WORK_MEMSET,
} SlWorkKind;

/* Whether event @index of @kind on stream @stream of @profile is kept. */
typedef gboolean (*SlWorkKeepFunc) (const SlProfile *profile,
                                    guint32          stream,
                                    SlWorkKind       kind,
                                    guint            index,
                                    gpointer         data);

/* A profile with only the GPU work of @parent that @keep keeps, for scopes
 * that are not time windows (NVTX ranges, kernel categories, streams): every
 * analysis runs on it unchanged.  Streams, threads, API calls, NVTX ranges
 * and strings keep their indexes; GPU counts are recomputed; the time range
 * stays the parent's.  Shares all but the GPU work with @parent and keeps it
 * alive.  Returns (transfer full). */
SlProfile  *sl_profile_new_subset (SlProfile      *parent,
                                   SlWorkKeepFunc  keep,
                                   gpointer        data);
/* Narrows the CPU side a subset shows, for scopes by NVTX range: @api_kept
 * has one flag per API call, @ranges_kept one per push/pop range (thread
 * after thread, each in its nvtx order); either NULL for all.  Takes both. */
void        sl_profile_subset_set_cpu_scope (SlProfile *subset, guint8 *api_kept, guint8 *ranges_kept);
/* Whether API call @index / push/pop range @index of @thread is in the
 * profile's scope (always TRUE outside scoped subsets). */
gboolean    sl_profile_api_kept       (const SlProfile *profile, guint index);
gboolean    sl_profile_range_kept     (const SlProfile *profile, guint thread, guint index);
/* Whether some API call is out of the profile's scope (FALSE: every call
 * is kept, so that a walk need not ask about each). */
gboolean    sl_profile_api_scoped     (const SlProfile *profile);

/* Data computed from a profile once and kept with it, such as an
 * analysis's index.  The first caller for @key runs @build (under a lock:
 * concurrent callers wait for that one result); the data lives as long as
 * the profile and is freed with @destroy.  @key is a static string.
 * Returns (transfer none). */
gpointer    sl_profile_get_derived    (const SlProfile *profile,
                                       const char      *key,
                                       gpointer       (*build) (const SlProfile *profile),
                                       GDestroyNotify   destroy);

/* Thread, process, stream lookups.  Return SL_NONE when absent. */
guint32     sl_profile_find_thread    (const SlProfile *profile, guint64 global_tid);
guint32     sl_profile_find_process   (const SlProfile *profile, guint32 pid);
/* The thread that made API call @api_index (binary search on slices). */
guint32     sl_profile_api_thread     (const SlProfile *profile, guint32 api_index);

#define SL_ROWID_STEP 64

/* The rows of CUPTI_ACTIVITY_KIND_KERNEL that hold kernel @i of @kernels:
 * rowid in [*first, *last], and the row is the first there of the kernel's
 * stream with its start and end.  FALSE when not known. */
gboolean    sl_kernels_rowid_range    (const SlKernels *kernels, guint i, gint64 *first, gint64 *last);

/* The correlationId of kernel @i of @kernels. */
guint32     sl_kernels_corr           (const SlProfile *profile, const SlKernels *kernels, guint i);
guint32     sl_api_corr               (const SlApiCalls *api, guint i);

/* Display helpers: never NULL, point into the string table or static text. */
const char *sl_profile_kernel_name    (const SlProfile *profile, guint32 func, gboolean demangled);
const char *sl_profile_thread_name    (const SlProfile *profile, guint32 thread);
const char *sl_profile_process_name   (const SlProfile *profile, guint32 process);
const char *sl_profile_domain_name    (const SlProfile *profile, guint32 pid, guint16 domain);
/* "HtoD", "DtoH", ... for a memcpy copyKind. */
const char *sl_memcpy_kind_name       (guint8 kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlProfile, sl_profile_unref)

G_END_DECLS
