/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-time-range.h: a span of capture-clock time, [start, end) in ns: what a
 * selection, a visible window, a scope or a bookmark covers. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct {
  gint64 start;
  gint64 end;
} SlTimeRange;

#define SL_TYPE_TIME_RANGE (sl_time_range_get_type ())
GType        sl_time_range_get_type (void) G_GNUC_CONST;

/* (transfer full) */
SlTimeRange *sl_time_range_new      (gint64             start,
                                     gint64             end);
SlTimeRange *sl_time_range_copy     (const SlTimeRange *range);
void         sl_time_range_free     (SlTimeRange       *range);
/* Both NULL, or both set and equal. */
gboolean     sl_time_range_equal    (const SlTimeRange *a,
                                     const SlTimeRange *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTimeRange, sl_time_range_free)

G_END_DECLS
