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

/* Replaces the children of @box with the sections of @summary.  Kernel
 * names set the session's kernel name; iterations and gaps navigate the
 * timeline to themselves.  @summary NULL: leaves @box empty. */
void sl_summary_sections_fill (GtkBox         *box,
                               SlScopeSummary *summary,   /* nullable */
                               SlSession      *session);

G_END_DECLS
