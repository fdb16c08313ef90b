/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-test-util.h: shared helpers of the analysis tests: real profiles,
 * independent SQL on them, and generated fixtures with their truth. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "sightline.h"

G_BEGIN_DECLS

/* The real exports in $SL_PROFILES_DIR, sorted (transfer full, NULL-terminated). */
char      **sl_test_real_profiles   (void);
char       *sl_test_real_profile    (const char *name);
SlProfile  *sl_test_load            (const char *path);

/* Read-only, immutable connection: the test never writes the file (temp
 * tables live in SQLite's temp database). */
sqlite3    *sl_test_db_open         (const char *path);
gboolean    sl_test_db_has_table    (sqlite3 *db, const char *table);
gboolean    sl_test_db_has_column   (sqlite3 *db, const char *table, const char *column);
gint64      sl_test_db_int          (sqlite3 *db, const char *sql);
void        sl_test_db_exec         (sqlite3 *db, const char *sql);
/* Builds TEMP tables the checks join on:
 *   t_api(pid, tid, gtid, corr, start, end, name)  CUDA API rows, eventClass 0/1
 *   t_gpu(kind, pid, device, stream, corr, start, end, name)  kernels (kind 0,
 *         short name), memcpy (1), memset (2)
 *   t_nvtx(id, gtid, pid, tid, start, end, name, pushpop)  ranges 59/60 with an end
 * (created once per connection). */
void        sl_test_db_prepare      (sqlite3 *db);

/* Generated fixture: runs $SL_GEN OUT --truth OUT.json ARGS once per @name
 * into a per-process temporary directory. */
typedef struct {
  char       *path;
  JsonParser *parser;
  JsonObject *truth;
} SlTestFixture;

const SlTestFixture *sl_test_fixture (const char *name, const char *args);
/* Deletes the temporary directory (call at the end of main). */
void        sl_test_cleanup         (void);

/* Statistics computed the naive way (sort, two-pass variance), for checks. */
typedef struct {
  guint64 n;
  gint64  total, min, max;
  double  median, stddev, mean;
} SlTestStats;

void        sl_test_stats           (GArray *values /* gint64, sorted in place */, SlTestStats *out);
void        sl_test_assert_stats    (const SlStats *got, const SlTestStats *want, const char *what);

G_END_DECLS
