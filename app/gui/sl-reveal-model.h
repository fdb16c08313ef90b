/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-reveal-model.h: a list model that shows a whole new set of rows a
 * slice per main-loop iteration. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SL_TYPE_REVEAL_MODEL (sl_reveal_model_get_type ())
G_DECLARE_FINAL_TYPE (SlRevealModel, sl_reveal_model, SL, REVEAL_MODEL, GObject)

/* Passes @source's items and changes through. (@source: transfer full, as
 * GTK's list model wrappers take theirs) */
SlRevealModel *sl_reveal_model_new        (GListModel *source);
/* Shows no rows now, then @source's rows @step at a time, one slice per
 * idle (until then @source's own changes are folded into the slices). */
void           sl_reveal_model_restart    (SlRevealModel *self, guint step);
/* Shows all of @source's rows now. */
void           sl_reveal_model_finish     (SlRevealModel *self);
gboolean       sl_reveal_model_is_done    (SlRevealModel *self);

G_END_DECLS
