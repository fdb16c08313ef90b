/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame.h: the flame stack: NVTX ranges with their kernels as leaves,
 * time-ordered on the timeline's axis (stack) or merged by path (flame
 * graph), over the session's scope and one process or all. */
#pragma once

#include <gtk/gtk.h>

#include "sl-flame-layout.h"
#include "sl-session.h"
#include "sl-timeline.h"

G_BEGIN_DECLS

#define SL_TYPE_FLAME (sl_flame_get_type ())
G_DECLARE_FINAL_TYPE (SlFlame, sl_flame, SL, FLAME, GtkWidget)

GtkWidget   *sl_flame_new         (void);
/* (nullable) (transfer none) */
SlSession   *sl_flame_get_session (SlFlame     *self);
void         sl_flame_set_session (SlFlame     *self,
                                   SlSession   *session);
SlFlameMode  sl_flame_get_mode    (SlFlame     *self);
void         sl_flame_set_mode    (SlFlame     *self,
                                   SlFlameMode  mode);
/* The stack mode draws its time axis exactly under @timeline's (nullable:
 * a gutter of the default label width and the whole width after it). */
void         sl_flame_set_time_axis (SlFlame    *self,
                                     SlTimeline *timeline);

G_END_DECLS
