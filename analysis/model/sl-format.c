/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-format.c: human-readable durations, times, bytes and counts. */
#include "sl-format.h"
#include "sl-int.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef enum { UNIT_NS, UNIT_US, UNIT_MS, UNIT_S } Unit;

static const double unit_ns[] = { 1, 1e3, 1e6, 1e9 };

/* The unit's translated name, looked up once: tables print thousands. */
static const char *
unit_name_len (Unit unit, gsize *len)
{
  static const char *names[4];
  static gsize lens[4];
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      names[UNIT_NS] = _("ns");
      names[UNIT_US] = _("µs");
      names[UNIT_MS] = _("ms");
      names[UNIT_S] = _("s");
      for (guint u = 0; u < G_N_ELEMENTS (names); u++)
        lens[u] = strlen (names[u]);
      g_once_init_leave (&once, 1);
    }
  if (len != NULL)
    *len = lens[unit];
  return names[unit];
}

static const char *
unit_name (Unit unit)
{
  return unit_name_len (unit, NULL);
}

/* The unit that shows @magnitude_ns with an integer part of 1 to 999
 * (except below 100 ns, which stay in ns): 100 µs reads "0.1 ms". */
static void
unit_for (gint64 magnitude_ns, double *unit, const char **suffix)
{
  Unit u = magnitude_ns >= 100000000 ? UNIT_S : magnitude_ns >= 100000 ? UNIT_MS
         : magnitude_ns >= 100 ? UNIT_US : UNIT_NS;

  *unit = unit_ns[u];
  *suffix = unit_name (u);
}

/* The unit of a duration's magnitude: ns below 1 µs, then µs, ms, s. */
static Unit
duration_unit (gint64 ns)
{
  guint64 a = sl_abs_u64 (ns);   /* -G_MININT64 does not exist */

  return a >= G_GINT64_CONSTANT (1000000000) ? UNIT_S : a >= 1000000 ? UNIT_MS : a >= 1000 ? UNIT_US : UNIT_NS;
}

/* "<number> <unit>", the number already formatted: cheaper than a second
 * printf, and tables format tens of thousands of cells. */
static char *
with_unit (const char *number, Unit unit)
{
  return g_strconcat (number, " ", unit_name (unit), NULL);
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
  /* to the nanosecond, in the unit of the magnitude */
  static const int decimals[] = { 0, 3, 6, 9 };
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  Unit unit = duration_unit (ns);

  g_snprintf (number, sizeof number, "%.*f", decimals[unit], ns / unit_ns[unit]);
  return with_unit (number, unit);
}

char *
sl_format_duration (gint64 ns)
{
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  Unit unit;
  double v;

  ns = MAX (ns, 0);
  unit = duration_unit (ns);
  if (unit == UNIT_NS)
    g_snprintf (number, sizeof number, "%" G_GINT64_FORMAT, ns);
  else
    {
      v = ns / unit_ns[unit];
      g_snprintf (number, sizeof number, "%.*f", v < 10 ? 2 : v < 100 ? 1 : 0, v);
    }
  return with_unit (number, unit);
}

/* Decimal digits of @v at @buf (room for 20), returning their count. */
static int
put_digits (char *buf, guint64 v)
{
  char rev[20];
  int n = 0;

  do
    rev[n++] = (char) ('0' + v % 10);
  while ((v /= 10) != 0);
  for (int i = 0; i < n; i++)
    buf[i] = rev[n - 1 - i];
  return n;
}

/* @ns / @unit to three decimals, as "%.3f" of the double would print it.
 * Below a second the quotient's exact decimal expansion decides, so integer
 * arithmetic gives the same digits except on a tie in the fourth decimal,
 * where the double's rounding is left to printf; the tree prints a million
 * of these, and printf was a fifth of its time. */
static gsize
format_three_decimals (gint64 ns, Unit unit, char *buf, gsize size)
{
  guint64 a = sl_abs_u64 (ns);
  guint64 scaled;
  int n = 0;

  if (unit == UNIT_US)
    scaled = a;
  else if (unit == UNIT_MS && a % 1000 != 500)
    scaled = a / 1000 + (a % 1000 > 500);
  else
    {
      g_snprintf (buf, size, "%.3f", (double) ns / unit_ns[unit]);
      return strlen (buf);
    }
  if (ns < 0)
    buf[n++] = '-';
  n += put_digits (buf + n, scaled / 1000);
  buf[n++] = '.';
  buf[n++] = (char) ('0' + scaled / 100 % 10);
  buf[n++] = (char) ('0' + scaled / 10 % 10);
  buf[n++] = (char) ('0' + scaled % 10);
  buf[n] = '\0';
  return (gsize) n;
}

gsize
sl_format_duration_precise_parts (gint64 ns, char number[SL_FORMAT_DURATION_NUMBER_SIZE],
                                  const char **unit_text, gsize *unit_len)
{
  Unit unit = duration_unit (ns);
  gsize len;

  G_STATIC_ASSERT (SL_FORMAT_DURATION_NUMBER_SIZE >= G_ASCII_DTOSTR_BUF_SIZE);
  G_STATIC_ASSERT (SL_FORMAT_DURATION_NUMBER_SIZE >= SL_FORMAT_NUMBER_SIZE);
  if (unit == UNIT_NS)
    {
      len = ns < 0 ? 1 : 0;
      if (ns < 0)
        number[0] = '-';
      len += (gsize) put_digits (number + len, sl_abs_u64 (ns));
      number[len] = '\0';
    }
  else
    len = format_three_decimals (ns, unit, number, SL_FORMAT_DURATION_NUMBER_SIZE);
  *unit_text = unit_name_len (unit, unit_len);
  return len;
}

const char *
sl_format_duration_precise_into (gint64 ns, char number[SL_FORMAT_DURATION_NUMBER_SIZE],
                                 const char **unit_text)
{
  sl_format_duration_precise_parts (ns, number, unit_text, NULL);
  return number;
}

void
sl_format_duration_precise_append (GString *out, gint64 ns)
{
  char number[SL_FORMAT_DURATION_NUMBER_SIZE];
  const char *unit;

  g_string_append (out, sl_format_duration_precise_into (ns, number, &unit));
  g_string_append_c (out, ' ');
  g_string_append (out, unit);
}

char *
sl_format_duration_precise (gint64 ns)
{
  GString *out = g_string_sized_new (24);

  sl_format_duration_precise_append (out, ns);
  return g_string_free (out, FALSE);
}

char *
sl_format_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

const char *
sl_format_count_into (gint64 value, char buf[SL_FORMAT_NUMBER_SIZE])
{
  int n = 0;

  if (value < 0)
    buf[n++] = '-';
  n += put_digits (buf + n, sl_abs_u64 (value));
  buf[n] = '\0';
  return buf;
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
