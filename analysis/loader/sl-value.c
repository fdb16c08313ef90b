/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-value.c: stored SQLite values as the loader's integers and names (the
 * rule is in sl-value.h).  The text rules follow SQLite 3.40's own:
 * sqlite3AtoF() decides what text is a number, applyNumericAffinity() and
 * sqlite3VdbeIntegerAffinity() when a number is an integer. */
#include "sl-value.h"

#include <string.h>

/* sqlite3Isspace(): the ASCII blanks, not the locale's. */
static inline gboolean
is_space (char c)
{
  return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

gboolean
_sl_value_real_to_int (double value, gint64 *out)
{
  gint64 i;

  /* doubleToInt64() clamps, so the round trip below fails for anything
   * outside the range; NaN compares unequal to everything. */
  if (value != value)
    return FALSE;
  if (value <= (double) G_MININT64)
    i = G_MININT64;
  else if (value >= (double) G_MAXINT64)
    i = G_MAXINT64;
  else
    i = (gint64) value;
  if (value != (double) i || i == G_MININT64 || i == G_MAXINT64)
    return FALSE;
  *out = i;
  return TRUE;
}

/* [@p, @end) without SQLite's blanks on both ends. */
static void
trim (const char **p, const char **end)
{
  while (*p < *end && is_space (**p))
    (*p)++;
  while (*end > *p && is_space ((*end)[-1]))
    (*end)--;
}

/* Skips digits; returns how many. */
static gsize
skip_digits (const char **p, const char *end)
{
  const char *start = *p;

  while (*p < end && is_digit (**p))
    (*p)++;
  return (gsize) (*p - start);
}

/* sqlite3AtoF()'s grammar: sign, digits, optional fraction, optional
 * exponent, at least one digit before the exponent, nothing else.  Sets
 * @integral when there is neither fraction nor exponent. */
static gboolean
is_number (const char *p, const char *end, gboolean *integral)
{
  gsize digits;

  if (p < end && (*p == '+' || *p == '-'))
    p++;
  digits = skip_digits (&p, end);
  *integral = TRUE;
  if (p < end && *p == '.')
    {
      p++;
      *integral = FALSE;
      digits += skip_digits (&p, end);
    }
  if (digits == 0)
    return FALSE;
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      p++;
      *integral = FALSE;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      if (skip_digits (&p, end) == 0)
        return FALSE;
    }
  return p == end;
}

/* An optionally signed run of digits as a 64-bit integer; FALSE when it
 * does not fit (sqlite3Atoi64() then leaves it a REAL). */
static gboolean
parse_int64 (const char *p, const char *end, gint64 *out)
{
  gboolean negative = *p == '-';
  guint64 magnitude = 0;

  if (*p == '+' || *p == '-')
    p++;
  for (; p < end; p++)
    {
      guint d = (guint) (*p - '0');
      if (magnitude > (G_MAXUINT64 - d) / 10)
        return FALSE;
      magnitude = magnitude * 10 + d;
    }
  if (negative ? magnitude > (guint64) G_MAXINT64 + 1 : magnitude > (guint64) G_MAXINT64)
    return FALSE;
  *out = negative ? (gint64) (0 - magnitude) : (gint64) magnitude;
  return TRUE;
}

gboolean
_sl_value_text_to_int (const char *text, gsize len, gint64 *out)
{
  const char *p = text, *end = text + len;
  gboolean integral;
  char buf[128];

  trim (&p, &end);
  if (!is_number (p, end, &integral))
    return FALSE;
  if (integral && parse_int64 (p, end, out))
    return TRUE;
  /* A fraction, an exponent or a huge integer: a REAL first.  Longer
   * texts are 0s and digits beyond a double's precision; g_ascii_strtod
   * needs them NUL-terminated, so they are parsed from a copy. */
  g_autofree char *copy = (gsize) (end - p) < sizeof buf ? NULL : g_strndup (p, (gsize) (end - p));
  if (copy == NULL)
    {
      memcpy (buf, p, (gsize) (end - p));
      buf[end - p] = '\0';
    }
  return _sl_value_real_to_int (g_ascii_strtod (copy != NULL ? copy : buf, NULL), out);
}

gboolean
_sl_value_column_int (sqlite3_stmt *stmt, int column, gint64 *out)
{
  switch (sqlite3_column_type (stmt, column))
    {
    case SQLITE_INTEGER:
      *out = sqlite3_column_int64 (stmt, column);
      return TRUE;
    case SQLITE_FLOAT:
      return _sl_value_real_to_int (sqlite3_column_double (stmt, column), out);
    case SQLITE_TEXT:
      {
        const char *text = (const char *) sqlite3_column_text (stmt, column);
        return text != NULL && _sl_value_text_to_int (text, (gsize) sqlite3_column_bytes (stmt, column), out);
      }
    default: /* NULL and BLOB */
      return FALSE;
    }
}

const char *
_sl_value_column_text (sqlite3_stmt *stmt, int column, gsize *len)
{
  const char *text;

  if (sqlite3_column_type (stmt, column) == SQLITE_NULL)
    {
      *len = 0;
      return NULL;
    }
  text = (const char *) sqlite3_column_text (stmt, column);
  *len = text != NULL ? (gsize) sqlite3_column_bytes (stmt, column) : 0;
  return text != NULL ? text : "";
}

const char *
_sl_value_real_text (double value, char *buf, gsize size, gsize *len)
{
  if (value != value)
    {
      *len = 0;
      return NULL;
    }
  /* SQLite's own printf, with its '!' flag, is what sqlite3_column_text()
   * uses for a REAL (vdbeMemRenderNum). */
  sqlite3_snprintf ((int) size, buf, "%!.15g", value);
  *len = strlen (buf);
  return buf;
}
