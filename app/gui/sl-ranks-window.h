/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks-window.h: several profiles of one job (one per rank) in one
 * window: their timelines stacked on one job clock under a header per
 * rank, and the rank x iteration heat map above them. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_RANKS_WINDOW (sl_ranks_window_get_type ())
G_DECLARE_FINAL_TYPE (SlRanksWindow, sl_ranks_window, SL, RANKS_WINDOW, GtkApplicationWindow)

/* A window over @paths: profiles (loaded two at a time), rank summary
 * files and folders of them (*.json; their profiles loaded on demand). */
SlRanksWindow *sl_ranks_window_new (GtkApplication     *app,
                                    const char * const *paths);

G_END_DECLS
