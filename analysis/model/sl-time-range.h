/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-time-range.h: a span of capture-clock time, [start, end) in ns: what a
 * selection, a visible window, a scope or a bookmark covers. */
#pragma once

#include <glib-object.h>

#include "sl-int.h"

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

/* A time as a user writes it (--range): capture-clock nanoseconds, or with
 * @from_start ("+1.2s") an offset from the profile's start, as the
 * timeline's ruler shows it. */
typedef struct {
  gint64   ns;
  gboolean from_start;
} SlTimePoint;

/* Whole ns ("12345", "1e9", "1.5e9"), a number with a unit ns, us, µs, ms, s
 * ("39.98s"), either after "+" for an offset from the start.  Bare fractions
 * ("2.9") are refused; the error names the accepted forms. */
gboolean     sl_time_point_parse    (const char        *text,
                                     SlTimePoint       *out,
                                     GError           **error);
/* The capture-clock time of @point in a profile starting at @origin
 * (clamped: an offset can be up to 2^63 ns). */
static inline gint64
sl_time_point_resolve (const SlTimePoint *point, gint64 origin)
{
  return point->from_start ? sl_sat_add (origin, point->ns) : point->ns;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTimeRange, sl_time_range_free)

G_END_DECLS
