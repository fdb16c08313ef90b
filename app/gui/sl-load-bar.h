/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-load-bar.h: the slim bar above a profile whose CPU rows are still
 * loading (a staged load shows the GPU rows first), or were not loaded. */
#pragma once

#include <gtk/gtk.h>

#include "sl-profile-loader.h"

G_BEGIN_DECLS

#define SL_TYPE_LOAD_BAR (sl_load_bar_get_type ())
G_DECLARE_FINAL_TYPE (SlLoadBar, sl_load_bar, SL, LOAD_BAR, GtkWidget)

GtkWidget  *sl_load_bar_new           (void);
/* Shows @loader's phase and fraction with a Cancel button (win.cancel-load). */
void        sl_load_bar_show_progress (SlLoadBar       *self,
                                       SlProfileLoader *loader);
/* Says that the CPU rows are missing: cancelled, or @error (nullable) why;
 * a button loads the profile again (win.reload). */
void        sl_load_bar_show_missing  (SlLoadBar       *self,
                                       const GError    *error);
/* Says @text (what a later stage reads, no fraction) with Cancel
 * (win.cancel-load), or when @failed a warning with Try Again (win.reload). */
void        sl_load_bar_show_text     (SlLoadBar       *self,
                                       const char      *text,
                                       gboolean         failed);
void        sl_load_bar_hide          (SlLoadBar       *self);
/* For tests: "hidden", "loading", "cancelled" or "failed", and the text shown. */
const char *sl_load_bar_get_state     (SlLoadBar       *self);
const char *sl_load_bar_get_text      (SlLoadBar       *self);
/* (transfer none): its button (Cancel, Load Them, Try Again). */
GtkWidget  *sl_load_bar_get_button    (SlLoadBar       *self);

G_END_DECLS
