/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-html-escape.c: the report's output buffer and the escaping of
 * untrusted strings for each context they land in (HTML text, attribute,
 * JSON inside a <script>), plus the CSP hashes of the inline code. */
#include <string.h>

#include "sl-export-html-private.h"
#include "sl-export-private.h"
#include "sl-format.h"

#define FLUSH_BYTES (256 * 1024)

gboolean
_sl_html_flush (SlHtml *html, gboolean force)
{
  gsize written = 0;

  if (html->error != NULL)
    return FALSE;
  if (!force && html->buf->len < FLUSH_BYTES)
    return TRUE;
  if (!g_output_stream_write_all (html->out, html->buf->str, html->buf->len, &written,
                                  html->cancellable, &html->error))
    return FALSE;
  g_string_truncate (html->buf, 0);
  return TRUE;
}

void
_sl_html_raw (SlHtml *html, const char *markup)
{
  g_string_append (html->buf, markup);
  _sl_html_flush (html, FALSE);
}

void
_sl_html_printf (SlHtml *html, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_string_append_vprintf (html->buf, format, args);
  va_end (args);
  _sl_html_flush (html, FALSE);
}

void
_sl_html_text (SlHtml *html, const char *text)
{
  g_autofree char *repaired = NULL;

  if (text == NULL)
    return;
  /* &, <, >, both quotes: enough for text and quoted attribute values. */
  for (const char *p = sl_export_valid_utf8 (text, &repaired); *p != '\0'; p++)
    switch (*p)
      {
      case '&': g_string_append (html->buf, "&amp;"); break;
      case '<': g_string_append (html->buf, "&lt;"); break;
      case '>': g_string_append (html->buf, "&gt;"); break;
      case '"': g_string_append (html->buf, "&quot;"); break;
      case '\'': g_string_append (html->buf, "&#39;"); break;
      default: g_string_append_c (html->buf, *p);
      }
  _sl_html_flush (html, FALSE);
}

void
_sl_html_duration (SlHtml *html, gint64 ns)
{
  g_autofree char *text = sl_format_duration (ns);

  _sl_html_text (html, text);
}

/* NULL as null; a string as every export writes one (sl-export-escape.c). */
void
_sl_html_json_string (GString *out, const char *text)
{
  if (text == NULL)
    g_string_append (out, "null");
  else
    sl_export_json_text (out, text);
}

char *
_sl_html_csp_hash (const char *text)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 digest[32];
  gsize len = sizeof digest;

  g_checksum_update (sum, (const guchar *) text, (gssize) strlen (text));
  g_checksum_get_digest (sum, digest, &len);
  return g_base64_encode (digest, len);
}
