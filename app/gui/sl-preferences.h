/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-preferences.h: the Preferences window (app.preferences, Ctrl+,). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_PREFERENCES (sl_preferences_get_type ())
G_DECLARE_FINAL_TYPE (SlPreferences, sl_preferences, SL, PREFERENCES, GtkWindow)

/* Edits @settings (io.github.sightline.Sightline) directly: every change
 * is saved at once, as GNOME's preferences are. */
GtkWidget *sl_preferences_new (GtkWindow *parent,
                               GSettings *settings);

G_END_DECLS
