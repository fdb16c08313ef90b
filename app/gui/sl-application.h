/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-application.h: the Sightline GtkApplication. */
#pragma once

#include <gtk/gtk.h>


G_BEGIN_DECLS

#define SL_TYPE_APPLICATION (sl_application_get_type ())
G_DECLARE_FINAL_TYPE (SlApplication, sl_application, SL, APPLICATION, GtkApplication)

SlApplication *sl_application_new        (void);
/* Shows @file: presents the window that already has it, else loads it into
 * @hint (a SlWindow, nullable) when that window is empty, else into a new
 * window. */
void           sl_application_open_file  (SlApplication *self,
                                          GFile         *file,
                                          GtkWindow     *hint);
/* Path of the sample profile, NULL when it is not installed. */
char          *sl_application_sample_path (void);

G_END_DECLS
