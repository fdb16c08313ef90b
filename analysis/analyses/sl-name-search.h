/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-name-search.h: every kernel, NVTX range and CUDA API call whose name
 * matches a pattern, grouped by name: the application's search page.
 *
 * Kernels and ranges match exactly as in "sightline-cli search" (the same
 * SlNameMatch); API calls are added.  Each distinct name is matched once,
 * then the events whose name id matched are collected: 10 M kernels take a
 * few tens of milliseconds. */
#pragma once

#include <gio/gio.h>
#include "sl-profile.h"
#include "sl-filter.h"

G_BEGIN_DECLS

/* In the order the timeline's event kinds sort (kernel, API, NVTX, NVTX
 * start/end), so the hits are in the order of a highlight. */
typedef enum {
  SL_NAME_HIT_KERNEL,
  SL_NAME_HIT_API,
  SL_NAME_HIT_RANGE,
  SL_NAME_HIT_STARTEND,
} SlNameHitKind;

typedef struct {
  gint64  start;
  guint32 owner;     /* kernel: stream index; otherwise thread index */
  guint32 index;     /* in the stream's kernels, profile->api, the thread's ranges */
  guint32 group;     /* index into SlNameSearch.groups */
  guint32 kind;      /* SlNameHitKind */
} SlNameHit;

typedef enum {
  SL_NAME_GROUP_KERNEL,
  SL_NAME_GROUP_RANGE,
  SL_NAME_GROUP_API,
} SlNameGroupKind;

typedef struct {
  SlNameGroupKind kind;
  guint32         name;      /* string id: kernel short name, range or API name */
  guint           n;         /* its hits: order[first .. first + n) */
  guint           first;
  gint64          total_ns;  /* summed durations */
} SlNameGroup;

typedef struct {
  char        *pattern;
  guint        n_hits;
  SlNameHit   *hits;         /* every match, by (start, kind, owner, index) */
  guint       *order;        /* hit indexes, group after group, each by start */
  guint        n_groups;
  SlNameGroup *groups;       /* by total time, longest first */
  guint        n_kernels, n_ranges, n_api;
} SlNameSearch;

/* Matches of @pattern (as sl_search_compute: substring in any case,
 * /REGEX/ or /REGEX/i) among kernels (short or demangled name), NVTX
 * ranges and CUDA API calls inside @filter (nullable).  NULL with @error
 * for an invalid regex or when @cancellable was cancelled. */
SlNameSearch *sl_name_search_compute (const SlProfile *profile,
                                      const SlFilter  *filter,
                                      const char      *pattern,
                                      GCancellable    *cancellable,
                                      GError         **error);
void          sl_name_search_free    (SlNameSearch    *search);
/* The end (ns) of a hit. */
gint64        sl_name_search_hit_end (const SlProfile *profile,
                                      const SlNameHit *hit);
/* A group's display name (the kernel's short name). */
const char   *sl_name_search_group_name (const SlProfile   *profile,
                                         const SlNameGroup *group);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlNameSearch, sl_name_search_free)

/* Internal, for tests: @v (@n hits, starts within [@tmin, @tmax]) sorted
 * in place by start, kind, owner and index, with @scratch (room for @n). */
void          _sl_name_hits_sort     (SlNameHit       *v,
                                      guint            n,
                                      gint64           tmin,
                                      gint64           tmax,
                                      SlNameHit       *scratch);

/* Internal, for tests: the kernels from which the collection runs in two
 * parts on two cores (default 1 000 000). */
void          _sl_name_search_set_parallel_kernels (guint64 kernels);

G_END_DECLS
