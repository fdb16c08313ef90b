/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-compare-html.c: the comparison as a self-contained HTML report
 * (issue 15): the profile report's stylesheet, script, CSP and escaping;
 * this file writes the skeleton, the profiles and the step times with the
 * verdict, the charts and the diff table live beside it.  The verdict's
 * words and numbers are `compare --json`'s (the same SlCompare), kept in
 * data attributes so a test reads them exactly. */
#include <math.h>
#include <glib/gi18n.h>

#include "sl-export-compare-html-private.h"
#include "sl-export-private.h"
#include "sl-format.h"

char *
_sl_compare_html_letter (guint p)
{
  return g_strdup_printf ("%c", 'A' + (int) MIN (p, 25));
}

/* One definition list per profile: file, Nsight Systems, GPUs. */
static void
profiles_section (SlCompareHtml *c)
{
  SlHtml *html = &c->html;

  _sl_html_raw (html, "<dl class=\"facts\" id=\"profiles\">\n");
  for (guint p = 0; p < c->report->n_profiles; p++)
    {
      const SlProfile *profile = c->report->profiles[p];
      g_autofree char *letter = _sl_compare_html_letter (p);
      g_autofree char *base = g_path_get_basename (profile->path != NULL ? profile->path : "");
      g_autofree char *gpus = _sl_html_gpu_list (profile, c->report->filter);
      g_autofree char *about = g_strdup_printf (_("Nsight Systems %s · GPUs: %s"),
                                                profile->nsys_version != NULL ? profile->nsys_version : _("unknown"),
                                                gpus[0] != '\0' ? gpus : _("none"));

      _sl_html_printf (html, "<dt>%s</dt><dd><span class=\"name\" data-profile=\"%u\">", letter, p);
      _sl_html_text (html, base);
      _sl_html_raw (html, "</span><br><span class=\"dim\">");
      _sl_html_text (html, about);
      _sl_html_raw (html, "</span></dd>\n");
    }
  _sl_html_raw (html, "</dl>\n");
}

static void
header (SlCompareHtml *c)
{
  SlHtml *html = &c->html;

  _sl_html_raw (html, "<header><h1>");
  _sl_html_text (html, _("Sightline comparison"));
  _sl_html_raw (html, "</h1>\n");
  profiles_section (c);
  _sl_html_raw (html, "<p class=\"note\">");
  _sl_html_text (html, _("Every later profile is compared with the first (A). The capture's environment, "
                         "command lines and host details are never included."));
  _sl_html_printf (html, "</p>\n<nav><a href=\"#step\">%s</a> <a href=\"#categories\">%s</a> "
                   "<a href=\"#diff\">%s</a> <a href=\"#iterations\">%s</a></nav></header>\n<main>\n",
                   _("Step time"), _("Categories"), _("Kernel diff"), _("Iterations"));
}

static void
step_row (SlCompareHtml *c, guint p)
{
  const SlCompare *cmp = c->report->compare;
  const SlCompareIterations *its = &cmp->iterations[p];
  SlHtml *html = &c->html;
  g_autofree char *letter = _sl_compare_html_letter (p);

  _sl_html_printf (html, "<tr data-profile=\"%u\"><td>%s</td>", p, letter);
  if (!its->found)
    {
      _sl_html_raw (html, "<td class=\"num\" data-v=\"0\">0</td><td></td><td></td><td></td><td></td></tr>\n");
      return;
    }
  _sl_html_cell_int (html, its->count);
  _sl_html_cell_dur (html, (double) its->median_ns);
  _sl_html_cell_dur (html, (double) its->p10_ns);
  _sl_html_cell_dur (html, (double) its->p90_ns);
  if (p > 0 && cmp->has_step && !isnan (cmp->step_change_pct[p]))
    _sl_html_printf (html, "<td class=\"num\" data-v=\"%.17g\">%+.1f %%</td></tr>\n",
                     cmp->step_change_pct[p], cmp->step_change_pct[p]);
  else
    _sl_html_raw (html, "<td class=\"num\">–</td></tr>\n");
}

static char *
verdict_text (const SlCompare *cmp, double threshold)
{
  const char *verdict = cmp->verdict == SL_COMPARE_REGRESSED ? _("regressed")
                        : cmp->verdict == SL_COMPARE_IMPROVED ? _("improved") : _("neutral");

  if (cmp->has_step)
    return g_strdup_printf (_("Verdict: %s (step time %+.1f %%, threshold ±%g %%)"), verdict,
                            cmp->verdict_change_pct, threshold * 100);
  return g_strdup_printf (_("Verdict: %s (the first profile's calls at each one's time per call %+.1f %%, "
                            "threshold ±%g %%)"), verdict, cmp->verdict_change_pct, threshold * 100);
}

/* The basis, verdict and comparability, as `compare` prints them. */
static void
verdict (SlCompareHtml *c)
{
  const SlCompare *cmp = c->report->compare;
  SlHtml *html = &c->html;
  g_autofree char *text = verdict_text (cmp, c->report->threshold);
  g_autofree char *reasons = g_strjoinv ("; ", cmp->reasons);
  g_autofree char *comparability = g_strdup_printf (_("Comparability: %.2f (%s)"), cmp->comparability, reasons);
  const char *verdict_name = sl_compare_verdict_name (cmp->verdict);

  _sl_html_note (html, cmp->has_step ? _("Compared per iteration: kernel times are per step, step time is the "
                                         "median iteration.")
                                     : _("Compared per call (not every profile has iterations): mean time per call."));
  _sl_html_printf (html, "<p id=\"verdict\" class=\"verdict-%s\" data-verdict=\"%s\" data-basis=\"%s\" "
                   "data-change=\"%.17g\" data-comparability=\"%.17g\">", verdict_name, verdict_name,
                   sl_compare_basis_name (cmp->basis), cmp->verdict_change_pct, cmp->comparability);
  _sl_html_text (html, text);
  _sl_html_raw (html, "</p>\n<p class=\"note\">");
  _sl_html_text (html, comparability);
  if (cmp->comparability < 0.5)
    {
      _sl_html_raw (html, " ");
      _sl_html_text (html, _("These captures ran different work: the verdict says little."));
    }
  _sl_html_raw (html, "</p>\n");
}

static void
step_section (SlCompareHtml *c)
{
  SlHtml *html = &c->html;

  _sl_html_section_open (html, "step", _("Step time"));
  _sl_html_table_open (html, "step-table", _("Profile|Iterations|Median|p10|p90|Change"));
  for (guint p = 0; p < c->report->n_profiles; p++)
    step_row (c, p);
  _sl_html_raw (html, "</tbody></table></div>\n");
  verdict (c);
  _sl_html_raw (html, "</section>\n");
}

typedef void (*SectionFunc) (SlCompareHtml *c);

static void
body (SlCompareHtml *c)
{
  static const SectionFunc sections[] = {
    header, step_section, _sl_compare_html_categories, _sl_compare_html_diff, _sl_compare_html_strips,
  };

  for (guint i = 0; i < G_N_ELEMENTS (sections); i++)
    {
      if (g_cancellable_set_error_if_cancelled (c->html.cancellable, &c->html.error))
        return;
      sections[i] (c);
      if (!_sl_html_flush (&c->html, FALSE))
        return;
    }
  _sl_html_raw (&c->html, "</main>\n");
}

/* "a.sqlite ↔ b.sqlite", the title's subject. */
static char *
subject (const SlCompareReport *report)
{
  GString *text = g_string_new (NULL);

  for (guint p = 0; p < report->n_profiles; p++)
    {
      const char *path = report->profiles[p]->path;
      g_autofree char *base = g_path_get_basename (path != NULL ? path : "");
      g_string_append_printf (text, "%s%s", p > 0 ? " ↔ " : "", base);
    }
  return g_string_free (text, FALSE);
}

static void
document (SlCompareHtml *c)
{
  g_autofree char *css = _sl_html_resource_text ("sl-report.css");
  g_autofree char *js = _sl_html_resource_text ("sl-report.js");
  g_autofree char *title = subject (c->report);

  _sl_html_head (&c->html, _("Sightline comparison"), title, FALSE, css, js);
  body (c);
  if (c->html.error != NULL)
    return;
  _sl_html_raw (&c->html, "<script>");
  _sl_html_raw (&c->html, js);
  _sl_html_raw (&c->html, "</script>\n</body>\n</html>\n");
  _sl_html_flush (&c->html, TRUE);
}

gboolean
sl_export_compare_html_write (const SlCompareReport *report, GOutputStream *out,
                              GCancellable *cancellable, GError **error)
{
  static const SlExportOptions options = { .format = SL_EXPORT_HTML, .names = SL_NAMES_SHORT };
  g_autoptr(GString) buf = g_string_sized_new (256 * 1024);
  g_autofree SlIterations **computed = NULL;
  SlCompareHtml c = { { NULL, &options, out, cancellable, buf, NULL }, report, report->iterations };

  g_return_val_if_fail (report != NULL && report->compare != NULL, FALSE);
  g_return_val_if_fail (report->n_profiles == report->compare->n_profiles, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);
  if (c.iterations == NULL)
    {
      /* Durations only: the strip plot needs nothing else. */
      computed = g_new0 (SlIterations *, report->n_profiles);
      for (guint p = 0; p < report->n_profiles; p++)
        computed[p] = sl_iterations_compute_durations (report->profiles[p], report->filter);
      c.iterations = computed;
    }
  document (&c);
  for (guint p = 0; computed != NULL && p < report->n_profiles; p++)
    g_clear_pointer (&computed[p], sl_iterations_free);
  if (c.html.error == NULL)
    g_cancellable_set_error_if_cancelled (cancellable, &c.html.error);
  if (c.html.error != NULL)
    {
      g_propagate_error (error, c.html.error);
      return FALSE;
    }
  return TRUE;
}

static gboolean
write_report (gconstpointer data, GOutputStream *out, GCancellable *cancellable, GError **error)
{
  return sl_export_compare_html_write (data, out, cancellable, error);
}

gboolean
sl_export_compare_html_to_path (const SlCompareReport *report, const char *path,
                                GCancellable *cancellable, GError **error)
{
  return sl_export_write_to_path (path, write_report, report, cancellable, error);
}
