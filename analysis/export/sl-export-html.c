/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-html.c: the self-contained HTML report (issue 14).
 *
 * One file a colleague opens offline: inline CSS, script and SVG, and a
 * Content-Security-Policy that allows exactly the inline stylesheet and
 * script by their hashes and nothing else (no network, no file, no other
 * script), so the report proves it makes no request.  This file writes the
 * document's skeleton and header; the sections live beside it. */
#include <glib/gi18n.h>

#include "sl-export-html-private.h"
#include "sl-export-resources.h"
#include "sl-format.h"

char *
_sl_html_resource_text (const char *name)
{
  g_autofree char *path = g_strconcat ("/io/github/sightline/export/", name, NULL);
  /* Referencing the resource directly keeps the linker from dropping it. */
  g_autoptr(GBytes) bytes = g_resource_lookup_data (sl_export_get_resource (), path,
                                                    G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);

  g_assert (bytes != NULL);
  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

void
_sl_html_head (SlHtml *html, const char *title, const char *subject, gboolean environment_included,
               const char *css, const char *js)
{
  g_autofree char *css_hash = _sl_html_csp_hash (css);
  g_autofree char *js_hash = _sl_html_csp_hash (js);

  _sl_html_raw (html, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
  /* default-src 'none' forbids every fetch (images, fonts, frames,
   * connections); the two hashes admit only our own inline code. */
  _sl_html_printf (html, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                   "style-src 'sha256-%s'; script-src 'sha256-%s'; base-uri 'none'; form-action 'none'\">\n",
                   css_hash, js_hash);
  _sl_html_raw (html, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"generator\" content=\"Sightline\">\n");
  _sl_html_printf (html, "<meta name=\"sightline-environment-included\" content=\"%s\">\n<title>",
                   environment_included ? "true" : "false");
  _sl_html_text (html, title);
  _sl_html_raw (html, " — ");
  _sl_html_text (html, subject);
  _sl_html_raw (html, "</title>\n<style>");
  _sl_html_raw (html, css);
  _sl_html_raw (html, "</style>\n</head>\n<body>\n");
}

void
_sl_html_fact (SlHtml *html, const char *label, const char *value)
{
  _sl_html_raw (html, "<dt>");
  _sl_html_text (html, label);
  _sl_html_raw (html, "</dt><dd>");
  _sl_html_text (html, value);
  _sl_html_raw (html, "</dd>\n");
}

char *
_sl_html_gpu_list (const SlProfile *profile, const SlFilter *filter)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < profile->n_gpus; i++)
    {
      const SlGpu *gpu = &profile->gpus[i];

      if (!gpu->has_activity || !sl_filter_match_device (filter, gpu->device))
        continue;
      if (text->len > 0)
        g_string_append (text, ", ");
      g_string_append_printf (text, "%u", gpu->device);
      if (gpu->name != NULL)
        g_string_append_printf (text, " · %s", gpu->name);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
span_text (const SlProfile *profile, const SlFilter *filter)
{
  gint64 start = profile->start_ns, end = profile->end_ns;

  if (filter != NULL && filter->has_range)
    start = filter->range_start, end = filter->range_end;
  g_autofree char *from = sl_format_duration (start - profile->start_ns);
  g_autofree char *to = sl_format_duration (end - profile->start_ns);
  g_autofree char *len = sl_format_duration (end - start);

  return g_strdup_printf (_("%s (from %s to %s)"), len, from, to);
}

static void
environment (SlHtml *html)
{
  const SlExportOptions *o = html->options;

  if (!o->include_environment)
    {
      _sl_html_fact (html, _("Environment"), _("not included (the capture's environment, command lines and host "
                                      "details were left out)"));
      return;
    }
  _sl_html_fact (html, _("Environment"), _("included at the exporter's request"));
  _sl_html_raw (html, "<dt></dt><dd><pre class=\"env\">");
  for (guint i = 0; o->environment != NULL && o->environment[i] != NULL; i++)
    {
      _sl_html_text (html, o->environment[i]);
      _sl_html_raw (html, "\n");
    }
  _sl_html_raw (html, "</pre></dd>\n");
}

void
_sl_html_header (SlHtml *html)
{
  const SlProfile *p = html->profile;
  const SlFilter *filter = html->options->filter;
  g_autofree char *base = g_path_get_basename (p->path != NULL ? p->path : "");
  g_autofree char *gpus = _sl_html_gpu_list (p, filter);
  g_autofree char *span = span_text (p, filter);

  _sl_html_raw (html, "<header><h1>");
  _sl_html_text (html, _("Sightline report"));
  _sl_html_raw (html, "</h1>\n<dl class=\"facts\">\n");
  _sl_html_fact (html, _("Profile"), base);
  _sl_html_fact (html, _("Nsight Systems"), p->nsys_version != NULL ? p->nsys_version : _("unknown"));
  _sl_html_fact (html, _("GPUs"), gpus[0] != '\0' ? gpus : _("none"));
  _sl_html_fact (html, _("Span"), span);
  _sl_html_fact (html, _("Scope"), html->options->scope_label != NULL ? html->options->scope_label
                                                           : _("whole profile"));
  _sl_html_fact (html, _("Kernel names"), html->options->names == SL_NAMES_DEMANGLED ? _("demangled") : _("short"));
  environment (html);
  _sl_html_raw (html, "</dl>\n<nav>");
  _sl_html_printf (html, "<a href=\"#utilization\">%s</a> <a href=\"#kernels\">%s</a> <a href=\"#categories\">%s</a> "
                   "<a href=\"#iterations\">%s</a> <a href=\"#gaps\">%s</a> <a href=\"#bookmarks\">%s</a> "
                   "<a href=\"#tree\">%s</a>", _("Utilization"), _("Kernels"), _("Categories"),
                   _("Iterations"), _("Gaps"), _("Bookmarks"), _("NVTX tree"));
  _sl_html_raw (html, "</nav></header>\n<main>\n");
}

/* The tree's section: controls the script wires up, filled from the data. */
static void
tree_section (SlHtml *html)
{
  _sl_html_raw (html, "<section id=\"tree\"><h2>");
  _sl_html_text (html, _("NVTX stack tree"));
  _sl_html_raw (html, "</h2>\n<div class=\"controls\"><input type=\"search\" id=\"tree-search\" placeholder=\"");
  _sl_html_text (html, _("Filter by kernel or NVTX name"));
  _sl_html_printf (html, "\"> <button type=\"button\" data-depth=\"2\">%s</button>"
                   "<button type=\"button\" data-depth=\"4\">%s</button>"
                   "<button type=\"button\" data-depth=\"0\">%s</button>"
                   "<button type=\"button\" data-depth=\"1\">%s</button> <span id=\"tree-status\"></span></div>\n",
                   _("Depth 2"), _("Depth 4"), _("Expand all"), _("Collapse"));
  _sl_html_raw (html, "<noscript><p class=\"note\">");
  _sl_html_text (html, _("The tree needs JavaScript."));
  _sl_html_raw (html, "</p></noscript><ul class=\"tree\" id=\"tree-root\" role=\"tree\"></ul></section>\n</main>\n");
}

typedef void (*SectionFunc) (SlHtml *html);

static gboolean
write_sections (SlHtml *html, SlExportProgress progress, gpointer progress_data)
{
  static const SectionFunc sections[] = {
    _sl_html_header, _sl_html_utilization, _sl_html_kernels, _sl_html_categories,
    _sl_html_iterations, _sl_html_gaps, _sl_html_bookmarks,
  };

  for (guint i = 0; i < G_N_ELEMENTS (sections); i++)
    {
      if (g_cancellable_set_error_if_cancelled (html->cancellable, &html->error))
        return FALSE;
      sections[i] (html);
      if (!_sl_html_flush (html, FALSE))
        return FALSE;
      if (progress != NULL)
        progress ((i + 1.0) / (G_N_ELEMENTS (sections) + 2.0), progress_data);
    }
  tree_section (html);
  return TRUE;
}

gboolean
sl_export_html_write (SlProfile *profile, const SlExportOptions *options, GOutputStream *out,
                      SlExportProgress progress, gpointer progress_data, GCancellable *cancellable,
                      GError **error)
{
  g_autofree char *css = _sl_html_resource_text ("sl-report.css");
  g_autofree char *js = _sl_html_resource_text ("sl-report.js");
  g_autofree char *base = NULL;
  g_autoptr(GString) buf = g_string_sized_new (512 * 1024);
  SlHtml html = { profile, options, out, cancellable, buf, NULL };

  g_return_val_if_fail (profile != NULL && options != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);
  base = g_path_get_basename (profile->path != NULL ? profile->path : "");
  _sl_html_head (&html, _("Sightline report"), base, options->include_environment, css, js);
  if (write_sections (&html, progress, progress_data) && _sl_html_tree (&html))
    {
      _sl_html_raw (&html, "<script>");
      _sl_html_raw (&html, js);
      _sl_html_raw (&html, "</script>\n</body>\n</html>\n");
      _sl_html_flush (&html, TRUE);
    }
  if (html.error == NULL)
    g_cancellable_set_error_if_cancelled (cancellable, &html.error);
  if (html.error != NULL)
    {
      g_propagate_error (error, html.error);
      return FALSE;
    }
  if (progress != NULL)
    progress (1.0, progress_data);
  return TRUE;
}
