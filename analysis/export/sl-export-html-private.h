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

/* Shared by the profile report and the comparison report
 * (sl-export-compare-html*.c). */
/* A file of the export resource (sl-report.css, sl-report.js). (transfer full) */
char    *_sl_html_resource_text (const char *name);
/* "<!DOCTYPE html>…<body>": the CSP admitting exactly @css and @js by hash,
 * the title "@title — @subject" (@subject untrusted) and whether the
 * capture's environment is in the file. */
void     _sl_html_head         (SlHtml *html, const char *title, const char *subject,
                                gboolean environment_included, const char *css, const char *js);
/* "label: value" in a definition list; @value untrusted. */
void     _sl_html_fact         (SlHtml *html, const char *label, const char *value);
/* "0 · NVIDIA H100, 1 · …": the GPUs with activity that @filter keeps. (transfer full) */
char    *_sl_html_gpu_list     (const SlProfile *profile, const SlFilter *filter);
/* "<section id=…><h2>title</h2>" (@id trusted) and a dimmed paragraph. */
void     _sl_html_section_open (SlHtml *html, const char *id, const char *title);
void     _sl_html_note         (SlHtml *html, const char *text);
/* "<table class=sortable id=@id><thead>…</thead><tbody>", @heads separated by '|'. */
void     _sl_html_table_open   (SlHtml *html, const char *id, const char *heads);
/* Cells carrying their raw value in data-v (sorting, tests). */
void     _sl_html_cell_int     (SlHtml *html, gint64 value);
void     _sl_html_cell_dur     (SlHtml *html, double ns);
void     _sl_html_cell_pct     (SlHtml *html, double pct);
void     _sl_html_cell_name    (SlHtml *html, const char *name);
/* The charts' colour @i (cycling), distinguishable in light and dark themes. */
const char *_sl_html_palette   (guint i);

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
