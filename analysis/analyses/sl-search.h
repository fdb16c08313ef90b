/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-search.h: kernels and NVTX ranges by name ("sightline-cli search PATTERN"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"

G_BEGIN_DECLS

typedef enum {
  SL_SEARCH_KERNEL,
  SL_SEARCH_RANGE,
  SL_SEARCH_API,             /* a CUDA API call (the search page; not the CLI) */
} SlSearchKind;

typedef struct {
  SlSearchKind kind;
  char        *name;
  gint64       start_ns;
  gint64       end_ns;
  guint32      pid;
  gboolean     has_tid;
  guint32      tid;          /* range: its thread; kernel: the launching thread */
  guint32      device;       /* kernels */
  guint32      stream;       /* kernels: CUDA stream id */
  guint32      owner;        /* kernel: stream index; range, API call: thread index */
  guint32      index;        /* index in that stream's kernels / thread's ranges / profile->api */
  gboolean     startend;     /* a start/end range (not nested) */
  char       **path;         /* enclosing NVTX push/pop ranges, outermost first */
} SlSearchMatch;

typedef struct {
  char          *pattern;
  guint64        total;      /* all matches in the filter */
  guint          n_matches;
  SlSearchMatch *matches;    /* the first ones by start time, at most the limit */
} SlSearch;

/* @pattern: a case-insensitive substring, or /REGEX/ (append i for any case:
 * /regex/i).  Kernels match by short or demangled name.  Returns NULL with
 * @error for an invalid regex.  @limit 0 = no limit. */
SlSearch *sl_search_compute (const SlProfile *profile, const SlFilter *filter,
                             const char *pattern, guint limit, GError **error);
void      sl_search_free    (SlSearch *search);
/* What one match shows (name, times, where, NVTX path) for kernel @index
 * of stream @owner, range @index of thread @owner (@startend: of its
 * start/end ranges) or API call @index (global) of thread @owner.  Free
 * its members with sl_search_match_clear(). */
void      sl_search_match_fill  (const SlProfile *profile, SlSearchKind kind, gboolean startend,
                                 guint32 owner, guint32 index, SlSearchMatch *out);
void      sl_search_match_clear (SlSearchMatch *match);
/* {"pattern", "total", "matches": [{"kind": "kernel"|"range", "name",
 *  "start_ns", "end_ns", "dur_ns", "pid", "tid", "device", "stream", "path": [str]}]}
 *  (device and stream are null for ranges, tid null when unknown) */
JsonNode *sl_search_to_json (const SlSearch *search);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSearch, sl_search_free)

G_END_DECLS
