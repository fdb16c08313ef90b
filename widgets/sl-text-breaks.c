/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-text-breaks.c: break opportunities in long identifiers. */
#include "sl-text-breaks.h"

#include <string.h>

/* After @p (which is at a byte of the text): is a break wanted here? */
static gboolean
break_after (const char *text, const char *p)
{
  char next = p[1];

  if (next == '\0' || next == ' ' || next == ':' || next == '>' || next == ')' || next == ',')
    return FALSE;   /* no break before a closer or at the end: "<>", "()" stay whole */
  switch (*p)
    {
    case ':':
      return p > text && p[-1] == ':';
    case '<':
    case ',':
    case '(':
    case '_':
    case '/':
      return TRUE;
    default:
      return FALSE;
    }
}

char *
sl_text_add_breaks (const char *text)
{
  GString *s;

  g_return_val_if_fail (text != NULL, NULL);
  s = g_string_sized_new (strlen (text) + 16);
  for (const char *p = text; *p; p++)
    {
      g_string_append_c (s, *p);
      if (break_after (text, p))
        g_string_append (s, SL_TEXT_BREAK);
    }
  return g_string_free (s, FALSE);
}

char *
sl_text_strip_breaks (const char *text)
{
  GString *s;
  gsize n = strlen (SL_TEXT_BREAK);

  g_return_val_if_fail (text != NULL, NULL);
  s = g_string_sized_new (strlen (text));
  for (const char *p = text; *p; )
    {
      if (strncmp (p, SL_TEXT_BREAK, n) == 0)
        p += n;
      else
        g_string_append_c (s, *p++);
    }
  return g_string_free (s, FALSE);
}
