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

guint
sl_text_width (const char *text, gssize bytes)
{
  const char *end = bytes < 0 ? NULL : text + bytes;
  guint width = 0;

  for (const char *p = text; end != NULL ? p < end : *p != '\0';)
    {
      /* ASCII, most names: one column a byte */
      if ((guchar) *p < 0x80)
        {
          width++;
          p++;
          continue;
        }
      width += char_width (g_utf8_get_char (p));
      p = g_utf8_next_char (p);
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
      guint w = (guchar) *p < 0x80 ? 1 : char_width (g_utf8_get_char (p));

      if (used + w > columns)
        break;
      used += w;
      p = g_utf8_next_char (p);
    }
  *width = used;
  return (gsize) (p - text);
}
