/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-format.c: human-readable durations, times, bytes and counts. */
#include "sl-format.h"

#include <glib/gi18n-lib.h>

/* The unit that shows @magnitude_ns with an integer part of 1 to 999
 * (except below 100 ns, which stay in ns): 100 µs reads "0.1 ms". */
static void
unit_for (gint64 magnitude_ns, double *unit, const char **suffix)
{
  if (magnitude_ns >= 100000000)
    *unit = 1e9, *suffix = _("s");
  else if (magnitude_ns >= 100000)
    *unit = 1e6, *suffix = _("ms");
  else if (magnitude_ns >= 100)
    *unit = 1e3, *suffix = _("µs");
  else
    *unit = 1, *suffix = _("ns");
}

/* Decimals of @unit needed to show a step of @precision_ns. */
static int
decimals_for (gint64 precision_ns, double unit)
{
  int decimals = 0;

  for (double q = precision_ns / unit; q < 0.999999 && decimals < 9; q *= 10)
    decimals++;
  return decimals;
}

char *
sl_format_time_in_unit (double ns, gint64 magnitude_ns, gint64 precision_ns)
{
  double unit;
  const char *suffix;

  unit_for (MAX (magnitude_ns, 1), &unit, &suffix);
  return g_strdup_printf ("%.*f %s", decimals_for (MAX (precision_ns, 1), unit), ns / unit, suffix);
}

char *
sl_format_time (double ns, gint64 precision_ns)
{
  return sl_format_time_in_unit (ns, precision_ns, precision_ns);
}

char *
sl_format_timestamp (gint64 ns)
{
  gint64 a = ns < 0 ? -ns : ns;

  /* to the nanosecond, in the unit of the magnitude */
  if (a >= 1000000000)
    return g_strdup_printf ("%.9f %s", ns / 1e9, _("s"));
  if (a >= 1000000)
    return g_strdup_printf ("%.6f %s", ns / 1e6, _("ms"));
  if (a >= 1000)
    return g_strdup_printf ("%.3f %s", ns / 1e3, _("µs"));
  return g_strdup_printf ("%" G_GINT64_FORMAT " %s", ns, _("ns"));
}

/* The unit of a duration's magnitude: ns below 1 µs, then µs, ms, s. */
static double
duration_unit (gint64 ns, const char **suffix)
{
  gint64 a = ns < 0 ? -ns : ns;

  if (a >= G_GINT64_CONSTANT (1000000000))
    return *suffix = _("s"), 1e9;
  if (a >= 1000000)
    return *suffix = _("ms"), 1e6;
  if (a >= 1000)
    return *suffix = _("µs"), 1e3;
  return *suffix = _("ns"), 1;
}

char *
sl_format_duration (gint64 ns)
{
  const char *suffix;
  double unit, v;

  ns = MAX (ns, 0);
  unit = duration_unit (ns, &suffix);
  if (unit == 1)
    return g_strdup_printf ("%" G_GINT64_FORMAT " %s", ns, suffix);
  v = ns / unit;
  return g_strdup_printf ("%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, suffix);
}

char *
sl_format_duration_precise (gint64 ns)
{
  const char *suffix;
  double unit = duration_unit (ns, &suffix);

  if (unit == 1)
    return g_strdup_printf ("%" G_GINT64_FORMAT " %s", ns, suffix);
  return g_strdup_printf ("%.3f %s", (double) ns / unit, suffix);
}

char *
sl_format_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

char *
sl_format_count (gint64 value)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

char *
sl_format_percent (double pct)
{
  return g_strdup_printf ("%.1f%%", pct);
}
