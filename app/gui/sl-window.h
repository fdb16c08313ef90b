/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window.h: the application window, one per profile. */
#pragma once

#include <gtk/gtk.h>

#include "sl-session.h"
#include "sl-profile-loader.h"

G_BEGIN_DECLS

#define SL_TYPE_WINDOW (sl_window_get_type ())
G_DECLARE_FINAL_TYPE (SlWindow, sl_window, SL, WINDOW, GtkApplicationWindow)

SlWindow        *sl_window_new            (GtkApplication *app);
/* Loads @file in the background; the window shows progress, then the
 * timeline or the loader's error. */
void             sl_window_load           (SlWindow       *self,
                                           GFile          *file);
/* TRUE when the window shows no profile and is not loading one. */
gboolean         sl_window_is_empty       (SlWindow       *self);
/* (nullable) (transfer none): the profile shown or being loaded. */
GFile           *sl_window_get_file       (SlWindow       *self);
/* (nullable) (transfer none): the view state of the profile shown. */
SlSession       *sl_window_get_session    (SlWindow       *self);
/* (nullable) (transfer none): the load in progress. */
SlProfileLoader *sl_window_get_loader     (SlWindow       *self);
void             sl_window_refresh_recent (SlWindow       *self);

G_END_DECLS
