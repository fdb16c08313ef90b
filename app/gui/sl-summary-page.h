/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-summary-page.h: the side panel's Summary page: what the whole profile
 * or the selected range holds (GPU utilization, top kernels, categories,
 * CUDA API, NVTX, NCCL overlap, iterations, idle gaps) and a duration
 * histogram, recomputed off the main thread when the scope changes. */
#pragma once

#include <gtk/gtk.h>

#include "sl-session.h"

G_BEGIN_DECLS

#define SL_TYPE_SUMMARY_PAGE (sl_summary_page_get_type ())
G_DECLARE_FINAL_TYPE (SlSummaryPage, sl_summary_page, SL, SUMMARY_PAGE, GtkWidget)

GtkWidget *sl_summary_page_new (void);

G_END_DECLS
