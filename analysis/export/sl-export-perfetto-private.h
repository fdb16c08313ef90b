/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-perfetto-private.h: the state of one Perfetto (Chrome Trace
 * Event Format) export, shared by its GPU and CPU halves. */
#pragma once

#include "sl-export-private.h"

G_BEGIN_DECLS

typedef struct {
  SlExportSink           sink;
  SlProfile             *profile;
  const SlExportOptions *options;
  SlNvtxPaths           *paths;        /* nullable: no NVTX loaded */
  gboolean               first;        /* no event written yet (no comma before it) */
  gint64                 gpu_pid_base; /* GPU i is process gpu_pid_base + i: past every real pid */
  guint64                flows;        /* flow ids handed out */
  SlCellCache           *kernel_names; /* by function */
  SlCellCache           *path_cells;   /* by range */
  SlCellCache           *strings;      /* by string id: API and NVTX names */
  SlExportLaunch         launch;       /* kernels' grid, block, registers, shared memory */
} SlPerfetto;

/* Synthetic threads holding a thread's start/end NVTX ranges, one per lane
 * (they overlap, and a Chrome trace thread needs nested slices): far above
 * Linux's largest tid (2^22). */
#define SL_PERFETTO_SE_TID(thread, lane) (1000000000 + (gint64) (thread) * 64 + MIN ((lane), 63))

/* Starts an event: `{"ph":PH,"cat":CAT,"pid":PID,"tid":TID,"ts":TS`, after
 * a comma when it is not the first; the caller adds members and "}". */
void     sl_perfetto_begin  (SlPerfetto *p, const char *ph, const char *cat, gint64 pid,
                             gint64 tid, gint64 ts_ns);
/* `,"name":NAME` and `,"dur":DUR`. */
void     sl_perfetto_name   (SlPerfetto *p, const char *name);
void     sl_perfetto_dur    (SlPerfetto *p, gint64 dur_ns);
/* `,"name":` and the escaped name, through @cache by @key. */
void     sl_perfetto_name_cached (SlPerfetto *p, SlCellCache *cache, guint32 key, const char *name);
/* A metadata event ("process_name", ...) with one argument. */
void     sl_perfetto_meta   (SlPerfetto *p, const char *what, gint64 pid, gint64 tid,
                             const char *arg, const char *text, gint64 number);
/* Whether API call @api is exported (its thread and start are in scope). */
gboolean sl_perfetto_api_in_scope (SlPerfetto *p, guint32 api, guint32 *thread);

/* The CPU side: every thread's API calls, NVTX ranges and marks; then the
 * bookmarks.  FALSE once cancelled or failed. */
gboolean sl_perfetto_write_cpu       (SlPerfetto *p);
gboolean sl_perfetto_write_bookmarks (SlPerfetto *p);

G_END_DECLS
