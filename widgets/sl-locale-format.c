/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-locale-format.c: C-locale formatter output in the user's numeric
 * conventions. */
#include "sl-locale-format.h"
#include "sl-format.h"

#include <langinfo.h>
#include <locale.h>
#include <string.h>

static gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

/* The digits at @p..@end grouped by three from the right. */
static void
append_grouped (GString *out, const char *p, const char *end, const char *thousands)
{
  gsize n = (gsize) (end - p);

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0 && *thousands != '\0')
        g_string_append (out, thousands);
      g_string_append_c (out, p[i]);
    }
}

char *
sl_locale_rewrite (const char *c_text,
                   const char *decimal,
                   const char *thousands)
{
  GString *out;
  const char *p = c_text;

  g_return_val_if_fail (c_text != NULL && decimal != NULL && thousands != NULL, NULL);
  out = g_string_sized_new (strlen (c_text) + 8);
  while (*p != '\0')
    {
      const char *q = p;

      if (!is_digit (*p))
        {
          g_string_append_c (out, *p++);
          continue;
        }
      while (is_digit (*q))
        q++;
      append_grouped (out, p, q, thousands);
      p = q;
      /* a C decimal point is a '.' between digits; its decimals are not grouped */
      if (*p == '.' && is_digit (p[1]))
        {
          g_string_append (out, decimal);
          for (p++; is_digit (*p); p++)
            g_string_append_c (out, *p);
        }
    }
  return g_string_free (out, FALSE);
}

typedef struct {
  char *decimal, *thousands;
  gboolean plain;   /* ".", no grouping: the text stays as it is */
} Conventions;

/* The user's numeric conventions from the environment, whatever
 * LC_NUMERIC the process runs with. */
static const Conventions *
conventions (void)
{
  static Conventions conv;
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      locale_t loc = newlocale (LC_NUMERIC_MASK, "", (locale_t) 0);

      const char *decimal = loc != (locale_t) 0 ? nl_langinfo_l (RADIXCHAR, loc) : ".";

      conv.decimal = g_strdup (*decimal != '\0' ? decimal : ".");
      conv.thousands = g_strdup (loc != (locale_t) 0 ? nl_langinfo_l (THOUSEP, loc) : "");
      conv.plain = g_str_equal (conv.decimal, ".") && *conv.thousands == '\0';
      if (loc != (locale_t) 0)
        freelocale (loc);
      g_once_init_leave (&once, 1);
    }
  return &conv;
}

char *
sl_locale_adopt (char *c_text)
{
  const Conventions *conv = conventions ();
  char *text;

  if (c_text == NULL || conv->plain)
    return c_text;
  text = sl_locale_rewrite (c_text, conv->decimal, conv->thousands);
  g_free (c_text);
  return text;
}

char *
sl_locale_duration (gint64 ns)
{
  return sl_locale_adopt (sl_format_duration (ns));
}

char *
sl_locale_duration_precise (gint64 ns)
{
  return sl_locale_adopt (sl_format_duration_precise (ns));
}

char *
sl_locale_timestamp (gint64 ns)
{
  return sl_locale_adopt (sl_format_timestamp (ns));
}

char *
sl_locale_time (double ns, gint64 precision_ns)
{
  return sl_locale_adopt (sl_format_time (ns, precision_ns));
}

char *
sl_locale_time_in_unit (double ns, gint64 magnitude_ns, gint64 precision_ns)
{
  return sl_locale_adopt (sl_format_time_in_unit (ns, magnitude_ns, precision_ns));
}

char *
sl_locale_bytes (guint64 bytes)
{
  return sl_locale_adopt (sl_format_bytes (bytes));
}

char *
sl_locale_count (gint64 value)
{
  return sl_locale_adopt (sl_format_count (value));
}

char *
sl_locale_percent (double pct)
{
  return sl_locale_adopt (sl_format_percent (pct));
}
