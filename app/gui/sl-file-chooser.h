/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-file-chooser.h: the Open dialog, in one place so that moving to
 * the file dialog of GTK 4.10 later is one change. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Called with the chosen file, or NULL when the user cancelled. */
typedef void (*SlFileChosenFunc) (GFile *file, gpointer user_data);

void sl_file_chooser_open (GtkWindow        *parent,
                           SlFileChosenFunc  callback,
                           gpointer          user_data);

/* Called with the chosen files (GFile; empty when the user cancelled). */
typedef void (*SlFilesChosenFunc) (GPtrArray *files, gpointer user_data);

/* The Open dialog choosing one or more profiles, titled @title, its
 * button labelled @accept (Compare With…, Open Ranks…). */
void sl_file_chooser_open_many (GtkWindow         *parent,
                                const char        *title,
                                const char        *accept,
                                SlFilesChosenFunc  callback,
                                gpointer           user_data);
/* Where to save: a file (asking before replacing one, where the platform's
 * chooser does) or, with @folder, a folder; starts at @initial (nullable). */
void sl_file_chooser_save (GtkWindow        *parent,
                           const char       *title,
                           const char       *initial,
                           gboolean          folder,
                           SlFileChosenFunc  callback,
                           gpointer          user_data);

/* A folder chooser titled @title (Open Rank Summaries…): @callback gets
 * the folder, or NULL when the user cancelled. */
void sl_file_chooser_open_folder (GtkWindow        *parent,
                                  const char       *title,
                                  const char       *accept,
                                  SlFileChosenFunc  callback,
                                  gpointer          user_data);

G_END_DECLS
