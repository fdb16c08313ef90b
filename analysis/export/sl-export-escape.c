/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-escape.c: profile strings made safe for the formats they are
 * written into.  Names come from the profiled program, so they may hold
 * anything: quotes, newlines, markup, formulas, bytes that are not UTF-8. */
#include "sl-export-private.h"

#include <string.h>

const char *
sl_export_valid_utf8 (const char *text, char **repaired)
{
  *repaired = NULL;
  if (text == NULL)
    return "";
  if (g_utf8_validate (text, -1, NULL))
    return text;
  return *repaired = g_utf8_make_valid (text, -1);
}

/* @valid: @text as valid UTF-8, freed at the end of the scope. */
#define WITH_VALID_UTF8(text, valid)                                          \
  g_autofree char *fixed_ = NULL;                                            \
  const char *valid = sl_export_valid_utf8 ((text), &fixed_)

void
sl_export_csv_text (GString *buf, const char *text)
{
  WITH_VALID_UTF8 (text, s);
  gboolean formula = strchr ("=+-@\t\r", s[0]) != NULL && s[0] != '\0';
  gboolean quote = strpbrk (s, ",\"\r\n") != NULL;

  if (!quote && !formula)
    {
      g_string_append (buf, s);
      return;
    }
  if (quote)
    g_string_append_c (buf, '"');
  if (formula)
    g_string_append_c (buf, '\'');
  for (const char *p = s; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (buf, '"');
      g_string_append_c (buf, *p);
    }
  if (quote)
    g_string_append_c (buf, '"');
}

/* Escaped as \u00XX: control characters; "<", ">" and "&" so that
 * "</script>" or "<!--" cannot end or change a <script> the string is in
 * (the HTML report's data); U+2028/2029 end a line in JavaScript before
 * ES2019.  One escaping for the Perfetto trace and the report. */
void
sl_export_json_text (GString *buf, const char *text)
{
  WITH_VALID_UTF8 (text, s);

  g_string_append_c (buf, '"');
  for (const guchar *p = (const guchar *) s; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        {
          g_string_append_c (buf, '\\');
          g_string_append_c (buf, (char) *p);
        }
      else if (*p == '\n')
        g_string_append (buf, "\\n");
      else if (*p == '\t')
        g_string_append (buf, "\\t");
      else if (*p < 0x20 || *p == 0x7f || *p == '<' || *p == '>' || *p == '&')
        g_string_append_printf (buf, "\\u%04x", *p);
      else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
        {
          g_string_append (buf, p[2] == 0xa8 ? "\\u2028" : "\\u2029");
          p += 2;
        }
      else
        g_string_append_c (buf, (char) *p);
    }
  g_string_append_c (buf, '"');
}

static void
append_u64 (GString *buf, guint64 v)
{
  char tmp[24];
  int n = 0;

  do
    {
      tmp[n++] = (char) ('0' + v % 10);
      v /= 10;
    }
  while (v != 0);
  while (n > 0)
    g_string_append_c (buf, tmp[--n]);
}

void
sl_export_append_i64 (GString *buf, gint64 value)
{
  if (value < 0)
    g_string_append_c (buf, '-');
  append_u64 (buf, value < 0 ? (guint64) 0 - (guint64) value : (guint64) value);
}

void
sl_export_json_us (GString *buf, gint64 ns)
{
  guint64 mag = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;
  guint frac = (guint) (mag % 1000);

  if (ns < 0)
    g_string_append_c (buf, '-');
  append_u64 (buf, mag / 1000);
  g_string_append_c (buf, '.');
  g_string_append_c (buf, (char) ('0' + frac / 100));
  g_string_append_c (buf, (char) ('0' + frac / 10 % 10));
  g_string_append_c (buf, (char) ('0' + frac % 10));
}
