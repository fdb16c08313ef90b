/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-work-scope.h: the part of a profile's GPU work a question is about, when it
 * is not a time window: work launched inside NVTX ranges whose name matches
 * a glob (or outside excluded ones), of some kernel categories, on some
 * streams.
 *
 * A scope is applied by building a subset profile (sl_profile_new_subset)
 * with only the GPU work in scope, so every analysis answers it unchanged.
 *
 * - NVTX: a GPU operation is "launched inside" a push/pop range when that
 *   range, on the launching thread, encloses the start of the CUDA API call
 *   that launched it (sl-attribution).  It is in scope when any enclosing
 *   range matches an --nvtx glob (nested ranges under a match count) and
 *   none matches an --exclude-nvtx glob.  Work without a launching call or
 *   outside every range is in scope only when there is no --nvtx glob.
 *   Globs are GPatternSpec ('*', '?'), case-sensitive, on the full name.
 *   The CPU side narrows the same way: API calls whose start is inside the
 *   scope's ranges, and the ranges in scope (a matching range and the ranges
 *   nested in it, minus excluded subtrees).
 * - Categories: a kernel's category as `categories` gives it with the same
 *   rules.  Copies and memsets have no kernel category: --category drops
 *   them, --exclude-category keeps them.
 * - Streams: the CUDA stream id of the work (streamId).
 * Every part must match something in the profile, else applying fails with
 * a message listing what exists. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-categories.h"

G_BEGIN_DECLS

#define SL_WORK_SCOPE_ERROR (sl_work_scope_error_quark ())
GQuark sl_work_scope_error_quark (void);

typedef enum {
  SL_WORK_SCOPE_ERROR_NO_MATCH,          /* a glob, category or stream matches nothing */
  SL_WORK_SCOPE_ERROR_UNKNOWN_CATEGORY,  /* not a category of the rules */
} SlWorkScopeError;

typedef struct _SlWorkScope SlWorkScope;

SlWorkScope   *sl_work_scope_new              (void);
void       sl_work_scope_free             (SlWorkScope *scope);
void       sl_work_scope_add_nvtx         (SlWorkScope *scope, const char *glob, gboolean exclude);
void       sl_work_scope_add_category     (SlWorkScope *scope, const char *name, gboolean exclude);
void       sl_work_scope_add_stream       (SlWorkScope *scope, guint32 stream);
/* The rules that give categories; NULL (the default) for the default ones.
 * Not copied: it must outlive the scope's use. */
void       sl_work_scope_set_categories   (SlWorkScope *scope, const SlCategories *categories);
/* TRUE when the scope restricts nothing. */
gboolean   sl_work_scope_is_empty         (const SlWorkScope *scope);

/* A subset of @profile with only the work in @scope (transfer full), or NULL
 * with @error when a part of the scope matches nothing in @profile. */
SlProfile *sl_work_scope_apply            (const SlWorkScope *scope, SlProfile *profile, GError **error);

/* {"nvtx": [...], "exclude_nvtx": [...], "category": [...],
 *  "exclude_category": [...], "stream": [...], "gpu": [...], "pid": [...],
 *  "range": [start_ns, end_ns] | null} of @scope and @filter (nullable). */
JsonNode  *sl_work_scope_to_json          (const SlWorkScope *scope, const SlFilter *filter);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlWorkScope, sl_work_scope_free)

G_END_DECLS
