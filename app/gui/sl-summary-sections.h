/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-summary-sections.h: the Summary page's sections, built from one
 * SlScopeSummary: per-GPU utilization, top kernels, categories, CUDA API,
 * NVTX, NCCL overlap, iterations and the largest idle gaps. */
#pragma once

#include <gtk/gtk.h>

#include "sightline.h"
#include "sl-session.h"

G_BEGIN_DECLS

/* The CSS class of the kernel names that set the session's kernel name. */
#define SL_SUMMARY_KERNEL_LINK "summary-kernel"
/* The CSS class of the idle gaps' links (they carry the gap's span). */
#define SL_SUMMARY_GAP_LINK "summary-gap"
/* Set on the session (g_object_set_data) while a gap link selects its
 * range: the page keeps its scope rather than shrinking to the gap, so
 * the list of gaps stays to click the next one. */
#define SL_SUMMARY_OWN_SELECTION "sl-summary-own-selection"

/* The span of a gap link, FALSE for any other widget. */
gboolean sl_summary_sections_link_span (GtkWidget *link,
                                        gint64    *start,
                                        gint64    *end);

/* Replaces the children of @box with the sections of @summary.  Kernel
 * names set the session's kernel name; iterations navigate the timeline
 * to themselves; a gap is selected (the session's selected range) and
 * brought into view.  @summary NULL: leaves @box empty. */
void sl_summary_sections_fill (GtkBox         *box,
                               SlScopeSummary *summary,   /* nullable */
                               SlSession      *session);

/* The same, a piece at a time (a section, or a few rows of one), so that
 * each frame makes, styles and lays out only a few ms of widgets: steps
 * until sl_summary_fill_step() returns FALSE.  The first step empties
 * @box.  The fill holds @summary and @session, not @box. */
typedef struct _SlSummaryFill SlSummaryFill;

SlSummaryFill *sl_summary_fill_new  (GtkBox         *box,
                                     SlScopeSummary *summary,   /* nullable */
                                     SlSession      *session);  /* nullable */
gboolean       sl_summary_fill_step (SlSummaryFill  *fill);
void           sl_summary_fill_free (SlSummaryFill  *fill);

G_END_DECLS
