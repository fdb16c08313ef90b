/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare-window.h: profiles side by side (File → Compare With…,
 * `sightline --compare A B [C…]`): step times, categories, the kernel
 * diff, iteration strips and two timelines with linked zoom and pan. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_COMPARE_WINDOW (sl_compare_window_get_type ())
G_DECLARE_FINAL_TYPE (SlCompareWindow, sl_compare_window, SL, COMPARE_WINDOW, GtkApplicationWindow)

/* A window comparing @files (@n_files; the first is A), loading them at
 * once; fewer than two say so in the window. */
SlCompareWindow *sl_compare_window_new (GtkApplication *app,
                                        GFile         **files,
                                        guint           n_files);

G_END_DECLS
