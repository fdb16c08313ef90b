/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-settings.h: the application's GSettings (io.github.sightline.Sightline)
 * and what applies them: theme, remembered window size, cache limit. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The shared settings, or NULL when the schema is neither installed nor in
 * the build tree: every caller then keeps its built-in defaults.
 * (transfer none) (nullable) */
GSettings *sl_settings_get            (void);
/* Follows "theme" for the whole application, now and on each change. */
void       sl_settings_apply_theme    (void);
/* The profile cache reads SIGHTLINE_CACHE_SIZE: the environment wins,
 * otherwise "cache-size-mb" sets it (call before any thread starts). */
void       sl_settings_apply_cache_limit (void);
/* Sizes @window as last time and remembers its size when it closes. */
void       sl_settings_track_window   (GtkWindow *window);

/* Saves @window's size and maximized state now (when it closes, or the
 * application quits with it open). */
void       sl_settings_save_window    (GtkWindow *window);
/* The window's "absolute-time" action follows "time-display". */
void       sl_settings_track_time_display (GAction *absolute);

G_END_DECLS
