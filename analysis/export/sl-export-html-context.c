/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-html-context.c: the report's sections about moments: the
 * largest idle gaps with what the CPU side was doing meanwhile, and the
 * bookmarks in scope with a summary of each. */
#include <glib/gi18n.h>

#include "sl-export-html-private.h"
#include "sl-cpu-stacks.h"
#include "sl-format.h"
#include "sl-gaps.h"
#include "sl-kernel-summary.h"

#define TOP_GAPS 10
#define TOP_CAUSES 3

typedef struct {
  guint32      device;
  const SlGap *gap;
} GapRef;

static int
compare_gaps (gconstpointer a, gconstpointer b)
{
  const GapRef *x = a, *y = b;

  if (x->gap->dur_ns != y->gap->dur_ns)
    return x->gap->dur_ns > y->gap->dur_ns ? -1 : 1;
  return x->device < y->device ? -1 : x->device > y->device;
}

/* What the CPU sampled in the gap: its process's top functions by self samples. */
static void
sampled_functions (SlHtml *html, const SlGap *gap)
{
  const SlCpuActivity *cpu = html->options->cpu;
  g_autoptr(GArray) top = NULL;

  if (cpu == NULL)
    return;
  top = sl_cpu_top_functions (cpu, gap->start_ns, gap->end_ns, &gap->pid, 1, TOP_CAUSES);
  for (guint i = 0; i < top->len; i++)
    {
      const SlCpuFunction *f = &g_array_index (top, SlCpuFunction, i);

      _sl_html_raw (html, "<li class=\"name\">");
      _sl_html_text (html, sl_cpu_activity_name (cpu, f->symbol));
      _sl_html_printf (html, " <span class=\"dim\">(%" G_GUINT64_FORMAT " ", f->self);
      _sl_html_text (html, _("samples"));
      _sl_html_raw (html, ")</span></li>");
    }
}

static void
gap_row (SlHtml *html, const GapRef *ref)
{
  const SlGap *gap = ref->gap;
  gint64 origin = html->profile->start_ns;

  _sl_html_printf (html, "<tr><td class=\"num\" data-v=\"%u\">%u</td><td class=\"num\" data-v=\"%"
                   G_GINT64_FORMAT "\">", ref->device, ref->device, gap->start_ns);
  _sl_html_duration (html, gap->start_ns - origin);
  _sl_html_printf (html, "</td><td class=\"num\" data-v=\"%" G_GINT64_FORMAT "\">", gap->dur_ns);
  _sl_html_duration (html, gap->dur_ns);
  _sl_html_raw (html, "</td><td class=\"name\">");
  _sl_html_text (html, gap->before);
  _sl_html_raw (html, "</td><td class=\"name\">");
  _sl_html_text (html, gap->after);
  _sl_html_raw (html, "</td><td><ul class=\"causes\">");
  for (guint i = 0; i < gap->n_cpu; i++)
    {
      _sl_html_raw (html, "<li class=\"name\">");
      _sl_html_text (html, gap->cpu[i].name);
      _sl_html_raw (html, " <span class=\"dim\">(");
      _sl_html_duration (html, gap->cpu[i].overlap_ns);
      _sl_html_raw (html, ")</span></li>");
    }
  sampled_functions (html, gap);
  _sl_html_raw (html, "</ul></td></tr>\n");
}

void
_sl_html_gaps (SlHtml *html)
{
  g_autoptr(SlGaps) gaps = sl_gaps_compute (html->profile, html->options->filter, 0, TOP_GAPS);
  g_autoptr(GArray) refs = g_array_new (FALSE, FALSE, sizeof (GapRef));

  for (guint d = 0; d < gaps->n_devices; d++)
    for (guint i = 0; i < gaps->devices[d].n_top; i++)
      {
        GapRef ref = { gaps->devices[d].device, &gaps->devices[d].gaps[i] };

        g_array_append_val (refs, ref);
      }
  g_array_sort (refs, compare_gaps);
  _sl_html_printf (html, "<section id=\"gaps\"><h2>");
  _sl_html_text (html, _("Largest idle gaps"));
  _sl_html_raw (html, "</h2>\n<p class=\"note\">");
  _sl_html_text (html, html->options->cpu != NULL
                 ? _("CPU side: the process's CUDA API calls overlapping the gap, then its most sampled functions.")
                 : _("CPU side: the process's CUDA API calls overlapping the gap."));
  _sl_html_raw (html, "</p>\n<div class=\"scroll\"><table class=\"sortable\" id=\"gaps-table\"><thead><tr>");
  _sl_html_printf (html, "<th tabindex=\"0\">%s</th><th tabindex=\"0\">%s</th><th tabindex=\"0\">%s</th>"
                   "<th tabindex=\"0\">%s</th><th tabindex=\"0\">%s</th><th>%s</th></tr></thead><tbody>\n",
                   _("GPU"), _("Starts at"), _("Length"), _("Before"), _("After"), _("CPU side"));
  for (guint i = 0; i < refs->len && i < TOP_GAPS; i++)
    gap_row (html, &g_array_index (refs, GapRef, i));
  _sl_html_raw (html, "</tbody></table></div></section>\n");
}

/* The scope's filter narrowed to @bookmark's time. (transfer full) */
static SlFilter *
bookmark_filter (const SlFilter *scope, const SlBookmark *bookmark)
{
  SlFilter *filter = scope != NULL ? sl_filter_copy (scope) : sl_filter_new ();
  gint64 start = bookmark->start, end = MAX (bookmark->end, bookmark->start + 1);

  if (filter->has_range)
    {
      start = MAX (start, filter->range_start);
      end = MAX (start, MIN (end, filter->range_end));
    }
  sl_filter_set_range (filter, start, end);
  return filter;
}

static void
bookmark_item (SlHtml *html, const SlBookmark *bookmark)
{
  g_autoptr(SlFilter) filter = bookmark_filter (html->options->filter, bookmark);
  g_autoptr(SlKernelSummary) s = sl_kernel_summary_compute (html->profile, filter, html->options->names, TOP_CAUSES);
  g_autofree char *count = sl_format_count ((gint64) s->instances);

  _sl_html_raw (html, "<li><span class=\"swatch\"><svg width=\"12\" height=\"12\"><rect width=\"12\" height=\"12\" fill=\"");
  _sl_html_text (html, bookmark->color);
  _sl_html_raw (html, "\"/></svg></span> <b>");
  _sl_html_text (html, bookmark->name);
  _sl_html_raw (html, "</b> — ");
  _sl_html_duration (html, bookmark->start - html->profile->start_ns);
  _sl_html_raw (html, " + ");
  _sl_html_duration (html, bookmark->end - bookmark->start);
  _sl_html_printf (html, "; %s ", count);
  _sl_html_text (html, _("kernels, GPU time"));
  _sl_html_raw (html, " ");
  _sl_html_duration (html, s->total_ns);
  if (bookmark->note[0] != '\0')
    {
      _sl_html_raw (html, "<div class=\"bnote\">");
      _sl_html_text (html, bookmark->note);
      _sl_html_raw (html, "</div>");
    }
  _sl_html_raw (html, "<ul>");
  for (guint i = 0; i < s->n_rows; i++)
    {
      _sl_html_raw (html, "<li class=\"name\">");
      _sl_html_text (html, s->rows[i].name);
      _sl_html_raw (html, " <span class=\"dim\">(");
      _sl_html_duration (html, s->rows[i].stats.total);
      _sl_html_raw (html, ")</span></li>");
    }
  _sl_html_raw (html, "</ul></li>\n");
}

/* Whether @bookmark overlaps the scope's window (as sl_bookmark_in_range()
 * says; written out here so the report does not wait on the bookmarks
 * library). */
static gboolean
in_scope (const SlBookmark *bookmark, const SlFilter *scope)
{
  if (scope == NULL || !scope->has_range)
    return TRUE;
  if (bookmark->end <= bookmark->start)
    return bookmark->start >= scope->range_start && bookmark->start < scope->range_end;
  return bookmark->start < scope->range_end && bookmark->end > scope->range_start;
}

void
_sl_html_bookmarks (SlHtml *html)
{
  GPtrArray *bookmarks = html->options->bookmarks;
  const SlFilter *scope = html->options->filter;
  guint shown = 0;

  _sl_html_raw (html, "<section id=\"bookmarks\"><h2>");
  _sl_html_text (html, _("Bookmarks"));
  _sl_html_raw (html, "</h2>\n<ul class=\"bookmarks\">\n");
  for (guint i = 0; bookmarks != NULL && i < bookmarks->len; i++)
    {
      const SlBookmark *bookmark = g_ptr_array_index (bookmarks, i);

      if (!in_scope (bookmark, scope))
        continue;
      bookmark_item (html, bookmark);
      shown++;
    }
  _sl_html_raw (html, "</ul>\n");
  if (shown == 0)
    {
      _sl_html_raw (html, "<p class=\"note\">");
      _sl_html_text (html, _("No bookmarks in this scope."));
      _sl_html_raw (html, "</p>\n");
    }
  _sl_html_raw (html, "</section>\n");
}
