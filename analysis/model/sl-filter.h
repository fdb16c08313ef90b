/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-filter.h: what part of a profile an analysis looks at.
 *
 * A filter is a set of GPUs (device ids), a set of processes (pids) and a
 * time window.  An event is inside the window when its start is in
 * [start, end).  Empty sets mean "all".  A NULL filter matches everything.
 * CPU-side events (API calls, NVTX ranges) have no device: a GPU set keeps
 * the processes that have GPU activity on one of those GPUs. */
#pragma once

#include <glib.h>
#include "sl-profile.h"

G_BEGIN_DECLS

typedef struct {
  GArray   *gpus;          /* guint32 device ids; empty = all */
  GArray   *pids;          /* guint32; empty = all */
  gboolean  has_range;
  gint64    range_start;   /* inclusive */
  gint64    range_end;     /* exclusive */
} SlFilter;

SlFilter *sl_filter_new        (void);
SlFilter *sl_filter_copy       (const SlFilter *filter);
void      sl_filter_free       (SlFilter *filter);
void      sl_filter_add_gpu    (SlFilter *filter, guint32 device);
void      sl_filter_add_pid    (SlFilter *filter, guint32 pid);
void      sl_filter_set_range  (SlFilter *filter, gint64 start, gint64 end);
/* TRUE when the filter restricts nothing. */
gboolean  sl_filter_is_empty   (const SlFilter *filter);

gboolean  sl_filter_match_device  (const SlFilter *filter, guint32 device);
gboolean  sl_filter_match_pid     (const SlFilter *filter, guint32 pid);
gboolean  sl_filter_match_time    (const SlFilter *filter, gint64 start);
/* Device and process of a GPU stream. */
gboolean  sl_filter_match_stream  (const SlFilter *filter, const SlStream *stream);
/* Process filter plus, when GPUs are chosen, "has a stream on one of them". */
gboolean  sl_filter_match_process (const SlFilter *filter, const SlProfile *profile, guint32 pid);
gboolean  sl_filter_match_thread  (const SlFilter *filter, const SlProfile *profile, guint32 thread);

/* The events of spans[lo, hi) (sorted by start) whose start is inside the
 * window: [*first, *last). */
void      sl_filter_span_bounds   (const SlFilter *filter, const SlSpans *spans,
                                   guint lo, guint hi, guint *first, guint *last);

/* Parses a capture-clock time: a bare integer is nanoseconds; suffixes ns,
 * us (or µs), ms, s with an optional decimal fraction ("39.98s").  Exact,
 * no floating point.  Returns FALSE with @error (G_OPTION_ERROR_BAD_VALUE). */
gboolean  sl_parse_time           (const char *text, gint64 *out, GError **error);
/* Same for a duration; also accepts "0". */
#define   sl_parse_duration       sl_parse_time

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlFilter, sl_filter_free)

G_END_DECLS
