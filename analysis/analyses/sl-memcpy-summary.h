/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-memcpy-summary.h: copies and memsets per kind ("sightline-cli memcpy"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"

G_BEGIN_DECLS

typedef struct {
  const char *kind;        /* "HtoD", "DtoH", "DtoD", "PtoP", ... or "memset" (static text) */
  gboolean    is_memset;
  guint8      copy_kind;   /* ENUM_CUDA_MEMCPY_OPER for memcpy rows */
  guint64     count;
  guint64     bytes;
  gint64      total_ns;
  double      gbps;        /* bytes / total_ns, i.e. 10^9 bytes per second; 0 when no time */
} SlMemcpyRow;

typedef struct {
  guint        n_rows;
  SlMemcpyRow *rows;       /* by total time descending, then kind */
  guint64      count;
  guint64      bytes;
  gint64       total_ns;
} SlMemcpySummary;

SlMemcpySummary *sl_memcpy_summary_compute (const SlProfile *profile, const SlFilter *filter);
void             sl_memcpy_summary_free    (SlMemcpySummary *summary);
/* {"operations": [{"kind", "count", "bytes", "total_ns", "gbps"}]} */
JsonNode        *sl_memcpy_summary_to_json (const SlMemcpySummary *summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlMemcpySummary, sl_memcpy_summary_free)

G_END_DECLS
