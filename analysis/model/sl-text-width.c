/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-text-width.c: columns a terminal gives a text (see sl-text-width.h). */
#include "sl-text-width.h"

static guint
char_width (gunichar c)
{
  if (g_unichar_iszerowidth (c))
    return 0;
  return g_unichar_iswide (c) ? 2 : 1;
}

/* The width of the character at @p and its length in bytes, at most
 * @max_len (-1: up to the NUL).  Callers pass valid UTF-8, but a byte that
 * starts no valid character counts as one column of one byte, so that a
 * stray byte can never move the scan past the text's end. */
static guint
next_width (const char *p, gssize max_len, gsize *bytes)
{
  gunichar c;

  if ((guchar) *p < 0x80)
    {
      *bytes = 1;
      return 1;
    }
  c = g_utf8_get_char_validated (p, max_len);
  if (c == (gunichar) -1 || c == (gunichar) -2)
    {
      *bytes = 1;
      return 1;
    }
  *bytes = (gsize) (g_utf8_next_char (p) - p);
  return char_width (c);
}

guint
sl_text_width (const char *text, gssize bytes)
{
  const char *end = bytes < 0 ? NULL : text + bytes;
  guint width = 0;

  for (const char *p = text; end != NULL ? p < end : *p != '\0';)
    {
      gsize n;

      width += next_width (p, end != NULL ? end - p : -1, &n);
      p += n;
    }
  return width;
}

gsize
sl_text_width_prefix (const char *text, guint columns, guint *width)
{
  const char *p = text;
  guint used = 0;

  while (*p != '\0')
    {
      gsize n;
      guint w = next_width (p, -1, &n);

      if (used + w > columns)
        break;
      used += w;
      p += n;
    }
  *width = used;
  return (gsize) (p - text);
}
