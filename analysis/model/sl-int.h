/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-int.h: saturating gint64 arithmetic and conversions for times,
 * durations and their sums.
 *
 * The loader keeps every time in [-2^62, 2^62), so the difference of two
 * times always fits in a gint64; a sum of many durations, a span plus a
 * margin or a time plus a user's offset need not.  Signed overflow is
 * undefined in C, so these clamp to G_MININT64 / G_MAXINT64 instead: an
 * absurd profile then shows absurd but finite numbers, never garbage. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* a + b, clamped to the gint64 range. */
static inline gint64
sl_sat_add (gint64 a, gint64 b)
{
  gint64 r;

  if (G_UNLIKELY (__builtin_add_overflow (a, b, &r)))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

/* a - b, clamped to the gint64 range. */
static inline gint64
sl_sat_sub (gint64 a, gint64 b)
{
  gint64 r;

  if (G_UNLIKELY (__builtin_sub_overflow (a, b, &r)))
    return b < 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

/* a * b, clamped to the gint64 range. */
static inline gint64
sl_sat_mul (gint64 a, gint64 b)
{
  gint64 r;

  if (G_UNLIKELY (__builtin_mul_overflow (a, b, &r)))
    return (a < 0) != (b < 0) ? G_MININT64 : G_MAXINT64;
  return r;
}

/* The length of [@start, @end]: @end - @start, clamped (a span of times the
 * loader did not check, such as a user's window, can exceed 2^63 ns). */
static inline gint64
sl_span (gint64 start, gint64 end)
{
  return sl_sat_sub (end, start);
}

/* A 128-bit sum (exact for up to 2^64 durations) clamped to gint64. */
static inline gint64
sl_sat_from_i128 (__int128 v)
{
  return v > G_MAXINT64 ? G_MAXINT64 : v < G_MININT64 ? G_MININT64 : (gint64) v;
}

/* |v| as unsigned: defined for G_MININT64 too, unlike -v. */
static inline guint64
sl_abs_u64 (gint64 v)
{
  return v < 0 ? 0 - (guint64) v : (guint64) v;
}

/* @v (a double computed from times: a pixel's time, a scaled duration)
 * truncated to a gint64 as a cast does, but clamped; NaN reads as 0.
 * Converting a double outside the gint64 range is undefined, and a 2^63 ns
 * span gets there. */
static inline gint64
sl_int64_from_double (double v)
{
  if (G_LIKELY (v > -9.2233720368547758e18 && v < 9.2233720368547758e18))
    return (gint64) v;
  if (v != v)
    return 0;
  return v > 0 ? G_MAXINT64 : G_MININT64;
}

G_END_DECLS
