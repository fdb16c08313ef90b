/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-event-info-private.h: what sl-event-info.c shares with the files that
 * describe other kinds of events (sl-event-info-cpu.c). */
#pragma once

#include "sl-event-info.h"

G_BEGIN_DECLS

/* Appends a field; @value (transfer full, nullable: nothing added). */
void _sl_event_info_add         (GPtrArray       *fields,
                                 const char      *label,
                                 char            *value);
/* "Thread" and "Process" of profile thread @thread. */
void _sl_event_info_add_thread  (GPtrArray       *fields,
                                 const SlProfile *profile,
                                 guint32          thread);
/* sl-event-info-cpu.c: OS runtime calls, CPU samples, GPU counter samples. */
void _sl_event_info_add_cpu     (GPtrArray        *fields,
                                 SlTimelineModel  *model,
                                 const SlEventRef *event,
                                 gint64            start,
                                 gint64            end);

G_END_DECLS
