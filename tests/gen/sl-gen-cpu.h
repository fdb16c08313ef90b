/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-gen-cpu.h: the CPU side and GPU metrics of a synthetic export (issue
 * 12): OS runtime calls with nesting and call stacks, CPU samples with
 * their stacks, scheduling, GPU counters. */
#pragma once

#include <glib.h>
#include <sqlite3.h>

/* StringIds id of @value, interned by the generator. */
typedef guint32 (*SlGenStrFunc) (gpointer data, const char *value);

typedef struct {
  sqlite3        *db;
  guint64         seed;
  gint64          t0, t1;        /* the capture's span: rows fall inside */
  guint           n_threads;
  const guint64  *gtids;
  guint           n_devices;
  const guint32  *devices;
  gint64          osrt_calls;    /* outermost OS runtime calls per thread (nested ones come on top) */
  gint64          samples;       /* CPU samples over all threads */
  gint64          metrics_hz;    /* GPU metric samples per second per metric, 0: none */
  SlGenStrFunc    str;
  gpointer        str_data;
} SlGenCpu;

/* Creates the tables it fills (when the layout has not) and fills them. */
void sl_gen_cpu_emit (const SlGenCpu *c);
