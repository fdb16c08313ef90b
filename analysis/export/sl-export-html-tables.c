/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-html-tables.c: the report's tables (utilization, top kernels,
 * iterations, idle gaps, bookmarks), each from the analysis behind the CLI
 * command of the same name, so the numbers are the CLI's.  Cells carry
 * their raw value in data-v so the table sorts (and tests compare) on
 * numbers, not on formatted text. */
#include <glib/gi18n.h>

#include "sl-export-html-private.h"
#include "sl-format.h"
#include "sl-gaps.h"
#include "sl-iterations.h"
#include "sl-kernel-summary.h"
#include "sl-overlap.h"
#include "sl-cpu-stacks.h"

#define TOP_KERNELS 100
#define TOP_GAPS 10
#define MAX_ITERATION_ROWS 200

void
_sl_html_cell_int (SlHtml *html, gint64 value)
{
  g_autofree char *text = sl_format_count (value);

  _sl_html_printf (html, "<td class=\"num\" data-v=\"%" G_GINT64_FORMAT "\">%s</td>", value, text);
}

void
_sl_html_cell_dur (SlHtml *html, double ns)
{
  _sl_html_printf (html, "<td class=\"num\" data-v=\"%.17g\">", ns);
  _sl_html_duration (html, (gint64) (ns + (ns < 0 ? -0.5 : 0.5)));
  _sl_html_raw (html, "</td>");
}

void
_sl_html_cell_pct (SlHtml *html, double pct)
{
  g_autofree char *text = sl_format_percent (pct);

  _sl_html_printf (html, "<td class=\"num\" data-v=\"%.17g\">%s</td>", pct, text);
}

void
_sl_html_cell_name (SlHtml *html, const char *name)
{
  _sl_html_raw (html, "<td class=\"name\">");
  _sl_html_text (html, name);
  _sl_html_raw (html, "</td>");
}

/* "<table class=sortable><thead>…</thead><tbody>" with @heads separated by '|'. */
void
_sl_html_table_open (SlHtml *html, const char *id, const char *heads)
{
  g_auto(GStrv) names = g_strsplit (heads, "|", -1);

  _sl_html_printf (html, "<div class=\"scroll\"><table class=\"sortable\" id=\"%s\"><thead><tr>", id);
  for (guint i = 0; names[i] != NULL; i++)
    {
      _sl_html_raw (html, "<th tabindex=\"0\">");
      _sl_html_text (html, names[i]);
      _sl_html_raw (html, "</th>");
    }
  _sl_html_raw (html, "</tr></thead><tbody>\n");
}

void
_sl_html_section_open (SlHtml *html, const char *id, const char *title)
{
  _sl_html_printf (html, "<section id=\"%s\"><h2>", id);
  _sl_html_text (html, title);
  _sl_html_raw (html, "</h2>\n");
}

void
_sl_html_note (SlHtml *html, const char *text)
{
  _sl_html_raw (html, "<p class=\"note\">");
  _sl_html_text (html, text);
  _sl_html_raw (html, "</p>\n");
}

static const SlOverlapDevice *
find_overlap (const SlOverlap *overlap, guint32 device)
{
  for (guint i = 0; i < overlap->n_devices; i++)
    if (overlap->devices[i].device == device)
      return &overlap->devices[i];
  return NULL;
}

void
_sl_html_utilization (SlHtml *html)
{
  const SlFilter *filter = html->options->filter;
  g_autoptr(SlGaps) gaps = sl_gaps_compute (html->profile, filter, 0, 0);
  g_autoptr(SlOverlap) overlap = sl_overlap_compute (html->profile, filter);

  _sl_html_section_open (html, "utilization", _("GPU utilization"));
  _sl_html_note (html, _("Kernel and copy busy time are unions of intervals over each GPU's span; "
                "NCCL overlap is the share of NCCL kernel time that runs alongside compute kernels."));
  _sl_html_table_open (html, "utilization-table", _("GPU|Span|Kernel busy|Kernel %|Copy busy|Copy %|NCCL time|NCCL overlap %"));
  for (guint i = 0; i < gaps->n_devices; i++)
    {
      const SlGapsDevice *d = &gaps->devices[i];
      const SlOverlapDevice *o = find_overlap (overlap, d->device);
      double span = d->span_ns > 0 ? (double) d->span_ns : 1.0;

      _sl_html_printf (html, "<tr><td class=\"num\" data-v=\"%u\">%u</td>", d->device, d->device);
      _sl_html_cell_dur (html, (double) d->span_ns);
      _sl_html_cell_dur (html, (double) d->kernel_busy_ns);
      _sl_html_cell_pct (html, 100.0 * (double) d->kernel_busy_ns / span);
      _sl_html_cell_dur (html, (double) d->copy_busy_ns);
      _sl_html_cell_pct (html, 100.0 * (double) d->copy_busy_ns / span);
      _sl_html_cell_dur (html, o != NULL ? (double) o->nccl_ns : 0.0);
      _sl_html_cell_pct (html, o != NULL ? o->overlap_pct : 0.0);
      _sl_html_raw (html, "</tr>\n");
    }
  _sl_html_raw (html, "</tbody></table></div></section>\n");
}

void
_sl_html_kernels (SlHtml *html)
{
  g_autoptr(SlKernelSummary) s = sl_kernel_summary_compute (html->profile, html->options->filter,
                                                            html->options->names, TOP_KERNELS);
  g_autofree char *count = sl_format_count ((gint64) s->instances);
  g_autofree char *total = sl_format_duration (s->total_ns);
  g_autofree char *summary = g_strdup_printf (_("%s kernels, %u names, %s of GPU time; the %u largest names:"),
                                              count, s->n_names, total, s->n_rows);

  _sl_html_section_open (html, "kernels", _("Top kernels"));
  _sl_html_printf (html, "<p class=\"note\" data-total=\"%" G_GINT64_FORMAT "\" data-instances=\"%"
                   G_GUINT64_FORMAT "\">", s->total_ns, s->instances);
  _sl_html_text (html, summary);
  _sl_html_raw (html, "</p>\n");
  _sl_html_table_open (html, "kernels-table", _("Kernel|Instances|Total|Average|Median|Min|Max|Time %"));
  for (guint i = 0; i < s->n_rows; i++)
    {
      const SlKernelRow *row = &s->rows[i];

      _sl_html_raw (html, "<tr>");
      _sl_html_cell_name (html, row->name);
      _sl_html_cell_int (html, (gint64) row->stats.count);
      _sl_html_cell_dur (html, (double) row->stats.total);
      _sl_html_cell_dur (html, row->stats.avg);
      _sl_html_cell_dur (html, row->stats.median);
      _sl_html_cell_dur (html, (double) row->stats.min);
      _sl_html_cell_dur (html, (double) row->stats.max);
      _sl_html_cell_pct (html, row->time_pct);
      _sl_html_raw (html, "</tr>\n");
    }
  _sl_html_raw (html, "</tbody></table></div></section>\n");
}

static void
iteration_row (SlHtml *html, const SlIteration *it)
{
  _sl_html_printf (html, "<tr><td class=\"num\" data-v=\"%u\">%u</td>"
                   "<td class=\"num\" data-v=\"%u\">%u</td>", it->pid, it->pid, it->index, it->index);
  _sl_html_cell_name (html, it->name);
  _sl_html_cell_dur (html, (double) it->dur_ns);
  _sl_html_cell_dur (html, (double) it->gpu_busy_ns);
  _sl_html_cell_dur (html, (double) it->nccl_ns);
  _sl_html_cell_int (html, (gint64) it->kernels);
  _sl_html_raw (html, "</tr>\n");
}

void
_sl_html_iterations (SlHtml *html)
{
  g_autoptr(SlIterations) its = sl_iterations_compute (html->profile, html->options->filter, NULL, 0, NULL);

  _sl_html_section_open (html, "iterations", _("Iterations"));
  if (its == NULL || its->n_iterations == 0)
    {
      _sl_html_note (html, _("No repeating iterations were found."));
      _sl_html_raw (html, "</section>\n");
      return;
    }
  _sl_html_raw (html, "<p class=\"note\">");
  _sl_html_text (html, its->reason);
  _sl_html_raw (html, "</p>\n");
  _sl_html_iterations_chart (html, its);
  _sl_html_table_open (html, "iterations-table", _("Process|Index|Name|Duration|GPU busy|NCCL|Kernels"));
  for (guint i = 0; i < its->n_iterations && i < MAX_ITERATION_ROWS; i++)
    iteration_row (html, &its->iterations[i]);
  _sl_html_raw (html, "</tbody></table></div>\n");
  if (its->n_iterations > MAX_ITERATION_ROWS)
    {
      g_autofree char *more = g_strdup_printf (_("%u more iterations are in the chart only."),
                                               its->n_iterations - MAX_ITERATION_ROWS);
      _sl_html_note (html, more);
    }
  _sl_html_raw (html, "</section>\n");
}
