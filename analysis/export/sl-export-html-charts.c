/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-html-charts.c: the report's charts, as inline SVG (no script
 * needed to see them, no style attribute the CSP would block: colours are
 * presentation attributes): kernel categories as one stacked bar, and the
 * durations of the iterations. */
#include <glib/gi18n.h>

#include "sl-export-html-private.h"
#include "sl-category-summary.h"
#include "sl-format.h"

#define MAX_BARS 2000

/* Distinguishable in light and dark themes. */
static const char *const palette[] = {
  "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
  "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};

const char *
_sl_html_palette (guint i)
{
  return palette[i % G_N_ELEMENTS (palette)];
}

static void
category_legend (SlHtml *html, const SlCategorySummary *s)
{
  _sl_html_raw (html, "<ul class=\"legend\">\n");
  for (guint i = 0; i < s->n_rows; i++)
    {
      const SlCategoryRow *row = &s->rows[i];
      g_autofree char *pct = sl_format_percent (row->pct);

      _sl_html_printf (html, "<li><svg width=\"12\" height=\"12\"><rect width=\"12\" height=\"12\" fill=\"%s\"/></svg> ",
                       palette[i % G_N_ELEMENTS (palette)]);
      _sl_html_text (html, row->name);
      _sl_html_raw (html, " <span class=\"dim\">");
      _sl_html_duration (html, row->total_ns);
      _sl_html_printf (html, " · %s</span></li>\n", pct);
    }
  _sl_html_raw (html, "</ul>\n");
}

void
_sl_html_categories (SlHtml *html)
{
  g_autoptr(SlCategorySummary) s = sl_category_summary_compute (html->profile, html->options->filter,
                                                                html->options->categories,
                                                                html->options->names, 3);
  double x = 0;

  _sl_html_raw (html, "<section id=\"categories\"><h2>");
  _sl_html_text (html, _("Kernel categories"));
  _sl_html_raw (html, "</h2>\n<svg class=\"stacked\" viewBox=\"0 0 1000 32\" preserveAspectRatio=\"none\" "
                "role=\"img\" width=\"100%\" height=\"32\">");
  for (guint i = 0; i < s->n_rows && s->total_ns > 0; i++)
    {
      const SlCategoryRow *row = &s->rows[i];
      double w = 1000.0 * (double) row->total_ns / (double) s->total_ns;

      _sl_html_printf (html, "<rect x=\"%.3f\" y=\"0\" width=\"%.3f\" height=\"32\" fill=\"%s\"><title>",
                       x, w, palette[i % G_N_ELEMENTS (palette)]);
      _sl_html_text (html, row->name);
      _sl_html_raw (html, "</title></rect>");
      x += w;
    }
  _sl_html_raw (html, "</svg>\n");
  category_legend (html, s);
  _sl_html_raw (html, "</section>\n");
}

static void
iteration_bar (SlHtml *html, const SlIteration *it, guint x, gint64 max_ns, gboolean slowest)
{
  double h = max_ns > 0 ? 100.0 * (double) it->dur_ns / (double) max_ns : 0;

  _sl_html_printf (html, "<rect x=\"%u.1\" y=\"%.3f\" width=\"0.8\" height=\"%.3f\" fill=\"%s\"><title>",
                   x, 100.0 - h, h, slowest ? "#e15759" : "#4e79a7");
  _sl_html_printf (html, "%u/%u: ", it->pid, it->index);
  _sl_html_duration (html, it->dur_ns);
  _sl_html_raw (html, "</title></rect>");
}

void
_sl_html_iterations_chart (SlHtml *html, const SlIterations *its)
{
  guint n = MIN (its->n_iterations, MAX_BARS);
  gint64 max_ns = 0;

  for (guint i = 0; i < n; i++)
    max_ns = MAX (max_ns, its->iterations[i].dur_ns);
  _sl_html_raw (html, "<figure class=\"chart\"><figcaption>");
  _sl_html_text (html, _("Iteration durations (tallest:"));
  _sl_html_raw (html, " ");
  _sl_html_duration (html, max_ns);
  _sl_html_printf (html, ")</figcaption><svg viewBox=\"0 0 %u 100\" preserveAspectRatio=\"none\" "
                   "width=\"100%%\" height=\"120\" role=\"img\">", MAX (n, 1));
  for (guint i = 0; i < n; i++)
    iteration_bar (html, &its->iterations[i], i, max_ns, i == its->slowest);
  _sl_html_raw (html, "</svg></figure>\n");
}
