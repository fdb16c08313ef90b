/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-compare-html-diff.c: the comparison report's kernel diff: one
 * row per kernel name in `compare --json`'s order (status, name, the first
 * and last profile's basis time, change, total delta and ratio), sortable,
 * and filtered by status and by name by the report's script (rows carry
 * their JSON status in data-status). */
#include <math.h>
#include <glib/gi18n.h>

#include "sl-export-compare-html-private.h"


static void
controls (SlHtml *html)
{
  static const SlCompareStatus order[] = { SL_COMPARE_SLOWER, SL_COMPARE_FASTER, SL_COMPARE_ADDED,
                                           SL_COMPARE_REMOVED, SL_COMPARE_CALLS, SL_COMPARE_SAME };

  _sl_html_raw (html, "<div class=\"controls\"><select id=\"diff-status\" aria-label=\"");
  _sl_html_text (html, _("Status"));
  _sl_html_raw (html, "\"><option value=\"\">");
  _sl_html_text (html, _("All statuses"));
  _sl_html_raw (html, "</option>");
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      _sl_html_printf (html, "<option value=\"%s\">", sl_compare_status_name (order[i]));
      _sl_html_text (html, sl_compare_status_label (order[i]));
      _sl_html_raw (html, "</option>");
    }
  _sl_html_raw (html, "</select> <input type=\"search\" id=\"diff-search\" placeholder=\"");
  _sl_html_text (html, _("Filter by kernel name"));
  /* Translators: keep {shown} and {total}: the script puts the numbers there */
  _sl_html_raw (html, "\"> <span id=\"diff-shown\" class=\"dim\" data-template=\"");
  _sl_html_text (html, _("{shown} of {total} kernel names shown"));
  _sl_html_raw (html, "\"></span></div>\n");
}

static void
cell_time (SlHtml *html, double ns)
{
  if (isnan (ns))
    _sl_html_raw (html, "<td class=\"num\" data-v=\"-1\">–</td>");
  else
    _sl_html_cell_dur (html, ns);
}

static void
diff_row (SlCompareHtml *c, const SlCompareKernel *k)
{
  const SlCompare *cmp = c->report->compare;
  SlHtml *html = &c->html;
  gboolean per_iteration = cmp->basis == SL_COMPARE_PER_ITERATION;
  guint last = cmp->n_profiles - 1;

  _sl_html_printf (html, "<tr data-status=\"%s\"><td class=\"status\">", sl_compare_status_name (k->status));
  _sl_html_text (html, sl_compare_status_label (k->status));
  _sl_html_raw (html, "</td>");
  _sl_html_cell_name (html, k->name);
  cell_time (html, per_iteration ? k->per_iteration_ns[0] : k->per_call_ns[0]);
  cell_time (html, per_iteration ? k->per_iteration_ns[last] : k->per_call_ns[last]);
  if (isnan (k->change_pct))
    _sl_html_raw (html, "<td class=\"num\">–</td>");
  else
    _sl_html_printf (html, "<td class=\"num\" data-v=\"%.17g\">%+.1f %%</td>", k->change_pct, k->change_pct);
  _sl_html_cell_dur (html, (double) k->delta_ns);
  if (k->has_ratio)
    _sl_html_printf (html, "<td class=\"num\" data-v=\"%.17g\">%.3f×</td></tr>\n", k->ratio, k->ratio);
  else
    _sl_html_raw (html, "<td class=\"num\">–</td></tr>\n");
}

void
_sl_compare_html_diff (SlCompareHtml *c)
{
  const SlCompare *cmp = c->report->compare;
  SlHtml *html = &c->html;
  gboolean per_iteration = cmp->basis == SL_COMPARE_PER_ITERATION;
  g_autofree char *last = _sl_compare_html_letter (cmp->n_profiles - 1);
  /* Translators: the diff table's heads, separated by |; %s is the last profile's letter (B, C…) */
  g_autofree char *heads = g_strdup_printf (per_iteration ? _("Status|Name|A per step|%s per step|Change|Total Δ|Total ratio")
                                                          : _("Status|Name|A per call|%s per call|Change|Total Δ|Total ratio"),
                                            last);

  _sl_html_section_open (html, "diff", _("Kernel diff"));
  _sl_html_note (html, _("Each kernel name, the last profile against the first: its time per step (per call "
                         "without iterations), the change of that time, and the change of its total time."));
  controls (html);
  _sl_html_table_open (html, "diff-table", heads);
  for (guint i = 0; i < cmp->n_kernels; i++)
    {
      diff_row (c, &cmp->kernels[i]);
      if (!_sl_html_flush (html, FALSE))
        return;
    }
  _sl_html_raw (html, "</tbody></table></div></section>\n");
}
