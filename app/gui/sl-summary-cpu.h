/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-summary-cpu.h: the Summary page's CPU side: the functions sampled
 * most in the scope (self and total, bottom-up) and, on an idle gap of a
 * GPU, the stacks sampled while it waited. */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "sightline.h"
#include "sl-session.h"

G_BEGIN_DECLS

typedef struct _SlSummaryCpu SlSummaryCpu;

/* In a worker: the top functions of the samples in [@start, @end) of
 * @cpu (nullable: NULL then, as for a file without samples). */
SlSummaryCpu *sl_summary_cpu_compute      (SlCpuActivity      *cpu,
                                           gint64              start,
                                           gint64              end);
void          sl_summary_cpu_free         (SlSummaryCpu       *summary);
/* Appends the "CPU samples" section to @box. */
void          sl_summary_cpu_fill         (GtkBox             *box,
                                           const SlSummaryCpu *summary);
/* {"samples": n, "functions": [{"name", "self", "total"}]} */
JsonNode     *sl_summary_cpu_to_json      (const SlSummaryCpu *summary);
/* An expander that, opened, lists the top stacks sampled in
 * [@start, @end) in the processes owning GPU @device (all when none is
 * known); NULL when the session has no CPU samples. */
GtkWidget    *sl_summary_cpu_gap_expander (SlSession          *session,
                                           guint32             device,
                                           gint64              start,
                                           gint64              end);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSummaryCpu, sl_summary_cpu_free)

G_END_DECLS
