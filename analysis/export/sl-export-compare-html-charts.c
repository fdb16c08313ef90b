/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-compare-html-charts.c: the comparison report's charts as inline
 * SVG (colours as presentation attributes, which the CSP allows): kernel
 * time by category as one stacked bar per profile on one scale, and each
 * profile's iteration durations as a strip plot. */
#include <glib/gi18n.h>

#include "sl-export-compare-html-private.h"
#include "sl-format.h"

#define MAX_DOTS 5000      /* per profile: the strip stays light */
#define ROW_H 36
#define LEFT 40
#define WIDTH 1000

static void
category_bar (SlCompareHtml *c, guint p, double full)
{
  const SlCompare *cmp = c->report->compare;
  SlHtml *html = &c->html;
  g_autofree char *letter = _sl_compare_html_letter (p);
  g_autofree char *total = sl_format_duration (cmp->kernel_total_ns[p]);
  g_autofree char *caption = g_strdup_printf (_("%s: kernel time %s"), letter, total);
  double x = 0;

  _sl_html_raw (html, "<figure class=\"bars\"><figcaption>");
  _sl_html_text (html, caption);
  _sl_html_printf (html, "</figcaption><svg class=\"stacked\" data-profile=\"%u\" viewBox=\"0 0 1000 24\" "
                   "preserveAspectRatio=\"none\" role=\"img\" width=\"100%%\" height=\"24\">", p);
  for (guint i = 0; i < cmp->n_categories && full > 0; i++)
    {
      double w = 1000.0 * (double) cmp->categories[i].total_ns[p] / full;

      if (w <= 0)
        continue;
      _sl_html_printf (html, "<rect x=\"%.3f\" y=\"0\" width=\"%.3f\" height=\"24\" fill=\"%s\"><title>",
                       x, w, _sl_html_palette (i));
      _sl_html_text (html, cmp->categories[i].name);
      _sl_html_raw (html, " ");
      _sl_html_duration (html, cmp->categories[i].total_ns[p]);
      _sl_html_raw (html, "</title></rect>");
      x += w;
    }
  _sl_html_raw (html, "</svg></figure>\n");
}

/* The legend doubles as the table of times (A, B… columns), sortable. */
static void
category_table (SlCompareHtml *c)
{
  const SlCompare *cmp = c->report->compare;
  SlHtml *html = &c->html;
  g_autoptr(GString) heads = g_string_new (_("Category"));

  for (guint p = 0; p < cmp->n_profiles; p++)
    {
      g_autofree char *letter = _sl_compare_html_letter (p);
      g_string_append_printf (heads, "|%s", letter);
    }
  _sl_html_table_open (html, "categories-table", heads->str);
  for (guint i = 0; i < cmp->n_categories; i++)
    {
      _sl_html_printf (html, "<tr><td class=\"name\"><svg width=\"12\" height=\"12\"><rect width=\"12\" "
                       "height=\"12\" fill=\"%s\"/></svg> ", _sl_html_palette (i));
      _sl_html_text (html, cmp->categories[i].name);
      _sl_html_raw (html, "</td>");
      for (guint p = 0; p < cmp->n_profiles; p++)
        _sl_html_cell_dur (html, (double) cmp->categories[i].total_ns[p]);
      _sl_html_raw (html, "</tr>\n");
    }
  _sl_html_raw (html, "</tbody></table></div>\n");
}

void
_sl_compare_html_categories (SlCompareHtml *c)
{
  const SlCompare *cmp = c->report->compare;
  double full = 0;

  for (guint p = 0; p < cmp->n_profiles; p++)
    full = MAX (full, (double) cmp->kernel_total_ns[p]);
  _sl_html_section_open (&c->html, "categories", _("Kernel time by category"));
  _sl_html_note (&c->html, _("One bar per profile, on one scale: the longest total kernel time fills the width."));
  for (guint p = 0; p < cmp->n_profiles; p++)
    category_bar (c, p, full);
  category_table (c);
  _sl_html_raw (&c->html, "</section>\n");
}

/* One profile's row: a dot per iteration (spread over the row's height so
 * equal durations stay visible) and a bar at the median. */
static void
strip_row (SlCompareHtml *c, guint p, gint64 lo_ns, gint64 hi_ns)
{
  const SlIterations *its = c->iterations[p];
  const SlCompareIterations *summary = &c->report->compare->iterations[p];
  SlHtml *html = &c->html;
  g_autofree char *letter = _sl_compare_html_letter (p);
  guint n = its != NULL ? MIN (its->n_iterations, MAX_DOTS) : 0;
  double scale = hi_ns > lo_ns ? (double) (WIDTH - LEFT - 20) / (double) (hi_ns - lo_ns) : 0;
  int y0 = (int) p * ROW_H;

  _sl_html_printf (html, "<g data-profile=\"%u\" data-count=\"%u\"><text x=\"4\" y=\"%d\">%s</text>",
                   p, n, y0 + ROW_H / 2 + 4, letter);
  for (guint i = 0; i < n; i++)
    {
      const SlIteration *it = &its->iterations[i];

      _sl_html_printf (html, "<circle cx=\"%.2f\" cy=\"%d\" r=\"3\" fill=\"%s\" fill-opacity=\"0.6\"><title>",
                       LEFT + 10 + (double) (it->dur_ns - lo_ns) * scale, y0 + 8 + (int) ((i * 7919u) % (ROW_H - 16)),
                       _sl_html_palette (p));
      _sl_html_printf (html, "%s %u: ", letter, it->index);
      _sl_html_duration (html, it->dur_ns);
      _sl_html_raw (html, "</title></circle>");
    }
  if (summary->found)
    _sl_html_printf (html, "<rect x=\"%.2f\" y=\"%d\" width=\"2\" height=\"%d\" fill=\"currentColor\"/>",
                     LEFT + 9 + (double) (summary->median_ns - lo_ns) * scale, y0 + 4, ROW_H - 8);
  _sl_html_printf (html, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/></g>",
                   LEFT, y0 + ROW_H, WIDTH, y0 + ROW_H);
}

/* The axis spans the shortest to the longest iteration of all profiles:
 * from 0, steps a few percent apart would sit on one spot. */
void
_sl_compare_html_strips (SlCompareHtml *c)
{
  guint n = c->report->n_profiles;
  gint64 lo_ns = G_MAXINT64, hi_ns = 0;
  g_autofree char *lo = NULL, *hi = NULL, *caption = NULL;

  for (guint p = 0; p < n; p++)
    for (guint i = 0; c->iterations[p] != NULL && i < MIN (c->iterations[p]->n_iterations, MAX_DOTS); i++)
      {
        lo_ns = MIN (lo_ns, c->iterations[p]->iterations[i].dur_ns);
        hi_ns = MAX (hi_ns, c->iterations[p]->iterations[i].dur_ns);
      }
  _sl_html_section_open (&c->html, "iterations", _("Iteration durations"));
  if (hi_ns == 0)
    {
      _sl_html_note (&c->html, _("No profile has repeating iterations."));
      _sl_html_raw (&c->html, "</section>\n");
      return;
    }
  lo = sl_format_duration (lo_ns);
  hi = sl_format_duration (hi_ns);
  caption = g_strdup_printf (_("A dot per iteration, from %s (left) to %s (right); the bar is the median."), lo, hi);
  _sl_html_raw (&c->html, "<figure class=\"strips\"><figcaption>");
  _sl_html_text (&c->html, caption);
  _sl_html_printf (&c->html, "</figcaption><svg class=\"strips\" viewBox=\"0 0 %d %u\" width=\"100%%\" "
                   "role=\"img\">", WIDTH, n * ROW_H + 2);
  for (guint p = 0; p < n; p++)
    strip_row (c, p, lo_ns, hi_ns);
  _sl_html_raw (&c->html, "</svg></figure>\n</section>\n");
}
