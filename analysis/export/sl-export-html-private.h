/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-html-private.h: the pieces of the HTML report (sl-export-html.c).
 *
 * The report is written through one buffer that is flushed to the stream
 * in blocks, so a large report never sits whole in memory.  Every string
 * that comes from the profile goes through _sl_html_text() (HTML text and
 * attribute values) or _sl_html_json_string() (JSON inside a <script>):
 * a profile is untrusted input. */
#pragma once

#include "sl-export.h"
#include "sl-iterations.h"

G_BEGIN_DECLS

typedef struct {
  SlProfile             *profile;
  const SlExportOptions *options;
  GOutputStream         *out;
  GCancellable          *cancellable;
  GString               *buf;
  GError                *error;      /* the first write error; later writes are dropped */
} SlHtml;

/* Trusted text (markup written by the report itself). */
void     _sl_html_raw          (SlHtml *html, const char *markup);
void     _sl_html_printf       (SlHtml *html, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Untrusted text, escaped for HTML text and quoted attribute values;
 * invalid UTF-8 becomes U+FFFD.  NULL writes nothing. */
void     _sl_html_text         (SlHtml *html, const char *text);
/* A duration formatted as the CLI formats it, escaped. */
void     _sl_html_duration     (SlHtml *html, gint64 ns);
/* Writes out the buffer when it is large (or @force); FALSE on error or
 * cancel, with html->error set. */
gboolean _sl_html_flush        (SlHtml *html, gboolean force);

/* Appends @text as a JSON string literal safe inside a <script> element:
 * "<", ">", "&", U+2028 and U+2029 as \uXXXX escapes, invalid UTF-8 as
 * U+FFFD.  NULL appends null. */
void     _sl_html_json_string  (GString *out, const char *text);

/* Base64 of the SHA-256 of @text, for a CSP 'sha256-…' source. (transfer full) */
char    *_sl_html_csp_hash     (const char *text);

/* The sections, in order of the report. */
void     _sl_html_header       (SlHtml *html);
void     _sl_html_utilization  (SlHtml *html);
void     _sl_html_kernels      (SlHtml *html);
void     _sl_html_categories   (SlHtml *html);
void     _sl_html_iterations   (SlHtml *html);
void     _sl_html_gaps         (SlHtml *html);
void     _sl_html_bookmarks    (SlHtml *html);
/* The SVG chart of @iterations' durations (sl-export-html-charts.c). */
void     _sl_html_iterations_chart (SlHtml *html, const SlIterations *iterations);
/* The NVTX tree: its section and its data (JSON in a data block). */
gboolean _sl_html_tree         (SlHtml *html);

G_END_DECLS
